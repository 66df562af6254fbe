#include "store/audit_subjects.h"

#include "audit_rows.h"
#include "store/sqlite_db.h"
#include "store/store.h"
#include "util/printable.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>

namespace sb {

namespace {

using audit_rows::guarded;
using sqlite::columnString;
using sqlite::Db;

constexpr std::size_t kLabelChars = 60; // a label or a command beside an id, in a table cell

nlohmann::json detailsOf(const AuditRecord& record)
{
    auto details = nlohmann::json::parse(record.details, nullptr, /*allow_exceptions=*/false);
    return details.is_object() ? details : nlohmann::json::object();
}

std::string stringAt(const nlohmann::json& details, const char* key)
{
    const auto found = details.find(key);
    return found != details.end() && found->is_string() ? found->get<std::string>() : std::string();
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

std::string shortId(std::string_view id)
{
    return printable(id.substr(0, kAuditShortId));
}

std::string checkpointName(const AuditSubject& subject, std::string_view label)
{
    std::string name = fmt::format("{} · checkpoint {}", printable(subject.sandbox, kLabelChars), shortId(subject.id));
    if (!label.empty())
        name += fmt::format(" “{}”", printable(label, kLabelChars));
    return name;
}

// "python3 agent.py in trial": the program's file name, its arguments, and the sandbox.
std::string sessionName(const AuditSubject& subject, const nlohmann::json& start)
{
    std::string command;
    if (const auto argv = start.find("command"); argv != start.end() && argv->is_array()) {
        for (const auto& arg : *argv) {
            if (!arg.is_string())
                continue;
            std::string text = arg.get<std::string>();
            if (command.empty())
                text = text.substr(text.rfind('/') == std::string::npos ? 0 : text.rfind('/') + 1);
            command += (command.empty() ? "" : " ") + text;
        }
    }
    std::string name = "session " + shortId(subject.id);
    if (!command.empty())
        name += " · " + printable(command, kLabelChars);
    if (const std::string sandbox = stringAt(start, "sandbox"); !sandbox.empty())
        name += " in " + printable(sandbox, kLabelChars);
    return name;
}

// The latest label of each checkpoint (by id) that the log's create and label entries gave it.
Result<std::map<std::string, std::string>> checkpointLabels(const Db& db, const std::set<std::string>& ids)
{
    std::map<std::string, std::string> labels;
    if (ids.empty())
        return labels;
    auto statement = db.prepare(
        "SELECT details FROM audit_log WHERE operation IN ('checkpoint.create', 'checkpoint.label') "
        "AND (CASE WHEN json_valid(details) THEN json_extract(details, '$.checkpoint') END) "
        "IN (SELECT value FROM json_each(?1)) ORDER BY seq");
    if (!statement)
        return std::unexpected(statement.error());
    // Bound without a copy: the text must outlive the statement's steps.
    const std::string wanted = nlohmann::json(ids).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    sqlite::Binder bind(statement->get());
    bind.text(1, wanted);
    if (!bind.ok())
        return db.error("cannot read the checkpoints' labels in the audit log");
    int rc = 0;
    while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
        AuditRecord record;
        record.details = columnString(statement->get(), 0);
        const auto details = detailsOf(record);
        labels[stringAt(details, "checkpoint")] = stringAt(details, "label");
    }
    if (rc != SQLITE_DONE)
        return db.error("cannot read the checkpoints' labels in the audit log");
    return labels;
}

// The details of each session's start entry, by session id.
Result<std::map<std::string, nlohmann::json>> sessionStarts(const Db& db, const std::set<std::string>& ids)
{
    std::map<std::string, nlohmann::json> starts;
    if (ids.empty())
        return starts;
    auto statement = db.prepare("SELECT subject, details FROM audit_log WHERE operation = 'session.start' "
                                "AND subject IN (SELECT value FROM json_each(?1))");
    if (!statement)
        return std::unexpected(statement.error());
    // Bound without a copy: the text must outlive the statement's steps.
    const std::string wanted = nlohmann::json(ids).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    sqlite::Binder bind(statement->get());
    bind.text(1, wanted);
    if (!bind.ok())
        return db.error("cannot read the sessions' starts in the audit log");
    int rc = 0;
    while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
        AuditRecord record;
        record.details = columnString(statement->get(), 1);
        starts[columnString(statement->get(), 0)] = detailsOf(record);
    }
    if (rc != SQLITE_DONE)
        return db.error("cannot read the sessions' starts in the audit log");
    return starts;
}

} // namespace

