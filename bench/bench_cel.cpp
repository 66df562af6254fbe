// Rule evaluation throughput of the CEL engine (core/rules/cel): records × rules per second on a synthetic
// card-transaction dataset with 20 fraud rules of the kind analysts write (thresholds, country lists,
// string tests, a regular expression, timestamp accessors). Measured on one thread and on every core,
// each thread evaluating its share of the records with its own EvalContext: the interpreter record by
// record (Program::eval), then the batch evaluator (cel/batch.h) over the same records held as columns,
// 512 at a time, with the interpreter for the records a batch defers, as rules::evaluate() runs them. A report, not a test: the
// side-by-side comparison with the JavaScript CEL engines that PRODUCT.md asks for comes with the rule
// sets and datasets; this is the engine's own figure.
//
//   bench_cel [RECORDS=1000000] [ROUNDS=3]

#include "cel/batch.h"
#include "cel/program.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace cel = sb::cel;

namespace {

const char* const kRules[] = {
    "amount > 5000.0",
    "amount > 1000.0 && !card_present",
    "country != ip_country && amount > 200.0",
    "country in ['NG', 'RU', 'KP', 'IR', 'VE', 'BY', 'SY']",
    "txn_count_24h > 10",
    "hour < 5 && amount > 500.0",
    "email_domain.endsWith('.ru') || email_domain in ['mailinator.com', 'guerrillamail.com']",
    "merchant_category == 'gambling' && amount > 100.0",
    "customer_age_days < 7 && amount > 300.0",
    "merchant_category in ['crypto', 'gift_cards'] && customer_age_days < 30",
    "amount > 50.0 && amount < 51.0",
    "!card_present && txn_count_24h > 5 && country != 'US'",
    "email_domain.matches('^[0-9]+[.]')",
    "ts.getHours() >= 1 && ts.getHours() <= 4",
    "amount * 1.2 > 3000.0 && currency != 'USD'",
    "(amount > 2000.0 || txn_count_24h > 20) && customer_age_days < 90",
    "currency == 'EUR' && country == 'US'",
    "size(email_domain) > 20",
    "hour >= 22 && merchant_category == 'electronics' && amount > 800.0",
    "ip_country in ['NG', 'RU'] && card_present == false",
};

struct Dataset {
    std::vector<std::string> strings; // storage the records' string values view
    std::vector<cel::Value> values;   // records × fields, row-major
    std::size_t fields = 0;
    std::size_t records = 0;
};

Dataset generate(std::size_t records, const cel::Declarations& decls)
{
    Dataset d;
    d.fields = decls.size();
    d.records = records;
    d.strings = {"US",
                 "FR",
                 "DE",
                 "GB",
                 "NG",
                 "RU",
                 "BR",
                 "IN",
                 "CA",
                 "VE", // 0..9
                 "USD",
                 "EUR",
                 "GBP", // 10..12
                 "grocery",
                 "electronics",
                 "gambling",
                 "crypto",
                 "travel",
                 "gift_cards",
                 "fuel", // 13..19
                 "gmail.com",
                 "yahoo.com",
                 "mail.ru",
                 "mailinator.com",
                 "123.example.com",
                 "corp.example.org",
                 "a-very-long-subdomain.example-company.com"}; // 20..26
    std::mt19937_64 rng(20241129);
    auto pick = [&](std::size_t from, std::size_t to) { return from + rng() % (to - from); };
    d.values.reserve(records * d.fields);
    for (std::size_t r = 0; r < records; ++r) {
        const double amount = std::exp(std::normal_distribution<double>(4.0, 1.5)(rng));
        const std::int64_t ts = 1700000000 + static_cast<std::int64_t>(rng() % 31536000);
        d.values.push_back(cel::Value::real(amount));                                        // amount
        d.values.push_back(cel::Value::string(d.strings[pick(10, 13)]));                     // currency
        d.values.push_back(cel::Value::string(d.strings[rng() % 4 == 0 ? pick(0, 10) : 0])); // country
        d.values.push_back(cel::Value::string(d.strings[rng() % 8 == 0 ? pick(0, 10) : 0])); // ip_country
        d.values.push_back(cel::Value::string(d.strings[pick(13, 20)]));                     // merchant_category
        d.values.push_back(cel::Value::boolean(rng() % 3 != 0));                             // card_present
        d.values.push_back(cel::Value::integer(static_cast<std::int64_t>(pick(0, 24))));     // hour
        d.values.push_back(cel::Value::integer(static_cast<std::int64_t>(pick(0, 3000))));   // customer_age_days
        d.values.push_back(cel::Value::integer(static_cast<std::int64_t>(pick(0, 25))));     // txn_count_24h
        d.values.push_back(cel::Value::string(d.strings[pick(20, 27)]));                     // email_domain
        d.values.push_back(cel::Value::timestamp(ts, 0));                                    // ts
    }
    return d;
}

// Evaluates every rule on records [from, to); returns how many (record, rule) pairs matched.
std::size_t evaluate(const std::vector<cel::Program>& rules, const Dataset& d, std::size_t from, std::size_t to)
{
    cel::EvalContext ctx;
    std::size_t hits = 0;
    for (std::size_t r = from; r < to; ++r) {
        const cel::Activation record{std::span<const cel::Value>(d.values.data() + r * d.fields, d.fields)};
        for (const auto& rule : rules)
            hits += rule.eval(record, ctx).isTrue() ? 1 : 0;
    }
    return hits;
}

// The same records as columns, for the batch evaluator.
struct Columns {
    std::vector<std::vector<cel::Value>> values; // by field
    std::vector<const cel::Value*> bySlot;
};

Columns transpose(const Dataset& d)
{
    Columns c;
    c.values.assign(d.fields, std::vector<cel::Value>(d.records));
    for (std::size_t r = 0; r < d.records; ++r) {
        for (std::size_t f = 0; f < d.fields; ++f)
            c.values[f][r] = d.values[r * d.fields + f];
    }
    for (const auto& column : c.values)
        c.bySlot.push_back(column.data());
    return c;
}

struct Batched {
    const std::vector<cel::Program>& rules;
    const std::vector<std::optional<cel::BatchProgram>>& batches;
    const Columns& columns;
};

// evaluate() with the batch evaluator: the deferred records (and rules outside its subset) through the
// interpreter.
std::size_t evaluateBatched(const Batched& b, const Dataset& d, std::size_t from, std::size_t to)
{
    cel::EvalContext ctx;
    cel::BatchScratch scratch;
    std::uint8_t out[cel::kBatchRows];
    std::size_t hits = 0;
    for (std::size_t base = from; base < to; base += cel::kBatchRows) {
        const std::size_t rows = std::min(cel::kBatchRows, to - base);
        for (std::size_t k = 0; k < b.rules.size(); ++k) {
            if (b.batches[k])
                b.batches[k]->eval(b.columns.bySlot, base, rows, scratch, out);
            else
                std::fill_n(out, rows, cel::kBatchDefer);
            for (std::size_t i = 0; i < rows; ++i) {
                if (out[i] == cel::kBatchDefer) {
                    const std::size_t r = base + i;
                    const cel::Activation record{std::span<const cel::Value>(d.values.data() + r * d.fields, d.fields)};
                    hits += b.rules[k].eval(record, ctx).isTrue() ? 1 : 0;
                } else {
                    hits += out[i] == cel::kBatchTrue ? 1 : 0;
                }
            }
        }
    }
    return hits;
}

// CPU time of the calling thread: on a shared machine wall time also counts the other processes' turns.
double threadCpuSeconds()
{
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Records [0, d.records) through `eval(from, to)` (which returns the matches) on `threads` threads.
template <typename Eval>
double run(const Eval& eval, const Dataset& d, unsigned threads, std::size_t& hits, double* cpuSeconds = nullptr)
{
    if (threads == 1 && cpuSeconds) {
        const double cpuStart = threadCpuSeconds();
        const auto start = std::chrono::steady_clock::now();
        hits = eval(0, d.records);
        *cpuSeconds = threadCpuSeconds() - cpuStart;
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::size_t> counts(threads, 0);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        const std::size_t from = d.records * t / threads, to = d.records * (t + 1) / threads;
        pool.emplace_back([&, t, from, to] { counts[t] = eval(from, to); });
    }
    for (auto& th : pool)
        th.join();
    hits = 0;
    for (auto c : counts)
        hits += c;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv)
{
    const std::size_t records = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;

    cel::Declarations decls;
    for (auto [name, type] : {std::pair{"amount", cel::Type::real()},
                              {"currency", cel::Type::string()},
                              {"country", cel::Type::string()},
                              {"ip_country", cel::Type::string()},
                              {"merchant_category", cel::Type::string()},
                              {"card_present", cel::Type::boolean()},
                              {"hour", cel::Type::integer()},
                              {"customer_age_days", cel::Type::integer()},
                              {"txn_count_24h", cel::Type::integer()},
                              {"email_domain", cel::Type::string()},
                              {"ts", cel::Type::timestamp()}}) {
        if (!decls.add(name, type))
            return 2;
    }
    std::vector<cel::Program> rules;
    std::size_t instructions = 0;
    for (const char* source : kRules) {
        auto program = cel::compile(source, decls);
        if (!program) {
            std::fprintf(stderr, "rule does not compile: %s\n%s\n", source, program.error().message().c_str());
            return 2;
        }
        instructions += program->instructionCount();
        rules.push_back(std::move(*program));
    }
    const Dataset data = generate(records, decls);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::printf("bench_cel: %zu records x %zu rules (%zu instructions in all), %d rounds, best of each\n", records,
                rules.size(), instructions, rounds);

    const Columns columns = transpose(data);
    std::vector<std::optional<cel::BatchProgram>> batches;
    std::size_t batched = 0;
    for (const auto& rule : rules) {
        batches.push_back(cel::BatchProgram::build(rule, decls));
        batched += batches.back() ? 1 : 0;
    }
    const auto interpreter = [&](std::size_t from, std::size_t to) { return evaluate(rules, data, from, to); };
    const Batched b{rules, batches, columns};
    const auto batch = [&](std::size_t from, std::size_t to) { return evaluateBatched(b, data, from, to); };

    struct Figures {
        double best1 = 1e30, bestN = 1e30, bestCpu = 1e30;
        std::size_t hits1 = 0, hitsN = 0;
    };
    Figures fi, fb;
    for (int i = 0; i < rounds; ++i) {
        double cpu = 0;
        fi.best1 = std::min(fi.best1, run(interpreter, data, 1, fi.hits1, &cpu));
        fi.bestCpu = std::min(fi.bestCpu, cpu);
        fi.bestN = std::min(fi.bestN, run(interpreter, data, cores, fi.hitsN));
        fb.best1 = std::min(fb.best1, run(batch, data, 1, fb.hits1, &cpu));
        fb.bestCpu = std::min(fb.bestCpu, cpu);
        fb.bestN = std::min(fb.bestN, run(batch, data, cores, fb.hitsN));
    }
    const double pairs = static_cast<double>(records) * static_cast<double>(rules.size());
    for (const auto& [name, f] : {std::pair<const char*, const Figures&>{"interpreter", fi}, {"batches", fb}}) {
        std::printf("  %s:\n", name);
        std::printf("    1 thread : %8.3f s  %12.0f records x rules / s  (%.1f ns per rule; CPU time %.1f ns per "
                    "rule, %.0f per s)\n",
                    f.best1, pairs / f.best1, f.best1 / pairs * 1e9, f.bestCpu / pairs * 1e9, pairs / f.bestCpu);
        std::printf("    %u threads: %8.3f s  %12.0f records x rules / s  (matches: %zu, %.2f%%)\n", cores, f.bestN,
                    pairs / f.bestN, f.hitsN, 100.0 * static_cast<double>(f.hitsN) / pairs);
    }
    std::printf("  (%zu of %zu rules in the batch evaluator's subset)\n", batched, rules.size());
    if (std::getenv("BENCH_CEL_PER_RULE")) {
        // Where the time goes: each rule alone, one thread.
        for (std::size_t i = 0; i < rules.size(); ++i) {
            const std::vector<cel::Program> one{rules[i]};
            const std::vector<std::optional<cel::BatchProgram>> oneBatch{batches[i]};
            const Batched ob{one, oneBatch, columns};
            std::size_t h = 0;
            const double s = run([&](std::size_t from, std::size_t to) { return evaluate(one, data, from, to); },
                                 data, 1, h);
            const double sb =
                run([&](std::size_t from, std::size_t to) { return evaluateBatched(ob, data, from, to); }, data, 1, h);
            std::printf("  %6.1f ns  %6.1f ns batched  %s\n", s / static_cast<double>(records) * 1e9,
                        sb / static_cast<double>(records) * 1e9, kRules[i]);
        }
    }
    if (fi.hits1 != fi.hitsN || fb.hits1 != fi.hits1 || fb.hitsN != fi.hits1) {
        std::fprintf(stderr, "match counts disagree: %zu, %zu (interpreter), %zu, %zu (batches)\n", fi.hits1,
                     fi.hitsN, fb.hits1, fb.hitsN);
        return 1;
    }
    std::printf("{\"bench\":\"cel\",\"records\":%zu,\"rules\":%zu,\"threads\":%u,\"pairs_per_s_1\":%.0f,"
                "\"pairs_per_s_n\":%.0f,\"ns_per_rule_1\":%.2f,\"cpu_ns_per_rule_1\":%.2f,"
                "\"batch_pairs_per_s_1\":%.0f,\"batch_pairs_per_s_n\":%.0f,\"batch_cpu_ns_per_rule_1\":%.2f}\n",
                records, rules.size(), cores, pairs / fi.best1, pairs / fi.bestN, fi.best1 / pairs * 1e9,
                fi.bestCpu / pairs * 1e9, pairs / fb.best1, pairs / fb.bestN, fb.bestCpu / pairs * 1e9);
    return 0;
}
