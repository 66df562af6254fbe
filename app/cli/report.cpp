#include "report.h"

#include "agents/session_store.h"
#include "util/time_text.h"
#include "util/utf8.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace sb::cli {

using nlohmann::json;

json policyVersionToJson(const PolicyVersion& policy)
{
    return {{"name", policy.name}, {"version", policy.version}, {"sha256", policy.sha256}};
}

json runToJson(const RunRequest& request, const RunResult& r, const PolicyVersion* policy)
{
    json blocked = json::array();
    for (const auto& b : r.blocked)
        blocked.push_back({{"kind", b.kind}, {"detail", b.detail}});
    json claims = json::array();
    for (const auto& c : r.claims)
        claims.push_back({{"kind", c.kind}, {"detail", c.detail}});
    json layers = json::object();
    for (const auto& [name, on] : r.isolation.layers)
        layers[name] = on;
    return {{"run_id", r.runId},
            {"outcome", toString(r.outcome)},
            {"exit_code", r.exitCode},
            {"signal", r.signal},
            {"stdout", r.stdoutText},
            {"stderr", r.stderrText},
            {"stdout_truncated", r.stdoutTruncated},
            {"stderr_truncated", r.stderrTruncated},
            {"duration_ms", std::round(r.durationMs * 1000) / 1000},
            {"cpu_ms", std::round(r.cpuMs * 1000) / 1000},
            {"peak_rss_kb", r.peakRssKb},
            {"blocked", blocked},
            {"claims", claims},
            {"isolation", {{"level", toString(r.isolation.level)}, {"layers", layers}}},
            {"message", r.message.text()},
            {"language", toString(request.language)},
            {"policy", request.policy.name},
            // Not folded into "policy", which scripts already read as the name.
            {"policy_version", policy ? policyVersionToJson(*policy) : json(nullptr)},
            {"started_at_ms", r.startedAtMs}};
}

json metricsToJson(const MetricsSnapshot& m)
{
    json outcomes = json::object();
    json rates = json::object();
    for (const auto& o : m.outcomes) {
        outcomes[std::string(toString(o.outcome))] = o.count;
        rates[std::string(toString(o.outcome))] = o.rate;
    }
    json histogram = json::array();
    for (const auto& bin : m.durationHistogram) {
        json high = std::isinf(bin.highMs) ? json(nullptr) : json(bin.highMs);
        histogram.push_back({{"low_ms", bin.lowMs}, {"high_ms", high}, {"count", bin.count}});
    }
    json recent = json::array();
    for (const auto& e : m.recent) {
        recent.push_back({{"run_id", e.runId},
                          {"started_at_ms", e.startedAtMs},
                          {"label", e.label},
                          {"language", e.language},
                          {"outcome", toString(e.outcome)},
                          {"duration_ms", e.durationMs},
                          {"detail", e.detail}});
    }
    return {{"total", m.total},
            {"outcomes", outcomes},
            {"rates", rates},
            {"duration_ms", {{"p50", m.p50Ms}, {"p95", m.p95Ms}, {"p99", m.p99Ms}}},
            {"duration_histogram", histogram},
            {"recent", recent}};
}

json doctorToJson(const DoctorReport& report)
{
    json layers = json::object();
    for (const auto& l : report.layers)
        layers[l.name] = {{"available", l.available}, {"detail", l.detail}};
    json levels = json::object();
    for (const auto& [level, ok] : report.levels)
        levels[std::string(toString(level))] = ok;
    return {{"layers", layers}, {"levels", levels}, {"notes", report.notes}};
}

json slurmDoctorToJson(const cluster::SlurmDoctor& slurm)
{
    json checks = json::object();
    for (const auto& c : slurm.checks)
        checks[c.name] = {{"ok", c.ok}, {"detail", c.detail}};
    return {{"configured", slurm.configured},
            {"config", slurm.config.string()},
            {"error", slurm.configError.empty() ? json(nullptr) : json(slurm.configError)},
            {"ready", slurm.ok()},
            {"checks", checks}};
}

