// The agent workspace: its timeline arithmetic as data, its models over 100 000 steps and over a session still
// running, and the developer's path through the real window over a real recorded session (the worked example,
// examples/agents/upgrade_agent.py, run by the built `sandbench agent run`): the blocked download's rule and
// message, the migration's workspace diff, the timeline in step with the list, search, zoom, and export as JSON
// Lines and as an HTML report. Screenshots go to the build tree.
#include "agent_test_support.h"
#include "gui_test_main.h"

#include "agents/session_browse.h"
#include "agents/session_store.h"
#include "store/store.h"
#include "ui/agents/AgentTimeline.h"
#include "ui/agents/AgentWorkspace.h"
#include "ui/agents/EditArgumentsDialog.h"
#include "ui/agents/SessionControlBar.h"
#include "ui/agents/JsonTreeModel.h"
#include "ui/agents/SessionListModel.h"
#include "ui/agents/StepDetails.h"
#include "ui/agents/StepListModel.h"
#include "ui/agents/TimelineScale.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/DiffFileModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFile>
#include <QHelpEvent>
#include <QImage>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QContextMenuEvent>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QPlainTextEdit>
#include <QTableView>
#include <QToolTip>
#include <QTreeView>
#include <QWheelEvent>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <memory>

using namespace sb::ui;
using sb::agents::Json;
using sb::agents::SessionInfo;
using sb::agents::SessionStore;
using sb::agents::StepRecord;
using sb::agents::Verdict;

namespace fs = std::filesystem;

class TestAgentWorkspace : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void timelineScaleIsPlainArithmetic();
    void visibleStepsAreFoundByTime();
    void anInstantBlockedStepBetweenLongOnesShowsAndCanBePointedAt();
    void argumentsSummedUpInOneLine();
    void jsonTreeFoldsObjectsAndArrays();
    void aHundredThousandStepsOpen();
    void aRunningSessionIsFollowed();
    void theWindowShowsARecordedSession();
    void theBlockedStepShowsItsRuleAndMessage();
    void theMigrationStepShowsItsWorkspaceDiff();
    void theTimelineSelectsWhatTheListShows();
    void searchFindsAndJumps();
    void theTimelineZoomsAndPansWithKeys();
    void exportWritesJsonLinesAndAnHtmlReport();
    void forkAndRewindFromAStepsContextMenu();
    void aRunningSessionIsSteppedFromThePanel();
    void aControlSocketGoneShowsInTheBar();
    void cleanupTestCase();

private:
    std::unique_ptr<sb::Store> openStore(const QString& path);
    SessionInfo sessionInfo(sb::Store& store);
    QString cli(const QStringList& arguments, int timeoutMs = 240000)
    {
        return sb::guitest::runCli(m_store, arguments, m_dir.path() + QStringLiteral("/xdg"), timeoutMs);
    }
    void screenshot(const QString& name, QWidget* widget = nullptr)
    {
        QVERIFY(sb::guitest::saveScreenshot(widget ? widget : m_window.get(), name));
    }
    AgentWorkspace* workspace() const { return m_window->agentWorkspace(); }
    int rowOfStep(std::int64_t index) const { return static_cast<int>(index - 1); }
    void clickStep(std::int64_t index);
    void waitLoaded();
    void chooseFromStepMenu(std::int64_t step, const char* action)
    {
        QTableView* view = workspace()->stepView();
        sb::guitest::chooseFromContextMenu(this, view, view->model()->index(rowOfStep(step), StepListModel::ToolColumn),
                                           action);
    }

    QTemporaryDir m_dir;
    QString m_store; // the window's store, with the recorded example session
    QString m_sessionId;
    Json m_steps; // `sessions show --json` steps of that session
    std::unique_ptr<MainWindow> m_window;
};

std::unique_ptr<sb::Store> TestAgentWorkspace::openStore(const QString& path)
{
    auto opened = sb::Store::open(fs::path(path.toStdString()));
    if (!opened)
        qFatal("cannot open the store %s: %s", qPrintable(path), opened.error().message.c_str());
    return std::make_unique<sb::Store>(std::move(*opened));
}

SessionInfo TestAgentWorkspace::sessionInfo(sb::Store& store)
{
    sb::Policy policy;
    policy.name = "agent";
    policy.agent = sb::AgentPolicy{};
    policy.agent->maxCost = 500.0;
    auto version = store.recordPolicy(policy);
    if (!version)
        qFatal("cannot record a policy: %s", version.error().message.c_str());
    SessionInfo info;
    info.kind = sb::agents::SessionKind::Agent;
    info.command = {"python3", "agent.py"};
    info.sandbox = "try";
    info.policy = *version;
    info.policyRef = "preset:agent";
    return info;
}

void TestAgentWorkspace::waitLoaded()
{
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->isLoaded() && !workspace()->jobs()->isLoadingStep(), 30000);
}

void TestAgentWorkspace::clickStep(std::int64_t index)
{
    QTableView* view = workspace()->stepView();
    const QModelIndex at = view->model()->index(rowOfStep(index), StepListModel::ToolColumn);
    view->scrollTo(at);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(at).center());
}

void TestAgentWorkspace::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The sandbox reads the examples as another user may: a copy outside the checkout, readable by all.
    const QString ex = sb::guitest::copyAgentExamples(m_dir.path());
    QVERIFY(!ex.isEmpty());
    m_store = m_dir.path() + QStringLiteral("/store.db");
    cli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("repo"), QStringLiteral("--import"),
         ex + QStringLiteral("/upgrade-repo")});
    cli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("upgrade"), QStringLiteral("--from"),
         QStringLiteral("repo")});
    const QString run = cli({QStringLiteral("agent"), QStringLiteral("run"), QStringLiteral("--json"),
                             QStringLiteral("--sandbox"), QStringLiteral("upgrade"), QStringLiteral("--policy"),
                             ex + QStringLiteral("/policy.yaml"), QStringLiteral("--read"), ex, QStringLiteral("--"),
                             QStringLiteral("python3"), ex + QStringLiteral("/upgrade_agent.py")});
    const Json session = Json::parse(run.toStdString(), nullptr, false);
    QVERIFY2(!session.is_discarded() && session.contains("id"), qPrintable(run));
    m_sessionId = QString::fromStdString(session["id"].get<std::string>());
    const Json shown = Json::parse(cli({QStringLiteral("sessions"), QStringLiteral("show"), m_sessionId,
                                        QStringLiteral("--json")})
                                       .toStdString(),
                                   nullptr, false);
    QVERIFY(!shown.is_discarded());
    m_steps = shown["steps"];
    QCOMPARE(m_steps.size(), std::size_t{14});
}

