#pragma once

#include "cluster_support.h"

#include "store/store.h"
#include "usecases/policy_reference.h"
#include "usecases/run_helper.h"
#include "util/error.h"
#include "sandboxes/sandbox_engine.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sb::cli {

// Exit statuses besides the per-outcome ones of sb::exitStatusFor(): documented in README.md.
inline constexpr int kExitFailure = 1; // Sandbench itself could not do it (store, input file, ...)
inline constexpr int kExitUsage = 2;

struct RunOptions {
    std::string file;        // path or "-" for standard input
    std::string language;    // "", python, sh
    std::int64_t timeoutMs = 0;
    std::int64_t memoryMb = 0;
    std::string policyFile;
    std::string level;       // "", process, container, strict
    std::string store;
    std::string sandbox;     // run in this sandbox's workspace instead of a fresh work dir
    bool json = false;
    std::vector<std::string> command; // exec: the argv
};

struct PolicyOptions {
    std::string action;      // presets, show, check, versions
    std::string argument;    // show: a preset or policy name; check: a file or preset; versions: a name or ""
    std::int64_t version = 0; // show: a version stored in the store (0: show the preset)
    std::string store;
    bool json = false;
};

struct AuditOptions {
    std::string action;       // list, verify
    std::string store;
    bool json = false;
    // list
    std::string operation;
    std::string actor;
    std::string subject;
    std::string text;
    std::string since;        // as typed; checked by the parser (parseTimePointMs)
    std::string until;
    std::int64_t limit = 0;   // 0: every entry
    // verify
    std::string anchor;
    std::string keys;         // folder of audit keys; empty: the default (store/audit_key.h)
};

struct RulesExprOptions {
    std::string expression;
    std::string record; // a JSON object, or @FILE; empty: no fields
    bool json = false;
};

// Where --data comes from and how it is read (every rules command that takes data).
struct DataSourceOptions {
    std::string data;                // a stored dataset's name, or a .csv / .jsonl / .ndjson file
    std::string idColumn;            // empty: `id` when there is one
    std::string onBadRow = "fail";   // fail, skip
    std::vector<std::string> fields; // NAME:TYPE, on top of the rule sets' fields
    std::string store;
    std::string sandbox;             // resolve a dataset name through this sandbox's references
    bool storeIfNotReferenced = false; // a name the sandbox does not refer to: the store's dataset of that name
};

struct RulesOptions {
    std::string action; // check, eval, impact, ab, explain
    std::string file;   // check: the rule set
    std::string rules;  // eval, explain
    std::string baseline;
    std::string candidate;
    std::vector<std::string> variants;
    std::string record; // explain
    std::string labelColumn;
    std::string amountColumn;
    std::int64_t limit = -1; // changed records listed (-1: 20 in text, all in JSON)
    unsigned threads = 0;
    DataSourceOptions data;
    BackendOptions backend;
    bool json = false;
    // task: one task of a cluster's job (usecases/sharded_rules.h)
    std::string job;
    std::string stage;
    std::int64_t shard = -1; // -1: SLURM_ARRAY_TASK_ID
};

struct DataOptions {
    std::string action; // import, list, show, generate
    std::string file;   // import: the input; generate: the output ("-": standard output)
    std::string name;
    double sample = 1.0;
    std::int64_t maxRows = 0;
    std::uint64_t seed = 0;
    bool seedGiven = false;
    std::int64_t rows = 0;
    std::string idColumn;
    std::string onBadRow = "fail";
    std::vector<std::string> fields;
    std::string store;
    bool json = false;
};

// Shared by the command files: the store named by --store (else the default), an error on stderr (returns
// kExitFailure), and a local time as text.
Result<Store> openStore(const std::string& path);
int reportError(const std::string& message);
std::string formatTime(std::int64_t epochMs);
// sandbench sandbox create|list|path|destroy|sweep|set|show
struct SandboxOptions {
    std::string action;
    std::string name;
    std::string from;                  // create: "" (main), a sandbox or a checkpoint id
    std::string importDir;             // create --import
    std::vector<std::string> includes;
    std::vector<std::string> excludes;
    std::string expires;               // create, set: a duration (set: or "none"; checked by the parser)
    std::string quota;                 // create, set: a size (set: or "none")
    std::string idle;                  // create, set: a duration (set: or "none")
    std::string policy;                // create, set: a policy file or preset (set: or "none")
    std::string owner;                 // set
    std::vector<std::string> datasets; // create, set: stored dataset snapshots to refer to
    std::vector<std::string> dropDatasets; // set
    double sample = 1.0;               // create: sample each --dataset at this ratio
    std::uint64_t seed = 0;
    std::string store;
    bool json = false;
};