json auditRecordToJson(const AuditRecord& record)
{
    // The details as JSON when they parse (Sandbench writes objects); a hand-edited text stays a string.
    json details = json::parse(record.details, nullptr, /*allow_exceptions=*/false);
    if (details.is_discarded())
        details = record.details;
    json entry = {{"seq", record.seq},
                  {"at_ms", record.atMs},
                  {"at", formatIsoUtc(record.atMs)},
                  {"actor", record.actor},
                  {"operation", record.operation},
                  {"subject", record.subject},
                  {"details", std::move(details)},
                  {"prev_hash", record.prevHash},
                  {"hash", record.hash},
                  {"mac", record.mac.empty() ? json(nullptr) : json(record.mac)}};
    if (!record.problem.empty())
        entry["problem"] = record.problem;
    return entry;
}

json auditVerificationToJson(const AuditVerification& verification)
{
    json broken = nullptr;
    if (verification.broken)
        broken = {{"seq", verification.broken->seq},
                  {"kind", toString(verification.broken->damage)},
                  {"message", verification.broken->message}};
    json key = nullptr;
    if (verification.key)
        key = {{"id", verification.key->id},
               {"file", verification.key->file.string()},
               {"found", verification.key->found},
               {"first_seq", verification.key->found ? json(verification.key->firstSeq) : json(nullptr)}};
    json witness = nullptr;
    if (verification.witness)
        witness = {{"seq", verification.witness->seq},
                   {"hash", verification.witness->hash},
                   {"at_ms", verification.witness->atMs}};
    return {{"intact", verification.intact()},
            {"entries", verification.entries},
            {"head", {{"seq", verification.headSeq}, {"hash", verification.headHash}}},
            {"first_broken", std::move(broken)},
            {"key", std::move(key)},
            {"signed_entries", verification.signedEntries},
            {"entries_before_key", verification.entriesBeforeKey},
            {"witness", std::move(witness)},
            {"warnings", verification.warnings}};
}

json agentSessionToJson(const agents::AgentSessionResult& result)
{
    json out = agents::sessionJson(result.session);
    out["agent"] = {{"outcome", std::string(toString(result.agent.outcome))},
                    {"exit_code", result.agent.exitCode},
                    {"stderr", result.agent.stderrText},
                    {"run_id", result.agent.runId}};
    return out;
}