void TestAgentWorkspace::timelineScaleIsPlainArithmetic()
{
    TimelineScale scale;
    scale.fit(1000, 500); // 1 s over 500 pixels
    QCOMPARE(scale.msPerPixel, 2.0);
    QCOMPARE(scale.xOf(500), 250.0);
    QCOMPARE(scale.msAt(250), 500.0);
    // Zooming keeps the time under the pointer where it is.
    scale.zoomAt(100, 2, 1000, 500);
    QCOMPARE(scale.msPerPixel, 1.0);
    QCOMPARE(scale.msAt(100), 200.0);
    // Never further out than the whole span, nor in past the closest bound.
    scale.zoomAt(0, 0.001, 1000, 500);
    QCOMPARE(scale.msPerPixel, 2.0);
    QCOMPARE(scale.startMs, 0.0);
    scale.zoomAt(0, 1e9, 1000, 500);
    QCOMPARE(scale.msPerPixel, TimelineScale::kMinMsPerPixel);
    // Panning stays within the span.
    scale.fit(1000, 500);
    scale.zoomAt(0, 4, 1000, 500); // 0.5 ms per pixel: 250 ms shown
    scale.panBy(10000, 1000, 500);
    QCOMPARE(scale.startMs, 750.0);
    scale.panBy(-100000, 1000, 500);
    QCOMPARE(scale.startMs, 0.0);
    // Ticks at 1, 2 or 5 times a power of ten, at least so many pixels apart.
    scale.msPerPixel = 1;
    QCOMPARE(scale.tickMs(90), 100.0);
    scale.msPerPixel = 3;
    QCOMPARE(scale.tickMs(90), 500.0);
    scale.msPerPixel = 0.02;
    QCOMPARE(scale.tickMs(90), 2.0);
}

void TestAgentWorkspace::visibleStepsAreFoundByTime()
{
    std::vector<sb::agents::StepSummary> steps;
    for (int i = 0; i < 10; ++i) { // step i runs from 1000 + 100 i to 1000 + 100 i + 50
        sb::agents::StepSummary step;
        step.index = i + 1;
        step.startedAtMs = 1000 + 100 * i;
        step.endedAtMs = 1050 + 100 * i;
        steps.push_back(step);
    }
    auto [first, last] = visibleStepRange(steps, 1000, 50, 320, 480);
    // Step 4 (300-350) still shows at 320; steps 5 (400-450) too; step 6 starts at 500, past the range.
    QCOMPARE(first, std::size_t{3});
    QCOMPARE(last, std::size_t{5});
    std::tie(first, last) = visibleStepRange(steps, 1000, 50, 2000, 3000);
    QCOMPARE(first, last);
    std::tie(first, last) = visibleStepRange(steps, 1000, 50, -1000, 5000);
    QCOMPARE(first, std::size_t{0});
    QCOMPARE(last, std::size_t{10});
}

void TestAgentWorkspace::anInstantBlockedStepBetweenLongOnesShowsAndCanBePointedAt()
{
    StepListModel model(nullptr);
    std::vector<sb::agents::StepSummary> steps(3);
    for (int i = 0; i < 3; ++i)
        steps[static_cast<std::size_t>(i)].index = i + 1;
    // 5 ms per pixel once fitted: the blocked step's time falls between two pixels' times.
    steps[0].startedAtMs = 0; // 0-1002 ms, allowed
    steps[0].endedAtMs = 1002;
    steps[1].startedAtMs = 1002; // at 1002 ms, blocked at once
    steps[1].endedAtMs = 1002;
    steps[1].verdict = Verdict::Blocked;
    steps[2].startedAtMs = 1002; // 1002-2000 ms, allowed
    steps[2].endedAtMs = 2000;
    model.setSteps(0, steps);
    QItemSelectionModel selection(&model);
    AgentTimeline timeline;
    timeline.resize(424, timeline.sizeHint().height());
    timeline.setModel(&model, &selection);
    timeline.setOrigin(0);
    // Drawn: a mark in the blocked step's colour where it is.
    const QImage picture = timeline.picture(424);
    int red = 0;
    for (int x = 0; x < picture.width(); ++x)
        red += picture.pixelColor(x, 30) == StepListModel::verdictColor(Verdict::Blocked) ? 1 : 0;
    QVERIFY2(red >= 2, qPrintable(QString::number(red)));
    // Pointed at: some pixel finds it.
    bool found = false;
    for (int x = 0; x < timeline.width() && !found; ++x)
        found = timeline.stepAt(QPoint(x, 30)) == 1;
    QVERIFY(found);
}

void TestAgentWorkspace::argumentsSummedUpInOneLine()
{
    QCOMPARE(sb::agents::argumentSummary(Json{{"path", "app.py"}}), std::string("path=app.py"));
    const std::string quoted = R"x(code="print(1)\nprint(2)" n=3)x";
    QCOMPARE(sb::agents::argumentSummary(Json{{"code", "print(1)\nprint(2)"}, {"n", 3}}), quoted);
    QCOMPARE(sb::agents::argumentSummary(Json::array({1, 2})), std::string("[1,2]"));
    const std::string longLine = sb::agents::argumentSummary(Json{{"content", std::string(500, 'x')}}, 40);
    QCOMPARE(QString::fromStdString(longLine).size(), 41); // 40 and the "…"
    QVERIFY(longLine.ends_with("…"));
    // Cut between code points, never inside one.
    const std::string accents = sb::agents::argumentSummary(Json{{"t", "ééééééé"}}, 5);
    QCOMPARE(QString::fromStdString(accents), QStringLiteral("t=ééé…"));
}

