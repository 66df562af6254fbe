#pragma once

// Promotion: moving what a sandbox changed into its target (usually main) through a reviewed gate. The merge
// is three-way from the common ancestor in the checkpoint graph (checkpoints/merge.h); the gate measures the
// change (impact), grades it (risk, from configurable thresholds), checks that what would land still parses
// (compatibility), asks for an approval when the risk is high, and only then applies it atomically with the
// restore machinery (docs/CHECKPOINTS.md, "Promotion"). SandboxEngine::promote runs it.

#include "util/error.h"
#include "util/message.h"
#include "checkpoints/diff.h"
#include "checkpoints/merge.h"
#include "checkpoints/tree.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

struct CheckpointInfo;

enum class RiskLevel { Low = 0, Medium = 1, High = 2 };
std::string_view toString(RiskLevel level);
std::string_view toString(MergeSide side); // "source", "target"

// One level's rules: the level applies when any rule holds. Counts are "more than"; nullopt turns a rule off.
struct RiskRules {
    std::optional<std::uint64_t> filesChanged;  // added + removed + modified paths
    std::optional<std::uint64_t> filesRemoved;
    std::optional<std::uint64_t> linesChanged;  // lines added + removed, text files
    std::optional<std::uint64_t> bytesChanged;  // bytes added + removed
    bool policyChanged = false;                 // any policy file (RiskConfig::policyPaths) added, removed, changed
    bool binaryChanged = false;                 // a binary file added or changed: it cannot be reviewed as text
    // A rule set (core/rules/promotion_gate.h) added or changed, whatever its measured impact: a change to
    // what production decides.
    bool ruleSetChanged = false;
    // A changed rule set's impact rate (records whose decision changes / records) on the data the promotion
    // is measured on (promote --data; core/rules/promotion_gate.h): a fraction, 0 to 1.
    std::optional<double> impactRate;
    std::vector<std::string> paths;             // any change to a path matching these globs (path_filter.h syntax)
};

// The thresholds of the risk level (README.md, "Promotion"): STORE.d/promotion.yaml, or --risk-config FILE,
// a YAML file with a `promotion:` section:
//   promotion:
//     policy_paths: ["**/policies/**/*.yaml", "*.policy.yaml", "policy.yaml"]
//     high:   {files_changed: 50, files_removed: 10, policy_changed: true, impact_rate: 0.05, paths: [...]}
//     medium: {files_changed: 10, lines_changed: 1000, impact_rate: 0.01, binary_changed: true,
//              rule_set_changed: true}
//     approval: high
// Keys left out keep their defaults; `null` turns a rule off.
struct RiskConfig {
    RiskRules high = defaultHigh();
    RiskRules medium = defaultMedium();
    // The lowest risk level at which a promotion needs an approval (name and note): high, as the product
    // promises (a reviewer's approval for high risk); a team may ask for one from medium or low on.
    RiskLevel approval = RiskLevel::High;
    // Which files of a tree are policies: checked by the compatibility check, and a change to one is a risk.
    std::vector<std::string> policyPaths = {"**/policies/**/*.yaml", "**/policies/**/*.yml", "*.policy.yaml",
                                            "*.policy.yml", "policy.yaml", "policy.yml"};

    static RiskRules defaultHigh();
    static RiskRules defaultMedium();
    static Result<RiskConfig> parse(std::string_view yaml, std::string_view origin);
    static Result<RiskConfig> load(const std::filesystem::path& file);
};

// One path the promotion changes in the target, measured.
struct PromotionChange {
    TreeChange change;               // target's entry before, merged entry after
    bool binary = false;
    bool counted = true;             // false: too large to count lines
    std::uint64_t linesAdded = 0;
    std::uint64_t linesRemoved = 0;
};

struct PromotionImpact {
    std::uint64_t files = 0;         // paths changed
    std::uint64_t added = 0;
    std::uint64_t removed = 0;
    std::uint64_t modified = 0;
    // Added files' bytes plus the growth of modified ones; removed files' bytes plus the shrinkage of
    // modified ones.
    std::uint64_t bytesAdded = 0;
    std::uint64_t bytesRemoved = 0;
    std::uint64_t linesAdded = 0;    // text files (a symlink counts as one line)
    std::uint64_t linesRemoved = 0;
};

// How many decisions a changed rule set flips on the data the promotion is measured on: the target's
// version as baseline, the merged one as candidate (what `sandbench rules impact` reports for the two files).
struct DecisionImpact {
    std::string path;
    std::string data;                // where the records came from
    std::uint64_t changed = 0;       // records whose decision changes
    std::uint64_t records = 0;
    double rate = 0;                 // changed / records
};

// A reason for a risk level, from the thresholds or from an extra input.
struct RiskFinding {
    RiskLevel level = RiskLevel::Low;
    Message reason;
    std::optional<DecisionImpact> decisions; // a rule set's measured impact, when the finding is one
};

// Why a promotion has its risk: a level a rule or finding reached, and what reached it.
struct RiskReason {
    RiskLevel level = RiskLevel::Low;
    Message why;
    bool operator==(const RiskReason&) const = default;
};

// "high: 51 files changed (more than 50)": a reason as the command line, the JSON and the audit log say it.
std::string toString(const RiskReason& reason);

