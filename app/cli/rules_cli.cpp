// sandbench rules expr | check | eval | impact | ab | explain

#include "command_line.h"
#include "commands.h"

#include <memory>

namespace sb::cli {

void addRulesCommands(CommandLine& commandLine)
{
    auto rulesExpr = std::make_shared<RulesExprOptions>();
    auto* rulesCmd = commandLine.app().add_subcommand(
        "rules", "CEL rule sets: check them, evaluate them on data, compare a candidate or A/B variants with the "
                 "current rules, explain a decision, try an expression");
    rulesCmd->require_subcommand(1);
    auto* rulesExprCmd = rulesCmd->add_subcommand(
        "expr", "Evaluate one CEL expression, optionally against a record's fields, and print its value or its "
                "error with line:column");
    rulesExprCmd->add_option("expression", rulesExpr->expression, "The CEL expression")->required();
    rulesExprCmd->add_option("--record", rulesExpr->record,
                             "The record's fields as a JSON object (or @FILE): each field a variable, its type "
                             "inferred (RFC 3339 strings are timestamps)");
    addJsonFlag(rulesExprCmd, rulesExpr->json, "Print one JSON object: ok, value, type, text or error");

    auto rules = std::make_shared<RulesOptions>();
    auto* rulesCheckCmd = rulesCmd->add_subcommand(
        "check", "Check a rule set: errors and warnings as FILE:LINE:COL (with --data, also rules that the data "
                 "shows fully shadowed, and each rule's coverage); exit 1 on errors");
    rulesCheckCmd->add_option("file", rules->file, "The rule set (YAML)")->required();
    auto* rulesEvalCmd = rulesCmd->add_subcommand(
        "eval", "Evaluate a rule set on data: decision distribution, per-rule hit counts, errors");
    rulesEvalCmd->add_option("--rules", rules->rules, "The rule set (YAML)")->required();
    auto* rulesImpactCmd = rulesCmd->add_subcommand(
        "impact", "What a candidate rule set would change against the baseline on the same data: affected "
                  "records, decision mix, changed decisions, and with labels what is caught and who is hurt");
    rulesImpactCmd->add_option("--baseline", rules->baseline, "The current rule set")->required();
    rulesImpactCmd->add_option("--candidate", rules->candidate, "The proposed rule set")->required();
    auto* rulesAbCmd = rulesCmd->add_subcommand(
        "ab", "A/B: the impact of each variant against the baseline on the same data, and a ranking");
    rulesAbCmd->add_option("--baseline", rules->baseline, "The current rule set")->required();
    rulesAbCmd->add_option("--variant", rules->variants, "A variant rule set (repeat for each)")->required();
    auto* rulesExplainCmd = rulesCmd->add_subcommand(
        "explain", "Why a record got its decision: every rule, matched or not, with the values of the "
                   "sub-expressions that decided it");
    rulesExplainCmd->add_option("--rules", rules->rules, "The rule set (YAML)")->required();
    rulesExplainCmd->add_option("--record", rules->record, "The record's id (its id column, else its number from 1)")
        ->required();
    for (auto* sub : {rulesCheckCmd, rulesEvalCmd, rulesImpactCmd, rulesAbCmd, rulesExplainCmd}) {
        auto* data = sub->add_option("--data", rules->data.data,
                                     "A stored dataset's name, a .csv / .jsonl / .ndjson file read directly, or a folder "
                                     "of such files read as one dataset (its files in name order; not its "
                                     "subfolders nor hidden files)");
        if (sub != rulesCheckCmd)
            data->required();
        sub->add_option("--id-column", rules->data.idColumn, "The column that identifies records (files; default: id)");
        sub->add_option("--on-bad-row", rules->data.onBadRow,
                        "A record that cannot be read: fail (default) names it and stops; skip counts and reports it")
            ->check(CLI::IsMember({"fail", "skip"}));
        sub->add_option("--field", rules->data.fields, "A column's type, NAME:TYPE (int, double, bool, string, "
                                                       "timestamp), on top of the rule set's fields");
        addStoreOption(sub, rules->data.store, "Store file (for stored datasets)");
        addJsonFlag(sub, rules->json);
        if (sub != rulesCheckCmd)
            sub->add_option("--sandbox", rules->data.sandbox,
                            "Read --data NAME as this sandbox's dataset reference (sandbench sandbox show)")
                ->check(sandboxNameValidator());
    }
    for (auto* sub : {rulesEvalCmd, rulesImpactCmd, rulesAbCmd}) {
        sub->add_option("--threads", rules->threads,
                        "Threads to evaluate on (default: one per core; with --backend slurm, per task)")
            ->check(CLI::Range(1u, 256u));
        addBackendOptions(sub, rules->backend,
                          "the data (a file, a folder's files or a stored snapshot) cut into "
                          "shards, evaluated by a Slurm array job, the results merged",
                          true);
    }
    // One task of a Slurm array job that `--backend slurm` submitted (usecases/sharded_rules.h): not for people.
    auto* rulesTaskCmd = rulesCmd->add_subcommand("task", "A task of a Slurm job of rules eval|impact|ab")->group("");
    rulesTaskCmd->add_option("--job", rules->job, "The job's folder in the spool")->required();
    rulesTaskCmd->add_option("--stage", rules->stage, "scan or eval")->required()->check(CLI::IsMember({"scan", "eval"}));
    rulesTaskCmd->add_option("--shard", rules->shard, "The shard (default: SLURM_ARRAY_TASK_ID)")
        ->check(CLI::NonNegativeNumber);
    for (auto* sub : {rulesImpactCmd, rulesAbCmd}) {
        sub->add_option("--label-column", rules->labelColumn,
                        "A column telling which records really are positives (fraud): caught vs hurt per decision");
        sub->add_option("--amount-column", rules->amountColumn,
                        "A number column (with --label-column): the amounts caught and hurt");
        sub->add_option("--limit", rules->limit,
                        "Changed records to list (default: 20 in text, all with --json)")
            ->check(CLI::NonNegativeNumber);
    }

    commandLine.onParsed(rulesExprCmd, [rulesExpr] { return rulesExprCommand(*rulesExpr); });
    commandLine.onParsed(rulesCmd, [rules, rulesCheckCmd, rulesEvalCmd, rulesImpactCmd, rulesAbCmd, rulesTaskCmd] {
        rules->action = rulesCheckCmd->parsed()    ? "check"
                        : rulesEvalCmd->parsed()   ? "eval"
                        : rulesImpactCmd->parsed() ? "impact"
                        : rulesAbCmd->parsed()     ? "ab"
                        : rulesTaskCmd->parsed()   ? "task"
                                                   : "explain";
        return rulesCommand(*rules);
    });
}

} // namespace sb::cli