void TestAgentWorkspace::jsonTreeFoldsObjectsAndArrays()
{
    JsonTreeModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setJson(Json{{"content", Json::array({Json{{"type", "text"}, {"text", "line 1\nline 2"}}})}, {"isError", false}});
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex content = model.index(0, 0);
    QCOMPARE(content.data().toString(), QStringLiteral("content"));
    QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("[1 item]"));
    const QModelIndex item = model.index(0, 0, content);
    QCOMPARE(item.data().toString(), QStringLiteral("[0]"));
    const QModelIndex text = model.index(0, 1, item); // members in key order: text, type
    QCOMPARE(model.index(0, 0, item).data().toString(), QStringLiteral("text"));
    QCOMPARE(text.data().toString(), QStringLiteral("\"line 1…"));
    QCOMPARE(text.data(Qt::ToolTipRole).toString(), QStringLiteral("line 1\nline 2"));
    QCOMPARE(model.index(1, 1).data().toString(), QStringLiteral("false"));
    // A huge value is cut, and says so.
    Json many = Json::array();
    for (int i = 0; i < JsonTreeModel::kMaxNodes * 2; ++i)
        many.push_back(i);
    model.setJson(Json{{"many", many}});
    QVERIFY(model.nodeCount() <= JsonTreeModel::kMaxNodes + 1);
    const QModelIndex branch = model.index(0, 0);
    QVERIFY(model.index(model.rowCount(branch) - 1, 1, branch).data().toString().contains(QStringLiteral("cut")));
}

void TestAgentWorkspace::aHundredThousandStepsOpen()
{
    const QString path = m_dir.path() + QStringLiteral("/big.db");
    auto store = openStore(path);
    SessionStore sessions(*store);
    auto live = sessions.begin(sessionInfo(*store));
    QVERIFY(live);
    constexpr int kSteps = 100000;
    const std::int64_t start = live->info().startedAtMs;
    std::vector<StepRecord> batch;
    for (int i = 1; i <= kSteps; ++i) {
        StepRecord step;
        step.tool = i == kSteps ? "last_tool" : (i % 1000 == 0 ? "http_get" : "read_file");
        step.arguments = Json{{"path", "file-" + std::to_string(i)}};
        step.result = Json{{"content", Json::array({Json{{"type", "text"}, {"text", "ok"}}})}};
        step.startedAtMs = start + i * 10;
        step.endedAtMs = start + i * 10 + 5;
        step.cost = 0.001;
        step.verdict = i % 1000 == 0 ? Verdict::Blocked : Verdict::Allowed;
        batch.push_back(std::move(step));
        if (batch.size() == 10000) {
            QVERIFY(live->addSteps(batch));
            batch.clear();
        }
    }
    QVERIFY(live->end(sb::agents::SessionStatus::Completed, "done"));

    SessionJobRunner jobs(nullptr);
    jobs.setStorePath(fs::path(path.toStdString()));
    StepListModel model(nullptr);
    QSignalSpy batches(&jobs, &SessionJobRunner::stepsLoaded);
    connect(&jobs, &SessionJobRunner::stepsLoaded, &model,
            [&model](const StepBatch& b) { model.setSteps(b.offset, b.steps); });
    jobs.loadSteps(QString::fromStdString(live->info().id), 0);
    // The first batch is small, so the list shows at once; the rest follow.
    QTRY_VERIFY_WITH_TIMEOUT(batches.count() >= 1, 30000);
    QCOMPARE(batches.first().first().value<StepBatch>().steps.size(), std::size_t(SessionJobRunner::kFirstBatch));
    QTRY_VERIFY_WITH_TIMEOUT(!jobs.isLoadingSteps(), 60000);
    QCOMPARE(model.rowCount(), kSteps);
    const QModelIndex last = model.index(kSteps - 1, StepListModel::ToolColumn);
    QCOMPARE(last.data().toString(), QStringLiteral("last_tool"));
    QCOMPARE(model.index(kSteps - 1, StepListModel::IndexColumn).data().toLongLong(), qlonglong{kSteps});
    QCOMPARE(model.index(kSteps - 1, StepListModel::ArgumentsColumn).data().toString(), QStringLiteral("path=file-100000"));
    QCOMPARE(model.index(999, StepListModel::VerdictColumn).data(StepListModel::VerdictRole).toString(),
             QStringLiteral("blocked"));
    QVERIFY(std::abs(model.costSoFar(kSteps - 1) - kSteps * 0.001) < 1e-6);

    // The whole session fits the timeline's picture, its blocked steps drawn over the allowed ones.
    QItemSelectionModel selection(&model);
    AgentTimeline timeline;
    timeline.setModel(&model, &selection);
    timeline.setOrigin(start);
    const QImage picture = timeline.picture(1000);
    const QColor blocked = StepListModel::verdictColor(Verdict::Blocked);
    int blockedMarks = 0;
    for (int x = 0; x < picture.width(); ++x) {
        if (picture.pixelColor(x, 30) == blocked && (x == 0 || picture.pixelColor(x - 1, 30) != blocked))
            ++blockedMarks;
    }
    // 100 blocked steps among 100 000 over ~976 columns, one every ~10: each shows as a mark of its own.
    QVERIFY2(blockedMarks >= 90 && blockedMarks <= 100, qPrintable(QString::number(blockedMarks)));
}

