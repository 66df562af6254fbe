// Demo mode (sandbench-gui --demo): a fresh demo store of its own, filled with every part of the product, and Play
// demo walking through them. The window is made as main() makes it for --demo; the refusal of --demo with --store
// is checked on the real binary.
//
// ctest runs it once per screen (a laptop's 1366×768, a desktop's 1440×900, 1440×900 at twice the pixels), the window
// maximised on it as a trainer's would be. At each step of the walk what the audience must read is read back: the
// callout whole and clear of the part it names; that part (the run history's time, label and outcome, the rules
// charts and their summary, the agent's session, timeline and steps, the checkpoints, the review inside the screen
// with its files, risk, checks and buttons, the dashboard's charts); the toolbars without a "»", "Demo store" whole;
// icons drawn at the screen's pixels. Two shortfalls of the checkpoint browser (ui/checkpoints, owned elsewhere) are
// expected failures: its Label column too narrow for the demo's labels, and its Open folder icon scaled up on the
// high-DPI screen. A screenshot of each step goes to the build tree, named after the screen.
#include "chart_reading.h"
#include "gui_test_main.h"
#include "screen_reading.h"
#include "agents/session_store.h"
#include "demo/demo.h"
#include "demo/demo_sandboxes.h"
#include "demo/worked_example.h"
#include "store/audit_key.h"
#include "store/store.h"
#include "ui/agents/AgentTimeline.h"
#include "ui/agents/AgentWorkspace.h"
#include "ui/agents/StepListModel.h"
#include "ui/charts/MetricsDashboard.h"
#include "ui/checkpoints/CheckpointBrowser.h"
#include "ui/models/CheckpointListModel.h"
#include "ui/models/SandboxListModel.h"
#include "ui/demo/DemoStore.h"
#include "ui/demo/DemoTour.h"
#include "ui/editor/CodeEditor.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/Conversions.h"
#include "ui/models/RunHistoryModel.h"
#include "ui/promote/PromotionDialog.h"
#include "ui/rules/RulesCharts.h"
#include "ui/rules/RulesWorkspace.h"
#include "ui/style/OutcomeStyle.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPointer>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

#include <csignal>
#include <memory>

using namespace sb::ui;

class TestDemoMode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theDemoStoreIsNewPrivateAndNotTheUsers();
    void seedingFillsEveryPart();
    void playDemoShowsEachPartInTurn();
    void backGoesToThePreviousStep();
    void escapeStopsTheWalkAndClosesTheReview();
    void theTimerWalksOnByItself();
    void demoWithStoreIsRefused();
    void theDemoStoreGoesWithIt();
    void aTerminatedDemoLeavesNothing();
    void cleanupTestCase();

private:
    template <typename T>
    T* child(const char* name) const
    {
        return sb::guitest::requireChild<T>(*m_window, name);
    }
    bool dockShown(const char* name) const { return child<QDockWidget>(name)->isVisible(); }
    void screenshot(const QString& name, QWidget* widget = nullptr);
    void clickTour(const char* button);
    QStringList stepUnreadable(const QWidget* named);

    std::unique_ptr<DemoStore> m_demo;
    std::unique_ptr<MainWindow> m_window;
    DemoTour* m_tour = nullptr;
};

