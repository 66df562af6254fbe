#include "store/audit_export.h"

#include "store/audit_subjects.h"
#include "store/store.h"
#include "util/time_text.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <system_error>

namespace sb {

namespace {

constexpr std::int64_t kProgressEvery = 1000; // entries between two progress reports

// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
std::string csvField(std::string_view value)
{
    if (value.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(value);
    std::string quoted = "\"";
    for (const char c : value) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string csvLine(const AuditRecord& record, const AuditSubject& subject)
{
    const std::string fields[] = {std::to_string(record.seq),
                                  formatIsoUtc(record.atMs),
                                  record.actor,
                                  record.operation,
                                  record.subject,
                                  subject.name,
                                  subject.outcome,
                                  record.details,
                                  record.prevHash,
                                  record.hash};
    std::string line;
    for (const std::string& field : fields)
        line += (line.empty() ? "" : ",") + csvField(field);
    return line + "\r\n";
}

std::string jsonLine(const AuditRecord& record, const AuditSubject& subject)
{
    using json = nlohmann::json;
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
                  {"subject_kind", toString(subject.kind)},
                  {"subject_name", subject.name},
                  {"outcome", subject.outcome},
                  {"details", std::move(details)},
                  {"prev_hash", record.prevHash},
                  {"hash", record.hash},
                  {"mac", record.mac.empty() ? json(nullptr) : json(record.mac)}};
    if (!record.problem.empty())
        entry["problem"] = record.problem;
    return entry.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace

Result<std::int64_t> exportAudit(const Store& store, const AuditExportRequest& request)
{
    const auto cancelled = [&request] { return request.cancel && request.cancel->load(); };
    auto records = listAudit(store, request.filter);
    if (!records)
        return std::unexpected(records.error());
    auto subjects = describeAuditSubjects(store, *records);
    if (!subjects)
        return std::unexpected(subjects.error());

    std::filesystem::path part = request.file;
    part += ".part";
    std::ofstream out(part, std::ios::binary | std::ios::trunc);
    if (!out)
        return fail(fmt::format("cannot write {}", part.string()));
    const auto removePart = [&part] {
        std::error_code ignored;
        std::filesystem::remove(part, ignored);
    };
    const bool csv = request.format == AuditExportFormat::Csv;
    if (csv)
        out << "seq,at,actor,operation,subject,subject_name,outcome,details,prev_hash,hash\r\n";
    const auto total = static_cast<std::int64_t>(records->size());
    for (std::int64_t i = 0; i < total; ++i) {
        if (cancelled()) {
            out.close();
            removePart();
            return fail("the export was cancelled");
        }
        const auto& record = (*records)[static_cast<std::size_t>(i)];
        const auto& subject = (*subjects)[static_cast<std::size_t>(i)];
        out << (csv ? csvLine(record, subject) : jsonLine(record, subject));
        if (request.progress && (i + 1) % kProgressEvery == 0)
            request.progress(i + 1, total);
    }
    out.close();
    if (!out) {
        removePart();
        return fail(fmt::format("cannot write {}", part.string()));
    }
    std::error_code error;
    std::filesystem::rename(part, request.file, error);
    if (error) {
        removePart();
        return fail(fmt::format("cannot write {}: {}", request.file.string(), error.message()));
    }
    if (request.progress)
        request.progress(total, total);
    return total;
}

} // namespace sb