void TestAgentWorkspace::aRunningSessionIsFollowed()
{
    const QString path = m_dir.path() + QStringLiteral("/live.db");
    auto store = openStore(path);
    SessionStore sessions(*store);
    auto live = sessions.begin(sessionInfo(*store));
    QVERIFY(live);
    const auto step = [](const char* tool, bool finished) {
        StepRecord s;
        s.tool = tool;
        s.arguments = Json{{"path", "a.txt"}};
        s.cost = 1;
        if (finished)
            s.result = Json{{"content", Json::array()}};
        return s;
    };
    QVERIFY(live->addStep(step("read_file", true)));
    QVERIFY(live->finishStep(1, {.result = Json::object()}));
    QVERIFY(live->addStep(step("write_file", false))); // in flight

    AgentWorkspace panel;
    QAbstractItemModelTester tester(panel.stepModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester sessionsTester(panel.sessionModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.resize(1200, 800);
    panel.show(); // a hidden panel follows nothing
    panel.setStorePath(fs::path(path.toStdString()));
    QTRY_COMPARE(panel.sessionModel()->rowCount(), 1);
    QVERIFY(panel.openSession(QString::fromStdString(live->info().id)));
    QTRY_COMPARE(panel.stepModel()->rowCount(), 2);
    QCOMPARE(panel.stepModel()->index(1, StepListModel::DurationColumn).data().toString(), QStringLiteral("in flight"));
    // New steps and the result of the one in flight come in while the session runs.
    QVERIFY(live->finishStep(2, {.result = Json::object()}));
    QVERIFY(live->addStep(step("list_dir", true)));
    QTRY_COMPARE_WITH_TIMEOUT(panel.stepModel()->rowCount(), 3, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(panel.stepModel()->index(1, StepListModel::DurationColumn).data().toString()
                                 != QStringLiteral("in flight"),
                             10000);
    // A step's cost so far, against the policy's max_cost.
    panel.selectStep(2);
    QTRY_VERIFY_WITH_TIMEOUT(panel.details()->summaryText().contains(QStringLiteral("<b>Step 2</b>")), 10000);
    QVERIFY2(panel.details()->summaryText().contains(QStringLiteral("so far 2 of max_cost 500")),
             qPrintable(panel.details()->summaryText()));
    QVERIFY(live->end(sb::agents::SessionStatus::Completed, "finished"));
    QTRY_VERIFY_WITH_TIMEOUT(panel.findChild<QLabel*>(QStringLiteral("agentSessionHeader"))
                                 ->text()
                                 .contains(QStringLiteral("completed")),
                             10000);
    // A session that starts meanwhile joins the list; the open one stays open and selected.
    auto another = sessions.begin(sessionInfo(*store));
    QVERIFY(another);
    QTRY_COMPARE_WITH_TIMEOUT(panel.sessionModel()->rowCount(), 2, 10000);
    const QString openId = QString::fromStdString(live->info().id);
    QCOMPARE(panel.sessionId(), openId);
    auto* list = panel.findChild<QTableView*>(QStringLiteral("agentSessionList"));
    QCOMPARE(list->currentIndex().row(), panel.sessionModel()->rowOf(openId));
    QCOMPARE(panel.stepModel()->rowCount(), 3);
}

void TestAgentWorkspace::theWindowShowsARecordedSession()
{
    m_window = std::make_unique<MainWindow>(m_store.toStdString());
    m_window->resize(1600, 1000);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(!m_window->openStore());
    m_window->showAgents();
    auto* dock = m_window->findChild<QDockWidget*>(QStringLiteral("agentsDock"));
    QVERIFY(dock && dock->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->sessionModel()->rowOf(m_sessionId) >= 0, 30000);
    const auto* listed = workspace()->sessionModel()->sessionAt(workspace()->sessionModel()->rowOf(m_sessionId));
    QCOMPARE(listed->steps, 14);
    QCOMPARE(sb::agents::toString(listed->status), std::string_view("completed"));
    QVERIFY(workspace()->openSession(m_sessionId));
    QTRY_COMPARE_WITH_TIMEOUT(workspace()->stepModel()->rowCount(), 14, 30000);
    waitLoaded();
    for (int row = 0; row < 14; ++row) {
        QCOMPARE(workspace()->stepModel()->index(row, StepListModel::ToolColumn).data().toString().toStdString(),
                 m_steps[static_cast<std::size_t>(row)]["tool"].get<std::string>());
        QCOMPARE(workspace()->stepModel()->index(row, StepListModel::VerdictColumn)
                     .data(StepListModel::VerdictRole)
                     .toString()
                     .toStdString(),
                 m_steps[static_cast<std::size_t>(row)]["verdict"].get<std::string>());
    }
    screenshot(QStringLiteral("agents-01-session.png"));
}

void TestAgentWorkspace::theBlockedStepShowsItsRuleAndMessage()
{
    const Json& blocked = m_steps[11];
    QVERIFY(blocked["verdict"] == "blocked");
    clickStep(12);
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->details()->summaryText().contains(QStringLiteral("Step 12")), 30000);
    const QString summary = workspace()->details()->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("network.allow")), qPrintable(summary));
    const QString message = QString::fromStdString(blocked["message"].get<std::string>()).toHtmlEscaped();
    QVERIFY(!message.isEmpty());
    QVERIFY2(summary.contains(message), qPrintable(summary + QStringLiteral("\nwanted: ") + message));
    QVERIFY2(summary.contains(QStringLiteral("blocked")), qPrintable(summary));
    // The arguments as a tree: the URL the agent asked for.
    auto* arguments = m_window->findChild<QTreeView*>(QStringLiteral("stepArguments"));
    QVERIFY(arguments);
    bool urlShown = false;
    for (int row = 0; row < arguments->model()->rowCount(); ++row)
        urlShown |= arguments->model()->index(row, 0).data().toString() == QStringLiteral("url");
    QVERIFY(urlShown);
    screenshot(QStringLiteral("agents-02-blocked-step.png"));
    // The raw frames a click away.
    auto* tabs = workspace()->details()->tabs();
    tabs->setCurrentIndex(3);
    auto* frames = m_window->findChild<QPlainTextEdit*>(QStringLiteral("stepFrames"));
    QVERIFY(frames->toPlainText().contains(QString::fromStdString(blocked["request_frame"].get<std::string>())));
    screenshot(QStringLiteral("agents-03-raw-frames.png"));
    tabs->setCurrentIndex(0);
}