void TestDemoMode::screenshot(const QString& name, QWidget* widget)
{
    QTest::qWait(300); // let the charts lay out their titles and axes at their final size
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path =
        QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + sb::guitest::screenshotName(name);
    QVERIFY((widget ? widget : m_window.get())->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

void TestDemoMode::clickTour(const char* button)
{
    auto* widget = m_tour->findChild<QPushButton*>(QString::fromLatin1(button));
    QVERIFY(widget);
    QVERIFY2(widget->isVisible() && widget->isEnabled(), button);
    QTest::mouseClick(widget, Qt::LeftButton);
}

// What the audience could not read at a step of the walk, besides the part it names: the callout not whole in its
// host (the window, or the review it lies over) or over what it shows of `named` (the part it names), a toolbar's
// "»", the "Demo store" label not whole, an icon blurred.
QStringList TestDemoMode::stepUnreadable(const QWidget* named)
{
    using namespace sb::guitest;
    QStringList problems = widgetCut(m_tour);
    for (const char* name : {"demoTourTitle", "demoTourText"})
        problems << labelCut(requireChild<QLabel>(*m_tour, name));
    for (QPushButton* button : m_tour->findChildren<QPushButton*>())
        if (button->isVisible())
            problems << widgetCut(button);
    if (named)
        problems << covered(named, m_tour);
    for (const char* name : {"runToolBar", "workspaceBar"})
        problems << toolBarOverflow(child<QToolBar>(name));
    problems << labelCut(child<QLabel>("storeLabel")); // "Demo store": never taken for the person's own
    // The checkpoint browser's icons are read at its own step.
    problems << blurredIcons(m_window.get(), m_window->checkpointBrowser());
    return problems;
}

void TestDemoMode::initTestCase()
{
    sb::guitest::verifyTestScreen();
    QVERIFY(!QTest::currentTestFailed());
    // As main() does for --demo.
    m_demo = std::make_unique<DemoStore>();
    QVERIFY2(m_demo->isValid(), qPrintable(m_demo->errorString()));
    qputenv(sb::kAuditKeysEnv.data(), QByteArray::fromStdString(m_demo->auditKeysFolder().string()));
    m_window = std::make_unique<MainWindow>(sb::StoreLocation{m_demo->storePath(), false});
    m_window->markDemoStore();
    sb::guitest::showOnTestScreen(m_window.get());
    QVERIFY(!QTest::currentTestFailed());
    const auto error = m_window->openStore();
    QVERIFY2(!error, error ? qPrintable(*error) : "");
    m_tour = m_window->demoTour();
    QVERIFY(m_tour);
}

void TestDemoMode::theDemoStoreIsNewPrivateAndNotTheUsers()
{
    const QString storePath = QString::fromStdString(m_demo->storePath().string());
    // ctest sets SANDBENCH_STORE to a guard path: the store the window would open without --demo.
    const QByteArray guard = qgetenv("SANDBENCH_STORE");
    QVERIFY(!guard.isEmpty());
    QVERIFY(storePath != QString::fromLocal8Bit(guard));
    QVERIFY(storePath != QString::fromStdString(sb::Store::locate().path.string()));
    QVERIFY(!QFile::exists(QString::fromLocal8Bit(guard)));
    QCOMPARE(QFileInfo(storePath).absolutePath(), QFileInfo(m_demo->folder()).absoluteFilePath());
    QVERIFY(QFileInfo(m_demo->folder()).fileName().startsWith(QStringLiteral("sandbench-demo-")));
    QCOMPARE(QFileInfo(m_demo->folder()).permissions() & (QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup
                                                           | QFile::ReadOther | QFile::WriteOther | QFile::ExeOther),
             QFileDevice::Permissions{});
    QVERIFY(m_window->isDemoStore());
    QVERIFY2(m_window->windowTitle().contains(QStringLiteral("demo store")), qPrintable(m_window->windowTitle()));
    QCOMPARE(child<QLabel>("storeLabel")->text(), QStringLiteral("Demo store"));
}

void TestDemoMode::seedingFillsEveryPart()
{
    QVERIFY(!m_tour->isVisible());
    m_window->seedDemoStore();
    QVERIFY(m_window->jobs()->isRunning());
    QVERIFY(child<QProgressBar>("demoProgress")->isVisible()); // with Cancel beside it
    QVERIFY(child<QWidget>("statusCancelButton")->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->jobs()->isRunning(), 240000);

    // Once filled, Play demo is offered.
    QTRY_VERIFY(m_tour->isVisible());
    QVERIFY(!m_tour->isPlaying());
    QVERIFY(m_tour->findChild<QPushButton*>(QStringLiteral("demoTourPlay"))->isVisible());
    QVERIFY(!m_tour->findChild<QPushButton*>(QStringLiteral("demoTourNext"))->isVisible());
    QTest::qWait(20); // the callout settles where it goes once the window has laid out its panels
    VERIFY_READABLE(stepUnreadable(nullptr));
    screenshot(QStringLiteral("demo-00-offered"));

    // Runs of every outcome the demo's cases end in.
    auto* history = m_window->historyView()->model();
    QStringList outcomes;
    for (int row = 0; row < history->rowCount(); ++row)
        outcomes << history->index(row, 0).data(RunHistoryModel::OutcomeRole).toString();
    for (const auto& demoCase : sb::demoCases()) {
        bool seen = false;
        for (const sb::Outcome outcome : demoCase.expected)
            seen = seen || outcomes.contains(outcomeName(outcome));
        QVERIFY2(seen, demoCase.name.c_str());
    }
    QVERIFY(outcomes.contains(outcomeName(sb::Outcome::Blocked)));

    // A recorded agent session with its steps.
    {
        auto store = sb::Store::open(m_demo->storePath());
        QVERIFY(store.has_value());
        sb::agents::SessionStore sessions(*store);
        auto list = sessions.list();
        QVERIFY(list.has_value());
        QCOMPARE(list->size(), std::size_t{1});
        QCOMPARE(toQString(sb::agents::toString(list->front().status)), QStringLiteral("completed"));
        QVERIFY(list->front().steps > 0);
    }

    // Sandboxes with checkpoints: the demo's, and the agent's with its change ready to promote.
    CheckpointBrowser* browser = m_window->checkpointBrowser();
    QTRY_VERIFY_WITH_TIMEOUT(browser->selectSandbox(toQString(sb::kDemoSandbox)), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(child<QTableView>("checkpointTable")->model()->rowCount() >= 2, 30000);
    QTRY_VERIFY(browser->selectSandbox(toQString(sb::kWorkedExampleSandbox)));
    QTRY_VERIFY(browser->selectSandbox(toQString(sb::kWorkedExampleRepoSandbox)));

    // The rules demo, compared.
    RulesWorkspace* rules = m_window->rulesWorkspace();
    QCOMPARE(rules->ruleSetCount(), 3);
    QTRY_VERIFY_WITH_TIMEOUT(rules->result() != nullptr && rules->result()->compare, 60000);
}

void TestDemoMode::playDemoShowsEachPartInTurn()
{
    m_tour->setStepInterval(0); // Next alone moves on
    QSignalSpy shown(m_tour, &DemoTour::stepShown);
    QSignalSpy stopped(m_tour, &DemoTour::stopped);
    clickTour("demoTourPlay");
    auto* title = m_tour->findChild<QLabel*>(QStringLiteral("demoTourTitle"));
    auto* text = m_tour->findChild<QLabel*>(QStringLiteral("demoTourText"));

    for (int index = 0; index < DemoTour::kStepCount; ++index) {
        QTest::qWait(20); // the callout settles where it goes once the step's workspace has laid out its panels
        QVERIFY(m_tour->isPlaying());
        QCOMPARE(m_tour->stepIndex(), index);
        QCOMPARE(shown.count(), index + 1);
        QVERIFY(m_tour->isVisible());
        QVERIFY2(title->text().contains(m_tour->title()), qPrintable(title->text()));
        QVERIFY(title->text().startsWith(QStringLiteral("Step %1 of %2").arg(index + 1).arg(DemoTour::kStepCount)));
        QCOMPARE(text->text(), m_tour->caption());
        const QModelIndex selected = m_window->historyView()->currentIndex();
        switch (m_tour->step()) {
        case DemoTour::Step::Snippets:
            QVERIFY(dockShown("historyDock"));
            QVERIFY(m_window->centralWidget()->isVisible()); // the snippets' workspace
            // The newest of the demo's snippets, which the caption speaks of, not the agent session's commands
            // recorded after them.
            QVERIFY(selected.isValid());
            QVERIFY2(selected.siblingAtColumn(RunHistoryModel::LabelColumn).data().toString().startsWith(
                         QStringLiteral("demo: ")),
                     qPrintable(selected.siblingAtColumn(RunHistoryModel::LabelColumn).data().toString()));
            for (int row = 0; row < selected.row(); ++row)
                QVERIFY(!m_window->historyView()->model()->index(row, RunHistoryModel::LabelColumn).data().toString()
                             .startsWith(QStringLiteral("demo: ")));
            VERIFY_READABLE(stepUnreadable(m_window->historyView()));
            VERIFY_READABLE(sb::guitest::columnsCut(
                m_window->historyView(),
                {RunHistoryModel::TimeColumn, RunHistoryModel::LabelColumn, RunHistoryModel::OutcomeColumn}));
            screenshot(QStringLiteral("demo-01-snippets"));
            break;
        case DemoTour::Step::BlockedRun:
            QVERIFY(dockShown("historyDock"));
            QCOMPARE(selected.data(RunHistoryModel::OutcomeRole).toString(), outcomeName(sb::Outcome::Blocked));
            QCOMPARE(m_window->editor()->text(), selected.data(RunHistoryModel::SourceRole).toString());
            QVERIFY(!m_window->editor()->isModified()); // closing the demo window asks nothing
            VERIFY_READABLE(stepUnreadable(m_window->historyView()));
            VERIFY_READABLE(sb::guitest::columnsCut(
                m_window->historyView(),
                {RunHistoryModel::TimeColumn, RunHistoryModel::LabelColumn, RunHistoryModel::OutcomeColumn}));
            screenshot(QStringLiteral("demo-02-blocked-run"));
            break;
        case DemoTour::Step::Rules: {
            QVERIFY(dockShown("rulesDock"));
            RulesCharts* charts = m_window->rulesWorkspace()->charts();
            QVERIFY(charts->isVisible());
            QTest::qWait(300); // the charts lay out their titles and axes at their final size
            const auto views = charts->visibleCharts();
            QVERIFY(!views.empty());
            for (QChartView* view : views) {
                VERIFY_READABLE(sb::guitest::unreadable(view));
                VERIFY_READABLE(stepUnreadable(view));
            }
            VERIFY_READABLE(
                stepUnreadable(sb::guitest::requireChild<QLabel>(*m_window->rulesWorkspace(), "rulesSummary")));
            screenshot(QStringLiteral("demo-03-rules"));
            break;
        }
        case DemoTour::Step::AgentSession: {
            QVERIFY(dockShown("agentsDock"));
            AgentWorkspace* agents = m_window->agentWorkspace();
            QVERIFY(!agents->sessionId().isEmpty());
            QTRY_VERIFY(agents->stepModel()->rowCount() > 0);
            QVERIFY(agents->timeline()->isVisible());
            for (QWidget* part : {static_cast<QWidget*>(agents->timeline()), static_cast<QWidget*>(agents->stepView()),
                                  sb::guitest::requireChild<QWidget>(*agents, "agentSessionList")})
                VERIFY_READABLE(stepUnreadable(part));
            VERIFY_READABLE(sb::guitest::columnsCut(agents->stepView(), {StepListModel::IndexColumn,
                                                                         StepListModel::ToolColumn,
                                                                         StepListModel::VerdictColumn}));
            screenshot(QStringLiteral("demo-04-agent-session"));
            break;
        }
        case DemoTour::Step::Checkpoints: {
            QVERIFY(dockShown("checkpointDock"));
            QCOMPARE(m_window->checkpointBrowser()->currentSandbox(), toQString(sb::kDemoSandbox));
            auto* checkpoints = child<QTableView>("checkpointTable");
            QTRY_VERIFY(checkpoints->model()->rowCount() >= 2);
            QVERIFY(checkpoints->isVisible());
            VERIFY_READABLE(stepUnreadable(checkpoints));
            VERIFY_READABLE(sb::guitest::columnsCut(
                checkpoints, {CheckpointListModel::IdColumn, CheckpointListModel::LabelColumn,
                              CheckpointListModel::KindColumn, CheckpointListModel::AuthorColumn,
                              CheckpointListModel::TimeColumn, CheckpointListModel::FilesColumn,
                              CheckpointListModel::SizeColumn}));
            auto* sandboxes = child<QTableView>("sandboxTable");
            VERIFY_READABLE(sb::guitest::columnsCut(
                sandboxes, {SandboxListModel::NameColumn, SandboxListModel::CheckpointsColumn,
                            SandboxListModel::CreatedColumn, SandboxListModel::ExpiresColumn,
                            SandboxListModel::StateColumn, SandboxListModel::UsageColumn}));
            VERIFY_READABLE(sb::guitest::blurredIcons(m_window->checkpointBrowser()));
            screenshot(QStringLiteral("demo-05-checkpoints"));
            break;
        }
        case DemoTour::Step::Promotion: {
            QVERIFY(dockShown("checkpointDock"));
            QCOMPARE(m_window->checkpointBrowser()->currentSandbox(), toQString(sb::kWorkedExampleSandbox));
            PromotionDialog* review = m_tour->promotionDialog();
            QVERIFY(review);
            QVERIFY(review->isVisible());
            QVERIFY(!review->isModal()); // the callout over it stays usable
            QCOMPARE(m_tour->parentWidget(), static_cast<QWidget*>(review));
            QTRY_VERIFY_WITH_TIMEOUT(review->report().has_value(), 60000);
            QVERIFY(!review->report()->changes.empty());
            VERIFY_READABLE(sb::guitest::offScreen(review));
            // What the step names, clear of the callout over the review: the changed files, the risk, the checks, the
            // approval and the buttons.
            for (const char* name : {"promotionFiles", "promotionRisk", "promotionChecks", "promotionApprovalBox",
                                     "promotionPromote", "promotionClose"}) {
                auto* part = sb::guitest::requireChild<QWidget>(*review, name);
                VERIFY_READABLE(sb::guitest::widgetCut(part));
                VERIFY_READABLE(stepUnreadable(part));
            }
            screenshot(QStringLiteral("demo-06-promotion-review"), review);
            break;
        }
        case DemoTour::Step::Dashboard: {
            QVERIFY(dockShown("metricsDock"));
            QVERIFY(!dockShown("checkpointDock"));
            QVERIFY(!m_tour->promotionDialog()); // the review closed, without promoting
            QCOMPARE(m_tour->parentWidget(), static_cast<QWidget*>(m_window.get()));
            auto* dashboard = child<MetricsDashboard>("metricsDashboard");
            QTest::qWait(300); // the charts lay out their titles and axes at their final size
            for (QChartView* view : {dashboard->outcomeChart(), dashboard->durationChart()}) {
                VERIFY_READABLE(sb::guitest::unreadable(view));
                VERIFY_READABLE(stepUnreadable(view));
            }
            screenshot(QStringLiteral("demo-07-dashboard"));
            break;
        }
        }
        const QString next = m_tour->findChild<QPushButton*>(QStringLiteral("demoTourNext"))->text();
        QCOMPARE(next, index + 1 == DemoTour::kStepCount ? QStringLiteral("Finish") : QStringLiteral("Next"));
        QCOMPARE(stopped.count(), 0);
        clickTour("demoTourNext");
    }
    // Finish ends it.
    QCOMPARE(stopped.count(), 1);
    QVERIFY(!m_tour->isPlaying());
    QVERIFY(!m_tour->isVisible());
    QCOMPARE(m_window->checkpointBrowser()->currentSandbox(), toQString(sb::kWorkedExampleSandbox));
}

void TestDemoMode::backGoesToThePreviousStep()
{
    m_tour->play();
    QCOMPARE(m_tour->stepIndex(), 0);
    QVERIFY(!m_tour->findChild<QPushButton*>(QStringLiteral("demoTourBack"))->isEnabled());
    clickTour("demoTourNext");
    clickTour("demoTourNext");
    QCOMPARE(m_tour->step(), DemoTour::Step::Rules);
    clickTour("demoTourBack");
    QCOMPARE(m_tour->step(), DemoTour::Step::BlockedRun);
    QVERIFY(dockShown("historyDock"));
    clickTour("demoTourStop");
    QVERIFY(!m_tour->isPlaying());
    QVERIFY(!m_tour->isVisible());
}

void TestDemoMode::escapeStopsTheWalkAndClosesTheReview()
{
    m_tour->play();
    while (m_tour->step() != DemoTour::Step::Promotion)
        clickTour("demoTourNext");
    QPointer<PromotionDialog> review = m_tour->promotionDialog();
    QVERIFY(review);
    QSignalSpy stopped(m_tour, &DemoTour::stopped);
    QTest::keyClick(review.data(), Qt::Key_Escape);
    QCOMPARE(stopped.count(), 1);
    QVERIFY(!m_tour->isPlaying());
    QTRY_VERIFY(review.isNull());
    QCOMPARE(m_tour->parentWidget(), static_cast<QWidget*>(m_window.get())); // not gone with the review

    // Esc in the window, too; and a job Esc would cancel is left alone (none runs).
    m_tour->play();
    QTest::keyClick(m_window.get(), Qt::Key_Escape);
    QCOMPARE(stopped.count(), 2);
    QVERIFY(!m_tour->isVisible());
}

void TestDemoMode::theTimerWalksOnByItself()
{
    // About a minute in all, at the default pace.
    QVERIFY(DemoTour::kStepCount * DemoTour::kDefaultStepMs >= 45000);
    QVERIFY(DemoTour::kStepCount * DemoTour::kDefaultStepMs <= 75000);
    QSignalSpy shown(m_tour, &DemoTour::stepShown);
    QSignalSpy stopped(m_tour, &DemoTour::stopped);
    m_tour->setStepInterval(20);
    m_tour->play();
    // Every step in turn, then the end, with nobody pressing Next.
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 60000);
    QCOMPARE(shown.count(), DemoTour::kStepCount);
    for (int i = 0; i < DemoTour::kStepCount; ++i)
        QCOMPARE(shown.at(i).at(0).toInt(), i);
    QTRY_VERIFY(!m_tour->promotionDialog());
    m_tour->setStepInterval(DemoTour::kDefaultStepMs);
}

void TestDemoMode::demoWithStoreIsRefused()
{
    QTemporaryDir dir;
    const QString named = dir.path() + QStringLiteral("/mine.db");
    QProcess gui;
    // No display: the refusal comes before the window system is touched.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("DISPLAY"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    gui.setProcessEnvironment(environment);
    gui.start(QStringLiteral(SANDBENCH_GUI), {QStringLiteral("--demo"), QStringLiteral("--store"), named});
    QVERIFY(gui.waitForFinished(30000));
    QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
    QCOMPARE(gui.exitCode(), 2);
    const QString error = QString::fromLocal8Bit(gui.readAllStandardError());
    QVERIFY2(error.contains(QStringLiteral("--demo")) && error.contains(QStringLiteral("--store")), qPrintable(error));
    QVERIFY(!QFile::exists(named));
}

void TestDemoMode::theDemoStoreGoesWithIt()
{
    QString folder;
    {
        DemoStore demo;
        QVERIFY(demo.isValid());
        folder = demo.folder();
        QVERIFY(folder != m_demo->folder()); // each demo store is new
        auto store = sb::Store::open(demo.storePath());
        QVERIFY(store.has_value());
        QVERIFY(QFile::exists(QString::fromStdString(demo.storePath().string())));
    }
    QVERIFY(!QFileInfo::exists(folder));
}

// The real binary, ended by SIGTERM (a logout, a kill) while it fills its demo store: its folder goes all the same,
// and it ends by that signal.
void TestDemoMode::aTerminatedDemoLeavesNothing()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QProcess gui;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("TMPDIR"), tmp.path()); // where the demo store's folder goes
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp.path() + QStringLiteral("/config"));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), tmp.path() + QStringLiteral("/data"));
    gui.setProcessEnvironment(environment);
    gui.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    gui.start(QStringLiteral(SANDBENCH_GUI), {QStringLiteral("--demo")});
    QVERIFY(gui.waitForStarted(30000));
    // The store opened (after the window, which handles the signal, was made): its sandboxes' folder is there.
    auto demoFolders = [&] {
        return QDir(tmp.path()).entryList({QStringLiteral("sandbench-demo-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
    };
    QTRY_VERIFY_WITH_TIMEOUT(demoFolders().size() == 1
                                 && QFileInfo::exists(tmp.path() + QLatin1Char('/') + demoFolders().front()
                                                      + QStringLiteral("/store.db.d")),
                             60000);
    QCOMPARE(gui.state(), QProcess::Running);
    ::kill(static_cast<pid_t>(gui.processId()), SIGTERM);
    QVERIFY(gui.waitForFinished(60000));
    QCOMPARE(gui.exitStatus(), QProcess::CrashExit); // ended by the signal, as a program that handles none would be
    QVERIFY2(demoFolders().isEmpty(), qPrintable(demoFolders().join(QLatin1Char(','))));
}

void TestDemoMode::cleanupTestCase()
{
    const QString folder = m_demo->folder();
    m_window->close();
    m_window.reset();
    m_demo.reset();
    QVERIFY(!QFileInfo::exists(folder));
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestDemoMode>(argc, argv);
}

#include "test_demo_mode.moc"
