#pragma once

#include "ui/jobs/CheckpointJobs.h"
#include "promotion/promote.h"
#include "usecases/promotion.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace sb::ui {

// What one promotion job gave back, by value: the engine's report and, for a preview, each change's
// unified diff (parallel to report->changes) so the dialog can show any file without asking the engine.
struct PromotionOutcome {
    sb::PromotionRequest::Mode mode = sb::PromotionRequest::Mode::Preview;
    std::optional<sb::PromotionReport> report;
    // A text file's unified diff; a binary file's description (size and SHA-256 of each side), which the
    // dialog shows as a panel since it cannot be shown as text.
    std::vector<QString> diffs;
    std::vector<QString> conflictDiffs; // parallel to report->conflicts: the target's version against the source's
    // The data the rule sets' impact was measured on: as named (or the sandbox's reference) and where its
    // records came from; empty when there was none.
    QString dataName;
    QString dataSource;
    QString error;          // empty: the engine answered (the report may still say "blocked")
    bool cancelled = false;
};

// Runs SandboxEngine::promote for the promotion review dialog, one job at a time, off the GUI thread, as
// CheckpointJobRunner does: each job opens its own Store and SandboxEngine on the store path, reports the
// engine's progress and can be cancelled. A job cancelled after the engine already finished is still
// reported as cancelled, so Cancel always means "forget this".
class PromotionJobRunner : public QObject {
    Q_OBJECT
public:
    explicit PromotionJobRunner(std::filesystem::path storePath, QObject* parent);
    ~PromotionJobRunner() override; // cancels what runs and waits for the worker

    // Returns false (and does nothing) while another job runs. The request is prepared as
    // usecases/promotion.h says, off the GUI thread (a plan's data is read there too).
    bool start(sb::PromotionRequest request);
    bool start(sb::PromotionPlan plan);
    void cancel();
    bool isBusy() const { return m_jobId != 0; }

    // Diffs of larger files, or of more files than this, are not prepared for the preview.
    static constexpr std::uint64_t kMaxDiffBytes = 2ULL << 20;
    static constexpr std::size_t kMaxDiffFiles = 2000;

signals:
    void progress(const sb::ui::JobProgress& progress);
    void finished(const sb::ui::PromotionOutcome& outcome);

private:
    struct Shared;
    void pollProgress();

    QThreadPool m_pool;
    std::filesystem::path m_storePath;
    QFutureWatcher<PromotionOutcome>* m_watcher = nullptr;
    QTimer* m_progressTimer = nullptr;
    std::shared_ptr<Shared> m_shared;
    quint64 m_nextId = 1;
    quint64 m_jobId = 0;
};

} // namespace sb::ui