void TestAgentWorkspace::theMigrationStepShowsItsWorkspaceDiff()
{
    const Json& migration = m_steps[8];
    QVERIFY(migration["checkpoint_before"].is_string() && migration["checkpoint_after"].is_string());
    clickStep(9);
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->details()->summaryText().contains(QStringLiteral("Step 9")), 30000);
    auto* files = m_window->findChild<QTableView*>(QStringLiteral("stepDiffFiles"));
    QVERIFY(files);
    QTRY_VERIFY_WITH_TIMEOUT(files->model()->rowCount() > 0, 30000);
    QStringList paths;
    for (int row = 0; row < files->model()->rowCount(); ++row)
        paths << files->model()->index(row, 0).data(DiffFileModel::PathRole).toString();
    QVERIFY2(paths.contains(QStringLiteral("data/test_db.json")), qPrintable(paths.join(QLatin1Char(','))));
    QVERIFY(workspace()->details()->diffText().contains(QStringLiteral("test_db.json")));
    // Between the step's own checkpoints.
    const QString from = QString::fromStdString(migration["checkpoint_before"].get<std::string>()).left(12);
    const QString to = QString::fromStdString(migration["checkpoint_after"].get<std::string>()).left(12);
    QVERIFY2(workspace()->details()->diffText().startsWith(from + QStringLiteral(" → ") + to),
             qPrintable(workspace()->details()->diffText()));
    workspace()->details()->tabs()->setCurrentIndex(2);
    screenshot(QStringLiteral("agents-04-step-diff.png"));
    // A step that changed nothing the checkpoints record says so (step 1 reads).
    clickStep(1);
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->details()->summaryText().contains(QStringLiteral("<b>Step 1</b>")), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!workspace()->details()->isDiffing(), 30000);
    QVERIFY2(!workspace()->details()->diffText().contains(QStringLiteral("test_db.json")),
             qPrintable(workspace()->details()->diffText()));
    workspace()->details()->tabs()->setCurrentIndex(0);
}

void TestAgentWorkspace::theTimelineSelectsWhatTheListShows()
{
    AgentTimeline* timeline = workspace()->timeline();
    // Find the blocked step's bar by scanning the timeline, then click it.
    int x = -1;
    for (int at = 0; at < timeline->width() && x < 0; ++at) {
        if (timeline->stepAt(QPoint(at, 30)) == rowOfStep(12))
            x = at;
    }
    QVERIFY(x >= 0);
    // Hovering sums the step up.
    QHelpEvent hover(QEvent::ToolTip, QPoint(x, 30), timeline->mapToGlobal(QPoint(x, 30)));
    QApplication::sendEvent(timeline, &hover);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("Step 12")) && QToolTip::text().contains(QStringLiteral("blocked"))
                 && QToolTip::text().contains(QStringLiteral("http_get")),
             qPrintable(QToolTip::text()));
    QToolTip::hideText();
    QTest::mouseClick(timeline, Qt::LeftButton, {}, QPoint(x, 30));
    QCOMPARE(workspace()->stepView()->currentIndex().row(), rowOfStep(12));
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->details()->summaryText().contains(QStringLiteral("Step 12")), 30000);
    // Shift+drag over the whole timeline selects every step.
    QTest::mousePress(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(1, 30));
    QTest::mouseMove(timeline, QPoint(timeline->width() / 2, 30));
    QTest::mouseRelease(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(timeline->width() - 1, 30));
    QCOMPARE(workspace()->stepView()->selectionModel()->selectedRows().size(), 14);
    // A click on the list moves the timeline's current step.
    clickStep(3);
    QCOMPARE(workspace()->stepView()->selectionModel()->selectedRows().size(), 1);
    QCOMPARE(workspace()->stepView()->currentIndex().row(), rowOfStep(3));
}

void TestAgentWorkspace::searchFindsAndJumps()
{
    // What the search should find, from the command line's JSON (the store's JSON text is nlohmann's compact dump).
    const std::string needle = "minilib";
    std::vector<std::int64_t> expected;
    for (const Json& step : m_steps) {
        const auto contains = [&](const std::string& text) {
            std::string lower = text;
            for (char& c : lower)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            return lower.find(needle) != std::string::npos;
        };
        if (contains(step["tool"].get<std::string>()) || contains(step["arguments"].dump())
            || (!step["result"].is_null() && contains(step["result"].dump())) || contains(step["reasoning"].get<std::string>())
            || contains(step["message"].get<std::string>()))
            expected.push_back(step["index"].get<std::int64_t>());
    }
    QVERIFY(expected.size() >= 2);
    QVERIFY(expected.size() < 14);
    auto* field = m_window->findChild<QLineEdit*>(QStringLiteral("agentSearch"));
    field->clear();
    field->setFocus();
    clickStep(14); // the search goes on from the last step, round to the first match
    field->setFocus();
    QTest::keyClicks(field, QStringLiteral("MiniLib"));
    QTest::keyClick(field, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!workspace()->stepModel()->matches().empty(), 30000);
    QCOMPARE(workspace()->stepModel()->matches(), expected);
    QCOMPARE(workspace()->stepView()->currentIndex().row(), rowOfStep(expected.front()));
    QVERIFY(workspace()->stepModel()->index(rowOfStep(expected.front()), 0).data(StepListModel::MatchRole).toBool());
    // Enter goes to the next match.
    QTest::keyClick(field, Qt::Key_Return);
    QCOMPARE(workspace()->stepView()->currentIndex().row(), rowOfStep(expected[1]));
    auto* status = m_window->findChild<QLabel*>(QStringLiteral("agentSearchStatus"));
    QCOMPARE(status->text(), QStringLiteral("2 of %1").arg(expected.size()));
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->details()->summaryText().contains(QStringLiteral("<b>Step %1</b>").arg(expected[1])),
                             30000);
    screenshot(QStringLiteral("agents-05-search.png"));
    // Nothing found: no match, said so.
    field->clear();
    QTest::keyClicks(field, QStringLiteral("no-such-text-anywhere"));
    QTest::keyClick(field, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->stepModel()->matches().empty()
                                 && status->text() == QStringLiteral("No match"),
                             30000);
}

