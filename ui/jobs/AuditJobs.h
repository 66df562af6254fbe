#pragma once

#include "store/audit.h"
#include "store/audit_export.h"
#include "store/audit_subjects.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace sb::ui {

// One entry as the view shows it: the record, what it is about (named off the GUI thread, once) and its
// details on one line.
struct AuditRow {
    sb::AuditRecord record;
    sb::AuditSubject subject;
    std::string detailsLine;
};

// A page of the audit view's rows, newest first, and the choices of its filters. Read on a worker thread,
// handed over by value.
struct AuditSnapshot {
    std::vector<AuditRow> rows;      // newest first
    sb::AuditFacets facets;          // filled by a first page only
    std::optional<qint64> beforeSeq; // set: older entries, numbered below this one (AuditJobRunner::loadOlder)
    bool more = false;               // there are older matches than those read
    QString error;                   // why nothing could be read
};

// Entries read at once: a screenful many times over, and quick to name.
inline constexpr std::int64_t kAuditPageSize = 500;

// What a verification found, or why it could not run.
struct AuditCheck {
    std::optional<sb::AuditVerification> verification;
    QString error;
};

// What an export wrote, or why it did not.
struct AuditExportDone {
    QString file;
    qint64 entries = 0;
    QString error;
    bool cancelled = false;
};

// Reads, verifies and exports the audit log on worker threads, each through its own store connection. A
// load that a newer load supersedes is dropped; a verification and an export report progress and can be
// cancelled.
class AuditJobRunner : public QObject {
    Q_OBJECT
public:
    explicit AuditJobRunner(QObject* parent);
    ~AuditJobRunner() override; // cancels the verification and the export and waits for the workers

    void setStorePath(std::optional<std::filesystem::path> path);
    const std::optional<std::filesystem::path>& storePath() const { return m_storePath; }

    // The newest page of matching entries.
    quint64 load(const sb::AuditFilter& filter);
    // The page of matching entries below `beforeSeq`; with `downToSeq`, at least down to that entry.
    quint64 loadOlder(const sb::AuditFilter& filter, qint64 beforeSeq, std::optional<qint64> downToSeq = {});
    quint64 verify();
    void cancelVerify();
    // Every matching entry (the filter's limit aside) written to `file`.
    quint64 exportEntries(const sb::AuditFilter& filter, sb::AuditExportFormat format, const QString& file);
    void cancelExport();

    bool isLoading() const { return m_loadId != 0 || m_olderId != 0; }
    bool isLoadingOlder() const { return m_olderId != 0; }
    bool isVerifying() const { return m_verifyId != 0; }
    bool isExporting() const { return m_exportId != 0; }

signals:
    void loaded(const sb::ui::AuditSnapshot& snapshot);
    void verifyProgress(qint64 done, qint64 total);
    void verified(const sb::ui::AuditCheck& check, bool cancelled);
    void exportProgress(qint64 done, qint64 total);
    void exported(const sb::ui::AuditExportDone& done);

private:
    void onLoaded(quint64 id, QFutureWatcher<AuditSnapshot>* watcher, quint64& wanted);
    void onVerified(quint64 id);
    void onExported(quint64 id);

    QThreadPool m_pool;
    std::optional<std::filesystem::path> m_storePath;
    QFutureWatcher<AuditSnapshot>* m_loadWatcher = nullptr;
    QFutureWatcher<AuditSnapshot>* m_olderWatcher = nullptr;
    QFutureWatcher<AuditCheck>* m_verifyWatcher = nullptr;
    QFutureWatcher<AuditExportDone>* m_exportWatcher = nullptr;
    std::shared_ptr<std::atomic<bool>> m_verifyCancel;
    std::shared_ptr<std::atomic<bool>> m_exportCancel;
    quint64 m_nextId = 1;
    quint64 m_loadId = 0;   // the load whose result is wanted (0: none)
    quint64 m_olderId = 0;  // the older page whose result is wanted (0: none)
    quint64 m_verifyId = 0; // the running verification (0: none)
    quint64 m_exportId = 0; // the running export (0: none)
};

} // namespace sb::ui
