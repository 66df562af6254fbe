#pragma once

#include "agents/session_compare.h"
#include "agents/session_store.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>

namespace sb::ui {

// Two sessions compared step by step, as the compare view shows them: a replay beside its original, or any two.
// Every field has an initializer, so that designated initializers may name only some.
struct SessionCompareResult {
    bool replay = false;  // the right side replays the left (its report ruled each step)
    QString policy{};     // a replay's policy as asked ("" two sessions)
    std::optional<sb::agents::SessionInfo> left{};
    std::optional<sb::agents::SessionInfo> right{};
    std::shared_ptr<const sb::agents::SessionComparison> comparison{};
    QString error{}; // empty: done
};

// Step `index` of both sessions in full, for the details under the compare view (either may have no such step).
struct StepPair {
    QString leftId{};
    QString rightId{};
    std::int64_t index = 0;
    std::optional<sb::agents::StepRecord> left{};
    std::optional<sb::agents::StepRecord> right{};
    QString error{};
};

// Replays and compares agent sessions on worker threads, each job through its own store connection. A replay runs
// the session's calls again in a new sandbox (agents::replaySession), recorded as a session of its own; cancelled,
// it stops between two steps and is recorded as interrupted. Only one replay or comparison at a time.
class SessionCompareRunner : public QObject {
    Q_OBJECT
public:
    static constexpr std::int64_t kBatch = 5000; // steps read at a time from each session

    explicit SessionCompareRunner(QObject* parent);
    ~SessionCompareRunner() override; // waits for the workers

    void setStorePath(std::optional<std::filesystem::path> path);

    // The session replayed under `policy` (a preset's name or a policy file), then compared with its replay.
    // False: not now (no store, another replay or comparison runs).
    bool replay(const QString& sessionId, const QString& policy);
    // Two sessions compared step by step. False: not now.
    bool compare(const QString& leftId, const QString& rightId);
    // Step `index` of both sessions; a newer request supersedes an older one.
    void loadStepPair(const QString& leftId, const QString& rightId, std::int64_t index);

    // Stops the replay under way between two steps (the window closing does too).
    void cancelReplay();

    bool isBusy() const { return m_compareId != 0; }
    bool isReplaying() const { return m_compareId != 0 && m_replaying; }
    bool isLoadingStepPair() const { return m_pairId != 0; }

signals:
    void started(bool replay);
    // How far the replay under way is, in steps.
    void replayProgress(int done, int total);
    void finished(const sb::ui::SessionCompareResult& result);
    void stepPairLoaded(const sb::ui::StepPair& pair);

private:
    QThreadPool m_pool;
    std::optional<std::filesystem::path> m_storePath;
    QFutureWatcher<SessionCompareResult>* m_compareWatcher = nullptr;
    QFutureWatcher<StepPair>* m_pairWatcher = nullptr;
    quint64 m_nextId = 1;
    quint64 m_compareId = 0;
    quint64 m_pairId = 0;
    bool m_replaying = false;
    std::shared_ptr<std::atomic<bool>> m_stopReplay; // the replay under way's
};

} // namespace sb::ui