void TestAgentWorkspace::theTimelineZoomsAndPansWithKeys()
{
    AgentTimeline* timeline = workspace()->timeline();
    timeline->setFocus();
    QTest::keyClick(timeline, Qt::Key_0);
    const double fitted = timeline->scale().msPerPixel;
    QCOMPARE(timeline->scale().startMs, 0.0);
    QTest::keyClick(timeline, Qt::Key_Plus);
    QTest::keyClick(timeline, Qt::Key_Plus);
    QVERIFY(timeline->scale().msPerPixel < fitted / 2);
    const double zoomed = timeline->scale().msPerPixel;
    const double start = timeline->scale().startMs;
    QTest::keyClick(timeline, Qt::Key_Right);
    QVERIFY(timeline->scale().startMs > start);
    QTest::keyClick(timeline, Qt::Key_Left);
    QCOMPARE(timeline->scale().startMs, start);
    // Ctrl+wheel zooms too.
    QWheelEvent wheel(QPointF(timeline->width() / 2.0, 30), timeline->mapToGlobal(QPointF(timeline->width() / 2.0, 30)),
                      QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(timeline, &wheel);
    QVERIFY(timeline->scale().msPerPixel < zoomed);
    screenshot(QStringLiteral("agents-06-timeline-zoomed.png"));
    screenshot(QStringLiteral("agents-07-timeline-zoomed-close.png"), timeline);
    // Dragging pans: the view follows the pointer.
    const double before = timeline->scale().startMs;
    const int y = 30;
    QTest::mousePress(timeline, Qt::LeftButton, {}, QPoint(400, y));
    QTest::mouseMove(timeline, QPoint(350, y));
    QTest::mouseMove(timeline, QPoint(300, y));
    QTest::mouseRelease(timeline, Qt::LeftButton, {}, QPoint(300, y));
    QVERIFY2(std::abs(timeline->scale().startMs - (before + 100 * timeline->scale().msPerPixel)) < 1e-6,
             qPrintable(QStringLiteral("%1 → %2").arg(before).arg(timeline->scale().startMs)));
    QTest::keyClick(timeline, Qt::Key_Minus);
    QVERIFY(timeline->scale().msPerPixel > zoomed / 1.5 - 1e-9);
    QTest::keyClick(timeline, Qt::Key_0);
    QCOMPARE(timeline->scale().msPerPixel, fitted);
}

void TestAgentWorkspace::exportWritesJsonLinesAndAnHtmlReport()
{
    QSignalSpy done(workspace(), &AgentWorkspace::exportFinished);
    const QString jsonl = m_dir.path() + QStringLiteral("/session.jsonl");
    QVERIFY(workspace()->exportSession(jsonl, SessionExportFormat::JsonLines));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);
    QCOMPARE(done.first().at(1).toString(), QString());
    QFile file(jsonl);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.size(), 16); // the session, 14 steps, and the end of the last line
    QVERIFY(lines.last().isEmpty());
    const Json head = Json::parse(lines[0].toStdString());
    QVERIFY(head["record"] == "session");
    QCOMPARE(head["id"].get<std::string>(), m_sessionId.toStdString());
    QVERIFY(head["steps"] == 14);
    for (int i = 1; i <= 14; ++i) {
        const Json line = Json::parse(lines[i].toStdString());
        QVERIFY(line["record"] == "step");
        QCOMPARE(line["session_id"].get<std::string>(), m_sessionId.toStdString());
        QVERIFY(line["index"] == i);
        QVERIFY(line["tool"] == m_steps[static_cast<std::size_t>(i - 1)]["tool"]);
        QVERIFY(line["result"] == m_steps[static_cast<std::size_t>(i - 1)]["result"]);
    }
    QVERIFY(Json::parse(lines[12].toStdString())["rule"] == "network.allow");

    const QString html = m_dir.path() + QStringLiteral("/session.html");
    QVERIFY(workspace()->exportSession(html, SessionExportFormat::Html));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 30000);
    QCOMPARE(done.last().at(1).toString(), QString());
    QFile report(html);
    QVERIFY(report.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(report.readAll());
    QVERIFY(text.startsWith(QStringLiteral("<!DOCTYPE html>")));
    QVERIFY(text.contains(m_sessionId));
    QVERIFY(text.contains(QStringLiteral("network.allow")));
    QCOMPARE(text.count(QRegularExpression(QStringLiteral("<tr id=\"step-\\d+\">"))), 14);
    // The timeline's picture, embedded.
    const QRegularExpression picture(QStringLiteral("src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\""));
    const auto match = picture.match(text);
    QVERIFY(match.hasMatch());
    const QImage image = QImage::fromData(QByteArray::fromBase64(match.captured(1).toLatin1()), "PNG");
    QCOMPARE(image.width(), 1200);
    bool blockedDrawn = false;
    const QColor blocked = StepListModel::verdictColor(Verdict::Blocked);
    for (int x = 0; x < image.width() && !blockedDrawn; ++x)
        blockedDrawn = image.pixelColor(x, 30) == blocked;
    QVERIFY(blockedDrawn);
    // A path that cannot be written: a clear error, nothing half written.
    QVERIFY(workspace()->exportSession(m_dir.path() + QStringLiteral("/no/such/folder/x.jsonl"),
                                       SessionExportFormat::JsonLines));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 3, 30000);
    QVERIFY(done.last().at(1).toString().contains(QStringLiteral("no/such/folder")));
    screenshot(QStringLiteral("agents-08-dock.png"), m_window->findChild<QDockWidget*>(QStringLiteral("agentsDock")));
}

