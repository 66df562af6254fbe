// Launching an agent from the window: the launch dialog's checks as the developer types, the worked example
// launched in step mode from the real window (it shows live, is stepped from the control bar and continued to
// the end), any command under a policy file in a sandbox the store has, a launch the core refuses, Stop, and a
// window closed while a session waits. What the store recorded is read back each time. Screenshots go to the
// build tree.
#include "agent_test_support.h"
#include "gui_test_main.h"

#include "agents/session_browse.h"
#include "agents/session_store.h"
#include "store/store.h"
#include "ui/agents/AgentLaunchJob.h"
#include "ui/agents/AgentLauncher.h"
#include "ui/agents/AgentWorkspace.h"
#include "ui/agents/LaunchAgentDialog.h"
#include "ui/agents/SessionControlBar.h"
#include "ui/agents/StepListModel.h"
#include "ui/mainwindow/MainWindow.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <filesystem>
#include <memory>
#include <optional>

using namespace sb::ui;
using sb::agents::SessionInfo;
using sb::agents::SessionStatus;

namespace fs = std::filesystem;

namespace {

QString statusOf(SessionStatus status)
{
    const std::string_view text = sb::agents::toString(status);
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

} // namespace

class TestAgentLaunch : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theDialogRefusesWhatCannotRun();
    void theWorkedExampleLaunchedInStepModeIsSteppedToTheEnd();
    void anyCommandRunsUnderAPolicyFileInAStoredSandbox();
    void aLaunchTheCoreRefusesSaysWhy();
    void stopEndsALaunchedSession();
    void theDemoAndALaunchDoNotRunTogether();
    void closingTheWindowStopsAWaitingSession();

private:
    void makeWindow();
    QString cli(const QStringList& arguments) { return sb::guitest::runCli(m_store, arguments); }
    void screenshot(const QString& name, QWidget* widget = nullptr)
    {
        QVERIFY(sb::guitest::saveScreenshot(widget ? widget : m_window.get(), name));
    }
    AgentWorkspace* workspace() const { return m_window->agentWorkspace(); }
    AgentLauncher* launcher() const { return workspace()->launcher(); }
    // Opens the launch dialog as the developer does: Run ▸ Launch agent…
    LaunchAgentDialog* openDialog();
    // Waits for the launch under way to end and returns how it ended.
    AgentLaunchOutcome waitFinished();
    SessionInfo recorded(const QString& sessionId);
    void click(QWidget* parent, const char* name);

    QTemporaryDir m_dir;
    QString m_store;
    QString m_examples;
    std::unique_ptr<MainWindow> m_window;
    std::optional<AgentLaunchOutcome> m_outcome;
};

void TestAgentLaunch::initTestCase()
{
    QVERIFY(m_dir.isValid());
    qputenv("XDG_DATA_HOME", (m_dir.path() + QStringLiteral("/xdg")).toUtf8());
    // The sandbox reads the examples as another user may: a copy outside the checkout, readable by all.
    const QString examples = sb::guitest::copyAgentExamples(m_dir.path());
    QVERIFY(!examples.isEmpty());
    m_examples = examples;
    m_store = m_dir.path() + QStringLiteral("/store.db");
    cli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("target")});
    makeWindow();
}

void TestAgentLaunch::makeWindow()
{
    m_window = std::make_unique<MainWindow>(m_store.toStdString());
    m_window->resize(1600, 1000);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(!m_window->openStore());
    m_window->showAgents();
    connect(launcher(), &AgentLauncher::launchFinished, this,
            [this](const AgentLaunchOutcome& outcome) { m_outcome = outcome; });
}

LaunchAgentDialog* TestAgentLaunch::openDialog()
{
    QAction* launch = nullptr;
    for (QAction* menu : m_window->menuBar()->actions()) {
        for (QAction* action : menu->menu() ? menu->menu()->actions() : QList<QAction*>()) {
            if (action->objectName() == QStringLiteral("actionLaunchAgent"))
                launch = action;
        }
    }
    if (!launch || !launch->isEnabled())
        return nullptr;
    launch->trigger();
    LaunchAgentDialog* dialog = launcher()->dialog();
    if (!dialog || !dialog->isVisible())
        return nullptr;
    return dialog;
}