// sandbench checkpoint create|list|diff|restore|fork|prune|label
struct CheckpointOptions {
    std::string action;
    std::string sandbox;               // create, list, prune: --sandbox; restore: optional target
    std::string label;
    std::string message;
    std::string first;                 // diff A, restore ID, fork ID, label ID
    std::string second;                // diff B ("" = the live workspace)
    std::string name;                  // fork --name
    bool nameOnly = false;             // diff --name-only
    std::int64_t keepLast = -1;        // prune: -1 = not given
    bool keepLabelled = false;
    std::string youngerThan;           // prune: a duration
    std::string store;
    bool json = false;
};

// sandbench promote SANDBOX [--to TARGET] [--approve --by NAME --note TEXT] [--dry-run|--export DIR|--patch FILE]
struct PromoteOptions {
    std::string sandbox;
    std::string target = "main";
    bool approve = false;
    std::string by;
    std::string note;
    bool dryRun = false;
    std::string exportDir;
    std::string patchFile;
    std::string riskConfig;            // "": STORE.d/promotion.yaml when it exists, else the defaults
    std::vector<std::string> takeSource; // conflicting paths settled with the sandbox's side
    std::vector<std::string> takeTarget; // ... with the target's
    std::string data;                  // a dataset (stored name or file): rule sets' fields checked, impact rated
    std::string store;
    bool json = false;
};

// The store and the workspace engine on it; opening the engine settles what a killed Sandbench left.
struct OpenedEngine {
    std::unique_ptr<Store> store;
    std::unique_ptr<SandboxEngine> engine;
};
Result<OpenedEngine> openEngine(const std::string& storePath);

int sandboxCommand(const SandboxOptions& options);
int promoteCommand(const PromoteOptions& options);
int checkpointCommand(const CheckpointOptions& options);
// checkpoint create and restore, printing what the command prints to `out` and `err`: in the command, and in the
// run helper for a command that handed its command line over.
int checkpointCreate(SandboxEngine& engine, const CheckpointOptions& options, std::ostream& out, std::ostream& err,
                     const ProgressCallback& progress = {});
int checkpointRestore(SandboxEngine& engine, const CheckpointOptions& options, std::ostream& out, std::ostream& err,
                      const ProgressCallback& progress = {});
// The request a `checkpoint create` or `checkpoint restore` command line makes of the run helper (its task), or
// why the helper leaves it to the command.
std::expected<helper::Request, std::string> checkpointRequestForHelper(const std::vector<std::string>& args,
                                                                       const helper::Environment& context);

int runCommand(const RunOptions& options);
int execCommand(const RunOptions& options);
// What run and exec ask: the run request their options make (the snippet read, for run), and the request they
// would send the helper with it (Client::ask), or why they would not ask it.
Result<RunRequest> runRequestOf(const RunOptions& options);
RunRequest execRequestOf(const RunOptions& options);
std::expected<helper::Request, std::string> helperRequestOf(RunRequest request, const RunOptions& options,
                                                            helper::Environment context);
// The helper's side of a command line (helper::ServerOptions::commandLine): a run or exec command line parsed
// with the command's own definitions (run_cli.cpp) into the request the command would have sent.
std::expected<helper::Request, std::string> helperRequestOfCommandLine(const std::vector<std::string>& args,
                                                                       const helper::Environment& context);
// sandbench serve: the run helper (usecases/run_helper.h) until it is stopped or idle for `idleSeconds` (0: never).
int serveCommand(std::int64_t idleSeconds);
int demoCommand(const std::string& store, bool json);
int metricsCommand(const std::string& store, bool json);
int historyCommand(const std::string& store, int limit, bool json);
int doctorCommand(bool json);
int policyCommand(const PolicyOptions& options);
int auditCommand(const AuditOptions& options);
int rulesExprCommand(const RulesExprOptions& options);
int rulesCommand(const RulesOptions& options);
int dataCommand(const DataOptions& options);

} // namespace sb::cli
