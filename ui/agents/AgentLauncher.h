#pragma once

#include "ui/agents/AgentLaunchJob.h"
#include "ui/agents/LaunchAgentDialog.h"

#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <filesystem>
#include <optional>

class QAction;
class QLabel;

namespace sb::ui {

// The agent workspace's launch row: "Launch agent…" opens the launch dialog, the session runs off the GUI thread
// (AgentLaunchJob), "Stop" ends it; what it is doing and how it ended show beside them (the agent's log lines in
// the tooltip). One launch at a time.
class AgentLauncher : public QWidget {
    Q_OBJECT
public:
    static constexpr int kLogLines = 40; // the log lines the status's tooltip keeps

    explicit AgentLauncher(QWidget* parent = nullptr);

    void setStorePath(std::optional<std::filesystem::path> path);

    QAction* launchAction() const { return m_launchAction; }
    QAction* stopAction() const { return m_stopAction; }
    // The dialog while it shows (nullptr otherwise).
    LaunchAgentDialog* dialog() const { return m_dialog; }
    AgentLaunchJob* job() const { return m_job; }

    // Opens the launch dialog; Launch in it starts the session.
    void askLaunch();
    // Starts a session as the dialog would. False: not now (one runs, or no store).
    bool launch(const AgentLaunch& launch);
    void stop();
    bool isRunning() const { return m_job->isRunning(); }
    // While the demo runs it records the worked example in the sandboxes a launch would make again: launching
    // waits for it to end (the action is disabled, and its tooltip says why).
    void setDemoRunning(bool running);
    QString statusText() const;
    QStringList log() const { return m_log; }

signals:
    // The session is recorded and listens for control: the workspace opens it live.
    void sessionStarted(const QString& sessionId);
    void launchFinished(const sb::ui::AgentLaunchOutcome& outcome);
    void statusMessage(const QString& text, int timeoutMs);

private:
    void onStarted(const QString& sessionId);
    void onLogLine(const QString& line);
    void onFinished(const AgentLaunchOutcome& outcome);
    void showStatus(const QString& text, bool error);
    void updateActions();

    AgentLaunchJob* m_job = nullptr;
    QAction* m_launchAction = nullptr;
    QAction* m_stopAction = nullptr;
    bool m_demoRunning = false;
    QLabel* m_status = nullptr;
    QPointer<LaunchAgentDialog> m_dialog;
    QStringList m_log;
    QString m_what; // what runs, for the status line
};

} // namespace sb::ui
