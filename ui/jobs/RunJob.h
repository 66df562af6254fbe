#pragma once

#include "agents/session_store.h"
#include "isolation/run.h"
#include "store/run_points.h"
#include "store/store.h"
#include "ui/models/ActivityChartData.h"
#include "usecases/run.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace sb::ui {

// What the store holds right now, read in one go: the dashboard's metrics and the history table's rows.
struct StoreSnapshot {
    sb::MetricsSnapshot metrics;
    std::vector<sb::StoredRun> history; // newest first
    std::vector<sb::RunPoint> runs;     // every run's time, outcome and duration, oldest first
    DashboardActivity activity;         // blocked events, agent steps and promotions
};

inline constexpr int kHistoryLimit = 200;

// Opens the store (creating it when missing, as Store::open does) and reads a snapshot. Safe on any thread.
sb::Result<StoreSnapshot> loadStoreSnapshot(const sb::StoreLocation& store, int historyLimit = kHistoryLimit);

// The demo's last step: the worked example recorded as an agent session (agents/worked_example_session.h).
struct AgentSessionStep {
    std::optional<sb::agents::SessionInfo> session; // as it ended; none when it could not run
    QString error;                                  // why it could not run
    bool asExpected = false;                        // it completed
};

// One step of a job, handed from the worker to the GUI thread by value.
struct RunEvent {
    enum class Stage { Started, Finished };
    Stage stage = Stage::Started;
    quint64 jobId = 0;
    int index = 0; // which request of the job (0-based)
    int total = 0; // how many requests the job has
    sb::RunRequest request;
    sb::RunResult result;                // valid when stage == Finished and the run was not refused
    std::optional<StoreSnapshot> store;  // the store after recording this run, when it is usable
    QString storeError;                  // why the run could not be recorded or read back
    QString refusal;                     // why the run was not started (Finished only; empty: it ran)
    std::optional<AgentSessionStep> agentSession; // the demo's worked example: this step is its session
};

// The demo's steps: its cases, then the worked example as an agent session.
int demoJobSteps();
// One line on the worked example's session: its id, status, steps and sandbox, or why it could not run.
QString agentSessionSummary(const AgentSessionStep& step);

// Runs one request (usecases/run.h) or the whole demo (usecases/demo_run.h, then the worked example as an agent
// session, agents/worked_example_session.h) on a worker thread, one job at a time. Each run is recorded in the store by the worker through its own connection, and the store's fresh
// snapshot travels with the event. Starting a job cancels the one before it; events of a job that is no
// longer current are dropped.
class JobRunner : public QObject {
    Q_OBJECT
public:
    explicit JobRunner(QObject* parent);
    ~JobRunner() override; // cancels the running job and waits for its worker

    // Where runs are recorded; std::nullopt runs without recording (e.g. the store could not be opened).
    void setStorePath(std::optional<std::filesystem::path> path);
    const std::optional<std::filesystem::path>& storePath() const { return m_storePath; }

    // A request whose policy is settled, run outside any sandbox.
    quint64 startRun(sb::RunRequest request);
    // A run as the run use case takes it (usecases/run.h): recorded, in its sandbox when it names one. A run the
    // use case refuses ends in a Finished event with its refusal.
    quint64 startRun(sb::RunOrder order);
    quint64 startDemo(const sb::Policy& basePolicy = {});
    void cancel();

    bool isRunning() const { return m_currentJobId != 0; }
    quint64 currentJobId() const { return m_currentJobId; }

signals:
    void jobStarted(quint64 jobId, int total);
    void runStarted(const sb::ui::RunEvent& event);
    void runFinished(const sb::ui::RunEvent& event);
    void jobFinished(quint64 jobId, bool cancelled);

private:
    struct Job {
        quint64 id = 0;
        std::shared_ptr<std::atomic<bool>> cancel;
        QFutureWatcher<RunEvent>* watcher = nullptr;
    };

    quint64 start(int total, std::function<void(QPromise<RunEvent>&, quint64 jobId, std::optional<std::filesystem::path>,
                                                std::shared_ptr<std::atomic<bool>>)> work);
    void onResultReady(quint64 jobId, int resultIndex);
    void onJobDone(quint64 jobId);

    QThreadPool m_pool;
    std::optional<std::filesystem::path> m_storePath;
    std::vector<Job> m_jobs; // the current job and stale ones still winding down
    quint64 m_nextJobId = 1;
    quint64 m_currentJobId = 0;
};

} // namespace sb::ui
