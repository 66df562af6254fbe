#pragma once

#include "agents/session_store.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>

namespace sb::ui {

// What the developer asked the launch dialog for: an agent, its policy, its sandbox, step mode.
struct AgentLaunch {
    enum class Agent { WorkedExample, Command };
    Agent agent = Agent::WorkedExample;
    QStringList command{};   // Command: the program and its arguments, already split
    QStringList readPaths{}; // Command: absolute paths the agent's program reads (its script)
    QString policy{};        // a preset name or a policy file; "" the sandbox's (the example's own)
    QString sandbox{};       // Command: an existing sandbox; "" a new one from main
    bool stepMode = false;   // pause before every call until the control bar lets it go on
};

// How a launch ended: the session as recorded, or why none began.
struct AgentLaunchOutcome {
    std::optional<sb::agents::SessionInfo> session{}; // none: refused before the session was recorded
    QString error{};                                  // why it was refused
    bool stopped = false;                             // Stop was pressed (or the window closed)
};

// The store's sandbox names, for the dialog's choice.
struct SandboxNames {
    QStringList names{};
    QString error{};
};

// Runs one agent session at a time (agents::runAgentSession, or runWorkedExample) on a worker thread through its
// own store connection, and reads the sandbox names the launch dialog offers. The session's start (recorded, its
// control socket listening), its log lines and its end reach the GUI thread as signals. Stop ends the session
// (interrupted); the destructor stops it and waits for the worker, which notices within a fraction of a second
// even while a call waits in step mode.
class AgentLaunchJob : public QObject {
    Q_OBJECT
public:
    explicit AgentLaunchJob(QObject* parent);
    ~AgentLaunchJob() override;

    void setStorePath(std::optional<std::filesystem::path> path);
    bool hasStore() const { return m_storePath.has_value(); }

    // False (nothing started) while a launch runs or without a store.
    bool launch(const AgentLaunch& launch);
    void stop();
    bool isRunning() const { return m_running; }
    // The running session's id once it started ("" before, or when none runs).
    QString sessionId() const { return m_sessionId; }

    void loadSandboxes();

signals:
    // The session is recorded and its control socket listens: the workspace shows it live.
    void sessionStarted(const QString& sessionId);
    void logLine(const QString& line);
    void finished(const sb::ui::AgentLaunchOutcome& outcome);
    void sandboxesLoaded(const sb::ui::SandboxNames& sandboxes);

private:
    QThreadPool m_pool;
    std::optional<std::filesystem::path> m_storePath;
    QFutureWatcher<AgentLaunchOutcome>* m_watcher = nullptr;
    QFutureWatcher<SandboxNames>* m_sandboxWatcher = nullptr;
    std::shared_ptr<std::atomic<bool>> m_stop;
    bool m_running = false;
    QString m_sessionId;
};

} // namespace sb::ui
