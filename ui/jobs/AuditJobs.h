#pragma once

#include "store/audit.h"

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

// The audit view's rows: at most kAuditViewLimit of the most recent matching entries, and the choices of
// its filters. Read on a worker thread, handed over by value.
struct AuditSnapshot {
    std::vector<sb::AuditRecord> records; // log order
    sb::AuditFacets facets;
    bool limited = false; // there may be older matches than those shown
    QString error;        // why nothing could be read
};

inline constexpr std::int64_t kAuditViewLimit = 5000;

// What a verification found, or why it could not run.
struct AuditCheck {
    std::optional<sb::AuditVerification> verification;
    QString error;
};

// Reads and verifies the audit log on worker threads, each through its own store connection. A load that a
// newer load supersedes is dropped; a verification reports progress and can be cancelled.
class AuditJobRunner : public QObject {
    Q_OBJECT
public:
    explicit AuditJobRunner(QObject* parent);
    ~AuditJobRunner() override; // cancels the verification and waits for the workers

    void setStorePath(std::optional<std::filesystem::path> path);
    const std::optional<std::filesystem::path>& storePath() const { return m_storePath; }

    quint64 load(const sb::AuditFilter& filter);
    quint64 verify();
    void cancelVerify();

    bool isLoading() const { return m_loadId != 0; }
    bool isVerifying() const { return m_verifyId != 0; }

signals:
    void loaded(const sb::ui::AuditSnapshot& snapshot);
    void verifyProgress(qint64 done, qint64 total);
    void verified(const sb::ui::AuditCheck& check, bool cancelled);

private:
    void onLoaded(quint64 id);
    void onVerified(quint64 id);

    QThreadPool m_pool;
    std::optional<std::filesystem::path> m_storePath;
    QFutureWatcher<AuditSnapshot>* m_loadWatcher = nullptr;
    QFutureWatcher<AuditCheck>* m_verifyWatcher = nullptr;
    std::shared_ptr<std::atomic<bool>> m_verifyCancel;
    std::atomic<qint64> m_verifyTotal{0};
    quint64 m_nextId = 1;
    quint64 m_loadId = 0;   // the load whose result is wanted (0: none)
    quint64 m_verifyId = 0; // the running verification (0: none)
};

} // namespace sb::ui