AgentLaunchOutcome TestAgentLaunch::waitFinished()
{
    [&] { QTRY_VERIFY_WITH_TIMEOUT(m_outcome.has_value(), 240000); }();
    AgentLaunchOutcome outcome = m_outcome.value_or(AgentLaunchOutcome{.error = QStringLiteral("never finished")});
    m_outcome.reset();
    return outcome;
}

SessionInfo TestAgentLaunch::recorded(const QString& sessionId)
{
    auto store = sb::Store::open(fs::path(m_store.toStdString()));
    if (!store)
        qFatal("cannot open the store: %s", store.error().message.c_str());
    auto session = sb::agents::SessionStore(*store).find(sessionId.toStdString());
    if (!session)
        qFatal("no session %s: %s", qPrintable(sessionId), session.error().message.c_str());
    return *session;
}

void TestAgentLaunch::click(QWidget* parent, const char* name)
{
    auto* button = parent->findChild<QPushButton*>(QString::fromLatin1(name));
    QVERIFY2(button, name);
    QTRY_VERIFY_WITH_TIMEOUT(button->isEnabled(), 30000);
    QTest::mouseClick(button, Qt::LeftButton);
}

void TestAgentLaunch::theDialogRefusesWhatCannotRun()
{
    LaunchAgentDialog* dialog = openDialog();
    QVERIFY(dialog);
    auto* agent = dialog->findChild<QComboBox*>(QStringLiteral("launchAgent"));
    auto* command = dialog->findChild<QLineEdit*>(QStringLiteral("launchCommand"));
    auto* reads = dialog->findChild<QPlainTextEdit*>(QStringLiteral("launchReadPaths"));
    auto* policy = dialog->findChild<QComboBox*>(QStringLiteral("launchPolicy"));
    auto* policyFile = dialog->findChild<QLineEdit*>(QStringLiteral("launchPolicyFile"));
    auto* reason = dialog->findChild<QLabel*>(QStringLiteral("launchReason"));
    auto* ok = dialog->findChild<QPushButton*>(QStringLiteral("launchOk"));
    QVERIFY(agent && command && reads && policy && policyFile && reason && ok);

    // The worked example needs nothing typed.
    QVERIFY(ok->isEnabled());
    QVERIFY(!command->isVisible());

    agent->setCurrentIndex(1);
    QVERIFY(command->isVisible());
    QVERIFY(!ok->isEnabled());
    QVERIFY2(reason->text().contains(QStringLiteral("command")), qPrintable(reason->text()));
    QTest::keyClicks(command, QStringLiteral("no-such-agent-program --flag"));
    QVERIFY(!ok->isEnabled());
    QVERIFY2(reason->text().contains(QStringLiteral("No program no-such-agent-program")), qPrintable(reason->text()));
    command->setText(QStringLiteral("./agent.py"));
    QVERIFY(!ok->isEnabled());
    QVERIFY2(reason->text().contains(QStringLiteral("absolute")), qPrintable(reason->text()));
    // Words split as a shell splits them: double quotes keep a space inside one.
    command->setText(QStringLiteral("python3 \"%1/hostile_agent.py\" \"two words\"").arg(m_examples));
    QVERIFY2(ok->isEnabled(), qPrintable(reason->text()));
    QCOMPARE(dialog->launch().command,
             (QStringList{QStringLiteral("python3"), m_examples + QStringLiteral("/hostile_agent.py"),
                          QStringLiteral("two words")}));
    reads->setPlainText(QStringLiteral("examples"));
    QVERIFY(!ok->isEnabled());
    QVERIFY2(reason->text().contains(QStringLiteral("absolute")), qPrintable(reason->text()));
    reads->setPlainText(m_examples + QStringLiteral("/no-such-folder"));
    QVERIFY(!ok->isEnabled());
    QVERIFY2(reason->text().contains(QStringLiteral("does not exist")), qPrintable(reason->text()));
    reads->setPlainText(m_examples);
    QVERIFY(ok->isEnabled());

    // A policy file: missing, then one that is not a policy; the reason says which.
    policy->setCurrentIndex(policy->count() - 1);
    QVERIFY(policyFile->isVisible());
    QVERIFY(!ok->isEnabled());
    policyFile->setText(m_dir.path() + QStringLiteral("/missing.yaml"));
    QVERIFY(!ok->isEnabled());
    QVERIFY2(reason->text().contains(QStringLiteral("No policy file")), qPrintable(reason->text()));
    const QString broken = m_dir.path() + QStringLiteral("/broken.yaml");
    QFile file(broken);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("name: broken\nlevel: [container\n");
    file.close();
    policyFile->setText(broken);
    QVERIFY(!ok->isEnabled());
    QVERIFY2(reason->text().contains(QStringLiteral("cannot be used")), qPrintable(reason->text()));
    screenshot(QStringLiteral("launch-01-dialog-refused.png"), dialog);
    policyFile->setText(m_examples + QStringLiteral("/hostile-policy.yaml"));
    QVERIFY2(ok->isEnabled(), qPrintable(reason->text()));
    QVERIFY(reason->text().isEmpty());
    QCOMPARE(dialog->launch().policy, m_examples + QStringLiteral("/hostile-policy.yaml"));
    dialog->reject();
    QTRY_VERIFY(!launcher()->dialog());
    QVERIFY(!launcher()->isRunning());
}

