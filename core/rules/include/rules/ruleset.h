#pragma once

// Rule sets: a YAML file of rules, each a CEL condition over a record's fields with a decision and a score.
//
//   name: card-fraud
//   version: 3
//   strategy: first_match          # or max_score
//   default: {decision: allow, score: 0}
//   fields:                        # optional: name: int | double | bool | string | timestamp
//     amount: double
//     country: string
//   rules:
//     - id: high_amount_foreign
//       when: amount > 1000.0 && country != card_country
//       decision: block
//       score: 90
//       enabled: true              # optional
//       description: ...           # optional
//       tags: [amount, geo]        # optional
//
// parseRuleSet() reads the YAML and keeps the line:column of every node, so problems point into the file,
// inside a condition too (block scalars and quoted ones included). compileRuleSet() compiles every condition
// against the fields (declared under `fields:`, else the dataset's columns, else each name a rule reads, as
// dyn) and looks for rules that can never fire. Errors make a rule set unusable; warnings do not.

#include "cel/lexer.h"
#include "cel/program.h"
#include "rules/schema.h"
#include "util/error.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb::rules {

enum class Strategy : std::uint8_t {
    FirstMatch, // the first enabled rule (in file order) whose condition holds decides
    MaxScore,   // the matching rule with the highest score decides (ties: the first in file order)
};
std::string_view toString(Strategy strategy); // "first_match", "max_score"
std::optional<Strategy> strategyFromString(std::string_view text);

struct SourcePos {
    int line = 0; // 1-based; 0: unknown
    int column = 0;
    bool operator==(const SourcePos&) const = default;
};

enum class Severity : std::uint8_t { Error, Warning };
std::string_view toString(Severity severity); // "error", "warning"

struct Diagnostic {
    Severity severity = Severity::Error;
    SourcePos pos;
    std::string message;
    std::string rule; // the id of the rule it is about, if any
    // What kind of problem, for scripts: yaml, missing, duplicate, type, value, strategy, cel, not_bool,
    // unknown_field, never_fires, shadowed, data.
    std::string code;

    // "rules.yaml:12:15: error: undeclared reference to 'amout'"
    std::string format(std::string_view file) const;
};

struct Rule {
    std::string id;
    std::string when;
    std::string decision;
    double score = 0;
    bool enabled = true;
    std::string description;
    std::vector<std::string> tags;
    SourcePos pos; // the rule's entry
    SourcePos whenPos;
    // The file's byte offset of every byte of `when`, and one past its end: where a CEL diagnostic points.
    std::vector<std::uint32_t> whenOffsets;
};

struct FieldDecl {
    Field field;
    SourcePos pos;
};

struct RuleSet {
    std::string file; // as given, for messages
    std::string text; // the file's content
    cel::LineStarts lines; // of `text`: positions in a file of thousands of rules cost a line's walk, not the file's
    std::string name;
    std::string version;
    Strategy strategy = Strategy::FirstMatch;
    std::string defaultDecision;
    double defaultScore = 0;
    std::vector<FieldDecl> fields;
    bool declaresFields = false; // a `fields:` section is present
    std::vector<Rule> rules;

    // The file position of byte `offset` of rule's condition.
    SourcePos positionInWhen(const Rule& rule, std::uint32_t offset) const;
    std::vector<Field> declaredFields() const;
};

struct ParsedRuleSet {
    RuleSet ruleSet;
    std::vector<Diagnostic> diagnostics;
    bool hasErrors() const;
};

// Reads the YAML; structural problems (malformed YAML, missing or duplicate ids, wrong types, an unknown
// strategy) are errors, unknown keys warnings. The conditions are not compiled yet.
ParsedRuleSet parseRuleSet(std::string_view text, std::string file);
// The text of a rule set file, through the bounded reader (util/input_file.h): an error when it cannot be
// read as text (missing, not a regular file, larger than 4 MiB, binary, not UTF-8; the last two at
// FILE:LINE:COL). What the workbench's editor opens, too.
Result<std::string> readRuleSetFile(const std::filesystem::path& path);
// The same, parsed; an error value only when the file cannot be read as text.
Result<ParsedRuleSet> loadRuleSetFile(const std::filesystem::path& path);

struct CompiledRule {
    std::size_t index = 0;               // in RuleSet::rules
    std::optional<cel::Program> program; // empty when the condition does not compile
    std::uint16_t decision = 0;          // in CompiledRuleSet::decisions
    double score = 0;
    bool enabled = true;
    bool alwaysFalse = false; // statically: can never fire
};

struct CompiledRuleSet {
    const RuleSet* source = nullptr; // the parsed rule set it was compiled from (must outlive this)
    Strategy strategy = Strategy::FirstMatch;
    std::vector<CompiledRule> rules;    // every rule, in file order
    std::vector<std::string> decisions; // distinct decisions: the default first, then in order of appearance
    std::uint16_t defaultDecision = 0;
    double defaultScore = 0;
    cel::Declarations declarations;
    // For each slot of the declarations, the dataset column it reads (-1: a field the data does not have;
    // such slots come last, so an activation of columnSlots() values leaves them to the "no value" error).
    std::vector<int> slotColumn;
    std::size_t columnSlots = 0;
    std::vector<int> referencedColumns; // the dataset columns enabled rules read, ascending

    const Rule& rule(std::size_t i) const { return source->rules[rules[i].index]; }
    // The decision's index, or -1.
    int findDecision(std::string_view decision) const;
};

struct CompileResult {
    std::optional<CompiledRuleSet> compiled; // empty when there are errors
    std::vector<Diagnostic> diagnostics;
};

// Compiles against `data` (a dataset's columns) when given: each column is a field, its type the declared one
// when `fields:` declares it (a different type is an error), else the column's. Without data the declared
// fields are the fields; with neither, every name a condition reads is a field of type dyn, with an
// unknown_field warning.
CompileResult compileRuleSet(const RuleSet& ruleSet, const Schema* data = nullptr);

// The names the rules' conditions read (enabled or not) that no comprehension binds, sorted: of a dotted name
// (merchant.country), its first part.
std::vector<std::string> namesRead(const RuleSet& ruleSet);
// Whether a condition reading `names` may read the column: one of them, or a dotted name starting with one.
bool readsColumn(const std::vector<std::string>& names, std::string_view column);

// The problems of a parse and a compile together, by position; errors and warnings counted.
struct CheckCounts {
    std::size_t errors = 0;
    std::size_t warnings = 0;
};
CheckCounts countDiagnostics(const std::vector<Diagnostic>& diagnostics);
void sortDiagnostics(std::vector<Diagnostic>& diagnostics);

} // namespace sb::rules
