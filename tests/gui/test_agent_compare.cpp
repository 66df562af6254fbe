// Replay and compare in the agent workspace: the worked example (examples/agents/upgrade_agent.py, recorded by the
// built `sandbench agent run`) replayed through the real window under a stricter policy (write_file blocked), the
// compare view's differing steps, verdicts and count checked against `sandbench sessions replay --json` under the
// same policy on the same store; two arbitrary sessions compared, checked against `sessions show --json` of
// each; a bad policy file refused in the dialog, and a replay that fails said so in the view. The pure comparison
// is tested in tests/agents/test_session_compare.cpp. Screenshots go to the build tree.
#include "agent_test_support.h"
#include "gui_test_main.h"

#include "agents/session_store.h"
#include "store/store.h"
#include "ui/agents/AgentWorkspace.h"
#include "ui/agents/ReplayPolicyDialog.h"
#include "ui/agents/SessionCompare.h"
#include "ui/agents/SessionCompareModel.h"
#include "ui/agents/SessionListModel.h"
#include "ui/mainwindow/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QContextMenuEvent>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QInputDialog>
#include <QMenu>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>

#include <filesystem>
#include <memory>

using namespace sb::ui;
using sb::agents::Json;

namespace fs = std::filesystem;

class TestAgentCompare : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void aSessionIsReplayedUnderAStricterPolicyFromTheWindow();
    void differencesAreReachedOneAfterAnother();
    void aSelectedStepShowsBothSidesInFull();
    void twoSessionsAreComparedFromTheContextMenu();
    void aBadPolicyFileIsRefusedWithAMessage();
    void aReplayThatFailsSaysWhy();
    void aReplayIsCancelledBetweenSteps();
    void aHundredThousandStepsAreCompared();
    void cleanupTestCase();

private:
    QString dataHome() const { return m_dir.path() + QStringLiteral("/xdg"); }
    QString cli(const QStringList& arguments) { return sb::guitest::runCli(m_store, arguments, dataHome()); }
    Json cliJson(const QStringList& arguments) { return sb::guitest::runCliJson(m_store, arguments, dataHome()); }
    void screenshot(const QString& name, QWidget* widget) { QVERIFY(sb::guitest::saveScreenshot(widget, name)); }
    AgentWorkspace* workspace() const { return m_window->agentWorkspace(); }
    SessionCompare* compareView() const { return workspace()->compareView(); }
    QString writeFile(const QString& name, const QByteArray& text);
    void chooseFromSessionMenu(const QString& sessionId, const char* action);
    void waitForComparison();

    QTemporaryDir m_dir;
    QString m_store;
    QString m_sessionId;
    QString m_strictPolicy; // the example's policy with write_file blocked
    QString m_replayId;     // the replay the window made
    Json m_cliReplay;       // `sessions replay --json` under m_strictPolicy
    std::unique_ptr<MainWindow> m_window;
};

