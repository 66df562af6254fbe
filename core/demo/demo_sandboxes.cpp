#include "demo/demo_sandboxes.h"

#include <fmt/format.h>

#include <fstream>
#include <string_view>

namespace sb {

namespace {

constexpr std::int64_t kWeekMs = 7LL * 24 * 3600 * 1000;

const std::string_view kRulesV1 = R"(# Card-payment risk rules: CEL conditions over a transaction record (README, "Rules")
name: card-risk
version: 1
strategy: first_match
default: {decision: allow, score: 0}
fields:
  amount: double
  card_country: string
  merchant_country: string
  merchant: string
  account_age_days: int
  tx_last_hour: int
rules:
  - id: large-amount
    when: amount > 5000.0
    decision: review
    score: 40
  - id: foreign-card
    when: card_country != merchant_country
    decision: review
    score: 25
  - id: known-bad-merchant
    when: merchant in ["m-0666", "m-1313"]
    decision: decline
    score: 90
)";

const std::string_view kRulesV2 = R"(# Card-payment risk rules: CEL conditions over a transaction record (README, "Rules")
name: card-risk
version: 2
strategy: first_match
default: {decision: allow, score: 0}
fields:
  amount: double
  card_country: string
  merchant_country: string
  merchant: string
  account_age_days: int
  tx_last_hour: int
rules:
  - id: large-amount
    when: amount > 2500.0 && account_age_days < 90
    decision: review
    score: 45
  - id: foreign-card
    when: card_country != merchant_country
    decision: review
    score: 25
  - id: known-bad-merchant
    when: merchant in ["m-0666", "m-1313"]
    decision: decline
    score: 90
  - id: velocity
    when: tx_last_hour >= 5
    decision: review
    score: 35
)";

const std::string_view kData = R"(id,amount,card_country,merchant_country,merchant,account_age_days,tx_last_hour
t-001,120.50,DE,DE,m-0042,812,1
t-002,7300.00,DE,DE,m-0042,35,1
t-003,49.99,FR,DE,m-0101,400,2
t-004,3100.00,DE,DE,m-0666,12,6
)";

const std::string_view kMoreData = R"(t-005,15.00,DE,DE,m-0007,1500,1
t-006,2600.00,US,DE,m-1313,60,7
)";

const std::string_view kReadme = R"(# demo-rules

A sandbox made by Sandbench's demo: a rule set and a data sample to try changes on.
Nothing here reaches `main` except through a promotion.
)";

Result<void> writeFile(const std::filesystem::path& path, std::string_view content)
{
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out)
        return fail(fmt::format("cannot write {}", path.string()));
    return {};
}

// A few bytes with NULs in them: what a diff calls "binary differs".
std::string binaryBlob(unsigned char seed)
{
    std::string bytes;
    for (int i = 0; i < 256; ++i)
        bytes.push_back(static_cast<char>((i * 31 + seed) & 0xff));
    bytes[7] = '\0';
    return bytes;
}

} // namespace

Result<void> destroyEarlierDemoSandboxes(SandboxEngine& engine, std::initializer_list<std::string_view> names)
{
    for (std::string_view name : names) {
        auto existing = engine.sandboxes();
        if (!existing)
            return std::unexpected(existing.error());
        for (const auto& sandbox : *existing) {
            if (sandbox.name == name) {
                if (auto destroyed = engine.destroySandbox(name); !destroyed)
                    return std::unexpected(destroyed.error());
            }
        }
    }
    return {};
}

Result<DemoSandboxes> seedDemoSandboxes(SandboxEngine& engine, const ProgressCallback& progress)
{
    DemoSandboxes result;
    // A fork goes first: it was made from the other.
    if (auto destroyed = destroyEarlierDemoSandboxes(engine, {kDemoFork, kDemoSandbox}); !destroyed)
        return std::unexpected(destroyed.error());

    CreateSandboxRequest create;
    create.name = std::string(kDemoSandbox);
    create.expiresInMs = kWeekMs;
    auto made = engine.createSandbox(create, progress);
    if (!made)
        return std::unexpected(made.error());
    const std::filesystem::path workspace = made->sandbox.workspace;
    ++result.checkpoints;

    auto step = [&](const std::string& label, const std::string& message) -> Result<std::string> {
        auto checkpoint = engine.checkpoint(CheckpointRequest{std::string(kDemoSandbox), label, message, {}}, progress);
        if (!checkpoint)
            return std::unexpected(checkpoint.error());
        ++result.checkpoints;
        return checkpoint->checkpoint.id;
    };

    for (const auto& [path, content] : {std::pair{"rules/card-risk.yaml", std::string(kRulesV1)},
                                        std::pair{"data/transactions.csv", std::string(kData)},
                                        std::pair{"README.md", std::string(kReadme)},
                                        std::pair{"assets/model.bin", binaryBlob(1)}}) {
        if (auto ok = writeFile(workspace / path, content); !ok)
            return std::unexpected(ok.error());
    }
    auto baseline = step("baseline", "the rule set and a data sample as received");
    if (!baseline)
        return std::unexpected(baseline.error());

    if (auto ok = writeFile(workspace / "rules/card-risk.yaml", kRulesV2); !ok)
        return std::unexpected(ok.error());
    if (auto ok = writeFile(workspace / "assets/model.bin", binaryBlob(2)); !ok)
        return std::unexpected(ok.error());
    auto tightened = step("tighten amount rule, add velocity", "large-amount only for young accounts");
    if (!tightened)
        return std::unexpected(tightened.error());

    if (auto ok = writeFile(workspace / "data/transactions.csv", std::string(kData) + std::string(kMoreData)); !ok)
        return std::unexpected(ok.error());
    std::error_code ec;
    std::filesystem::remove(workspace / "README.md", ec);
    if (auto ok = writeFile(workspace / "notes/backtest.md", "impact rate 18% -> 24% on the sample\n"); !ok)
        return std::unexpected(ok.error());
    auto moreData = step("more data", "two labelled transactions added");
    if (!moreData)
        return std::unexpected(moreData.error());

    // The fork: a stricter variant, from the tightened rules.
    auto forked = engine.fork(*tightened, kDemoFork, progress);
    if (!forked)
        return std::unexpected(forked.error());
    ++result.checkpoints;
    std::string strict(kRulesV2);
    if (const auto at = strict.find("tx_last_hour >= 5"); at != std::string::npos)
        strict.replace(at, 17, "tx_last_hour >= 3");
    if (auto ok = writeFile(forked->sandbox.workspace / "rules/card-risk.yaml", strict); !ok)
        return std::unexpected(ok.error());
    auto strictCheckpoint =
        engine.checkpoint(CheckpointRequest{std::string(kDemoFork), "velocity 3 per hour", "variant B", {}}, progress);
    if (!strictCheckpoint)
        return std::unexpected(strictCheckpoint.error());
    ++result.checkpoints;

    // An unsaved change, so the diff against the live workspace has something to show.
    std::string unsaved(kRulesV2);
    if (const auto at = unsaved.find("score: 90"); at != std::string::npos)
        unsaved.replace(at, 9, "score: 95");
    if (auto ok = writeFile(workspace / "rules/card-risk.yaml", unsaved); !ok)
        return std::unexpected(ok.error());

    result.sandboxes = {std::string(kDemoSandbox), std::string(kDemoFork)};
    return result;
}

} // namespace sb