void TestAgentLaunch::theWorkedExampleLaunchedInStepModeIsSteppedToTheEnd()
{
    LaunchAgentDialog* dialog = openDialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->findChild<QComboBox*>(QStringLiteral("launchAgent"))->currentIndex(), 0);
    dialog->findChild<QCheckBox*>(QStringLiteral("launchStepMode"))->setChecked(true);
    QVERIFY(dialog->launch().stepMode);
    screenshot(QStringLiteral("launch-02-dialog-worked-example.png"), dialog);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("launchOk")), Qt::LeftButton);
    QVERIFY(launcher()->isRunning());
    QVERIFY(!launcher()->launchAction()->isEnabled());

    // It shows live: the session opens by itself, the control bar waits before the first call.
    QTRY_VERIFY_WITH_TIMEOUT(!launcher()->job()->sessionId().isEmpty(), 120000);
    const QString id = launcher()->job()->sessionId();
    QTRY_COMPARE_WITH_TIMEOUT(workspace()->sessionId(), id, 30000);
    SessionControlBar* bar = workspace()->controlBar();
    QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), std::int64_t{1}, 60000);
    QVERIFY(bar->isVisible());
    QVERIFY2(launcher()->statusText().contains(id.left(8)), qPrintable(launcher()->statusText()));

    // Stepped three times: each call goes on, shows in the list, and the next one waits.
    for (std::int64_t step = 1; step <= 3; ++step) {
        click(bar, "controlStep");
        QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), step + 1, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(workspace()->stepModel()->rowCount() >= step, 30000);
    }
    screenshot(QStringLiteral("launch-03-live-session-stepped.png"));
    QCOMPARE(statusOf(recorded(id).status), QStringLiteral("running"));

    click(bar, "controlContinue");
    const AgentLaunchOutcome outcome = waitFinished();
    QVERIFY2(outcome.session, qPrintable(outcome.error));
    QCOMPARE(statusOf(outcome.session->status), QStringLiteral("completed"));
    QVERIFY(!outcome.stopped);
    const SessionInfo session = recorded(id);
    QCOMPARE(statusOf(session.status), QStringLiteral("completed"));
    QCOMPARE(session.steps, std::int64_t{14});
    QCOMPARE(session.sandbox, std::string("demo-upgrade"));
    QVERIFY2(launcher()->statusText().contains(QStringLiteral("completed")), qPrintable(launcher()->statusText()));
    QTRY_COMPARE_WITH_TIMEOUT(workspace()->stepModel()->rowCount(), 14, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!bar->isVisible(), 30000);
    QVERIFY(launcher()->launchAction()->isEnabled());
    QVERIFY(!launcher()->log().isEmpty());
    screenshot(QStringLiteral("launch-04-worked-example-completed.png"));
}