std::string_view toString(AuditSubjectKind kind)
{
    switch (kind) {
    case AuditSubjectKind::Other: return "other";
    case AuditSubjectKind::Run: return "run";
    case AuditSubjectKind::Sandbox: return "sandbox";
    case AuditSubjectKind::Checkpoint: return "checkpoint";
    case AuditSubjectKind::Session: return "session";
    case AuditSubjectKind::Policy: return "policy";
    case AuditSubjectKind::Dataset: return "dataset";
    }
    return "other";
}

AuditSubject auditSubjectOf(const AuditRecord& record)
{
    const auto details = detailsOf(record);
    const std::string_view operation = record.operation;
    AuditSubject subject;
    subject.id = record.subject;
    subject.outcome = stringAt(details, "outcome");
    if (subject.outcome.empty())
        subject.outcome = stringAt(details, "status");

    if (operation == audit_op::kRun) {
        subject.kind = AuditSubjectKind::Run;
        subject.name = "run " + shortId(subject.id);
        // Its label (the file it ran from), else its language: a snippet typed in the editor has no label.
        std::string label = stringAt(details, "label");
        if (label.empty())
            label = stringAt(details, "language");
        if (!label.empty())
            subject.name += " · " + printable(label, kLabelChars);
    } else if (startsWith(operation, "session.")) {
        subject.kind = AuditSubjectKind::Session;
        subject.name = sessionName(subject, operation == audit_op::kSessionStart ? details : nlohmann::json::object());
    } else if (const std::string checkpoint = stringAt(details, "checkpoint");
               !checkpoint.empty()
               && (startsWith(operation, "checkpoint.") || startsWith(operation, "sandbox.")
                   || operation == audit_op::kPromote || operation == audit_op::kApprove)) {
        // The engine's operations name the sandbox as their subject and the checkpoint made or acted on in
        // their details: the checkpoint says more.
        subject.kind = AuditSubjectKind::Checkpoint;
        subject.id = checkpoint;
        subject.sandbox = record.subject;
        const bool labels = operation == audit_op::kCheckpointCreate || operation == audit_op::kCheckpointLabel;
        subject.name = checkpointName(subject, labels ? stringAt(details, "label") : std::string());
    } else if (startsWith(operation, "sandbox.")) {
        subject.kind = AuditSubjectKind::Sandbox;
        subject.name = "sandbox " + printable(record.subject, kLabelChars);
    } else if (operation == audit_op::kPolicyVersion) {
        subject.kind = AuditSubjectKind::Policy;
        subject.name = "policy " + printable(record.subject, kLabelChars);
    } else if (startsWith(operation, "dataset.")) {
        subject.kind = AuditSubjectKind::Dataset;
        subject.name = "dataset " + printable(record.subject, kLabelChars);
    } else {
        subject.name = printable(record.subject, kLabelChars);
    }
    return subject;
}

Result<std::vector<AuditSubject>> describeAuditSubjects(const Store& store, std::span<const AuditRecord> records)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    return guarded(*db, "naming the audit log's subjects", [&]() -> Result<std::vector<AuditSubject>> {
        std::vector<AuditSubject> subjects;
        subjects.reserve(records.size());
        std::set<std::string> checkpoints;
        std::set<std::string> sessions;
        for (const AuditRecord& record : records) {
            subjects.push_back(auditSubjectOf(record));
            if (subjects.back().kind == AuditSubjectKind::Checkpoint)
                checkpoints.insert(subjects.back().id);
            else if (subjects.back().kind == AuditSubjectKind::Session)
                sessions.insert(subjects.back().id);
        }
        auto labels = checkpointLabels(*db, checkpoints);
        if (!labels)
            return std::unexpected(labels.error());
        auto starts = sessionStarts(*db, sessions);
        if (!starts)
            return std::unexpected(starts.error());
        for (AuditSubject& subject : subjects) {
            if (subject.kind == AuditSubjectKind::Checkpoint) {
                if (const auto label = labels->find(subject.id); label != labels->end())
                    subject.name = checkpointName(subject, label->second);
            } else if (subject.kind == AuditSubjectKind::Session) {
                if (const auto start = starts->find(subject.id); start != starts->end())
                    subject.name = sessionName(subject, start->second);
            }
        }
        return subjects;
    });
}

} // namespace sb
