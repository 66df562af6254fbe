// Promotion's parts that need no engine: risk thresholds and grading, the policy compatibility check, the
// git-style patch and the report as JSON. The engine side (saving, merging, applying) is engine_promote.cpp.

#include "promotion/promote.h"

#include "isolation/policy.h"
#include "util/input_file.h"
#include "util/printable.h"
#include "util/utf8.h"
#include "checkpoints/path_filter.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace sb {

std::string_view toString(RiskLevel level)
{
    switch (level) {
    case RiskLevel::Low: return "low";
    case RiskLevel::Medium: return "medium";
    case RiskLevel::High: return "high";
    }
    return "?";
}

std::string_view toString(MergeSide side)
{
    return side == MergeSide::Source ? "source" : "target";
}

RiskRules RiskConfig::defaultHigh()
{
    RiskRules rules;
    rules.filesChanged = 50;
    rules.filesRemoved = 10;
    rules.policyChanged = true;
    rules.impactRate = 0.05;
    return rules;
}

RiskRules RiskConfig::defaultMedium()
{
    RiskRules rules;
    rules.filesChanged = 10;
    rules.linesChanged = 1000;
    rules.impactRate = 0.01;
    rules.binaryChanged = true;
    rules.ruleSetChanged = true;
    return rules;
}