QString TestAgentCompare::writeFile(const QString& name, const QByteArray& text)
{
    const QString path = m_dir.path() + QLatin1Char('/') + name;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void TestAgentCompare::chooseFromSessionMenu(const QString& sessionId, const char* action)
{
    auto* view = m_window->findChild<QTableView*>(QStringLiteral("agentSessionList"));
    QVERIFY(view);
    const int row = workspace()->sessionModel()->rowOf(sessionId);
    QVERIFY(row >= 0);
    sb::guitest::chooseFromContextMenu(this, view, view->model()->index(row, SessionListModel::CommandColumn), action);
}

void TestAgentCompare::waitForComparison()
{
    QTRY_VERIFY_WITH_TIMEOUT(compareView() && compareView()->isVisible(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!compareView()->isBusy(), 240000);
}

void TestAgentCompare::initTestCase()
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
    const Json session = cliJson({QStringLiteral("agent"), QStringLiteral("run"), QStringLiteral("--json"),
                                  QStringLiteral("--sandbox"), QStringLiteral("upgrade"), QStringLiteral("--policy"),
                                  ex + QStringLiteral("/policy.yaml"), QStringLiteral("--read"), ex,
                                  QStringLiteral("--"), QStringLiteral("python3"),
                                  ex + QStringLiteral("/upgrade_agent.py")});
    QVERIFY(session.is_object() && session.contains("id"));
    m_sessionId = QString::fromStdString(session["id"].get<std::string>());

    // The example's own policy, with write_file blocked: the vendored library is never written, so the step is
    // refused and the tests after it come out otherwise.
    QFile original(ex + QStringLiteral("/policy.yaml"));
    QVERIFY(original.open(QIODevice::ReadOnly));
    QByteArray strict = original.readAll();
    QVERIFY(strict.contains("blocked_tools: []"));
    strict.replace("blocked_tools: []", "blocked_tools: [write_file]");
    strict.replace("name: upgrade-agent", "name: upgrade-agent-no-writes");
    m_strictPolicy = writeFile(QStringLiteral("no-writes.yaml"), strict);

    // The command line's replay under the same policy, on the same store: what the window must show.
    m_cliReplay = cliJson({QStringLiteral("sessions"), QStringLiteral("replay"), m_sessionId,
                           QStringLiteral("--policy"), m_strictPolicy, QStringLiteral("--json")});
    QVERIFY(m_cliReplay.is_object() && m_cliReplay.contains("steps"));
    QCOMPARE(m_cliReplay["steps"].size(), std::size_t{14});
    QVERIFY2(m_cliReplay["changed"].get<int>() > 0, m_cliReplay.dump().c_str());

    m_window = std::make_unique<MainWindow>(m_store.toStdString());
    m_window->resize(1366, 768);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(!m_window->openStore());
    m_window->showAgents();
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->sessionModel()->rowOf(m_sessionId) >= 0, 30000);
}

void TestAgentCompare::aSessionIsReplayedUnderAStricterPolicyFromTheWindow()
{
    auto* replay = m_window->findChild<QToolButton*>(QStringLiteral("agentReplay"));
    QVERIFY(replay);
    QVERIFY(!replay->isEnabled()); // no session open yet
    QVERIFY(workspace()->openSession(m_sessionId));
    QVERIFY(replay->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->isLoaded(), 30000);
    screenshot(QStringLiteral("agents-compare-00-window.png"), m_window.get());
    sb::guitest::whenShown(this, [] { return qobject_cast<ReplayPolicyDialog*>(QApplication::activeModalWidget()); },
              [this](ReplayPolicyDialog* dialog) {
                  dialog->setPolicyFile(m_strictPolicy);
                  QCOMPARE(dialog->policy(), m_strictPolicy);
                  screenshot(QStringLiteral("agents-compare-01-policy.png"), dialog);
                  dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
              });
    QTest::mouseClick(replay, Qt::LeftButton);
    waitForComparison();
    compareView()->resize(1300, 690); // what it takes of a 1366×768 screen (the offscreen one is smaller)
    // The replay said how far it was as it went: the bar's last range and value are the session's steps.
    auto* progress = compareView()->findChild<QProgressBar*>(QStringLiteral("compareProgress"));
    QVERIFY(progress);
    QCOMPARE(progress->maximum(), 14);
    QCOMPARE(progress->value(), 14);

    const SessionCompareResult& result = compareView()->result();
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(result.replay && result.left && result.right && result.comparison);
    QCOMPARE(QString::fromStdString(result.left->id), m_sessionId);
    QCOMPARE(QString::fromStdString(result.right->replayOf), m_sessionId);
    m_replayId = QString::fromStdString(result.right->id);
    QVERIFY(m_replayId != QString::fromStdString(m_cliReplay["replay"].get<std::string>()));

    // The count and every step as the command line reported them.
    SessionCompareModel* model = compareView()->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int changed = m_cliReplay["changed"].get<int>();
    QCOMPARE(model->rowCount(), 14);
    QCOMPARE(model->differingCount(), changed);
    QCOMPARE(compareView()->summaryText(), QStringLiteral("%1 of 14 steps differ").arg(changed));
    bool blockedWrite = false;
    for (int row = 0; row < 14; ++row) {
        const Json& step = m_cliReplay["steps"][static_cast<std::size_t>(row)];
        const auto cell = [&](int column, int role = Qt::DisplayRole) { return model->index(row, column).data(role); };
        QCOMPARE(cell(SessionCompareModel::IndexColumn).toLongLong(), step["index"].get<qint64>());
        QCOMPARE(cell(SessionCompareModel::RightToolColumn).toString().toStdString(), step["tool"].get<std::string>());
        QCOMPARE(cell(SessionCompareModel::LeftVerdictColumn).toString().toStdString(),
                 step["recorded_verdict"].get<std::string>());
        QCOMPARE(cell(SessionCompareModel::RightVerdictColumn).toString().toStdString(),
                 step["verdict"].get<std::string>());
        QCOMPARE(cell(0, SessionCompareModel::ChangeRole).toString().toStdString(), step["change"].get<std::string>());
        const bool differs = step["change"] != "same";
        QCOMPARE(cell(0, SessionCompareModel::DiffersRole).toBool(), differs);
        // Highlighted by a marker and a tint, never by colour alone.
        QCOMPARE(cell(SessionCompareModel::MarkerColumn).toString(), differs ? QStringLiteral("≠") : QString());
        QCOMPARE(cell(SessionCompareModel::IndexColumn, Qt::BackgroundRole).isValid(), differs);
        QCOMPARE(cell(SessionCompareModel::ChangeColumn).toString().isEmpty(), !differs);
        if (step["tool"] == "write_file") {
            QCOMPARE(step["verdict"].get<std::string>(), std::string("blocked"));
            QCOMPARE(cell(SessionCompareModel::RightVerdictColumn).toString(), QStringLiteral("blocked"));
            QCOMPARE(cell(SessionCompareModel::LeftVerdictColumn).toString(), QStringLiteral("allowed"));
            blockedWrite = true;
        }
    }
    QVERIFY(blockedWrite);
    // The session list reads the store again: the replay is listed.
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->sessionModel()->rowOf(m_replayId) >= 0, 30000);
    QVERIFY(compareView()->statusText().contains(m_replayId.left(8)));
    QTRY_VERIFY_WITH_TIMEOUT(!compareView()->isLoadingDetails(), 30000);
    screenshot(QStringLiteral("agents-compare-02-replay.png"), compareView());
}