struct CompatibilityResult {
    std::string check;               // "policy"; later checks name themselves ("rules", ...)
    std::string path;
    bool ok = true;
    std::string message;             // a failure names file:line:column
};

// What checks and risk inputs see of a promotion: the merged tree and the change against the target.
struct PromotionSubject {
    const std::vector<PromotionChange>* changes = nullptr;
    // Every file, symlink and directory of the merged tree, in path order.
    std::function<Result<std::vector<PathEntry>>()> mergedFiles;
    // A file's bytes (refused above `limit`).
    std::function<Result<std::string>(const TreeEntry&, std::uint64_t limit)> read;
    const RiskConfig* config = nullptr;
};

// Extension points: the rules issue adds a rule-set check and an impact-rate risk input here.
using CompatibilityCheck = std::function<Result<std::vector<CompatibilityResult>>(const PromotionSubject&)>;
using RiskInput = std::function<Result<std::vector<RiskFinding>>(const PromotionSubject&)>;

// The built-in check: every policy file of the merged tree (RiskConfig::policyPaths) parses with the policy
// parser; a symlink where a policy should be fails (never followed).
CompatibilityCheck policyCompatibilityCheck();

// Whether a promotion graded `level` needs an approval under `config`.
bool approvalRequired(const RiskConfig& config, RiskLevel level);

struct Approval {
    std::string by;
    std::string note;
};

struct PromotionRequest {
    enum class Mode {
        Apply,   // merge into the target (when nothing blocks)
        Preview, // only report (--dry-run)
        Export,  // write the changed files and a manifest to `output` (a new or empty folder)
        Patch,   // write a git-style unified diff to `output`
    };
    std::string source;
    std::string target = "main";
    Mode mode = Mode::Apply;
    std::filesystem::path output;
    std::optional<Approval> approval;
    // Conflicts the person promoting settles by path: the source's side or the target's.
    MergeResolutions resolutions;
    // nullopt: STORE.d/promotion.yaml when it exists, else the defaults.
    std::optional<RiskConfig> risk;
    std::vector<CompatibilityCheck> checks;  // besides policyCompatibilityCheck()
    std::vector<RiskInput> riskInputs;       // besides the thresholds
    std::string author;                      // "": the current user
};

struct PromotionReport {
    // applied, up-to-date (the target holds every change of the source already: nothing to apply, no
    // checkpoint), blocked, preview, exported
    std::string status;
    std::string source;
    std::string target;
    std::string sourceCheckpoint;            // the heads merged (after saving unsaved changes)
    std::string targetCheckpoint;
    std::optional<std::string> ancestor;     // nullopt: the two share no checkpoint
    std::vector<std::string> saved;          // auto checkpoints made of unsaved work first
    std::vector<std::string> unsaved;        // a preview: sandboxes whose unsaved work it measured as it is
    ContentHash mergedTree{};
    std::vector<MergeConflict> conflicts;
    std::vector<std::pair<MergeConflict, MergeSide>> resolved; // conflicts settled by the request's resolutions
    std::vector<PromotionChange> changes;    // target -> merged, in path order
    PromotionImpact impact;
    RiskLevel risk = RiskLevel::Low;
    std::vector<RiskReason> riskReasons;
    std::vector<DecisionImpact> decisionImpacts; // each changed rule set measured on the data, in path order
    std::vector<CompatibilityResult> compatibility;
    bool approvalRequired = false;
    std::optional<Approval> approval;        // recorded with the promotion (when applied)
    std::vector<std::string> blocked;        // why it was not (or would not be) applied
    bool applied = false;
    std::string checkpoint;                  // the target's new 'promote' checkpoint
    std::string swapped;                     // the folder swapped, relative to the workspace
    std::string output;                      // Export / Patch: what was written
};

// The report as JSON (README.md, "Promotion", lists every field): what promote --json prints and what an
// export writes as manifest.json.
nlohmann::json promotionToJson(const PromotionReport& report);

// Grades a measured change: the highest level any rule or finding reaches, with every reason. Rule-set
// findings come from risk inputs (core/rules): gradeRisk only knows files.
void gradeRisk(const RiskConfig& config, const std::vector<PromotionChange>& changes, const PromotionImpact& impact,
               const std::vector<RiskFinding>& extra, RiskLevel& level, std::vector<RiskReason>& reasons);

// The reasons as texts (toString), in order: the JSON's and the audit log's risk_reasons.
nlohmann::json riskReasonsToJson(const std::vector<RiskReason>& reasons);

// Measures each change (binary or text, lines added and removed; files above `maxTextBytes` are not
// line-counted) and totals them in `impact`.
Result<std::vector<PromotionChange>> measureChanges(std::vector<TreeChange> changes,
                                                    const std::function<Result<std::string>(const TreeEntry&)>& read,
                                                    std::uint64_t maxTextBytes, PromotionImpact& impact);

// A git-style unified diff ("diff --git" headers, new/deleted file modes, "Binary files ... differ") of the
// changes; `read` gives a file's bytes.
Result<std::string> gitPatch(const std::vector<PromotionChange>& changes,
                             const std::function<Result<std::string>(const TreeEntry&)>& read);

} // namespace sb
