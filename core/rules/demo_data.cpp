#include "rules/demo_data.h"

#include "cel/time.h"

#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <iterator>
#include <span>
#include <sstream>
#include <string_view>

namespace sb::rules {

namespace {

// xoshiro256** seeded through SplitMix64: small, fast, and the same everywhere.
class Random {
public:
    explicit Random(std::uint64_t seed)
    {
        for (auto& s : m_s) {
            seed += 0x9e3779b97f4a7c15ULL;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            s = z ^ (z >> 31);
        }
    }
    std::uint64_t next()
    {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }
    // Uniform in [0, n) (n small: the bias of the modulo is below 2^-40).
    std::uint64_t below(std::uint64_t n) { return next() % n; }
    std::int64_t between(std::int64_t lo, std::int64_t hi)
    {
        return lo + static_cast<std::int64_t>(below(hi - lo + 1));
    }
    // True with probability permille / 1000.
    bool chance(std::uint64_t permille) { return below(1000) < permille; }

    template <typename T> const T& pick(std::span<const std::pair<T, unsigned>> weighted)
    {
        unsigned total = 0;
        for (const auto& w : weighted)
            total += w.second;
        std::uint64_t r = below(total);
        for (const auto& w : weighted) {
            if (r < w.second)
                return w.first;
            r -= w.second;
        }
        return weighted.back().first;
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::array<std::uint64_t, 4> m_s{};
};

using Weighted = std::pair<std::string_view, unsigned>;

constexpr std::array<Weighted, 12> kCountries = {{{"US", 40},
                                                  {"GB", 12},
                                                  {"DE", 10},
                                                  {"FR", 9},
                                                  {"ES", 5},
                                                  {"IT", 5},
                                                  {"CA", 6},
                                                  {"NL", 4},
                                                  {"BR", 3},
                                                  {"IN", 3},
                                                  {"MX", 2},
                                                  {"AU", 1}}};
constexpr std::array<Weighted, 16> kFraudCountries = {{{"US", 18},
                                                       {"GB", 6},
                                                       {"DE", 4},
                                                       {"FR", 4},
                                                       {"NG", 12},
                                                       {"RU", 10},
                                                       {"RO", 6},
                                                       {"BR", 6},
                                                       {"IN", 5},
                                                       {"VN", 6},
                                                       {"UA", 5},
                                                       {"ID", 5},
                                                       {"CN", 4},
                                                       {"MX", 3},
                                                       {"PH", 3},
                                                       {"CA", 3}}};
constexpr std::array<Weighted, 10> kCategories = {{{"grocery", 24},
                                                   {"restaurants", 18},
                                                   {"fuel", 12},
                                                   {"fashion", 10},
                                                   {"travel", 7},
                                                   {"electronics", 8},
                                                   {"digital_goods", 8},
                                                   {"gift_cards", 2},
                                                   {"gambling", 2},
                                                   {"crypto", 1}}};
constexpr std::array<Weighted, 10> kFraudCategories = {{{"grocery", 4},
                                                        {"restaurants", 3},
                                                        {"fuel", 2},
                                                        {"fashion", 8},
                                                        {"travel", 10},
                                                        {"electronics", 22},
                                                        {"digital_goods", 16},
                                                        {"gift_cards", 15},
                                                        {"gambling", 8},
                                                        {"crypto", 12}}};
constexpr std::array<Weighted, 9> kDomains = {{{"gmail.com", 40},
                                               {"yahoo.com", 12},
                                               {"outlook.com", 14},
                                               {"icloud.com", 12},
                                               {"proton.me", 3},
                                               {"web.de", 5},
                                               {"orange.fr", 5},
                                               {"acme-corp.com", 8},
                                               {"mailinator.com", 1}}};
constexpr std::array<Weighted, 9> kFraudDomains = {{{"gmail.com", 30},
                                                    {"yahoo.com", 8},
                                                    {"outlook.com", 8},
                                                    {"icloud.com", 3},
                                                    {"proton.me", 12},
                                                    {"mailinator.com", 14},
                                                    {"guerrillamail.com", 10},
                                                    {"tempmail.dev", 10},
                                                    {"yandex.ru", 5}}};

// Amount buckets in cents (low, high) with weights for legitimate and fraudulent transactions.
struct Bucket {
    std::int64_t low, high;
    unsigned legit, fraud;
};
constexpr std::array<Bucket, 8> kAmounts = {{{100, 2000, 30, 6},
                                             {2000, 6000, 30, 8},
                                             {6000, 15000, 20, 12},
                                             {15000, 40000, 11, 18},
                                             {40000, 100000, 6, 22},
                                             {100000, 300000, 2, 20},
                                             {300000, 900000, 1, 10},
                                             {900000, 2000000, 0, 4}}};

std::string_view currencyOf(std::string_view country)
{
    if (country == "US")
        return "USD";
    if (country == "GB")
        return "GBP";
    if (country == "DE" || country == "FR" || country == "ES" || country == "IT" || country == "NL")
        return "EUR";
    if (country == "CA")
        return "CAD";
    if (country == "BR")
        return "BRL";
    if (country == "IN")
        return "INR";
    if (country == "MX")
        return "MXN";
    if (country == "AU")
        return "AUD";
    return "USD";
}

constexpr std::int64_t kStart = 1714521600; // 2024-05-01T00:00:00Z
constexpr std::int64_t kDays = 30;

void writeRow(std::string& out, Random& rng, std::uint64_t index, std::uint64_t rows)
{
    const bool fraud = rng.chance(25);
    // Fraud shows some of its signs, not all: each sign is drawn on its own.
    auto sign = [&](std::uint64_t fraudPermille, std::uint64_t legitPermille) {
        return rng.chance(fraud ? fraudPermille : legitPermille);
    };

    const std::int64_t day = static_cast<std::int64_t>(index * kDays / (rows ? rows : 1));
    std::int64_t hour = 0;
    if (sign(450, 40))
        hour = rng.between(0, 5); // the small hours
    else
        hour = rng.between(7, 23);
    const std::int64_t minute = rng.between(0, 59); // one draw per statement: the order is fixed
    const std::int64_t second = rng.between(0, 59);
    const std::int64_t created = kStart + day * 86400 + hour * 3600 + minute * 60 + second;

    std::int64_t cents = 0;
    {
        unsigned total = 0;
        for (const auto& b : kAmounts)
            total += fraud ? b.fraud : b.legit;
        std::uint64_t r = rng.below(total);
        for (const auto& b : kAmounts) {
            const unsigned w = fraud ? b.fraud : b.legit;
            if (r < w) {
                cents = rng.between(b.low, b.high - 1);
                break;
            }
            r -= w;
        }
    }

    const std::string_view country =
        sign(550, 0) ? rng.pick<std::string_view>(kFraudCountries) : rng.pick<std::string_view>(kCountries);
    const std::string_view cardCountry =
        sign(500, 60) ? rng.pick<std::string_view>(fraud ? std::span<const Weighted>(kFraudCountries)
                                                         : std::span<const Weighted>(kCountries))
                      : country;
    const std::string_view ipCountry =
        sign(450, 50) ? rng.pick<std::string_view>(kFraudCountries) : (rng.chance(900) ? cardCountry : country);
    const std::string_view category =
        sign(600, 0) ? rng.pick<std::string_view>(kFraudCategories) : rng.pick<std::string_view>(kCategories);
    std::string_view channel = "pos";
    if (sign(850, 450))
        channel = rng.chance(700) ? "web" : "app";
    const bool cardPresent = channel == "pos" && !sign(50, 5);
    const std::int64_t accountAge = sign(550, 60) ? rng.between(0, 30) : rng.between(31, 3650);
    const std::int64_t velocity = sign(500, 30) ? rng.between(6, 40) : rng.between(0, 5);
    const std::string_view domain =
        sign(500, 0) ? rng.pick<std::string_view>(kFraudDomains) : rng.pick<std::string_view>(kDomains);
    const bool deviceNew = sign(600, 50);

    fmt::format_to(std::back_inserter(out), "t{:07},{},{}.{:02},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", index + 1,
                   cel::formatTimestamp(created, 0), cents / 100, cents % 100, currencyOf(country), country,
                   cardCountry, ipCountry, category, channel, cardPresent, hour, accountAge, velocity, domain,
                   deviceNew, fraud);
}

} // namespace

void writeDemoTransactions(std::ostream& out, std::uint64_t rows, std::uint64_t seed)
{
    Random rng(seed);
    std::string buffer = "id,created,amount,currency,country,card_country,ip_country,merchant_category,channel,"
                         "card_present,hour,account_age_days,txn_count_24h,email_domain,device_new,is_fraud\n";
    for (std::uint64_t i = 0; i < rows; ++i) {
        writeRow(buffer, rng, i, rows);
        if (buffer.size() > (1u << 20)) {
            out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
            buffer.clear();
        }
    }
    out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

std::string demoTransactionsCsv(std::uint64_t rows, std::uint64_t seed)
{
    std::ostringstream out;
    writeDemoTransactions(out, rows, seed);
    return std::move(out).str();
}

std::string generatedRuleSetYaml(std::size_t rules)
{
    static constexpr std::array<std::string_view, 6> kCountries = {"US", "FR", "NG", "BR", "DE", "IN"};
    std::string out = "name: generated\nversion: 1\nstrategy: first_match\ndefault: {decision: allow, score: 0}\n"
                      "fields: {amount: double, country: string, hour: int}\nrules:\n";
    for (std::size_t i = 0; i < rules; ++i)
        fmt::format_to(std::back_inserter(out),
                       "- id: r{}\n  when: amount > {}.5 && country == '{}' && hour < {}\n  decision: {}\n  score: {}\n{}",
                       i, i % 20000, kCountries[i % kCountries.size()], i % 24, i % 2 ? "review" : "block", i % 100,
                       i % 10 == 9 ? "  enabled: false\n" : "");
    return out;
}

} // namespace sb::rules