void TestAgentCompare::differencesAreReachedOneAfterAnother()
{
    SessionCompareModel* model = compareView()->model();
    std::vector<int> differing;
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->index(row, 0).data(SessionCompareModel::DiffersRole).toBool())
            differing.push_back(row);
    QVERIFY(!differing.empty());
    // The first difference is selected when the comparison shows.
    QCOMPARE(compareView()->table()->currentIndex().row(), differing.front());
    auto* next = compareView()->findChild<QToolButton*>(QStringLiteral("compareNextDifference"));
    auto* previous = compareView()->findChild<QToolButton*>(QStringLiteral("comparePreviousDifference"));
    QVERIFY(next && previous && next->isEnabled() && previous->isEnabled());
    for (std::size_t i = 1; i < differing.size(); ++i) {
        QTest::mouseClick(next, Qt::LeftButton);
        QCOMPARE(compareView()->table()->currentIndex().row(), differing[i]);
    }
    QTest::mouseClick(next, Qt::LeftButton); // past the last: it stays, and says so
    QCOMPARE(compareView()->table()->currentIndex().row(), differing.back());
    QVERIFY(compareView()->statusText().contains(QStringLiteral("No difference after")));
    for (std::size_t i = differing.size() - 1; i > 0; --i) {
        QTest::mouseClick(previous, Qt::LeftButton);
        QCOMPARE(compareView()->table()->currentIndex().row(), differing[i - 1]);
    }
    // From a row that does not differ, Next goes to the first difference after it.
    compareView()->selectRow(0);
    if (!differing.empty() && differing.front() > 0) {
        compareView()->nextDifference();
        QCOMPARE(compareView()->table()->currentIndex().row(), differing.front());
    }
}

