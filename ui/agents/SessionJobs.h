#pragma once

#include "agents/session_browse.h"
#include "agents/session_store.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <filesystem>
#include <optional>
#include <vector>

namespace sb::ui {

// Values the agent workspace's jobs hand to the GUI thread. Every field has an initializer, so that designated
// initializers may name only some.
struct SessionsSnapshot {
    std::vector<sb::agents::SessionInfo> sessions; // newest first
    QString error{};
};

// Some steps of a session, from offset + 1 on, and the session as it was when they were read.
struct StepBatch {
    QString sessionId{};
    std::int64_t offset = 0;
    std::vector<sb::agents::StepSummary> steps{};
    std::optional<sb::agents::SessionInfo> session{}; // with the first batch of a load
    bool last = false;                               // no more batches follow in this load
    QString error{};
};

// One step in full, what it changed in the workspace and what bounds the session's cost.
struct StepDetail {
    QString sessionId{};
    std::int64_t index = 0;
    std::optional<sb::agents::StepRecord> step{};
    std::optional<sb::agents::StepWorkspaceChange> change{};
    QString changeError{}; // why there is no change to show
    std::optional<double> maxCost{};
    QString sandbox{};
    QString error{};
};

struct StepSearch {
    QString sessionId{};
    QString text{};
    std::vector<std::int64_t> steps{}; // the indexes found, in order
    QString error{};
};

enum class SessionExportFormat { JsonLines, Html };

struct SessionExport {
    QString path{};
    SessionExportFormat format = SessionExportFormat::JsonLines;
    QString error{}; // empty: written
};

// A session's workspace taken back to before a step: a new sandbox forked from there, or the session's own
// sandbox rewound.
struct SessionWorkspaceTask {
    bool fork = false;
    std::int64_t step = 0;
    QString sandbox{};    // the new sandbox, or the one rewound
    QString checkpoint{}; // the checkpoint it now holds
    QString error{};      // empty: done
};

// Reads agent sessions on worker threads, each job through its own store connection. A read that a newer read of
// the same kind supersedes is dropped (a step load is cancelled between batches). Steps arrive in batches, the
// first small so that a large session shows at once.
class SessionJobRunner : public QObject {
    Q_OBJECT
public:
    static constexpr std::int64_t kFirstBatch = 2000;
    static constexpr std::int64_t kBatch = 5000; // small enough that taking one in stays well under a frame

    explicit SessionJobRunner(QObject* parent);
    ~SessionJobRunner() override; // cancels the loads and waits for the workers

    void setStorePath(std::optional<std::filesystem::path> path);
    const std::optional<std::filesystem::path>& storePath() const { return m_storePath; }

    void loadSessions();
    // The session's steps from offset + 1 to the end, in batches (stepsLoaded for each, the last marked).
    void loadSteps(const QString& sessionId, std::int64_t offset);
    void loadStep(const QString& sessionId, std::int64_t index);
    void search(const QString& sessionId, const QString& text);
    // `timelineImage`: for HTML, a data: URL of the timeline's picture ("" none).
    void exportSession(const QString& sessionId, const QString& path, SessionExportFormat format,
                       const QString& timelineImage = {});

    // A new sandbox `name` whose workspace is the session's before step `step` (sessions fork), or the session's
    // sandbox made so (sessions rewind: refused while the session runs). False while another such task runs.
    bool forkAtStep(const QString& sessionId, std::int64_t step, const QString& name);
    bool rewindToStep(const QString& sessionId, std::int64_t step);

    bool isLoadingSessions() const { return m_sessionsId != 0; }
    bool isLoadingSteps() const { return m_stepsId != 0; }
    bool isLoadingStep() const { return m_stepId != 0; }
    bool isSearching() const { return m_searchId != 0; }
    bool isExporting() const { return m_exportId != 0; }
    bool isChangingWorkspace() const { return m_workspaceId != 0; }

signals:
    void sessionsLoaded(const sb::ui::SessionsSnapshot& snapshot);
    void stepsLoaded(const sb::ui::StepBatch& batch);
    void stepLoaded(const sb::ui::StepDetail& detail);
    void searched(const sb::ui::StepSearch& search);
    void exported(const sb::ui::SessionExport& outcome);
    void workspaceChanged(const sb::ui::SessionWorkspaceTask& outcome);

private:
    QThreadPool m_pool;
    std::optional<std::filesystem::path> m_storePath;
    QFutureWatcher<SessionsSnapshot>* m_sessionsWatcher = nullptr;
    QFutureWatcher<StepBatch>* m_stepsWatcher = nullptr;
    QFutureWatcher<StepDetail>* m_stepWatcher = nullptr;
    QFutureWatcher<StepSearch>* m_searchWatcher = nullptr;
    QFutureWatcher<SessionExport>* m_exportWatcher = nullptr;
    QFutureWatcher<SessionWorkspaceTask>* m_workspaceWatcher = nullptr;
    quint64 m_nextId = 1;
    quint64 m_sessionsId = 0;
    quint64 m_stepsId = 0;
    quint64 m_stepId = 0;
    quint64 m_searchId = 0;
    quint64 m_exportId = 0;
    quint64 m_workspaceId = 0;
};

} // namespace sb::ui
