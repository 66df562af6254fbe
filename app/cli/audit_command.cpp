// sandbench audit list | verify: the store's audit log, filtered, and the proof that it is untouched.

#include "commands.h"

#include "report.h"

#include "store/audit.h"
#include "usecases/audit_verify.h"
#include "util/printable.h"
#include "util/time_text.h"

#include <fmt/format.h>

#include <iostream>

namespace sb::cli {

namespace {

int auditListCommand(const AuditOptions& options)
{
    AuditFilter filter{.operation = options.operation,
                       .actor = options.actor,
                       .subject = options.subject,
                       .text = options.text,
                       .limit = options.limit};
    // Both were checked by the parser; read against one "now" so --since 2h --until 1h is one window.
    const std::int64_t now = nowEpochMs();
    if (!options.since.empty())
        filter.sinceMs = parseTimePointMs(options.since, now).value_or(0);
    if (!options.until.empty())
        filter.untilMs = parseTimePointMs(options.until, now).value_or(0);

    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    auto records = listAudit(*store, filter);
    if (!records)
        return reportError(records.error().message);
    // A row edited into nonsense is still listed; what is wrong with it goes to stderr.
    for (const auto& record : *records) {
        if (!record.problem.empty())
            std::cerr << fmt::format("sandbench: warning: store {}: audit {} (see: sandbench audit verify)\n",
                                     printable(store->path().string()), printable(record.problem));
    }

    if (options.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& record : *records)
            list.push_back(auditRecordToJson(record));
        std::cout << dumpJson(list) << '\n';
        return 0;
    }
    if (records->empty()) {
        std::cerr << fmt::format("no audit entries{} in {}\n",
                                 options.operation.empty() && options.actor.empty() && options.subject.empty()
                                         && options.text.empty() && !filter.sinceMs && !filter.untilMs
                                     ? ""
                                     : " match",
                                 printable(store->path().string()));
        return 0;
    }
    std::cout << fmt::format("{:>6}  {:<19}  {:<12}  {:<18}  {:<36}  {}\n", "seq", "time", "actor", "operation",
                             "subject", "details");
    for (const auto& record : *records)
        std::cout << fmt::format("{:>6}  {:<19}  {:<12}  {:<18}  {:<36}  {}\n", record.seq, formatTime(record.atMs),
                                 printable(record.actor, 12), printable(record.operation, 32),
                                 printable(record.subject, 40), auditDetailsLine(record.details));
    return 0;
}

// What the signatures proved, in one line.
std::string signaturesLine(const AuditVerification& result)
{
    if (!result.key)
        return result.entries == 0
                   ? std::string("signatures: none yet (the store gets its audit key with its first entry)")
                   : fmt::format("signatures: none: the entries were written before the store had an audit key "
                                 "(it gets one with its next entry); only their hash chain was checked");
    const AuditKeyFound& key = *result.key;
    std::string line =
        fmt::format("signatures: {} {} signed by the store's key {} ({})", result.signedEntries,
                    result.signedEntries == 1 ? "entry" : "entries", key.id, printable(key.file.string()));
    if (result.entriesBeforeKey > 0)
        line += fmt::format("; {} written before it, pinned by its record of entry {}",
                            result.entriesBeforeKey == 1 ? std::string("entry 1")
                                                         : fmt::format("entries 1–{}", result.entriesBeforeKey),
                            result.entriesBeforeKey);
    return line;
}

int auditVerifyCommand(const AuditOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    auto verification = verifyAuditLog(*store, AuditVerifyRequest{.anchor = options.anchor, .keys = options.keys});
    if (!verification)
        return reportError(verification.error().message);
    const AuditVerification& result = *verification;
    const AuditVerdict verdict = verdictOf(result);
    for (const auto& warning : result.warnings)
        std::cerr << "sandbench: warning: " << printable(warning) << '\n';

    if (options.json) {
        auto report = auditVerificationToJson(result);
        report["store"] = store->path().string();
        if (!options.anchor.empty())
            report["anchor"] = options.anchor;
        std::cout << dumpJson(report) << '\n';
    } else if (verdict == AuditVerdict::Intact) {
        std::cout << fmt::format("audit log intact: {} {} in {}\n", result.entries,
                                 result.entries == 1 ? "entry" : "entries", printable(store->path().string()));
        std::cout << fmt::format("head: entry {} {}\n", result.headSeq, result.headHash);
        std::cout << signaturesLine(result) << '\n';
        if (!options.anchor.empty())
            std::cout << "anchor found: the log holds the entry it names\n";
        else
            std::cout << "Keep the head hash somewhere else and pass it back with --anchor to prove later that the "
                         "log was not rewritten.\n";
    } else if (verdict == AuditVerdict::NotVerified) {
        // Nothing was found wrong, but not everything could be checked: not a pass.
        std::cout << fmt::format("audit log NOT VERIFIED ({}): {}\n", toString(result.broken->damage),
                                 printable(result.broken->message));
        std::cout << fmt::format("the hash chain of its {} {} is intact; head: entry {} {}\n", result.entries,
                                 result.entries == 1 ? "entry" : "entries", result.headSeq, result.headHash);
        std::cout << fmt::format("store: {}\n", printable(store->path().string()));
    } else {
        const AuditBreak& broken = *result.broken;
        std::cout << fmt::format("audit log BROKEN ({}): {}\n", toString(broken.damage), printable(broken.message));
        if (broken.seq == 2)
            std::cout << "entry 1 is intact\n";
        else if (broken.seq > 2)
            std::cout << fmt::format("entries 1–{} are intact\n", broken.seq - 1);
        std::cout << fmt::format("store: {}\n", printable(store->path().string()));
    }
    return verdict == AuditVerdict::Intact ? 0 : kExitFailure;
}

} // namespace

int auditCommand(const AuditOptions& options)
{
    if (options.action == "verify")
        return auditVerifyCommand(options);
    return auditListCommand(options);
}

} // namespace sb::cli
