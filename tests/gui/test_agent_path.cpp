// The developer's path through the agent workspace, in one walk of the real window: the worked example launched
// in step mode from Run ▸ Launch agent…, stepped call by call to the migration, the migration's checkpoint and
// workspace diff, the download from an unlisted host seen coming and denied where it waits, the session continued to its end;
// then, from the steps' context menu, the session's sandbox rewound to before the migration and a sandbox forked
// from there (shown in the checkpoint browser); last, the session replayed under a stricter policy and compared
// with the original. What the store holds is read back at each step.
//
// ctest runs it once per screen (a laptop's 1366×768, a desktop's 1440×900, 1440×900 at twice the pixels), the window
// maximised on it. At each state what a developer must read is read back: the waiting call and the buttons that
// let it go or refuse it, the steps' index, tool and verdict, the changed files' paths, the toolbars without a "»",
// the compare view inside the screen with its titles, summary and each side's tool and verdict; icons drawn at the
// screen's pixels. A screenshot of each state goes to the build tree, named after the screen.
#include "agent_test_support.h"
#include "gui_test_main.h"
#include "screen_reading.h"

#include "agents/session_store.h"
#include "store/store.h"
#include "ui/agents/AgentLauncher.h"
#include "ui/agents/AgentWorkspace.h"
#include "ui/agents/LaunchAgentDialog.h"
#include "ui/agents/ReplayPolicyDialog.h"
#include "ui/agents/SessionCompare.h"
#include "ui/agents/SessionCompareModel.h"
#include "ui/agents/SessionControlBar.h"
#include "ui/agents/StepDetails.h"
#include "ui/agents/StepListModel.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/DiffFileModel.h"

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

#include <memory>

using namespace sb::ui;
using Json = nlohmann::json;


class TestAgentPath : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theDevelopersPath();

private:
    QString cli(const QStringList& arguments) { return sb::guitest::runCli(m_store, arguments); }
    Json cliJson(const QStringList& arguments) { return sb::guitest::runCliJson(m_store, arguments); }
    void screenshot(const QString& name, QWidget* widget = nullptr)
    {
        QVERIFY(sb::guitest::saveScreenshot(widget ? widget : m_window.get(), sb::guitest::screenshotName(name)));
    }
    QStringList sessionUnreadable();
    AgentWorkspace* workspace() const { return m_window->agentWorkspace(); }
    QString sandboxFile(const QString& sandbox, const QString& name);
    QString exampleFile(const QString& name);
    void clickStep(std::int64_t index);
    void clickBar(const char* name);
    void chooseFromStepMenu(std::int64_t step, const char* action)
    {
        QTableView* view = workspace()->stepView();
        sb::guitest::chooseFromContextMenu(this, view,
                                           view->model()->index(static_cast<int>(step - 1), StepListModel::ToolColumn),
                                           action);
    }

    QTemporaryDir m_dir;
    QString m_store;
    QString m_examples;
    std::unique_ptr<MainWindow> m_window;
};