void TestAgentCompare::aSelectedStepShowsBothSidesInFull()
{
    SessionCompareModel* model = compareView()->model();
    int writeRow = -1;
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->index(row, SessionCompareModel::LeftToolColumn).data().toString() == QStringLiteral("write_file"))
            writeRow = row;
    QVERIFY(writeRow >= 0);
    QTableView* table = compareView()->table();
    const QModelIndex at = model->index(writeRow, SessionCompareModel::RightVerdictColumn);
    table->scrollTo(at);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(at).center());
    QCOMPARE(table->currentIndex().row(), writeRow);
    QTRY_VERIFY_WITH_TIMEOUT(!compareView()->isLoadingDetails(), 30000);
    const QString left = compareView()->detailsText(true);
    const QString right = compareView()->detailsText(false);
    QVERIFY2(left.contains(QStringLiteral("write_file · allowed")), qPrintable(left));
    QVERIFY2(right.contains(QStringLiteral("write_file · blocked")), qPrintable(right));
    QVERIFY2(right.contains(QStringLiteral("blocked_tools")), qPrintable(right));
    // Arguments and result as trees: the path written on the left, the refusal on the right.
    for (const char* name : {"compareLeftTree", "compareRightTree"}) {
        auto* tree = compareView()->findChild<QTreeView*>(QString::fromLatin1(name));
        QVERIFY(tree);
        QCOMPARE(tree->model()->rowCount(), 2); // arguments, result
        const QModelIndex arguments = tree->model()->index(0, 0);
        QCOMPARE(arguments.data().toString(), QStringLiteral("arguments"));
        bool path = false;
        for (int row = 0; row < tree->model()->rowCount(arguments); ++row)
            path = path || tree->model()->index(row, 1, arguments).data().toString().contains(QStringLiteral("minilib"));
        QVERIFY(path);
    }
    screenshot(QStringLiteral("agents-compare-03-blocked-write.png"), compareView());
}

void TestAgentCompare::twoSessionsAreComparedFromTheContextMenu()
{
    // The original on the left, the command line's replay (a session like any other) on the right.
    const QString other = QString::fromStdString(m_cliReplay["replay"].get<std::string>());
    QTRY_VERIFY_WITH_TIMEOUT(workspace()->sessionModel()->rowOf(other) >= 0, 30000);
    sb::guitest::whenShown(this, [] { return qobject_cast<QInputDialog*>(QApplication::activeModalWidget()); },
              [other](QInputDialog* dialog) {
                  QString item;
                  for (const QString& text : dialog->comboBoxItems())
                      if (text.startsWith(other.left(8)))
                          item = text;
                  QVERIFY(!item.isEmpty());
                  dialog->setTextValue(item);
                  dialog->accept();
              });
    chooseFromSessionMenu(m_sessionId, "actionCompareSession");
    QTRY_VERIFY_WITH_TIMEOUT(compareView()->result().right
                                 && QString::fromStdString(compareView()->result().right->id) == other,
                             240000);
    QTRY_VERIFY_WITH_TIMEOUT(!compareView()->isBusy(), 60000);
    const SessionCompareResult& result = compareView()->result();
    QVERIFY(!result.replay);
    QCOMPARE(QString::fromStdString(result.left->id), m_sessionId);

    // What `sessions show --json` holds of each, compared here by hand: another call, verdict or result (a run's
    // id aside), or a step only one side has.
    const Json left = cliJson({QStringLiteral("sessions"), QStringLiteral("show"), m_sessionId,
                               QStringLiteral("--json")})["steps"];
    const Json right =
        cliJson({QStringLiteral("sessions"), QStringLiteral("show"), other, QStringLiteral("--json")})["steps"];
    const auto comparable = [](Json value) {
        if (value.is_object() && value.contains("structuredContent") && value["structuredContent"].is_object())
            value["structuredContent"].erase("run_id");
        return value;
    };
    SessionCompareModel* model = compareView()->model();
    QCOMPARE(model->rowCount(), static_cast<int>(std::max(left.size(), right.size())));
    int differing = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
        const auto i = static_cast<std::size_t>(row);
        const bool both = i < left.size() && i < right.size();
        const bool differs = !both || left[i]["tool"] != right[i]["tool"]
                             || left[i]["arguments"] != right[i]["arguments"]
                             || left[i]["verdict"] != right[i]["verdict"]
                             || comparable(left[i]["result"]) != comparable(right[i]["result"]);
        differing += differs;
        QCOMPARE(model->index(row, 0).data(SessionCompareModel::DiffersRole).toBool(), differs);
        if (i < right.size())
            QCOMPARE(model->index(row, SessionCompareModel::RightVerdictColumn).data().toString().toStdString(),
                     right[i]["verdict"].get<std::string>());
        else
            QVERIFY(model->index(row, SessionCompareModel::RightVerdictColumn).data().toString().isEmpty());
    }
    QVERIFY(differing > 0);
    QCOMPARE(model->differingCount(), differing);
    QCOMPARE(compareView()->summaryText(),
             QStringLiteral("%1 of %2 steps differ").arg(differing).arg(model->rowCount()));
    screenshot(QStringLiteral("agents-compare-04-two-sessions.png"), compareView());
}

