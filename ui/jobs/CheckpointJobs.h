#pragma once

#include "sandboxes/sandbox_engine.h"
#include "usecases/sandbox_setup.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <atomic>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

class QTimer;

namespace sb::ui {

// What the checkpoint browser shows, read on worker threads and handed over by value.
struct SandboxesSnapshot {
    std::vector<sb::SandboxInfo> sandboxes;
    std::map<std::string, std::uint64_t> usage; // each live workspace's bytes (an archived one's: its head's)
    std::int64_t nowMs = 0; // when they were read: what has expired
    QString error;
};

struct CheckpointsSnapshot {
    QString sandbox;
    std::vector<sb::CheckpointInfo> checkpoints; // newest first
    std::string head;
    QString error;
};

struct DiffSnapshot {
    QString sandbox;
    QString from;                       // checkpoint id
    QString to;                         // checkpoint id; empty: the live workspace of `sandbox`
    std::optional<sb::DiffResult> diff;
    QString error;
    bool cancelled = false;
};

// Where long work is: the engine's phase ("scanning", "writing"…), counts and the path at hand.
struct JobProgress {
    QString phase;
    quint64 done = 0;
    quint64 total = 0; // 0: not known in advance
    QString path;
};

// Progress and cancellation between a job on a worker thread and the GUI thread that polls it: the worker
// reports (and learns whether to go on), the GUI thread takes what changed since it last looked.
class ProgressChannel {
public:
    std::atomic<bool> cancel{false};

    // Called by the engine's ProgressCallback on the worker; false asks it to stop.
    bool report(const sb::Progress& p);
    // The latest progress if it changed since the last take.
    std::optional<JobProgress> take();

private:
    std::mutex m_lock;
    JobProgress m_progress;
    bool m_changed = false;
};

enum class CheckpointTask { CreateSandbox, DestroySandbox, Checkpoint, Restore, Fork, Sweep, Demo, Label, Revive, Settings };

struct TaskOutcome {
    CheckpointTask task = CheckpointTask::Checkpoint;
    bool automatic = false;  // started by the window itself (the sweep at start), not by a person
    bool cancelled = false;
    QString error;           // empty: it was done
    QString summary;         // what was done, for the status bar
    QString sandbox;         // the sandbox to show afterwards ("" keeps the current one)
    QString checkpoint;      // the checkpoint made, restored or labelled
    QString workspace;       // Revive: the folder it is back in
    QStringList skipped;     // what a walk did not take, with why
};

// Runs the workspace engine for the checkpoint browser. Every job opens its own Store and SandboxEngine
// on the store path (a connection and an engine belong to one thread; the engine's file locks serialize
// operations on a sandbox between them). Reads that a newer read supersedes are dropped; a diff that a newer
// diff supersedes is cancelled. Changes (tasks) run one at a time, report progress and can be cancelled
// where the engine allows it (create, checkpoint, restore, fork, the demo).
class CheckpointJobRunner : public QObject {
    Q_OBJECT
public:
    explicit CheckpointJobRunner(QObject* parent);
    ~CheckpointJobRunner() override; // cancels what runs and waits for the workers

    void setStorePath(std::optional<std::filesystem::path> path);
    const std::optional<std::filesystem::path>& storePath() const { return m_storePath; }

    void loadSandboxes();
    void loadCheckpoints(const QString& sandbox);
    // From checkpoint `from` to checkpoint `to`, or to the live workspace of `sandbox` when `to` is empty.
    void diff(const QString& sandbox, const QString& from, const QString& to);
    void cancelDiff();
    bool isDiffing() const { return m_diffId != 0; }
    bool isLoading() const { return m_sandboxesId != 0 || m_checkpointsId != 0; }

    // Each returns false (and does nothing) while another task runs or without a store.
    bool createSandbox(sb::CreateSandboxRequest request);
    // As the command line makes one: a policy argument and datasets (usecases/sandbox_setup.h).
    bool createSandbox(sb::SandboxCreation creation);
    bool destroySandbox(const QString& name);
    bool checkpoint(sb::CheckpointRequest request);
    bool restore(const QString& checkpoint, const QString& sandbox);
    bool fork(const QString& checkpoint, const QString& newName);
    bool sweep(bool automatic);
    bool seedDemo();
    // Gives a checkpoint a label, or clears it ("").
    bool label(const QString& checkpoint, const QString& text);
    // A sandbox's quota and idle timeout (SandboxEngine::setSandbox).
    bool settings(sb::SandboxSettings settings);
    // As the command line changes one: a policy argument and datasets too (usecases/sandbox_setup.h).
    bool settings(sb::SandboxChange change);
    // Writes an archived sandbox's workspace back from its head (what every use of it does).
    bool revive(const QString& sandbox);
    void cancelTask();
    bool isBusy() const { return m_taskId != 0; }
    std::optional<CheckpointTask> currentTask() const { return m_task; }
    static bool cancellable(CheckpointTask task);

signals:
    void sandboxesLoaded(const sb::ui::SandboxesSnapshot& snapshot);
    void checkpointsLoaded(const sb::ui::CheckpointsSnapshot& snapshot);
    void diffProgress(const sb::ui::JobProgress& progress);
    void diffReady(const sb::ui::DiffSnapshot& snapshot);
    void taskStarted(sb::ui::CheckpointTask task);
    void taskProgress(const sb::ui::JobProgress& progress);
    void taskFinished(const sb::ui::TaskOutcome& outcome);

private:
    struct Shared; // progress and cancellation between a worker and the GUI thread
    using TaskBody = std::function<TaskOutcome(sb::SandboxEngine&, const sb::ProgressCallback&)>;
    // A task that needs the store besides the engine (policy versions, datasets).
    using StoreTaskBody = std::function<TaskOutcome(sb::Store&, sb::SandboxEngine&, const sb::ProgressCallback&)>;

    bool startTask(CheckpointTask task, bool automatic, TaskBody body);
    bool startStoreTask(CheckpointTask task, bool automatic, StoreTaskBody body);
    void pollProgress();

    QThreadPool m_pool;
    std::optional<std::filesystem::path> m_storePath;
    QFutureWatcher<SandboxesSnapshot>* m_sandboxesWatcher = nullptr;
    QFutureWatcher<CheckpointsSnapshot>* m_checkpointsWatcher = nullptr;
    QFutureWatcher<DiffSnapshot>* m_diffWatcher = nullptr;
    QFutureWatcher<TaskOutcome>* m_taskWatcher = nullptr;
    QTimer* m_progressTimer = nullptr;
    std::shared_ptr<Shared> m_diffShared;
    std::shared_ptr<Shared> m_taskShared;
    std::optional<CheckpointTask> m_task;
    quint64 m_nextId = 1;
    quint64 m_sandboxesId = 0;
    quint64 m_checkpointsId = 0;
    quint64 m_diffId = 0;
    quint64 m_taskId = 0;
};

} // namespace sb::ui

Q_DECLARE_METATYPE(sb::ui::CheckpointTask)