std::string dumpJson(const json& j)
{
    return j.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string dumpOrderedJson(const nlohmann::ordered_json& j)
{
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string humanBytes(std::int64_t kib)
{
    if (kib >= 1024 * 1024)
        return fmt::format("{:.1f} GiB", static_cast<double>(kib) / (1024.0 * 1024.0));
    if (kib >= 1024)
        return fmt::format("{:.1f} MiB", static_cast<double>(kib) / 1024.0);
    return fmt::format("{} KiB", kib);
}

json sandboxToJson(const SandboxInfo& sandbox, std::int64_t nowMs)
{
    return {{"name", sandbox.name},
            {"owner", sandbox.owner},
            {"created_at_ms", sandbox.createdAtMs},
            {"expires_at_ms", sandbox.expiresAtMs ? json(*sandbox.expiresAtMs) : json(nullptr)},
            {"expired", sandbox.expired(nowMs)},
            {"origin", sandbox.origin},
            {"includes", sandbox.includes},
            {"excludes", sandbox.excludes},
            {"head", sandbox.head},
            {"checkpoints", sandbox.checkpoints},
            {"files", sandbox.files},
            {"bytes", sandbox.bytes},
            // The same folder under two names: "path" as `sandbox path` prints it, "workspace" as it is.
            {"path", sandbox.workspace.string()},
            {"workspace", sandbox.workspace.string()},
            // Governance (schema 6).
            {"quota_bytes", sandbox.quotaBytes ? json(*sandbox.quotaBytes) : json(nullptr)},
            {"idle_timeout_ms", sandbox.idleTimeoutMs ? json(*sandbox.idleTimeoutMs) : json(nullptr)},
            {"last_activity_ms", sandbox.lastActivityMs},
            {"idle_ms", sandbox.idleMs(nowMs)},
            {"state", sandbox.state()},
            {"policy", sandbox.policy.empty() ? json(nullptr) : json(sandbox.policy)},
            {"datasets", datasetsToJson(sandbox.datasets)}};
}

json datasetsToJson(const std::vector<DatasetRef>& datasets)
{
    json out = json::array();
    for (const auto& d : datasets) {
        json item = {{"name", d.name}, {"snapshot", d.snapshot}, {"sha256", d.sha256}, {"sampled", d.sampled}};
        if (d.sampled) {
            item["sample"] = d.sample;
            item["seed"] = d.seed;
        }
        out.push_back(std::move(item));
    }
    return out;
}

json checkpointToJson(const CheckpointInfo& c)
{
    return {{"id", c.id},
            {"sandbox", c.sandbox},
            {"parents", c.parents},
            {"kind", c.kind},
            {"label", c.label},
            {"message", c.message},
            {"author", c.author},
            {"created_at_ms", c.createdAtMs},
            {"source", c.source.empty() ? json(nullptr) : json(c.source)},
            {"tree", hashHex(c.tree)},
            {"files", c.files},
            {"bytes", c.bytes},
            {"policy", c.policy.empty() ? json(nullptr) : json(c.policy)},
            {"datasets", datasetsToJson(c.datasets)}};
}

void putPath(json& object, const std::string& path)
{
    object["path"] = path;
    if (!utf8::isPlainText(path)) {
        std::string hex;
        for (unsigned char c : path)
            hex += fmt::format("{:02x}", c);
        object["path_hex"] = hex;
    }
}

json skippedToJson(const std::vector<Skipped>& skipped)
{
    json list = json::array();
    for (const auto& s : skipped) {
        json entry = {{"reason", s.reason}};
        putPath(entry, s.path);
        list.push_back(std::move(entry));
    }
    return list;
}

json diffToJson(const DiffResult& diff)
{
    json files = json::array();
    json added = json::array();
    json removed = json::array();
    json modified = json::array();
    for (const auto& file : diff.files) {
        const TreeChange& change = file.change;
        const TreeEntry& entry = change.after ? *change.after : *change.before;
        json item = {{"status", toString(change.kind)},
                     {"type", toString(entry.type)},
                     {"binary", file.binary},
                     {"diff", file.unified.empty() ? json(nullptr) : json(file.unified)},
                     {"note", file.binary ? json("binary differs")
                                          : file.tooLarge ? json("too large for a line diff") : json(nullptr)},
                     {"old_size", change.before ? json(change.before->size) : json(nullptr)},
                     {"new_size", change.after ? json(change.after->size) : json(nullptr)},
                     {"old_mode", change.before ? json(fmt::format("{:o}", change.before->mode)) : json(nullptr)},
                     {"new_mode", change.after ? json(fmt::format("{:o}", change.after->mode)) : json(nullptr)}};
        putPath(item, change.path);
        files.push_back(std::move(item));
        (change.kind == ChangeKind::Added ? added : change.kind == ChangeKind::Removed ? removed : modified)
            .push_back(change.path);
    }
    json out = {{"from", diff.from},
                {"to", diff.to},
                {"added", added},
                {"removed", removed},
                {"modified", modified},
                {"summary", {{"added", diff.counts.added}, {"removed", diff.counts.removed}, {"modified", diff.counts.modified}}},
                {"files", files}};
    if (!diff.sandbox.empty())
        out["sandbox"] = diff.sandbox;
    if (!diff.skipped.empty())
        out["skipped"] = skippedToJson(diff.skipped);
    return out;
}

} // namespace sb::cli