void TestAgentWorkspace::forkAndRewindFromAStepsContextMenu()
{
    QSignalSpy done(workspace(), &AgentWorkspace::workspaceTaskFinished);
    const QString original = QString::fromLatin1(
        [&] {
            QFile file(m_dir.path() + QStringLiteral("/examples/upgrade-repo/requirements.txt"));
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        }());
    QVERIFY(!original.isEmpty());
    const auto fileOf = [&](const QString& sandbox, const QString& name) {
        const QString folder = cli({QStringLiteral("sandbox"), QStringLiteral("path"), sandbox}).trimmed();
        QFile file(folder + QLatin1Char('/') + name);
        return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()) : QString();
    };
    // Fork from before step 4 (the upgrade's edit of requirements.txt): the new sandbox has the old requirement.
    sb::guitest::whenShown(this, [] { return qobject_cast<QInputDialog*>(QApplication::activeModalWidget()); },
              [](QInputDialog* dialog) {
                  dialog->setTextValue(QStringLiteral("before-upgrade"));
                  dialog->accept();
              });
    chooseFromStepMenu(4, "actionForkAtStep");
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    const auto forked = done.first().first().value<SessionWorkspaceTask>();
    QVERIFY2(forked.error.isEmpty(), qPrintable(forked.error));
    QCOMPARE(forked.sandbox, QStringLiteral("before-upgrade"));
    QCOMPARE(fileOf(QStringLiteral("before-upgrade"), QStringLiteral("requirements.txt")), original);
    // It shows in the checkpoint browser.
    auto* sandboxes = m_window->findChild<QTableView*>(QStringLiteral("sandboxTable"));
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int row = 0; row < sandboxes->model()->rowCount(); ++row) {
                if (sandboxes->model()->index(row, 0).data().toString() == QStringLiteral("before-upgrade")
                    || sandboxes->model()->index(row, 1).data().toString() == QStringLiteral("before-upgrade"))
                    return true;
            }
            return false;
        }(),
        30000);
    // Rewind the session's own sandbox there, confirmed: its requirement goes back too.
    QVERIFY(fileOf(QStringLiteral("upgrade"), QStringLiteral("requirements.txt")) != original);
    sb::guitest::whenShown(this, [] { return qobject_cast<QMessageBox*>(QApplication::activeModalWidget()); },
              [](QMessageBox* box) { box->button(QMessageBox::Yes)->click(); });
    chooseFromStepMenu(4, "actionRewindToStep");
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 60000);
    const auto rewound = done.last().first().value<SessionWorkspaceTask>();
    QVERIFY2(rewound.error.isEmpty(), qPrintable(rewound.error));
    QCOMPARE(rewound.sandbox, QStringLiteral("upgrade"));
    QCOMPARE(fileOf(QStringLiteral("upgrade"), QStringLiteral("requirements.txt")), original);
    // A name that is taken: a clear error.
    QVERIFY(workspace()->forkAtStep(4, QStringLiteral("before-upgrade")));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 3, 60000);
    QVERIFY2(done.last().first().value<SessionWorkspaceTask>().error.contains(QStringLiteral("before-upgrade")),
             qPrintable(done.last().first().value<SessionWorkspaceTask>().error));
}

