// sandbench: every capability of the workbench, headless, with --json for scripts and CI.

#include "commands.h"

#include "isolation/policy.h"
#include "util/size_text.h"
#include "util/time_text.h"
#include "sandboxes/sandbox_engine.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>

int main(int argc, char** argv)
{
    using namespace sb::cli;
    CLI::App app{"Sandbench: run what you do not trust inside an OS sandbox, and measure every outcome.", "sandbench"};
    app.set_version_flag("--version", std::string("sandbench ") + SANDBENCH_VERSION);
    app.require_subcommand(1);
    app.footer("Exit status: 0 ok; 10 error, 11 blocked, 12 timeout, 13 memory_limit, 14 crashed, 15 internal_error;\n"
               "1 Sandbench could not do it (store, input, unknown sandbox or checkpoint, a run not recorded), audit\n"
               "verify found the log broken or without its key, a rules expression does not compile or evaluates\n"
               "to an error, or a rule set has errors;\n"
               "2 usage error. The store is $SANDBENCH_STORE, else $XDG_DATA_HOME/sandbench/workbench.db;\n"
               "sandbox workspaces live beside it, in STORE.d/sandboxes/NAME/workspace. The key that signs its\n"
               "audit log is in $SANDBENCH_AUDIT_KEYS, else $XDG_CONFIG_HOME/sandbench/audit-keys.");

    RunOptions run;
    auto* runCmd = app.add_subcommand("run", "Run a Python or shell snippet in the sandbox and record it");
    runCmd->add_option("file", run.file, "Snippet file, or - for standard input")->required();
    runCmd->add_option("--lang", run.language, "Language (default: from the file extension, else python)")
        ->check(CLI::IsMember({"python", "sh"}));
    runCmd->add_option("--timeout-ms", run.timeoutMs, "Wall-clock limit in milliseconds (default 5000)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{86'400'000}));
    runCmd->add_option("--memory-mb", run.memoryMb, "Memory limit in MiB: address space per process, resident memory of the run as a whole (default 256)")
        ->check(CLI::Range(std::int64_t{16}, std::int64_t{1'048'576}));
    runCmd->add_option("--policy", run.policyFile, "Policy file (YAML) or preset name (see: sandbench policy presets)");
    runCmd->add_option("--level", run.level, "Isolation level (default: the policy's, else the deepest this machine offers; see sandbench doctor)")
        ->check(CLI::IsMember({"process", "container", "strict"}));
    runCmd->add_flag("--json", run.json, "Print one JSON object describing the run");
    runCmd->add_option("--store", run.store, "Store file (default: see below)");
    runCmd->add_option("--sandbox", run.sandbox,
                       "Work in this sandbox's workspace (kept afterwards) instead of a fresh, private work dir");

    RunOptions exec;
    auto* execCmd = app.add_subcommand("exec", "Run any command in the sandbox: sandbench exec [options] -- CMD ARGS...");
    execCmd->add_option("command", exec.command, "The command and its arguments (after --)")->required();
    execCmd->add_option("--timeout-ms", exec.timeoutMs, "Wall-clock limit in milliseconds (default 5000)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{86'400'000}));
    execCmd->add_option("--memory-mb", exec.memoryMb, "Memory limit in MiB: address space per process, resident memory of the run as a whole (default 256)")
        ->check(CLI::Range(std::int64_t{16}, std::int64_t{1'048'576}));
    auto* execPolicy = execCmd->add_option("--policy", exec.policyFile, "Policy file (YAML) or preset name");
    execCmd->add_option("--level", exec.level, "Isolation level (default: the policy's, else the deepest this machine offers; see sandbench doctor)")
        ->check(CLI::IsMember({"process", "container", "strict"}))
        ->excludes(execPolicy);
    execCmd->add_flag("--json", exec.json, "Print one JSON object describing the run");
    execCmd->add_option("--store", exec.store, "Store file (default: see below)");
    execCmd->add_option("--sandbox", exec.sandbox,
                        "Work in this sandbox's workspace (kept afterwards) instead of a fresh, private work dir");

    bool demoJson = false;
    std::string demoStore;
    auto* demoCmd = app.add_subcommand("demo", "Run the demo cases (ok, blocked, timeout, error, memory, fork bomb, crash)");
    demoCmd->add_flag("--json", demoJson, "Print JSON");
    demoCmd->add_option("--store", demoStore, "Store file");

    bool metricsJson = false;
    std::string metricsStore;
    auto* metricsCmd = app.add_subcommand("metrics", "Totals and rates per outcome, duration percentiles, recent events");
    metricsCmd->add_flag("--json", metricsJson, "Print JSON");
    metricsCmd->add_option("--store", metricsStore, "Store file");

    bool historyJson = false;
    std::string historyStore;
    int historyLimit = 20;
    auto* historyCmd = app.add_subcommand("history", "The most recent runs in the store, newest first");
    historyCmd->add_flag("--json", historyJson, "Print JSON");
    historyCmd->add_option("--store", historyStore, "Store file");
    historyCmd->add_option("--limit", historyLimit, "How many runs (default 20)")->check(CLI::Range(1, 100000));

    PolicyOptions policy;
    auto* policyCmd = app.add_subcommand(
        "policy", "Policies: list and show the presets, check a policy file, list and show stored versions");
    policyCmd->require_subcommand(1);
    auto* presetsCmd = policyCmd->add_subcommand("presets", "List the built-in presets");
    auto* showCmd = policyCmd->add_subcommand("show", "Print a preset's YAML, or with --version a stored version's");
    showCmd->add_option("name", policy.argument, "Preset name, or with --version a policy name")->required();
    auto* showVersion =
        showCmd->add_option("--version", policy.version, "A version of the policy recorded in the store")
            ->check(CLI::PositiveNumber);
    showCmd->add_option("--store", policy.store, "Store file (with --version)")->needs(showVersion);
    auto* checkCmd = policyCmd->add_subcommand("check", "Validate a policy file and print it as Sandbench reads it");
    checkCmd->add_option("file", policy.argument, "Policy file (YAML) or preset name")->required();
    auto* versionsCmd = policyCmd->add_subcommand(
        "versions", "The policy versions recorded in the store: name, version, sha256, created, runs");
    versionsCmd->add_option("name", policy.argument, "Only the versions of this policy");
    versionsCmd->add_option("--store", policy.store, "Store file");
    for (auto* sub : {presetsCmd, showCmd, checkCmd, versionsCmd})
        sub->add_flag("--json", policy.json, "Print JSON");

    AuditOptions audit;
    auto* auditCmd = app.add_subcommand("audit", "The store's audit log: list it, prove it untouched");
    auditCmd->require_subcommand(1);
    auto* auditListCmd = auditCmd->add_subcommand("list", "Audit entries, oldest first, optionally filtered");
    auditListCmd->add_option("--operation", audit.operation,
                             "Only this operation, or a family of them (sandbox: sandbox.create, sandbox.destroy, …)");
    auditListCmd->add_option("--actor", audit.actor, "Only entries by this actor (an OS user or a --by name)");
    auditListCmd->add_option("--subject", audit.subject, "Only entries about this subject (a run id, name@version, …)");
    auditListCmd->add_option("--text", audit.text, "Only entries holding this text anywhere (case-insensitive)");
    const CLI::Validator timePoint(
        [](std::string& text) -> std::string {
            auto parsed = sb::parseTimePointMs(text, sb::nowEpochMs());
            return parsed ? std::string() : parsed.error().message;
        },
        "TIME");
    auditListCmd->add_option("--since", audit.since, "At or after: ISO 8601 (2024-05-01T12:00Z) or a duration ago (2h, 7d)")
        ->check(timePoint);
    auditListCmd->add_option("--until", audit.until, "At or before: ISO 8601 or a duration ago")->check(timePoint);
    auditListCmd->add_option("--limit", audit.limit, "Only the N most recent matches")->check(CLI::PositiveNumber);
    auto* auditVerifyCmd = auditCmd->add_subcommand(
        "verify", "Walk the hash chain and check each entry's signature with the store's key: exit 0 when "
                  "intact, 1 naming the first altered, forged or removed entry (or a key that is not there)");
    auditVerifyCmd->add_option("--keys", audit.keys,
                               "Folder of audit keys to check with (default: $SANDBENCH_AUDIT_KEYS, else "
                               "$XDG_CONFIG_HOME/sandbench/audit-keys)");
    auditVerifyCmd->add_option("--anchor", audit.anchor,
                               "A head hash kept elsewhere earlier: the log must still hold that entry")
        ->transform(CLI::Validator(
            [](std::string& hash) -> std::string {
                for (char& c : hash)
                    c = static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
                if (hash.size() != 64 || hash.find_first_not_of("0123456789abcdef") != std::string::npos)
                    return "a SHA-256 is 64 hex digits (as audit verify --json prints the head's)";
                return {};
            },
            "SHA256"));
    // --json and --store before or after list/verify.
    for (auto* sub : {auditCmd, auditListCmd, auditVerifyCmd}) {
        sub->add_flag("--json", audit.json, "Print JSON");
        sub->add_option("--store", audit.store, "Store file");
    }

    RulesExprOptions rulesExpr;
    auto* rulesCmd = app.add_subcommand(
        "rules", "CEL rule sets: check them, evaluate them on data, compare a candidate or A/B variants with the "
                 "current rules, explain a decision, try an expression");
    rulesCmd->require_subcommand(1);
    auto* rulesExprCmd = rulesCmd->add_subcommand(
        "expr", "Evaluate one CEL expression, optionally against a record's fields, and print its value or its "
                "error with line:column");
    rulesExprCmd->add_option("expression", rulesExpr.expression, "The CEL expression")->required();
    rulesExprCmd->add_option("--record", rulesExpr.record,
                             "The record's fields as a JSON object (or @FILE): each field a variable, its type "
                             "inferred (RFC 3339 strings are timestamps)");
    rulesExprCmd->add_flag("--json", rulesExpr.json, "Print one JSON object: ok, value, type, text or error");
    // Checked by the parser, so a bad name or duration is a usage error (exit 2) before the store is opened.
    const CLI::Validator sandboxName(
        [](std::string& value) {
            auto ok = sb::SandboxEngine::validateName(value);
            return ok ? std::string() : ok.error().message;
        },
        "NAME");
    const CLI::Validator duration(
        [](std::string& value) {
            auto parsed = sb::parseLifetimeMs(value);
            return parsed ? std::string() : parsed.error().message;
        },
        "DURATION");

    const CLI::Validator size(
        [](std::string& value) {
            auto parsed = sb::parseSizeBytes(value);
            return parsed ? std::string() : parsed.error().message;
        },
        "SIZE");
    // sandbox set: a value, or "none" to remove it.
    const CLI::Validator sizeOrNone(
        [](std::string& value) {
            auto parsed = sb::parseSizeBytes(value);
            return value == "none" || parsed ? std::string() : parsed.error().message + ", or none";
        },
        "SIZE|none");
    const CLI::Validator durationOrNone(
        [](std::string& value) {
            auto parsed = sb::parseLifetimeMs(value);
            return value == "none" || parsed ? std::string() : parsed.error().message + ", or none";
        },
        "DURATION|none");

    SandboxOptions sandbox;
    auto* sandboxCmd = app.add_subcommand(
        "sandbox", "Sandboxes: named worlds with a workspace folder of their own; main is production");
    sandboxCmd->require_subcommand(1);
    auto* sandboxCreate = sandboxCmd->add_subcommand(
        "create", "Make a sandbox from main, another sandbox, a checkpoint, or an imported folder (copied)");
    sandboxCreate->add_option("name", sandbox.name, "The new sandbox's name")->required()->check(sandboxName);
    auto* fromOption = sandboxCreate->add_option("--from", sandbox.from, "main (the default), a sandbox, or a checkpoint id");
    sandboxCreate->add_option("--import", sandbox.importDir, "Copy this folder in as the workspace (never mounted)")
        ->excludes(fromOption);
    sandboxCreate->add_option("--include", sandbox.includes, "Take only paths matching these globs (** spans folders)");
    sandboxCreate->add_option("--exclude", sandbox.excludes, "Leave out paths matching these globs");
    sandboxCreate->add_option("--expires", sandbox.expires, "Destroyed by the next sweep after this long: 30m, 2h, 7d, 1h30m")
        ->check(duration);
    sandboxCreate->add_option("--quota", sandbox.quota,
                              "Bound the workspace's bytes: 500M, 2G (creation, checkpoints and runs are held to it)")
        ->check(size);
    sandboxCreate->add_option("--idle", sandbox.idle,
                              "Archived by the next sweep after this long unused (its work kept): 30m, 2h, 7d")
        ->check(duration);
    sandboxCreate->add_option("--policy", sandbox.policy,
                              "The policy its runs use: a policy file (YAML) or preset (default: the source's)");
    sandboxCreate->add_option("--dataset", sandbox.datasets,
                              "Refer to this stored dataset snapshot (repeatable; the source's references come along)");
    auto* sampleOption =
        sandboxCreate->add_option("--sample", sandbox.sample,
                                  "Refer to a sampled snapshot of each --dataset instead, named SANDBOX.DATASET")
            ->check(CLI::Range(0.000001, 1.0));
    sandboxCreate->add_option("--seed", sandbox.seed, "Sampling seed: the same seed keeps the same records (default 0)")
        ->needs(sampleOption);
    auto* sandboxList = sandboxCmd->add_subcommand(
        "list", "Every sandbox: name, checkpoints, created, expiry, state, idle time, usage, origin");
    auto* sandboxPath = sandboxCmd->add_subcommand("path", "Print a sandbox's workspace folder");
    sandboxPath->add_option("name", sandbox.name, "Sandbox")->required()->check(sandboxName);
    auto* sandboxDestroy = sandboxCmd->add_subcommand(
        "destroy", "Delete a sandbox, its workspace and checkpoints, and free what nothing else uses");
    sandboxDestroy->add_option("name", sandbox.name, "Sandbox")->required()->check(sandboxName);
    auto* sandboxSweep = sandboxCmd->add_subcommand(
        "sweep", "Destroy every expired sandbox, archive every one idle past its timeout, free unreferenced blobs");
    auto* sandboxSet = sandboxCmd->add_subcommand(
        "set", "Change a sandbox's quota, idle timeout, expiry, policy, owner or dataset references");
    sandboxSet->add_option("name", sandbox.name, "Sandbox")->required()->check(sandboxName);
    sandboxSet->add_option("--quota", sandbox.quota, "Bound the workspace's bytes (500M, 2G), or none")->check(sizeOrNone);
    sandboxSet->add_option("--idle", sandbox.idle, "Archive after this long unused (30m, 7d), or none")
        ->check(durationOrNone);
    sandboxSet->add_option("--expires", sandbox.expires, "Destroyed by a sweep this long from now (2h, 7d), or none")
        ->check(durationOrNone);
    sandboxSet->add_option("--policy", sandbox.policy, "The policy its runs use: a file (YAML) or preset, or none");
    sandboxSet->add_option("--owner", sandbox.owner, "Its owner");
    sandboxSet->add_option("--dataset", sandbox.datasets, "Refer to this stored dataset snapshot (repeatable)");
    sandboxSet->add_option("--drop-dataset", sandbox.dropDatasets, "No longer refer to this dataset (repeatable)");
    auto* sandboxShow = sandboxCmd->add_subcommand(
        "show", "Everything about a sandbox: usage and quota, idle time and state, policy, datasets, head");
    sandboxShow->add_option("name", sandbox.name, "Sandbox")->required()->check(sandboxName);
    for (auto* sub : {sandboxCreate, sandboxList, sandboxPath, sandboxDestroy, sandboxSweep, sandboxSet, sandboxShow}) {
        sub->add_flag("--json", sandbox.json, "Print JSON");
        sub->add_option("--store", sandbox.store, "Store file (default: see below)");
    }

    CheckpointOptions checkpoint;
    auto* checkpointCmd = app.add_subcommand(
        "checkpoint", "Checkpoints: immutable snapshots of a sandbox's workspace, diffed, restored, forked, pruned");
    checkpointCmd->require_subcommand(1);
    auto* checkpointCreate = checkpointCmd->add_subcommand("create", "Checkpoint a sandbox's workspace; prints its id");
    checkpointCreate->add_option("--sandbox", checkpoint.sandbox, "Sandbox")->required()->check(sandboxName);
    checkpointCreate->add_option("--label", checkpoint.label, "A label, e.g. \"before step 12: write_file\"");
    checkpointCreate->add_option("--message", checkpoint.message, "Why, at more length");
    auto* checkpointList = checkpointCmd->add_subcommand("list", "A sandbox's checkpoints, newest first");
    checkpointList->add_option("--sandbox", checkpoint.sandbox, "Sandbox")->required()->check(sandboxName);
    auto* checkpointDiff = checkpointCmd->add_subcommand(
        "diff", "Added, removed and modified files from checkpoint A to B (default: A's live workspace)");
    checkpointDiff->add_option("a", checkpoint.first, "Checkpoint id (or a unique prefix)")->required();
    checkpointDiff->add_option("b", checkpoint.second, "Checkpoint id (default: the live workspace)");
    checkpointDiff->add_flag("--name-only", checkpoint.nameOnly, "Only the changed paths, no text diffs");
    auto* checkpointRestore = checkpointCmd->add_subcommand(
        "restore", "Make the workspace equal to a checkpoint, atomically; unsaved changes are checkpointed first");
    checkpointRestore->add_option("id", checkpoint.first, "Checkpoint id (or a unique prefix)")->required();
    checkpointRestore->add_option("--sandbox", checkpoint.sandbox, "Restore into this sandbox (default: the checkpoint's)")
        ->check(sandboxName);
    auto* checkpointFork = checkpointCmd->add_subcommand("fork", "Make a new sandbox from a checkpoint");
    checkpointFork->add_option("id", checkpoint.first, "Checkpoint id (or a unique prefix)")->required();
    checkpointFork->add_option("--name", checkpoint.name, "The new sandbox's name")->required()->check(sandboxName);
    auto* checkpointPrune = checkpointCmd->add_subcommand(
        "prune", "Delete a sandbox's checkpoints no rule keeps (its head and fork points always stay); free space");
    checkpointPrune->add_option("--sandbox", checkpoint.sandbox, "Sandbox")->required()->check(sandboxName);
    auto* keepLast = checkpointPrune->add_option("--keep-last", checkpoint.keepLast, "Keep the N newest")
                         ->check(CLI::Range(std::int64_t{0}, std::int64_t{1'000'000'000}));
    auto* keepLabelled = checkpointPrune->add_flag("--keep-labelled,--keep-labeled", checkpoint.keepLabelled,
                                                   "Keep every labelled checkpoint");
    auto* youngerThan = checkpointPrune->add_option("--younger-than", checkpoint.youngerThan,
                                                    "Keep those younger than this: 30m, 2h, 7d")
                            ->check(duration);
    auto* checkpointLabel = checkpointCmd->add_subcommand(
        "label", "Give a checkpoint a label, or clear it with \"\" (mutable, like a tag; the id stays)");
    checkpointLabel->add_option("id", checkpoint.first, "Checkpoint id (or a unique prefix)")->required();
    checkpointLabel->add_option("text", checkpoint.label, "The label (\"\" clears it)")->required();
    for (auto* sub : {checkpointCreate, checkpointList, checkpointDiff, checkpointRestore, checkpointFork, checkpointPrune,
                      checkpointLabel}) {
        sub->add_flag("--json", checkpoint.json, "Print JSON");
        sub->add_option("--store", checkpoint.store, "Store file (default: see below)");
    }

    RulesOptions rules;
    auto* rulesCheckCmd = rulesCmd->add_subcommand(
        "check", "Check a rule set: errors and warnings as FILE:LINE:COL (with --data, also rules that the data "
                 "shows fully shadowed, and each rule's coverage); exit 1 on errors");
    rulesCheckCmd->add_option("file", rules.file, "The rule set (YAML)")->required();
    auto* rulesEvalCmd = rulesCmd->add_subcommand(
        "eval", "Evaluate a rule set on data: decision distribution, per-rule hit counts, errors");
    rulesEvalCmd->add_option("--rules", rules.rules, "The rule set (YAML)")->required();
    auto* rulesImpactCmd = rulesCmd->add_subcommand(
        "impact", "What a candidate rule set would change against the baseline on the same data: affected "
                  "records, decision mix, changed decisions, and with labels what is caught and who is hurt");
    rulesImpactCmd->add_option("--baseline", rules.baseline, "The current rule set")->required();
    rulesImpactCmd->add_option("--candidate", rules.candidate, "The proposed rule set")->required();
    auto* rulesAbCmd = rulesCmd->add_subcommand(
        "ab", "A/B: the impact of each variant against the baseline on the same data, and a ranking");
    rulesAbCmd->add_option("--baseline", rules.baseline, "The current rule set")->required();
    rulesAbCmd->add_option("--variant", rules.variants, "A variant rule set (repeat for each)")->required();
    auto* rulesExplainCmd = rulesCmd->add_subcommand(
        "explain", "Why a record got its decision: every rule, matched or not, with the values of the "
                   "sub-expressions that decided it");
    rulesExplainCmd->add_option("--rules", rules.rules, "The rule set (YAML)")->required();
    rulesExplainCmd->add_option("--record", rules.record, "The record's id (its id column, else its number from 1)")
        ->required();
    for (auto* sub : {rulesCheckCmd, rulesEvalCmd, rulesImpactCmd, rulesAbCmd, rulesExplainCmd}) {
        auto* data = sub->add_option("--data", rules.data.data,
                                     "A stored dataset's name, or a .csv / .jsonl / .ndjson file read directly");
        if (sub != rulesCheckCmd)
            data->required();
        sub->add_option("--id-column", rules.data.idColumn, "The column that identifies records (files; default: id)");
        sub->add_option("--on-bad-row", rules.data.onBadRow,
                        "A record that cannot be read: fail (default) names it and stops; skip counts and reports it")
            ->check(CLI::IsMember({"fail", "skip"}));
        sub->add_option("--field", rules.data.fields, "A column's type, NAME:TYPE (int, double, bool, string, "
                                                      "timestamp), on top of the rule set's fields");
        sub->add_option("--store", rules.data.store, "Store file (for stored datasets)");
        sub->add_flag("--json", rules.json, "Print JSON");
        if (sub != rulesCheckCmd)
            sub->add_option("--sandbox", rules.data.sandbox,
                            "Read --data NAME as this sandbox's dataset reference (sandbench sandbox show)")
                ->check(sandboxName);
    }
    for (auto* sub : {rulesEvalCmd, rulesImpactCmd, rulesAbCmd})
        sub->add_option("--threads", rules.threads, "Threads to evaluate on (default: one per core)")
            ->check(CLI::Range(1u, 256u));
    for (auto* sub : {rulesImpactCmd, rulesAbCmd}) {
        sub->add_option("--label-column", rules.labelColumn,
                        "A column telling which records really are positives (fraud): caught vs hurt per decision");
        sub->add_option("--amount-column", rules.amountColumn,
                        "A number column (with --label-column): the amounts caught and hurt");
        sub->add_option("--limit", rules.limit,
                        "Changed records to list (default: 20 in text, all with --json)")
            ->check(CLI::NonNegativeNumber);
    }

    DataOptions data;
    auto* dataCmd = app.add_subcommand(
        "data", "Datasets: import CSV / JSON Lines files as immutable snapshots in the store, list and show them, "
                "generate synthetic card transactions");
    dataCmd->require_subcommand(1);
    auto* dataImportCmd = dataCmd->add_subcommand(
        "import", "Import a .csv / .jsonl / .ndjson file as a snapshot (optionally sampled) under a name");
    dataImportCmd->add_option("file", data.file, "The file to import")->required();
    dataImportCmd->add_option("--name", data.name, "The snapshot's name (letters, digits, _ - .)")->required();
    dataImportCmd->add_option("--sample", data.sample, "Keep each record with this probability (0 < RATIO <= 1)")
        ->check(CLI::Range(0.0, 1.0));
    dataImportCmd->add_option("--max-rows", data.maxRows, "Keep at most N records")->check(CLI::PositiveNumber);
    dataImportCmd->add_option("--seed", data.seed, "Seed of the sampling: the same seed keeps the same records");
    dataImportCmd->add_option("--id-column", data.idColumn, "The column that identifies records (default: id)");
    dataImportCmd->add_option("--field", data.fields, "A column's type, NAME:TYPE (else inferred)");
    dataImportCmd->add_option("--on-bad-row", data.onBadRow,
                              "A record that cannot be read: fail (default) names it and stops; skip counts and "
                              "reports it")
        ->check(CLI::IsMember({"fail", "skip"}));
    auto* dataListCmd = dataCmd->add_subcommand("list", "The stored datasets");
    auto* dataShowCmd = dataCmd->add_subcommand("show", "A stored dataset: schema, rows, hash, where it came from");
    dataShowCmd->add_option("name", data.name, "The dataset's name")->required();
    auto* dataGenerateCmd = dataCmd->add_subcommand(
        "generate", "Write synthetic card transactions with a fraud label (deterministic) as CSV");
    dataGenerateCmd->add_option("out", data.file, "The CSV file to write, or - for standard output")->required();
    dataGenerateCmd->add_option("--rows", data.rows, "How many transactions")->required()->check(CLI::NonNegativeNumber);
    auto* generateSeed = dataGenerateCmd->add_option("--seed", data.seed, "Seed (default: the demo's)");
    dataGenerateCmd->add_flag("--json", data.json, "Print JSON");
    for (auto* sub : {dataImportCmd, dataListCmd, dataShowCmd}) {
        sub->add_flag("--json", data.json, "Print JSON");
        sub->add_option("--store", data.store, "Store file");
    }
    PromoteOptions promote;
    auto* promoteCmd = app.add_subcommand(
        "promote", "Merge a sandbox's changes into its target (main): conflicts, impact, risk, compatibility, approval, "
                   "atomic apply; or only report (--dry-run), or write them out (--export, --patch)");
    promoteCmd->add_option("sandbox", promote.sandbox, "The sandbox whose changes are promoted")
        ->required()
        ->check(sandboxName);
    promoteCmd->add_option("--to", promote.target, "The target sandbox (default: main)")->check(sandboxName);
    auto* approveFlag = promoteCmd->add_flag("--approve", promote.approve,
                                             "Approve the promotion (required when its risk is high); with --by and --note");
    promoteCmd->add_option("--by", promote.by, "Who approves")->needs(approveFlag);
    promoteCmd->add_option("--note", promote.note, "Why it is approved")->needs(approveFlag);
    auto* dryRun = promoteCmd->add_flag("--dry-run", promote.dryRun, "Only report what would happen; apply nothing");
    auto* exportOption = promoteCmd->add_option(
        "--export", promote.exportDir, "Write the changed files and manifest.json to this new or empty folder; apply nothing");
    auto* patchOption = promoteCmd->add_option(
        "--patch", promote.patchFile, "Write the change as a git-style unified diff to this file; apply nothing");
    dryRun->excludes(exportOption)->excludes(patchOption);
    exportOption->excludes(patchOption);
    promoteCmd->add_option("--data", promote.data,
                           "A dataset (stored name, or a .csv/.jsonl file): rule sets are checked against its columns "
                           "and each changed rule set's impact rate on it grades the risk");
    promoteCmd->add_option("--risk-config", promote.riskConfig,
                           "Risk thresholds (YAML, a `promotion:` section; default STORE.d/promotion.yaml if present)");
    promoteCmd->add_option("--take-source", promote.takeSource,
                           "Settle the conflict at this path with the sandbox's side (repeatable)");
    promoteCmd->add_option("--take-target", promote.takeTarget,
                           "Settle the conflict at this path with the target's side (repeatable)");
    promoteCmd->add_flag("--json", promote.json, "Print JSON");
    promoteCmd->add_option("--store", promote.store, "Store file (default: see below)");

    bool doctorJson = false;
    auto* doctorCmd = app.add_subcommand("doctor", "Which isolation layers this machine and user can have, and why not");
    doctorCmd->add_flag("--json", doctorJson, "Print JSON");

    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitUsage;
    }

    if (runCmd->parsed())
        return runCommand(run);
    if (execCmd->parsed())
        return execCommand(exec);
    if (demoCmd->parsed())
        return demoCommand(demoStore, demoJson);
    if (metricsCmd->parsed())
        return metricsCommand(metricsStore, metricsJson);
    if (historyCmd->parsed())
        return historyCommand(historyStore, historyLimit, historyJson);
    if (policyCmd->parsed()) {
        policy.action = presetsCmd->parsed()    ? "presets"
                        : showCmd->parsed()     ? "show"
                        : versionsCmd->parsed() ? "versions"
                                                : "check";
        return policyCommand(policy);
    }
    if (auditCmd->parsed()) {
        audit.action = auditVerifyCmd->parsed() ? "verify" : "list";
        return auditCommand(audit);
    }
    if (rulesExprCmd->parsed())
        return rulesExprCommand(rulesExpr);
    if (rulesCmd->parsed()) {
        rules.action = rulesCheckCmd->parsed()    ? "check"
                       : rulesEvalCmd->parsed()   ? "eval"
                       : rulesImpactCmd->parsed() ? "impact"
                       : rulesAbCmd->parsed()     ? "ab"
                                                  : "explain";
        return rulesCommand(rules);
    }
    if (dataCmd->parsed()) {
        data.action = dataImportCmd->parsed() ? "import"
                      : dataListCmd->parsed() ? "list"
                      : dataShowCmd->parsed() ? "show"
                                              : "generate";
        data.seedGiven = generateSeed->count() > 0;
        return dataCommand(data);
    }
    if (doctorCmd->parsed())
        return doctorCommand(doctorJson);
    if (sandboxCmd->parsed()) {
        sandbox.action = sandboxCreate->parsed()    ? "create"
                         : sandboxList->parsed()    ? "list"
                         : sandboxPath->parsed()    ? "path"
                         : sandboxDestroy->parsed() ? "destroy"
                         : sandboxSet->parsed()     ? "set"
                         : sandboxShow->parsed()    ? "show"
                                                    : "sweep";
        if (sandboxCreate->parsed() && sandbox.sample < 1.0 && sandbox.datasets.empty()) {
            std::cerr << "sandbench: sandbox create: --sample samples the --dataset snapshots: name at least one\n";
            return kExitUsage;
        }
        return sandboxCommand(sandbox);
    }
    if (promoteCmd->parsed()) {
        if (promote.approve && (promote.by.empty() || promote.note.empty())) {
            std::cerr << "sandbench: promote: --approve needs --by NAME and --note TEXT (who approves, and why)\n";
            return kExitUsage;
        }
        for (const auto& path : promote.takeSource) {
            if (std::find(promote.takeTarget.begin(), promote.takeTarget.end(), path) != promote.takeTarget.end()) {
                std::cerr << "sandbench: promote: " << path << ": --take-source and --take-target both name it\n";
                return kExitUsage;
            }
        }
        return promoteCommand(promote);
    }
    if (checkpointCmd->parsed()) {
        if (checkpointPrune->parsed() && keepLast->count() == 0 && keepLabelled->count() == 0
            && youngerThan->count() == 0) {
            std::cerr << "sandbench: checkpoint prune: say what to keep: --keep-last N, --keep-labelled and/or "
                         "--younger-than D (the head is always kept)\n";
            return kExitUsage;
        }
        checkpoint.action = checkpointCreate->parsed()    ? "create"
                            : checkpointList->parsed()    ? "list"
                            : checkpointDiff->parsed()    ? "diff"
                            : checkpointRestore->parsed() ? "restore"
                            : checkpointFork->parsed()    ? "fork"
                            : checkpointLabel->parsed()   ? "label"
                                                          : "prune";
        return checkpointCommand(checkpoint);
    }
    return kExitUsage;
}