namespace {

std::string at(const YAML::Node& node, std::string_view origin, std::string_view key)
{
    const auto mark = node.Mark();
    return mark.line >= 0 ? fmt::format("{}:{}:{}: {}", origin, mark.line + 1, mark.column + 1, key)
                          : fmt::format("{}: {}", origin, key);
}

Result<std::vector<std::string>> globs(const YAML::Node& node, std::string_view origin, std::string_view key)
{
    if (!node.IsSequence())
        return fail(at(node, origin, key) + ": expected a list of globs");
    std::vector<std::string> out;
    for (const auto& item : node) {
        if (!item.IsScalar())
            return fail(at(item, origin, key) + ": expected a glob");
        out.push_back(item.as<std::string>());
    }
    if (auto ok = PathFilter::make(out, {}); !ok)
        return fail(at(node, origin, key) + ": " + ok.error().message);
    return out;
}

Result<void> readRules(const YAML::Node& node, std::string_view origin, const std::string& level, RiskRules& rules)
{
    if (!node.IsMap())
        return fail(at(node, origin, level) + ": expected a map of rules");
    for (const auto& item : node) {
        const std::string key = item.first.as<std::string>();
        const YAML::Node& value = item.second;
        const std::string where = level + "." + key;
        auto count = [&](std::optional<std::uint64_t>& out) -> Result<void> {
            if (value.IsNull()) {
                out.reset();
                return {};
            }
            try {
                const auto n = value.as<long long>();
                if (n < 0)
                    return fail(at(value, origin, where) + ": expected a count (0 or more), or null to turn it off");
                out = static_cast<std::uint64_t>(n);
                return {};
            } catch (const YAML::Exception&) {
                return fail(at(value, origin, where) + ": expected a count (0 or more), or null to turn it off");
            }
        };
        Result<void> ok;
        if (key == "files_changed")
            ok = count(rules.filesChanged);
        else if (key == "files_removed")
            ok = count(rules.filesRemoved);
        else if (key == "lines_changed")
            ok = count(rules.linesChanged);
        else if (key == "bytes_changed")
            ok = count(rules.bytesChanged);
        else if (key == "impact_rate") {
            if (value.IsNull()) {
                rules.impactRate.reset();
            } else {
                try {
                    const double rate = value.as<double>();
                    if (!(rate >= 0 && rate <= 1))
                        ok = fail(at(value, origin, where) + ": expected a fraction from 0 to 1 (0.05 is 5 %), or null");
                    else
                        rules.impactRate = rate;
                } catch (const YAML::Exception&) {
                    ok = fail(at(value, origin, where) + ": expected a fraction from 0 to 1 (0.05 is 5 %), or null");
                }
            }
        } else if (key == "policy_changed" || key == "binary_changed" || key == "rule_set_changed") {
            bool& flag = key == "policy_changed"   ? rules.policyChanged
                         : key == "binary_changed" ? rules.binaryChanged
                                                   : rules.ruleSetChanged;
            try {
                flag = !value.IsNull() && value.as<bool>();
            } catch (const YAML::Exception&) {
                ok = fail(at(value, origin, where) + ": expected true or false");
            }
        } else if (key == "paths") {
            auto list = globs(value, origin, where);
            if (!list)
                ok = std::unexpected(list.error());
            else
                rules.paths = std::move(*list);
        } else {
            ok = fail(at(item.first, origin, where)
                      + ": unknown rule (files_changed, files_removed, lines_changed, bytes_changed, policy_changed, "
                        "binary_changed, rule_set_changed, impact_rate, paths)");
        }
        if (!ok)
            return ok;
    }
    return {};
}

bool matchesAny(const PathFilter& filter, bool empty, const std::string& path)
{
    return !empty && filter.takes(path);
}

std::uint64_t countLines(std::string_view text)
{
    std::uint64_t lines = 0;
    for (char c : text)
        lines += c == '\n' ? 1 : 0;
    if (!text.empty() && text.back() != '\n')
        ++lines;
    return lines;
}

std::string gitMode(const TreeEntry& entry)
{
    if (entry.type == EntryType::Symlink)
        return "120000";
    return (entry.mode & 0111) != 0 ? "100755" : "100644";
}

// As git writes a path in a patch: C-quoted when it holds anything but plain printable ASCII.
std::string gitPath(std::string_view prefix, std::string_view path)
{
    const std::string whole = std::string(prefix) + std::string(path);
    bool plain = true;
    for (unsigned char c : whole)
        plain = plain && c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    if (plain)
        return whole;
    std::string out = "\"";
    for (unsigned char c : whole) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        default:
            if (c < 0x20 || c >= 0x7f)
                out += fmt::format("\\{:03o}", c);
            else
                out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

nlohmann::json pathJson(const std::string& path)
{
    nlohmann::json out = {{"path", path}};
    if (!utf8::isPlainText(path)) {
        std::string hex;
        for (unsigned char c : path)
            hex += fmt::format("{:02x}", c);
        out["path_hex"] = hex;
    }
    return out;
}

} // namespace

Result<RiskConfig> RiskConfig::parse(std::string_view yaml, std::string_view origin)
{
    RiskConfig config;
    YAML::Node root;
    try {
        root = YAML::Load(std::string(yaml));
    } catch (const YAML::Exception& e) {
        return fail(fmt::format("{}:{}:{}: invalid YAML: {}", origin, e.mark.line + 1, e.mark.column + 1, e.msg));
    }
    if (root.IsNull())
        return config;
    if (!root.IsMap())
        return fail(fmt::format("{}: expected a map with a `promotion:` section", origin));
    const YAML::Node section = root["promotion"];
    if (!section || section.IsNull())
        return config;
    if (!section.IsMap())
        return fail(at(section, origin, "promotion") + ": expected a map");
    try {
        for (const auto& item : section) {
            const std::string key = item.first.as<std::string>();
            if (key == "high") {
                if (auto ok = readRules(item.second, origin, "promotion.high", config.high); !ok)
                    return std::unexpected(ok.error());
            } else if (key == "medium") {
                if (auto ok = readRules(item.second, origin, "promotion.medium", config.medium); !ok)
                    return std::unexpected(ok.error());
            } else if (key == "approval") {
                const std::string level = item.second.IsScalar() ? item.second.as<std::string>() : std::string();
                if (level == "low")
                    config.approval = RiskLevel::Low;
                else if (level == "medium")
                    config.approval = RiskLevel::Medium;
                else if (level == "high")
                    config.approval = RiskLevel::High;
                else
                    return fail(at(item.second, origin, "promotion.approval")
                                + ": expected the lowest risk level that needs an approval: low, medium or high");
            } else if (key == "policy_paths") {
                auto list = globs(item.second, origin, "promotion.policy_paths");
                if (!list)
                    return std::unexpected(list.error());
                config.policyPaths = std::move(*list);
            } else {
                return fail(at(item.first, origin, "promotion." + key)
                            + ": unknown key (high, medium, approval, policy_paths)");
            }
        }
    } catch (const YAML::Exception& e) {
        return fail(fmt::format("{}:{}:{}: {}", origin, e.mark.line + 1, e.mark.column + 1, e.msg));
    }
    return config;
}

Result<RiskConfig> RiskConfig::load(const std::filesystem::path& file)
{
    auto text = readInputText(file, input::kRiskConfig);
    if (!text)
        return std::unexpected(text.error());
    return parse(*text, file.string());
}

std::string toString(const RiskReason& reason)
{
    return fmt::format("{}: {}", toString(reason.level), reason.why.text());
}

nlohmann::json riskReasonsToJson(const std::vector<RiskReason>& reasons)
{
    nlohmann::json texts = nlohmann::json::array();
    for (const auto& reason : reasons)
        texts.push_back(toString(reason));
    return texts;
}

void gradeRisk(const RiskConfig& config, const std::vector<PromotionChange>& changes, const PromotionImpact& impact,
               const std::vector<RiskFinding>& extra, RiskLevel& level, std::vector<RiskReason>& reasons)
{
    level = RiskLevel::Low;
    reasons.clear();
    auto policies = PathFilter::make(config.policyPaths, {}).value_or(PathFilter{});
    bool policyChanged = false;
    std::string policyPath;
    for (const auto& c : changes) {
        if (!config.policyPaths.empty() && policies.takes(c.change.path)) {
            policyChanged = true;
            policyPath = c.change.path;
            break;
        }
    }
    // Binary files added or changed: a reviewer cannot read them as text.
    std::uint64_t binaries = 0;
    const PromotionChange* firstBinary = nullptr;
    for (const auto& c : changes) {
        if (c.binary && c.change.after && binaries++ == 0)
            firstBinary = &c;
    }
    auto binaryReason = [&]() {
        const std::string path = printable(firstBinary->change.path, 200);
        const std::string size = std::to_string(firstBinary->change.after->size);
        const bool added = firstBinary->change.kind == ChangeKind::Added;
        if (binaries == 1)
            return added ? Message(SB_TR("promotion risk",
                                         "binary file {} (added, {} bytes): it cannot be reviewed as text"),
                                   {path, size})
                         : Message(SB_TR("promotion risk",
                                         "binary file {} (changed, {} bytes): it cannot be reviewed as text"),
                                   {path, size});
        const std::string count = std::to_string(binaries);
        return added ? Message(SB_TR("promotion risk", "{} binary files added or changed, e.g. {} (added, {} bytes): "
                                                       "they cannot be reviewed as text"),
                               {count, path, size})
                     : Message(SB_TR("promotion risk", "{} binary files added or changed, e.g. {} (changed, {} bytes): "
                                                       "they cannot be reviewed as text"),
                               {count, path, size});
    };
    auto apply = [&](RiskLevel at, const RiskRules& rules) {
        bool any = false;
        auto add = [&](Message why) {
            reasons.push_back({at, std::move(why)});
            any = true;
        };
        auto over = [](std::uint64_t value, std::uint64_t limit) {
            return std::vector<std::string>{std::to_string(value), std::to_string(limit)};
        };
        if (rules.filesChanged && impact.files > *rules.filesChanged)
            add(Message(SB_TR("promotion risk", "{} files changed (more than {})"),
                        over(impact.files, *rules.filesChanged)));
        if (rules.filesRemoved && impact.removed > *rules.filesRemoved)
            add(Message(SB_TR("promotion risk", "{} files removed (more than {})"),
                        over(impact.removed, *rules.filesRemoved)));
        const std::uint64_t lines = impact.linesAdded + impact.linesRemoved;
        if (rules.linesChanged && lines > *rules.linesChanged)
            add(Message(SB_TR("promotion risk", "{} lines changed (more than {})"), over(lines, *rules.linesChanged)));
        const std::uint64_t bytes = impact.bytesAdded + impact.bytesRemoved;
        if (rules.bytesChanged && bytes > *rules.bytesChanged)
            add(Message(SB_TR("promotion risk", "{} bytes changed (more than {})"), over(bytes, *rules.bytesChanged)));
        if (rules.policyChanged && policyChanged)
            add(Message(SB_TR("promotion risk", "policy file {} changed"), {printable(policyPath, 200)}));
        if (rules.binaryChanged && binaries > 0)
            add(binaryReason());
        if (!rules.paths.empty()) {
            auto filter = PathFilter::make(rules.paths, {}).value_or(PathFilter{});
            for (const auto& c : changes) {
                if (matchesAny(filter, rules.paths.empty(), c.change.path)) {
                    add(Message(SB_TR("promotion risk", "{} changed (a watched path)"),
                                {printable(c.change.path, 200)}));
                    break;
                }
            }
        }
        if (any && level < at)
            level = at;
    };
    apply(RiskLevel::High, config.high);
    apply(RiskLevel::Medium, config.medium);
    for (const auto& finding : extra) {
        reasons.push_back({finding.level, finding.reason});
        if (level < finding.level)
            level = finding.level;
    }
}

bool approvalRequired(const RiskConfig& config, RiskLevel level)
{
    return level >= config.approval;
}

CompatibilityCheck policyCompatibilityCheck()
{
    return [](const PromotionSubject& subject) -> Result<std::vector<CompatibilityResult>> {
        std::vector<CompatibilityResult> results;
        if (!subject.config || subject.config->policyPaths.empty())
            return results;
        auto filter = PathFilter::make(subject.config->policyPaths, {});
        if (!filter)
            return std::unexpected(filter.error());
        auto files = subject.mergedFiles();
        if (!files)
            return std::unexpected(files.error());
        constexpr std::uint64_t kMaxPolicyBytes = 1 << 20;
        for (const auto& [path, entry] : *files) {
            if (entry.type == EntryType::Directory || !filter->takes(path))
                continue;
            CompatibilityResult result{"policy", path, true, {}};
            const std::string shown = printable(path, 200);
            if (entry.type == EntryType::Symlink) {
                result.ok = false;
                result.message = fmt::format("{}: a symlink (to {}), not followed: a policy must be a file", shown,
                                             printable(entry.data, 200));
            } else if (entry.size > kMaxPolicyBytes) {
                result.ok = false;
                result.message = fmt::format("{}: {} bytes, larger than a policy may be (1 MiB)", shown, entry.size);
            } else {
                auto text = subject.read(entry, kMaxPolicyBytes);
                if (!text)
                    return std::unexpected(text.error());
                auto policy = parsePolicy(*text, shown);
                if (!policy) {
                    result.ok = false;
                    result.message = policy.error().message;
                }
            }
            results.push_back(std::move(result));
        }
        return results;
    };
}

Result<std::string> gitPatch(const std::vector<PromotionChange>& changes,
                             const std::function<Result<std::string>(const TreeEntry&)>& read)
{
    std::string out;
    auto content = [&](const TreeEntry& entry) -> Result<std::string> {
        if (entry.type == EntryType::Symlink)
            return entry.data;
        return read(entry);
    };
    // One side of a change: an addition (after) or a deletion (before).
    auto whole = [&](const std::string& path, const TreeEntry& entry, bool added, bool binary) -> Result<void> {
        const std::string a = gitPath("a/", path);
        const std::string b = gitPath("b/", path);
        out += fmt::format("diff --git {} {}\n{} file mode {}\n", a, b, added ? "new" : "deleted", gitMode(entry));
        auto bytes = content(entry);
        if (!bytes)
            return std::unexpected(bytes.error());
        if (bytes->empty())
            return {};
        if (binary || looksBinary(*bytes)) {
            out += fmt::format("Binary files {} and {} differ\n", added ? "/dev/null" : a, added ? b : "/dev/null");
            return {};
        }
        out += added ? unifiedDiff("", *bytes, "/dev/null", b) : unifiedDiff(*bytes, "", a, "/dev/null");
        return {};
    };
    for (const auto& c : changes) {
        const auto& before = c.change.before;
        const auto& after = c.change.after;
        // Git keeps no directories: an empty one (or a directory's permissions) has no place in a patch.
        if ((before && before->type == EntryType::Directory) || (after && after->type == EntryType::Directory))
            continue;
        const std::string& path = c.change.path;
        if (!before || !after || before->type != after->type) {
            if (before)
                if (auto ok = whole(path, *before, false, c.binary); !ok)
                    return std::unexpected(ok.error());
            if (after)
                if (auto ok = whole(path, *after, true, c.binary); !ok)
                    return std::unexpected(ok.error());
            continue;
        }
        const std::string a = gitPath("a/", path);
        const std::string b = gitPath("b/", path);
        out += fmt::format("diff --git {} {}\n", a, b);
        if (gitMode(*before) != gitMode(*after))
            out += fmt::format("old mode {}\nnew mode {}\n", gitMode(*before), gitMode(*after));
        if (before->sameContent(*after))
            continue;
        auto left = content(*before);
        if (!left)
            return std::unexpected(left.error());
        auto right = content(*after);
        if (!right)
            return std::unexpected(right.error());
        if (c.binary || looksBinary(*left) || looksBinary(*right))
            out += fmt::format("Binary files {} and {} differ\n", a, b);
        else
            out += unifiedDiff(*left, *right, a, b);
    }
    return out;
}

nlohmann::json promotionToJson(const PromotionReport& r)
{
    using nlohmann::json;
    json conflicts = json::array();
    for (const auto& c : r.conflicts) {
        json item = pathJson(c.path);
        item["kind"] = toString(c.kind);
        item["detail"] = c.detail;
        conflicts.push_back(std::move(item));
    }
    json resolved = json::array();
    for (const auto& [c, side] : r.resolved) {
        json item = pathJson(c.path);
        item["kind"] = toString(c.kind);
        item["took"] = toString(side);
        resolved.push_back(std::move(item));
    }
    json added = json::array();
    json removed = json::array();
    json modified = json::array();
    json files = json::array();
    for (const auto& c : r.changes) {
        const TreeChange& change = c.change;
        (change.kind == ChangeKind::Added ? added : change.kind == ChangeKind::Removed ? removed : modified)
            .push_back(change.path);
        const TreeEntry& entry = change.after ? *change.after : *change.before;
        json item = pathJson(change.path);
        item["status"] = toString(change.kind);
        item["type"] = toString(entry.type);
        item["binary"] = c.binary;
        item["old_size"] = change.before ? json(change.before->size) : json(nullptr);
        item["new_size"] = change.after ? json(change.after->size) : json(nullptr);
        item["lines_added"] = c.linesAdded;
        item["lines_removed"] = c.linesRemoved;
        files.push_back(std::move(item));
    }
    json compatibility = json::array();
    for (const auto& c : r.compatibility) {
        json item = pathJson(c.path);
        item["check"] = c.check;
        item["ok"] = c.ok;
        item["message"] = c.message;
        compatibility.push_back(std::move(item));
    }
    json decisions = json::array();
    for (const auto& d : r.decisionImpacts) {
        json item = pathJson(d.path);
        item["data"] = d.data;
        item["decisions_changed"] = d.changed;
        item["records"] = d.records;
        item["impact_rate"] = d.rate;
        decisions.push_back(std::move(item));
    }
    const PromotionImpact& i = r.impact;
    return {{"status", r.status},
            {"source", r.source},
            {"target", r.target},
            {"source_checkpoint", r.sourceCheckpoint},
            {"target_checkpoint", r.targetCheckpoint},
            {"ancestor", r.ancestor ? json(*r.ancestor) : json(nullptr)},
            {"saved", r.saved},
            {"unsaved", r.unsaved},
            {"merged_tree", hashHex(r.mergedTree)},
            {"applied", r.applied},
            {"checkpoint", r.checkpoint.empty() ? json(nullptr) : json(r.checkpoint)},
            {"risk", toString(r.risk)},
            {"risk_reasons", riskReasonsToJson(r.riskReasons)},
            {"rule_impact", decisions},
            {"approval_required", r.approvalRequired},
            {"approval", r.approval ? json{{"by", r.approval->by}, {"note", r.approval->note}} : json(nullptr)},
            {"conflicts", conflicts},
            {"resolved", resolved},
            {"changes", {{"added", added}, {"removed", removed}, {"modified", modified}}},
            {"files", files},
            {"impact",
             {{"files", i.files},
              {"added", i.added},
              {"removed", i.removed},
              {"modified", i.modified},
              {"bytes_added", i.bytesAdded},
              {"bytes_removed", i.bytesRemoved},
              {"lines_added", i.linesAdded},
              {"lines_removed", i.linesRemoved}}},
            {"compatibility", compatibility},
            {"blocked", r.blocked},
            {"swapped", r.swapped},
            {"output", r.output.empty() ? json(nullptr) : json(r.output)}};
}

// Measures each change: binary or text, lines added and removed; fills the impact.
Result<std::vector<PromotionChange>> measureChanges(std::vector<TreeChange> changes,
                                                    const std::function<Result<std::string>(const TreeEntry&)>& read,
                                                    std::uint64_t maxTextBytes, PromotionImpact& impact)
{
    std::vector<PromotionChange> out;
    impact = PromotionImpact{};
    auto text = [&](const TreeEntry& entry) -> Result<std::optional<std::string>> {
        if (entry.type == EntryType::Symlink)
            return std::optional<std::string>(entry.data);
        if (entry.type != EntryType::File || entry.size > maxTextBytes)
            return std::optional<std::string>{};
        auto bytes = read(entry);
        if (!bytes)
            return std::unexpected(bytes.error());
        return std::optional<std::string>(std::move(*bytes));
    };
    for (auto& change : changes) {
        PromotionChange measured;
        const std::uint64_t oldSize =
            change.before && change.before->type != EntryType::Directory ? change.before->size : 0;
        const std::uint64_t newSize =
            change.after && change.after->type != EntryType::Directory ? change.after->size : 0;
        ++impact.files;
        switch (change.kind) {
        case ChangeKind::Added: ++impact.added; break;
        case ChangeKind::Removed: ++impact.removed; break;
        case ChangeKind::Modified: ++impact.modified; break;
        }
        if (newSize >= oldSize)
            impact.bytesAdded += newSize - oldSize;
        else
            impact.bytesRemoved += oldSize - newSize;
        std::optional<std::string> left;
        std::optional<std::string> right;
        bool unreadable = false;
        if (change.before && change.before->type != EntryType::Directory) {
            auto bytes = text(*change.before);
            if (!bytes)
                return std::unexpected(bytes.error());
            left = std::move(*bytes);
            unreadable = unreadable || !left;
        }
        if (change.after && change.after->type != EntryType::Directory) {
            auto bytes = text(*change.after);
            if (!bytes)
                return std::unexpected(bytes.error());
            right = std::move(*bytes);
            unreadable = unreadable || !right;
        }
        if (unreadable) {
            measured.counted = false;
        } else if ((left && looksBinary(*left)) || (right && looksBinary(*right))) {
            measured.binary = true;
        } else if (left && right) {
            const std::string diff = unifiedDiff(*left, *right, "a", "b", 0);
            std::size_t start = 0;
            int line = 0;
            while (start < diff.size()) {
                std::size_t end = diff.find('\n', start);
                if (end == std::string::npos)
                    end = diff.size();
                if (line++ >= 2 && end > start) {
                    measured.linesAdded += diff[start] == '+' ? 1 : 0;
                    measured.linesRemoved += diff[start] == '-' ? 1 : 0;
                }
                start = end + 1;
            }
        } else if (right) {
            measured.linesAdded = countLines(*right);
        } else if (left) {
            measured.linesRemoved = countLines(*left);
        }
        impact.linesAdded += measured.linesAdded;
        impact.linesRemoved += measured.linesRemoved;
        measured.change = std::move(change);
        out.push_back(std::move(measured));
    }
    return out;
}

} // namespace sb
