#include "ui/agents/AgentLauncher.h"

#include "ui/models/Conversions.h"

#include <QAction>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace sb::ui {

AgentLauncher::AgentLauncher(QWidget* parent)
    : QWidget(parent)
    , m_job(new AgentLaunchJob(this))
    , m_launchAction(new QAction(tr("Launch agent…"), this))
    , m_stopAction(new QAction(tr("Stop agent"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("agentLauncher"));
    m_launchAction->setObjectName(QStringLiteral("actionLaunchAgent"));
    m_launchAction->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_launchAction->setToolTip(tr("Run an agent (the worked example, or any command) with a policy and a sandbox; its "
                                  "session shows here live"));
    m_stopAction->setObjectName(QStringLiteral("actionStopAgent"));
    m_stopAction->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    m_stopAction->setToolTip(tr("End the launched session: the call waiting is refused and the agent stopped"));
    connect(m_launchAction, &QAction::triggered, this, &AgentLauncher::askLaunch);
    connect(m_stopAction, &QAction::triggered, this, &AgentLauncher::stop);

    m_status->setObjectName(QStringLiteral("agentLaunchStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);

    auto* launchButton = new QToolButton(this);
    launchButton->setObjectName(QStringLiteral("agentLaunch"));
    launchButton->setDefaultAction(m_launchAction);
    launchButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    launchButton->setAutoRaise(true);
    auto* stopButton = new QToolButton(this);
    stopButton->setObjectName(QStringLiteral("agentStop"));
    stopButton->setDefaultAction(m_stopAction);
    stopButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    stopButton->setAutoRaise(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(launchButton);
    layout->addWidget(stopButton);
    layout->addWidget(m_status, 1);

    connect(m_job, &AgentLaunchJob::sessionStarted, this, &AgentLauncher::onStarted);
    connect(m_job, &AgentLaunchJob::logLine, this, &AgentLauncher::onLogLine);
    connect(m_job, &AgentLaunchJob::finished, this, &AgentLauncher::onFinished);
    updateActions();
}

void AgentLauncher::setStorePath(std::optional<std::filesystem::path> path)
{
    m_job->setStorePath(std::move(path));
    updateActions();
}

QString AgentLauncher::statusText() const
{
    return m_status->text();
}

void AgentLauncher::askLaunch()
{
    if (m_dialog) {
        m_dialog->raise();
        return;
    }
    if (!m_launchAction->isEnabled())
        return;
    m_dialog = new LaunchAgentDialog(this);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    LaunchAgentDialog* dialog = m_dialog.data();
    connect(m_job, &AgentLaunchJob::sandboxesLoaded, dialog,
            [dialog](const SandboxNames& sandboxes) { dialog->setSandboxes(sandboxes.names, sandboxes.error); });
    connect(dialog, &QDialog::accepted, this, [this, dialog] { launch(dialog->launch()); });
    m_job->loadSandboxes();
    dialog->open();
}

bool AgentLauncher::launch(const AgentLaunch& launch)
{
    if (!m_job->launch(launch))
        return false;
    m_log.clear();
    m_status->setToolTip(QString());
    if (launch.agent == AgentLaunch::Agent::WorkedExample) {
        m_what = tr("the worked example");
    } else {
        // The program and its first argument (the script, usually), paths by their file names.
        QStringList words;
        for (const QString& word : launch.command.mid(0, 2))
            words << (word.contains(QLatin1Char('/')) ? QFileInfo(word).fileName() : word);
        m_what = words.join(QLatin1Char(' '));
    }
    showStatus(tr("Launching %1…").arg(m_what), false);
    emit statusMessage(m_status->text(), 0);
    updateActions();
    return true;
}

void AgentLauncher::stop()
{
    if (!m_job->isRunning())
        return;
    m_job->stop();
    showStatus(tr("Stopping %1…").arg(m_what), false);
    updateActions();
}

void AgentLauncher::onStarted(const QString& sessionId)
{
    showStatus(tr("Session %1 of %2 runs.").arg(sessionId.left(8), m_what), false);
    emit statusMessage(m_status->text(), 5000);
    emit sessionStarted(sessionId);
}

void AgentLauncher::onLogLine(const QString& line)
{
    m_log << line;
    while (m_log.size() > kLogLines)
        m_log.removeFirst();
    m_status->setToolTip(m_log.join(QLatin1Char('\n')));
}

void AgentLauncher::onFinished(const AgentLaunchOutcome& outcome)
{
    if (!outcome.session) {
        showStatus(tr("Launch of %1 refused: %2").arg(m_what, outcome.error), true);
    } else {
        const auto& s = *outcome.session;
        QString text = tr("Session %1 of %2 %3, %n step(s)", nullptr, static_cast<int>(s.steps))
                           .arg(toQString(s.id).left(8), m_what, toQString(sb::agents::toString(s.status)));
        if (!s.message.empty())
            text += QStringLiteral(" — ") + toQString(s.message);
        showStatus(text, s.status != sb::agents::SessionStatus::Completed && !outcome.stopped);
    }
    emit statusMessage(m_status->text(), 0);
    updateActions();
    emit launchFinished(outcome);
}

void AgentLauncher::showStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
}

void AgentLauncher::setDemoRunning(bool running)
{
    m_demoRunning = running;
    updateActions();
}

void AgentLauncher::updateActions()
{
    const bool running = m_job->isRunning();
    m_launchAction->setEnabled(m_job->hasStore() && !running && !m_demoRunning);
    m_launchAction->setToolTip(!m_job->hasStore() ? tr("The store is not open: a session has nowhere to be recorded")
                               : running          ? tr("A launched session runs: stop it or let it end first")
                               : m_demoRunning    ? tr("The demo is recording the worked example: launch when it has ended")
                                                  : tr("Run an agent (the worked example, or any command) with a policy "
                                                       "and a sandbox; its session shows here live"));
    m_stopAction->setEnabled(running);
}

} // namespace sb::ui
