#pragma once

// JSON and text renderings of core results for the command line. The JSON field names are a contract.

#include "agents/agent_session.h"
#include "cluster/slurm.h"
#include "isolation/doctor.h"
#include "isolation/run.h"
#include "store/audit.h"
#include "store/metrics.h"
#include "store/store.h"
#include "sandboxes/sandbox_engine.h"

#include <nlohmann/json.hpp>

namespace sb::cli {

// `policy`: the stored version the run references, as `policy_version`; null when the run was not recorded.
nlohmann::json runToJson(const RunRequest& request, const RunResult& result, const PolicyVersion* policy);
nlohmann::json policyVersionToJson(const PolicyVersion& policy);
nlohmann::json metricsToJson(const MetricsSnapshot& metrics);
nlohmann::json doctorToJson(const DoctorReport& report);
// sandbench doctor --json's backends.slurm: configured, config, error, ready, checks (sinfo, partition, spool).
nlohmann::json slurmDoctorToJson(const cluster::SlurmDoctor& slurm);
// {seq, at_ms, at (ISO 8601 UTC), actor, operation, subject, details, prev_hash, hash[, problem]}
nlohmann::json auditRecordToJson(const AuditRecord& record);
// {intact, entries, head: {seq, hash}, first_broken: null | {seq, kind, message}}
nlohmann::json auditVerificationToJson(const AuditVerification& verification);

// Sandboxes and checkpoints (see README.md, "Sandboxes and checkpoints", for every field).
nlohmann::json sandboxToJson(const SandboxInfo& sandbox, std::int64_t nowMs);
nlohmann::json checkpointToJson(const CheckpointInfo& checkpoint);
nlohmann::json datasetsToJson(const std::vector<DatasetRef>& datasets);
nlohmann::json skippedToJson(const std::vector<Skipped>& skipped);
nlohmann::json diffToJson(const DiffResult& diff);
// An agent session as `agent run --json` prints it: the session (agents::sessionJson) and its agent's run as
// `agent` {outcome, exit_code, stderr, run_id}.
nlohmann::json agentSessionToJson(const agents::AgentSessionResult& result);
// A path as JSON: "path" (invalid UTF-8 replaced) plus "path_hex" when the name is not UTF-8.
void putPath(nlohmann::json& object, const std::string& path);

// Invalid UTF-8 in program output is replaced, never an error.
std::string dumpJson(const nlohmann::json& j);
std::string dumpOrderedJson(const nlohmann::ordered_json& j); // keeps the fields in the order they were written

std::string humanBytes(std::int64_t kib);

} // namespace sb::cli