QString TestAgentPath::sandboxFile(const QString& sandbox, const QString& name)
{
    const QString folder = cli({QStringLiteral("sandbox"), QStringLiteral("path"), sandbox}).trimmed();
    QFile file(folder + QLatin1Char('/') + name);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QString TestAgentPath::exampleFile(const QString& name)
{
    QFile file(m_examples + QStringLiteral("/upgrade-repo/") + name);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

void TestAgentPath::clickStep(std::int64_t index)
{
    QTableView* view = workspace()->stepView();
    const QModelIndex at = view->model()->index(static_cast<int>(index - 1), StepListModel::ToolColumn);
    view->scrollTo(at);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(at).center());
}

void TestAgentPath::clickBar(const char* name)
{
    auto* button = workspace()->controlBar()->findChild<QPushButton*>(QString::fromLatin1(name));
    QVERIFY2(button, name);
    QTRY_VERIFY_WITH_TIMEOUT(button->isEnabled(), 30000);
    QTest::mouseClick(button, Qt::LeftButton);
}

// What the developer could not read of the open session on this screen: a toolbar's "»", the store's name, the live
// session's waiting call or a button to let it go or refuse it not whole, a step's index, tool or verdict cut, an
// icon blurred.
QStringList TestAgentPath::sessionUnreadable()
{
    using namespace sb::guitest;
    QStringList problems;
    for (const char* name : {"runToolBar", "workspaceBar"})
        problems << toolBarOverflow(requireChild<QToolBar>(*m_window, name));
    problems << labelCut(requireChild<QLabel>(*m_window, "storeLabel"));
    SessionControlBar* bar = workspace()->controlBar();
    if (bar->isVisible()) {
        problems << labelCut(requireChild<QLabel>(*bar, "controlState"));
        for (const char* name :
             {"controlStep", "controlContinue", "controlPause", "controlDeny", "controlEditArguments"})
            problems << widgetCut(requireChild<QPushButton>(*bar, name));
    }
    problems << columnsCut(workspace()->stepView(),
                           {StepListModel::IndexColumn, StepListModel::ToolColumn, StepListModel::VerdictColumn});
    problems << blurredIcons(m_window.get());
    return problems;
}

void TestAgentPath::initTestCase()
{
    sb::guitest::verifyTestScreen();
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY(m_dir.isValid());
    qputenv("XDG_DATA_HOME", (m_dir.path() + QStringLiteral("/xdg")).toUtf8());
    const QString examples = sb::guitest::copyAgentExamples(m_dir.path());
    QVERIFY(!examples.isEmpty());
    m_examples = examples;
    m_store = m_dir.path() + QStringLiteral("/store.db");
    m_window = std::make_unique<MainWindow>(m_store.toStdString());
    sb::guitest::showOnTestScreen(m_window.get());
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY(!m_window->openStore());
}

void TestAgentPath::theDevelopersPath()
{
    // 1. Launch: Run ▸ Launch agent…, the worked example, step mode.
    QAction* launch = m_window->findChild<QAction*>(QStringLiteral("actionLaunchAgent"));
    QVERIFY(launch && launch->isEnabled());
    launch->trigger();
    LaunchAgentDialog* dialog = workspace()->launcher()->dialog();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->findChild<QComboBox*>(QStringLiteral("launchAgent"))->currentIndex(), 0);
    dialog->findChild<QCheckBox*>(QStringLiteral("launchStepMode"))->setChecked(true);
    VERIFY_READABLE(sb::guitest::offScreen(dialog));
    for (const char* name : {"launchAgent", "launchPolicy", "launchSandbox", "launchStepMode", "launchOk"})
        VERIFY_READABLE(sb::guitest::widgetCut(sb::guitest::requireChild<QWidget>(*dialog, name)));
    screenshot(QStringLiteral("path-01-launch"), dialog);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("launchOk")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!workspace()->launcher()->job()->sessionId().isEmpty(), 120000);
    const QString id = workspace()->launcher()->job()->sessionId();
    QTRY_COMPARE_WITH_TIMEOUT(workspace()->sessionId(), id, 30000);
    SessionControlBar* bar = workspace()->controlBar();
    QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), std::int64_t{1}, 60000);

    // 2. Step to the migration (step 9: `python3 migrate.py`), one call at a time, each recorded as it goes.
    for (std::int64_t step = 1; step <= 9; ++step) {
        QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), step, 60000);
        if (step == 9) {
            QVERIFY2(bar->stateText().contains(QStringLiteral("run_command")), qPrintable(bar->stateText()));
            VERIFY_READABLE(sessionUnreadable());
            screenshot(QStringLiteral("path-02-before-the-migration"));
        }
        clickBar("controlStep");
        QTRY_VERIFY_WITH_TIMEOUT(workspace()->stepModel()->rowCount() >= step, 60000);
    }
    QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), std::int64_t{10}, 60000);

    // 3. The migration's checkpoints and what it did to the workspace.
    clickStep(9);
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->details()->summaryText().contains(QStringLiteral("Step 9")), 30000);
    auto* files = m_window->findChild<QTableView*>(QStringLiteral("stepDiffFiles"));
    QVERIFY(files);
    QTRY_VERIFY_WITH_TIMEOUT(files->model()->rowCount() > 0, 30000);
    QStringList changed;
    for (int row = 0; row < files->model()->rowCount(); ++row)
        changed << files->model()->index(row, 0).data(DiffFileModel::PathRole).toString();
    QVERIFY2(changed.contains(QStringLiteral("data/test_db.json")), qPrintable(changed.join(QLatin1Char(','))));
    QVERIFY(workspace()->details()->diffText().contains(QStringLiteral("→")));
    workspace()->details()->tabs()->setCurrentIndex(2);
    QTRY_VERIFY(files->isVisible());
    VERIFY_READABLE(sb::guitest::columnsCut(files, {DiffFileModel::StatusColumn, DiffFileModel::PathColumn}));
    screenshot(QStringLiteral("path-03-migration-diff"));
    workspace()->details()->tabs()->setCurrentIndex(0);

    // 4. On to the download from an unlisted host (step 12). The policy will refuse it, and stepping shows it
    //    coming: the session stops there and says what the policy will do. Denied there, the policy's refusal is
    //    what is recorded (no person's word lifts or replaces it).
    for (std::int64_t step = 10; step <= 11; ++step) {
        QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), step, 60000);
        clickBar("controlStep");
    }
    QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), std::int64_t{12}, 60000);
    QVERIFY2(bar->stateText().contains(QStringLiteral("http_get")), qPrintable(bar->stateText()));
    QVERIFY2(bar->stateText().contains(QStringLiteral("network.allow")), qPrintable(bar->stateText()));
    VERIFY_READABLE(sessionUnreadable());
    screenshot(QStringLiteral("path-04-the-download-waits"));
    clickBar("controlDeny");
    QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), std::int64_t{13}, 60000);
    clickBar("controlContinue");
    QTRY_VERIFY_WITH_TIMEOUT(!workspace()->launcher()->isRunning(), 240000);
    QTRY_VERIFY_WITH_TIMEOUT(!bar->isVisible(), 30000);

    // What the store holds: every step, the migration between two checkpoints, the download denied.
    const Json shown = cliJson({QStringLiteral("sessions"), QStringLiteral("show"), id, QStringLiteral("--json")});
    QVERIFY(shown.is_object());
    QCOMPARE(shown["session"].value("status", std::string()), std::string("completed"));
    const Json& steps = shown["steps"];
    QCOMPARE(steps.size(), std::size_t{14});
    QCOMPARE(steps[8].value("tool", std::string()), std::string("run_command"));
    QVERIFY(steps[8]["checkpoint_before"].is_string() && steps[8]["checkpoint_after"].is_string());
    QVERIFY(steps[8]["checkpoint_before"] != steps[8]["checkpoint_after"]);
    QCOMPARE(steps[11].value("tool", std::string()), std::string("http_get"));
    QCOMPARE(steps[11].value("verdict", std::string()), std::string("blocked"));
    QCOMPARE(steps[11].value("rule", std::string()), std::string("network.allow"));
    QTRY_COMPARE_WITH_TIMEOUT(workspace()->stepModel()->rowCount(), 14, 30000);
    const QString sandbox = QString::fromStdString(shown["session"].value("sandbox", std::string()));
    QCOMPARE(sandbox, QStringLiteral("demo-upgrade"));
    VERIFY_READABLE(sessionUnreadable());
    screenshot(QStringLiteral("path-05-session-ended"));

    // 5. Rewind the session's sandbox to before the migration, confirmed: the test database is as the repository
    //    had it. Then fork a sandbox from there: it shows in the checkpoint browser.
    const QString original = exampleFile(QStringLiteral("data/test_db.json"));
    QVERIFY(!original.isEmpty());
    QSignalSpy done(workspace(), &AgentWorkspace::workspaceTaskFinished);
    sb::guitest::whenShown(this, [] { return qobject_cast<QMessageBox*>(QApplication::activeModalWidget()); },
                           [](QMessageBox* box) { box->button(QMessageBox::Yes)->click(); });
    chooseFromStepMenu(9, "actionRewindToStep");
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    const auto rewound = done.last().first().value<SessionWorkspaceTask>();
    QVERIFY2(rewound.error.isEmpty(), qPrintable(rewound.error));
    QCOMPARE(rewound.sandbox, sandbox);
    QCOMPARE(sandboxFile(sandbox, QStringLiteral("data/test_db.json")), original);

    sb::guitest::whenShown(this, [] { return qobject_cast<QInputDialog*>(QApplication::activeModalWidget()); },
              [](QInputDialog* input) {
                  input->setTextValue(QStringLiteral("before-migration"));
                  input->accept();
              });
    chooseFromStepMenu(9, "actionForkAtStep");
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 60000);
    const auto forked = done.last().first().value<SessionWorkspaceTask>();
    QVERIFY2(forked.error.isEmpty(), qPrintable(forked.error));
    QCOMPARE(forked.sandbox, QStringLiteral("before-migration"));
    QCOMPARE(sandboxFile(QStringLiteral("before-migration"), QStringLiteral("data/test_db.json")), original);
    // The migrated app.py of steps 7 and 8 is there: the fork is the workspace just before step 9.
    QVERIFY(sandboxFile(QStringLiteral("before-migration"), QStringLiteral("app.py")).contains(QStringLiteral("sum_all")));
    auto* sandboxes = m_window->findChild<QTableView*>(QStringLiteral("sandboxTable"));
    QVERIFY(sandboxes);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int row = 0; row < sandboxes->model()->rowCount(); ++row)
                for (int column = 0; column < 2; ++column)
                    if (sandboxes->model()->index(row, column).data().toString() == QStringLiteral("before-migration"))
                        return true;
            return false;
        }(),
        30000);
    screenshot(QStringLiteral("path-06-forked"));

    // 6. Replay under a stricter policy (the example's, with write_file blocked) and compare.
    QFile policy(m_examples + QStringLiteral("/policy.yaml"));
    QVERIFY(policy.open(QIODevice::ReadOnly));
    QByteArray strict = policy.readAll();
    QVERIFY(strict.contains("blocked_tools: []"));
    strict.replace("blocked_tools: []", "blocked_tools: [write_file]");
    strict.replace("name: upgrade-agent", "name: upgrade-agent-no-writes");
    const QString strictPath = m_dir.path() + QStringLiteral("/no-writes.yaml");
    QFile strictFile(strictPath);
    QVERIFY(strictFile.open(QIODevice::WriteOnly) && strictFile.write(strict) == strict.size());
    strictFile.close();
    sb::guitest::whenShown(this, [] { return qobject_cast<ReplayPolicyDialog*>(QApplication::activeModalWidget()); },
              [strictPath](ReplayPolicyDialog* replayDialog) {
                  replayDialog->setPolicyFile(strictPath);
                  replayDialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
              });
    auto* replay = m_window->findChild<QToolButton*>(QStringLiteral("agentReplay"));
    QVERIFY(replay && replay->isEnabled());
    QTest::mouseClick(replay, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->compareView() && workspace()->compareView()->isVisible(), 30000);
    SessionCompare* compare = workspace()->compareView();
    QTRY_VERIFY_WITH_TIMEOUT(!compare->isBusy() && compare->result().comparison, 240000);
    QVERIFY2(compare->result().error.isEmpty(), qPrintable(compare->result().error));
    SessionCompareModel* model = compare->model();
    QCOMPARE(model->rowCount(), 14);
    QVERIFY(model->differingCount() > 0);
    // The vendored library's write (step 5) is now blocked; the download was blocked in both.
    QCOMPARE(model->index(4, SessionCompareModel::LeftVerdictColumn).data().toString(), QStringLiteral("allowed"));
    QCOMPARE(model->index(4, SessionCompareModel::RightVerdictColumn).data().toString(), QStringLiteral("blocked"));
    QCOMPARE(model->index(4, SessionCompareModel::MarkerColumn).data().toString(), QStringLiteral("≠"));
    QCOMPARE(model->index(11, SessionCompareModel::LeftVerdictColumn).data().toString(), QStringLiteral("blocked"));
    QCOMPARE(compare->summaryText(), QStringLiteral("%1 of 14 steps differ").arg(model->differingCount()));
    QTRY_VERIFY_WITH_TIMEOUT(!compare->isLoadingDetails(), 30000);
    // The compare view as it opens on this screen: inside it, both sessions named, the summary and the buttons to
    // the differences whole, each side's tool and verdict and what changed readable on every row.
    VERIFY_READABLE(sb::guitest::offScreen(compare));
    for (const char* name : {"compareLeftTitle", "compareRightTitle", "compareSummary"})
        VERIFY_READABLE(sb::guitest::labelCut(sb::guitest::requireChild<QLabel>(*compare, name)));
    for (const char* name : {"comparePreviousDifference", "compareNextDifference"})
        VERIFY_READABLE(sb::guitest::widgetCut(sb::guitest::requireChild<QToolButton>(*compare, name)));
    VERIFY_READABLE(sb::guitest::columnsCut(
        compare->table(),
        {SessionCompareModel::MarkerColumn, SessionCompareModel::IndexColumn, SessionCompareModel::LeftToolColumn,
         SessionCompareModel::LeftVerdictColumn, SessionCompareModel::RightToolColumn,
         SessionCompareModel::RightVerdictColumn, SessionCompareModel::ChangeColumn}));
    VERIFY_READABLE(sb::guitest::blurredIcons(compare));
    screenshot(QStringLiteral("path-07-compare"), compare);
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestAgentPath>(argc, argv);
}

#include "test_agent_path.moc"