void TestAgentLaunch::anyCommandRunsUnderAPolicyFileInAStoredSandbox()
{
    LaunchAgentDialog* dialog = openDialog();
    QVERIFY(dialog);
    dialog->findChild<QComboBox*>(QStringLiteral("launchAgent"))->setCurrentIndex(1);
    dialog->findChild<QLineEdit*>(QStringLiteral("launchCommand"))
        ->setText(QStringLiteral("python3 %1/hostile_agent.py").arg(m_examples));
    dialog->findChild<QPlainTextEdit*>(QStringLiteral("launchReadPaths"))->setPlainText(m_examples);
    auto* policy = dialog->findChild<QComboBox*>(QStringLiteral("launchPolicy"));
    policy->setCurrentIndex(policy->count() - 1);
    dialog->findChild<QLineEdit*>(QStringLiteral("launchPolicyFile"))
        ->setText(m_examples + QStringLiteral("/hostile-policy.yaml"));
    // The store's sandboxes are read off the GUI thread and offered.
    auto* sandbox = dialog->findChild<QComboBox*>(QStringLiteral("launchSandbox"));
    QTRY_VERIFY_WITH_TIMEOUT(sandbox->findData(QStringLiteral("target")) >= 0, 30000);
    sandbox->setCurrentIndex(sandbox->findData(QStringLiteral("target")));
    screenshot(QStringLiteral("launch-05-dialog-any-command.png"), dialog);
    auto* ok = dialog->findChild<QPushButton*>(QStringLiteral("launchOk"));
    QVERIFY2(ok->isEnabled(), qPrintable(dialog->reason()));
    QTest::mouseClick(ok, Qt::LeftButton);

    const AgentLaunchOutcome outcome = waitFinished();
    QVERIFY2(outcome.session, qPrintable(outcome.error));
    const QString id = QString::fromStdString(outcome.session->id);
    const SessionInfo session = recorded(id);
    // The policy's max_steps ended the flood: the 61st call was refused and the session blocked.
    QCOMPARE(statusOf(session.status), QStringLiteral("blocked"));
    QCOMPARE(session.steps, std::int64_t{61});
    QCOMPARE(session.sandbox, std::string("target"));
    QCOMPARE(session.command.at(1), QString(m_examples + QStringLiteral("/hostile_agent.py")).toStdString());
    QCOMPARE(session.policy.name, std::string("hostile-agent")); // the file's policy, recorded as a version
    QTRY_COMPARE_WITH_TIMEOUT(workspace()->sessionId(), id, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(workspace()->stepModel()->rowCount(), 61, 30000);
    QVERIFY2(launcher()->statusText().contains(QStringLiteral("blocked")), qPrintable(launcher()->statusText()));
    screenshot(QStringLiteral("launch-06-any-command-blocked.png"));
}

void TestAgentLaunch::aLaunchTheCoreRefusesSaysWhy()
{
    // What the dialog cannot know ahead: a policy file gone between the dialog and the launch. Nothing is recorded.
    AgentLaunch gone;
    gone.agent = AgentLaunch::Agent::Command;
    gone.command = {QStringLiteral("python3"), m_examples + QStringLiteral("/hostile_agent.py")};
    gone.policy = m_dir.path() + QStringLiteral("/gone.yaml");
    QVERIFY(launcher()->launch(gone));
    AgentLaunchOutcome outcome = waitFinished();
    QVERIFY(!outcome.session);
    QVERIFY2(outcome.error.contains(QStringLiteral("gone.yaml")), qPrintable(outcome.error));
    QVERIFY2(launcher()->statusText().contains(QStringLiteral("refused")), qPrintable(launcher()->statusText()));
    QVERIFY(launcher()->statusText().contains(QStringLiteral("gone.yaml")));
    screenshot(QStringLiteral("launch-07-refused.png"), launcher());

    // A program that is not there: the session is recorded as failed, and says why.
    AgentLaunch missing;
    missing.agent = AgentLaunch::Agent::Command;
    missing.command = {QStringLiteral("/nonexistent/agent-program")};
    QVERIFY(launcher()->launch(missing));
    outcome = waitFinished();
    QVERIFY2(outcome.session, qPrintable(outcome.error));
    QCOMPARE(statusOf(recorded(QString::fromStdString(outcome.session->id)).status), QStringLiteral("failed"));
    QVERIFY2(!outcome.session->message.empty(), "a failed session says why");
    QVERIFY2(launcher()->statusText().contains(QStringLiteral("failed")), qPrintable(launcher()->statusText()));
    QVERIFY(launcher()->launchAction()->isEnabled());
}

void TestAgentLaunch::stopEndsALaunchedSession()
{
    AgentLaunch stepped;
    stepped.agent = AgentLaunch::Agent::Command;
    stepped.command = {QStringLiteral("python3"), m_examples + QStringLiteral("/upgrade_agent.py")};
    stepped.readPaths = {m_examples};
    stepped.stepMode = true; // its first call (list_dir, allowed) waits
    QVERIFY(launcher()->launch(stepped));
    QTRY_VERIFY_WITH_TIMEOUT(!launcher()->job()->sessionId().isEmpty(), 120000);
    const QString id = launcher()->job()->sessionId();
    QTRY_COMPARE_WITH_TIMEOUT(workspace()->sessionId(), id, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(workspace()->controlBar()->waitingStep(), std::int64_t{1}, 60000);
    QVERIFY(workspace()->controlBar()->isVisible());
    auto* stop = workspace()->findChild<QToolButton*>(QStringLiteral("agentStop"));
    QVERIFY(stop && stop->isEnabled());
    QTest::mouseClick(stop, Qt::LeftButton);
    const AgentLaunchOutcome outcome = waitFinished();
    QVERIFY2(outcome.session, qPrintable(outcome.error));
    QVERIFY(outcome.stopped);
    const SessionInfo session = recorded(id);
    QCOMPARE(statusOf(session.status), QStringLiteral("interrupted"));
    QVERIFY(session.steps <= 1); // the waiting call refused, nothing after it
    QVERIFY2(launcher()->statusText().contains(QStringLiteral("interrupted")), qPrintable(launcher()->statusText()));
    QVERIFY(!stop->isEnabled());
}

void TestAgentLaunch::theDemoAndALaunchDoNotRunTogether()
{
    // Both make the worked example's sandboxes afresh: while the demo runs, launching waits, saying why.
    QAction* demo = m_window->findChild<QAction*>(QStringLiteral("actionDemo"));
    QAction* cancel = m_window->findChild<QAction*>(QStringLiteral("actionCancel"));
    QVERIFY(demo && cancel && demo->isEnabled());
    QVERIFY(launcher()->launchAction()->isEnabled());
    demo->trigger();
    QVERIFY(!launcher()->launchAction()->isEnabled());
    QVERIFY2(launcher()->launchAction()->toolTip().contains(QStringLiteral("demo")),
             qPrintable(launcher()->launchAction()->toolTip()));
    cancel->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(demo->isEnabled(), 240000);
    QTRY_VERIFY_WITH_TIMEOUT(launcher()->launchAction()->isEnabled(), 10000);

    // And while a launched session runs, the demo is refused with a message.
    LaunchAgentDialog* dialog = openDialog();
    QVERIFY(dialog);
    dialog->findChild<QCheckBox*>(QStringLiteral("launchStepMode"))->setChecked(true);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("launchOk")), Qt::LeftButton);
    QVERIFY(launcher()->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!launcher()->job()->sessionId().isEmpty(), 120000);
    demo->trigger();
    QVERIFY(!cancel->isEnabled()); // nothing started
    auto* status = m_window->findChild<QLabel*>(QStringLiteral("statusLabel"));
    QVERIFY(status);
    QVERIFY2(status->text().contains(QStringLiteral("demo was not started")), qPrintable(status->text()));
    launcher()->stop();
    const AgentLaunchOutcome outcome = waitFinished();
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
}

void TestAgentLaunch::closingTheWindowStopsAWaitingSession()
{
    AgentLaunch stepped;
    stepped.agent = AgentLaunch::Agent::Command;
    stepped.command = {QStringLiteral("python3"), m_examples + QStringLiteral("/upgrade_agent.py")};
    stepped.readPaths = {m_examples};
    stepped.stepMode = true; // its first call (list_dir, allowed) waits
    QVERIFY(launcher()->launch(stepped));
    QTRY_VERIFY_WITH_TIMEOUT(!launcher()->job()->sessionId().isEmpty(), 120000);
    const QString id = launcher()->job()->sessionId();
    QTRY_COMPARE_WITH_TIMEOUT(workspace()->controlBar()->waitingStep(), std::int64_t{1}, 60000);
    // The window closes and goes while the call waits: it returns (a hang fails the test by its timeout), and
    // the session it leaves is settled, not running.
    QVERIFY(m_window->close());
    m_window.reset();
    QCOMPARE(statusOf(recorded(id).status), QStringLiteral("interrupted"));
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestAgentLaunch>(argc, argv);
}

#include "test_agent_launch.moc"
