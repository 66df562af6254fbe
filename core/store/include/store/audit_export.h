#pragma once

// The audit log's entries written out for other tools: CSV (one header line, RFC 4180 quoting) or JSON
// Lines (one object per entry, with the fields `sandbench audit list --json` prints), oldest first, each
// with its subject's readable name and outcome (store/audit_subjects.h).

#include "store/audit.h"
#include "util/error.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>

namespace sb {

class Store;

enum class AuditExportFormat { Csv, JsonLines };

struct AuditExportRequest {
    AuditFilter filter{}; // which entries (its limit: the most recent that many)
    AuditExportFormat format = AuditExportFormat::Csv;
    std::filesystem::path file{};
    const std::atomic<bool>* cancel = nullptr;
    // Called now and then with the entries written so far and how many there are.
    std::function<void(std::int64_t done, std::int64_t total)> progress{};
};

// Writes the matching entries to request.file, through a temporary file beside it that replaces it only
// when whole: a failed or cancelled export leaves no file behind. Returns how many entries were written.
Result<std::int64_t> exportAudit(const Store& store, const AuditExportRequest& request);

} // namespace sb
