#include "rules/ruleset_diff.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>

namespace sb::rules {

bool looksLikeRuleSet(std::string_view path, std::string_view text)
{
    if (!path.ends_with(".yaml") && !path.ends_with(".yml"))
        return false;
    try {
        const YAML::Node root = YAML::Load(std::string(text));
        return root.IsMap() && root["rules"] && root["rules"].IsSequence();
    } catch (const YAML::Exception&) {
        return text.starts_with("rules:") || text.find("\nrules:") != std::string_view::npos;
    }
}

std::string_view toString(RuleChange::Kind kind)
{
    switch (kind) {
    case RuleChange::Kind::Added: return "added";
    case RuleChange::Kind::Removed: return "removed";
    case RuleChange::Kind::Changed: return "changed";
    }
    return "changed";
}

namespace {

std::vector<std::string> changedFields(const Rule& a, const Rule& b)
{
    std::vector<std::string> out;
    if (a.when != b.when)
        out.emplace_back("condition");
    if (a.decision != b.decision)
        out.emplace_back("decision");
    if (a.score != b.score)
        out.emplace_back("score");
    if (a.enabled != b.enabled)
        out.emplace_back("enabled");
    if (a.description != b.description)
        out.emplace_back("description");
    if (a.tags != b.tags)
        out.emplace_back("tags");
    return out;
}

bool sameFields(const RuleSet& a, const RuleSet& b)
{
    if (a.fields.size() != b.fields.size())
        return false;
    for (std::size_t i = 0; i < a.fields.size(); ++i) {
        if (a.fields[i].field.name != b.fields[i].field.name || a.fields[i].field.type != b.fields[i].field.type)
            return false;
    }
    return true;
}

} // namespace

RuleSetDiff diffRuleSets(const RuleSet* before, const RuleSet* after)
{
    RuleSetDiff out;
    static const RuleSet kNone;
    const RuleSet& a = before ? *before : kNone;
    const RuleSet& b = after ? *after : kNone;
    if (before && after) {
        if (a.name != b.name)
            out.settings.emplace_back("name");
        if (a.version != b.version)
            out.settings.emplace_back("version");
        if (a.strategy != b.strategy)
            out.settings.emplace_back("strategy");
        if (a.defaultDecision != b.defaultDecision || a.defaultScore != b.defaultScore)
            out.settings.emplace_back("default");
        if (!sameFields(a, b))
            out.settings.emplace_back("fields");
    }
    std::map<std::string, const Rule*> newById;
    for (const Rule& r : b.rules)
        newById.emplace(r.id, &r);
    std::map<std::string, const Rule*> oldById;
    std::vector<std::string> commonOld;
    for (const Rule& r : a.rules) {
        oldById.emplace(r.id, &r);
        const auto found = newById.find(r.id);
        if (found == newById.end()) {
            out.rules.push_back({RuleChange::Kind::Removed, r.id, {}, &r, nullptr});
            continue;
        }
        commonOld.push_back(r.id);
        if (auto fields = changedFields(r, *found->second); !fields.empty())
            out.rules.push_back({RuleChange::Kind::Changed, r.id, std::move(fields), &r, found->second});
    }
    std::vector<std::string> commonNew;
    for (const Rule& r : b.rules) {
        if (oldById.contains(r.id))
            commonNew.push_back(r.id);
        else
            out.rules.push_back({RuleChange::Kind::Added, r.id, {}, nullptr, &r});
    }
    out.reordered = commonOld != commonNew;
    return out;
}

} // namespace sb::rules