void TestAgentWorkspace::aRunningSessionIsSteppedFromThePanel()
{
    QVERIFY2(m_window, "the window is made by theWindowShowsARecordedSession");
    // The worked example run in step mode: it pauses before every call until the panel lets it go on.
    const QString ex = m_dir.path() + QStringLiteral("/examples");
    cli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("stepped"), QStringLiteral("--from"),
         QStringLiteral("repo")});
    QProcess agent;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.path() + QStringLiteral("/xdg"));
    agent.setProcessEnvironment(env);
    agent.start(QStringLiteral(SANDBENCH_CLI),
                {QStringLiteral("agent"), QStringLiteral("run"), QStringLiteral("--step"), QStringLiteral("--json"),
                 QStringLiteral("--store"), m_store, QStringLiteral("--sandbox"), QStringLiteral("stepped"),
                 QStringLiteral("--policy"), ex + QStringLiteral("/policy.yaml"), QStringLiteral("--read"), ex,
                 QStringLiteral("--"), QStringLiteral("python3"), ex + QStringLiteral("/upgrade_agent.py")});
    QVERIFY(agent.waitForStarted());
    auto* bar = workspace()->controlBar();
    SessionListModel* sessions = workspace()->sessionModel();
    QString running;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int row = 0; row < sessions->rowCount(); ++row) {
                const auto* s = sessions->sessionAt(row);
                if (s->status == sb::agents::SessionStatus::Running && !s->controlSocket.empty()) {
                    running = QString::fromStdString(s->id);
                    return true;
                }
            }
            return false;
        }(),
        60000);
    QVERIFY(workspace()->openSession(running));
    QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), std::int64_t{1}, 30000);
    QVERIFY(bar->isVisible());
    QVERIFY2(bar->stateText().contains(QStringLiteral("list_dir")), qPrintable(bar->stateText()));

    // Step: the call goes on, its step shows, the session waits before the next.
    auto click = [bar](const char* name) {
        auto* button = bar->findChild<QPushButton*>(QString::fromLatin1(name));
        QVERIFY(button);
        QTRY_VERIFY_WITH_TIMEOUT(button->isEnabled(), 30000);
        QTest::mouseClick(button, Qt::LeftButton);
    };
    click("controlStep");
    QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), std::int64_t{2}, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->stepModel()->rowCount() >= 1, 30000);
    QVERIFY2(bar->stateText().contains(QStringLiteral("read_file")), qPrintable(bar->stateText()));

    // Step 2 goes on with other arguments, edited in the dialog: not JSON, then not an object, then right.
    click("controlEditArguments");
    QTRY_VERIFY_WITH_TIMEOUT(bar->editDialog() && bar->editDialog()->isVisible(), 10000);
    EditArgumentsDialog* dialog = bar->editDialog();
    QVERIFY(dialog->editor()->toPlainText().contains(QStringLiteral("requirements.txt")));
    auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(ok->isEnabled());
    dialog->editor()->setPlainText(QStringLiteral("{\"path\": "));
    QVERIFY(!ok->isEnabled());
    QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("editArgumentsError"))->text().isEmpty());
    dialog->editor()->setPlainText(QStringLiteral("[\"app.py\"]"));
    QVERIFY(!ok->isEnabled());
    QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("editArgumentsError"))->text().contains(QStringLiteral("object")));
    screenshot(QStringLiteral("agents-11-edit-arguments-refused.png"), dialog);
    dialog->editor()->setPlainText(QStringLiteral("{\n  \"path\": \"app.py\"\n}"));
    QVERIFY(ok->isEnabled());
    screenshot(QStringLiteral("agents-10-edit-arguments.png"), dialog);
    QTest::mouseClick(ok, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), std::int64_t{3}, 30000);

    // A breakpoint the session could not read is refused as it is typed, saying why: Add stays disabled.
    auto* breakEdit = bar->findChild<QLineEdit*>(QStringLiteral("controlBreak"));
    auto* addBreak = bar->findChild<QPushButton*>(QStringLiteral("controlAddBreak"));
    QVERIFY(breakEdit && addBreak);
    breakEdit->setText(QStringLiteral("args.path == "));
    QVERIFY(!addBreak->isEnabled());
    QVERIFY2(breakEdit->toolTip().contains(QStringLiteral("CEL")), qPrintable(breakEdit->toolTip()));
    QVERIFY2(bar->messageText().contains(QStringLiteral("CEL")), qPrintable(bar->messageText()));
    breakEdit->setText(QStringLiteral("args.path.endsWith(\".py\")"));
    QVERIFY(addBreak->isEnabled());
    QVERIFY2(!bar->messageText().contains(QStringLiteral("CEL")), qPrintable(bar->messageText()));
    breakEdit->clear();
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->stepModel()->rowCount() >= 2, 30000);
    screenshot(QStringLiteral("agents-09-step-paused.png"), workspace());

    // Step 3 (the tests before the upgrade) refused.
    click("controlDeny");
    QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), std::int64_t{4}, 30000);

    // A breakpoint on a tool: Continue runs on until its next call (step 5 writes the vendored library).
    breakEdit->setText(QStringLiteral("write_file"));
    click("controlAddBreak");
    QTRY_VERIFY_WITH_TIMEOUT(bar->findChild<QLabel*>(QStringLiteral("controlBreakpoints"))
                                 ->text()
                                 .contains(QStringLiteral("write_file")),
                             30000);
    click("controlContinue");
    QTRY_COMPARE_WITH_TIMEOUT(bar->waitingStep(), std::int64_t{5}, 30000);
    QVERIFY2(bar->stateText().contains(QStringLiteral("breakpoint")), qPrintable(bar->stateText()));
    click("controlClearBreaks");
    QTRY_VERIFY_WITH_TIMEOUT(bar->findChild<QLabel*>(QStringLiteral("controlBreakpoints"))
                                 ->text()
                                 .contains(QStringLiteral("No breakpoints")),
                             30000);

    // The rest runs to the end.
    click("controlContinue");
    QVERIFY(agent.waitForFinished(240000));
    QCOMPARE(agent.exitStatus(), QProcess::NormalExit);
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->sessionModel()->rowOf(running) >= 0
                                 && workspace()->sessionModel()
                                            ->sessionAt(workspace()->sessionModel()->rowOf(running))
                                            ->status
                                        == sb::agents::SessionStatus::Completed,
                             30000);
    QTRY_VERIFY_WITH_TIMEOUT(!bar->isVisible(), 30000);

    // What the store recorded: step 2 edited (the agent's arguments kept beside), step 3 denied.
    const Json shown = Json::parse(cli({QStringLiteral("sessions"), QStringLiteral("show"), running,
                                        QStringLiteral("--json")})
                                       .toStdString(),
                                   nullptr, false);
    QVERIFY(!shown.is_discarded());
    const Json& steps = shown["steps"];
    QVERIFY(steps.size() >= 4);
    QCOMPARE(steps[1].value("edited", false), true);
    QCOMPARE(steps[1]["arguments"].value("path", std::string()), std::string("app.py"));
    QCOMPARE(steps[1]["original_arguments"].value("path", std::string()), std::string("requirements.txt"));
    QCOMPARE(steps[2].value("verdict", std::string()), std::string("denied"));
    QCOMPARE(steps[0].value("edited", false), false);
}

void TestAgentWorkspace::aControlSocketGoneShowsInTheBar()
{
    // A session the store says runs, whose socket is not there (its gateway died): the bar says so and offers
    // nothing to press.
    SessionControlBar bar;
    SessionInfo session;
    session.id = "0badc0de-0000-0000-0000-000000000000";
    session.status = sb::agents::SessionStatus::Running;
    session.controlSocket = QString(m_dir.path() + QStringLiteral("/gone.sock")).toStdString();
    bar.setSession(session);
    bar.show();
    QVERIFY(bar.isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(bar.messageText().contains(QStringLiteral("gone.sock")), 30000);
    QCOMPARE(bar.waitingStep(), std::int64_t{0});
    QVERIFY(!bar.findChild<QPushButton*>(QStringLiteral("controlStep"))->isEnabled());
    bar.send(QStringLiteral("step"));
    QTRY_VERIFY_WITH_TIMEOUT(bar.messageText().contains(QStringLiteral("gone.sock")), 30000);
    session.status = sb::agents::SessionStatus::Completed;
    bar.setSession(session);
    QVERIFY(!bar.isVisible());
    bar.send(QStringLiteral("step"));
    QVERIFY(bar.messageText().contains(QStringLiteral("not running")));
}

void TestAgentWorkspace::cleanupTestCase()
{
    m_window.reset();
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestAgentWorkspace>(argc, argv);
}

#include "test_agent_workspace.moc"
