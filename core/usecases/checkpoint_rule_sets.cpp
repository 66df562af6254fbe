#include "usecases/checkpoint_rule_sets.h"

#include "util/input_file.h"

#include <filesystem>
#include <optional>

namespace sb {

namespace {

// One side of a changed file as text, when it is a rule set: from the store, or from the live workspace.
std::unique_ptr<rules::ParsedRuleSet> ruleSetSide(SandboxEngine& engine, const std::optional<TreeEntry>& entry,
                                                  const std::string& path, const std::filesystem::path& live)
{
    if (!entry || entry->type != EntryType::File || entry->size > input::kRuleSet.maxBytes)
        return nullptr;
    auto read = live.empty() ? engine.readFile(*entry, input::kRuleSet.maxBytes)
                             : readInputFile(live / path, input::kRuleSet);
    if (!read)
        return nullptr;
    const std::string text = std::move(*read);
    if (!rules::looksLikeRuleSet(path, text))
        return nullptr;
    return std::make_unique<rules::ParsedRuleSet>(rules::parseRuleSet(text, path));
}

} // namespace

std::map<std::string, RuleSetFileDiff> checkpointRuleSetDiffs(SandboxEngine& engine, const DiffResult& diff)
{
    std::map<std::string, RuleSetFileDiff> out;
    std::filesystem::path live;
    if (diff.to == "workspace" && !diff.sandbox.empty()) {
        if (auto sandbox = engine.sandbox(diff.sandbox))
            live = sandbox->workspace;
    }
    for (const auto& file : diff.files) {
        const auto& path = file.change.path;
        if (!path.ends_with(".yaml") && !path.ends_with(".yml"))
            continue;
        RuleSetFileDiff d;
        d.before = ruleSetSide(engine, file.change.before, path, {});
        d.after = ruleSetSide(engine, file.change.after, path, live);
        if (!d.before && !d.after)
            continue;
        d.diff = rules::diffRuleSets(d.before ? &d.before->ruleSet : nullptr, d.after ? &d.after->ruleSet : nullptr);
        out.emplace(path, std::move(d));
    }
    return out;
}

} // namespace sb