void TestAgentCompare::aBadPolicyFileIsRefusedWithAMessage()
{
    const int sessions = workspace()->sessionModel()->rowCount();
    const QString bad = writeFile(QStringLiteral("bad.yaml"),
                                  "name: bad\nagent:\n  argument_rules:\n    - name: broken\n      condition: 'args.path ==='\n");
    const QString missing = m_dir.path() + QStringLiteral("/no-such-policy.yaml");
    // What the dialog said, read while it shows and checked once it is closed (a failed check must not leave a
    // modal dialog open).
    bool checked = false;
    bool stayedOpen = false;
    QString badError;
    QString clearedError;
    QString missingError;
    sb::guitest::whenShown(this, [] { return qobject_cast<ReplayPolicyDialog*>(QApplication::activeModalWidget()); },
              [&, this](ReplayPolicyDialog* dialog) {
                  auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
                  dialog->setPolicyFile(bad);
                  ok->click();
                  stayedOpen = dialog->isVisible(); // refused: the dialog stays
                  badError = dialog->errorText();
                  screenshot(QStringLiteral("agents-compare-05-bad-policy.png"), dialog);
                  dialog->setPolicyFile(missing);
                  clearedError = dialog->errorText(); // a new choice clears the old refusal
                  ok->click();
                  stayedOpen = stayedOpen && dialog->isVisible();
                  missingError = dialog->errorText();
                  checked = true;
                  dialog->reject();
              });
    chooseFromSessionMenu(m_sessionId, "actionReplaySession");
    QTRY_VERIFY_WITH_TIMEOUT(checked, 30000);
    QVERIFY(stayedOpen);
    QVERIFY2(badError.startsWith(QStringLiteral("This policy cannot rule a replay:")), qPrintable(badError));
    // The parser's place and the rule: bad.yaml:5:30: agent.argument_rules[0]: ...
    QVERIFY2(badError.contains(QStringLiteral("bad.yaml:5")), qPrintable(badError));
    QVERIFY2(badError.contains(QStringLiteral("argument_rules[0]")), qPrintable(badError));
    QVERIFY(clearedError.isEmpty());
    QVERIFY2(missingError.contains(QStringLiteral("no-such-policy.yaml")), qPrintable(missingError));
    QVERIFY(!compareView()->isBusy()); // nothing was started
    workspace()->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!workspace()->jobs()->isLoadingSessions(), 30000);
    QCOMPARE(workspace()->sessionModel()->rowCount(), sessions);
}

void TestAgentCompare::aReplayThatFailsSaysWhy()
{
    // Past the dialog (a file removed meanwhile): the replay's own error, in the view.
    const auto before = compareView()->result().comparison;
    QVERIFY(workspace()->replaySession(m_sessionId, m_dir.path() + QStringLiteral("/gone.yaml")));
    QVERIFY(compareView()->isBusy() || !compareView()->statusText().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(!compareView()->isBusy(), 60000);
    QVERIFY2(compareView()->statusText().startsWith(QStringLiteral("The replay failed:")),
             qPrintable(compareView()->statusText()));
    QVERIFY(compareView()->statusText().contains(QStringLiteral("gone.yaml")));
    QCOMPARE(compareView()->result().comparison, before); // what was shown stays
}

void TestAgentCompare::aReplayIsCancelledBetweenSteps()
{
    auto* cancel = compareView()->findChild<QToolButton*>(QStringLiteral("compareCancel"));
    QVERIFY(cancel);
    QVERIFY(!cancel->isVisible());

    // Cancelled as it starts: it stops before the next step, recorded as an interrupted session of its own.
    const auto before = compareView()->result().comparison;
    QVERIFY(workspace()->replaySession(m_sessionId, m_strictPolicy));
    QVERIFY(cancel->isVisible() && cancel->isEnabled());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(!cancel->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!compareView()->isBusy(), 120000);
    QVERIFY(!cancel->isVisible());
    const QString status = compareView()->statusText();
    QVERIFY2(status.startsWith(QStringLiteral("The replay failed: the replay was stopped after ")), qPrintable(status));
    QCOMPARE(compareView()->result().comparison, before); // what was shown stays
    const Json listed = cliJson({QStringLiteral("sessions"), QStringLiteral("list"), QStringLiteral("--json")});
    QVERIFY(listed.is_array());
    int interrupted = 0;
    for (const Json& session : listed)
        if (session["replay_of"].is_string() && session["replay_of"] == m_sessionId.toStdString()
            && session["status"] == "interrupted")
            ++interrupted;
    QCOMPARE(interrupted, 1);
}

void TestAgentCompare::aHundredThousandStepsAreCompared()
{
    // Two sessions of 100 000 steps in a store of their own: every thousandth step blocked on the right, which has
    // one step more. Read in batches off the GUI thread; the model holds one line per side.
    const QString path = m_dir.path() + QStringLiteral("/big.db");
    auto opened = sb::Store::open(fs::path(path.toStdString()));
    QVERIFY(opened);
    sb::Policy policy;
    policy.name = "agent";
    policy.agent = sb::AgentPolicy{};
    auto version = opened->recordPolicy(policy);
    QVERIFY(version);
    sb::agents::SessionStore sessions(*opened);
    constexpr int kSteps = 100000;
    QStringList ids;
    for (const bool right : {false, true}) {
        sb::agents::SessionInfo info;
        info.command = {"python3", right ? "b.py" : "a.py"};
        info.sandbox = "try";
        info.policy = *version;
        info.policyRef = "preset:agent";
        auto live = sessions.begin(info);
        QVERIFY(live);
        std::vector<sb::agents::StepRecord> batch;
        for (int i = 1; i <= kSteps + (right ? 1 : 0); ++i) {
            sb::agents::StepRecord step;
            step.tool = "read_file";
            step.arguments = Json{{"path", "file-" + std::to_string(i)}};
            step.result = Json{{"content", Json::array({Json{{"type", "text"}, {"text", "ok"}}})}};
            step.verdict = right && i % 1000 == 0 ? sb::agents::Verdict::Blocked : sb::agents::Verdict::Allowed;
            batch.push_back(std::move(step));
            if (batch.size() == 10000) {
                QVERIFY(live->addSteps(batch));
                batch.clear();
            }
        }
        QVERIFY(live->addSteps(batch));
        QVERIFY(live->end(sb::agents::SessionStatus::Completed, "done"));
        ids << QString::fromStdString(live->info().id);
    }

    SessionCompare view;
    view.setStorePath(fs::path(path.toStdString()));
    view.resize(1300, 690);
    view.show();
    QVERIFY(view.compare(ids[0], ids[1]));
    QVERIFY(view.isBusy());
    QVERIFY(!view.compare(ids[0], ids[1])); // one at a time
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 120000);
    QVERIFY2(view.result().error.isEmpty(), qPrintable(view.result().error));
    SessionCompareModel* model = view.model();
    QCOMPARE(model->rowCount(), kSteps + 1);
    QCOMPARE(model->differingCount(), kSteps / 1000 + 1);
    QCOMPARE(view.summaryText(), QStringLiteral("%1 of %2 steps differ").arg(kSteps / 1000 + 1).arg(kSteps + 1));
    QCOMPARE(view.table()->currentIndex().row(), 999); // the first difference, selected
    QCOMPARE(model->index(999, SessionCompareModel::RightVerdictColumn).data().toString(), QStringLiteral("blocked"));
    view.previousDifference(); // none before it
    QCOMPARE(view.table()->currentIndex().row(), 999);
    view.selectRow(kSteps - 1);
    view.nextDifference();
    QCOMPARE(view.table()->currentIndex().row(), kSteps);
    QCOMPARE(model->index(kSteps, 0).data(SessionCompareModel::ChangeRole).toString(), QStringLiteral("only_right"));
    QVERIFY(model->index(kSteps, SessionCompareModel::LeftToolColumn).data().toString().isEmpty());
    QCOMPARE(model->index(kSteps, SessionCompareModel::RightToolColumn).data().toString(), QStringLiteral("read_file"));
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoadingDetails(), 30000);
    QVERIFY2(view.detailsText(true).contains(QStringLiteral("No such step")), qPrintable(view.detailsText(true)));
    screenshot(QStringLiteral("agents-compare-06-large.png"), &view);
}

void TestAgentCompare::cleanupTestCase()
{
    m_window.reset();
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestAgentCompare>(argc, argv);
}

#include "test_agent_compare.moc"
