// The window follows the store while another process writes to it: the real command line runs, makes a sandbox and
// a checkpoint and records an agent session on the window's store, and the run shows in the history, its audit entry
// in the audit log, the checkpoint in the checkpoint browser and the session with its steps in the agent workspace,
// without a reload and while the window answers events. A pane behind another tab reads when it shows; the window's
// own run is read again once, never in a loop; a write under way elsewhere is neither waited for nor shown. Screenshots go to the build tree.
#include "agent_test_support.h"
#include "gui_test_main.h"
#include "ui/agents/AgentWorkspace.h"
#include "ui/agents/SessionListModel.h"
#include "ui/agents/StepListModel.h"
#include "ui/audit/AuditView.h"
#include "ui/checkpoints/CheckpointBrowser.h"
#include "ui/editor/CodeEditor.h"
#include "ui/jobs/StoreFollower.h"
#include "ui/mainwindow/LivePanes.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/AuditLogModel.h"
#include "ui/models/CheckpointListModel.h"
#include "ui/models/RunHistoryModel.h"
#include "ui/models/SandboxListModel.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <memory>

using namespace sb::ui;

class TestLiveStore : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void anExternalRunShowsInTheHistoryAndTheAuditLog();
    void aCheckpointMadeElsewhereShowsInTheBrowser();
    void aPaneBehindAnotherTabReadsWhenItShows();
    void anAgentSessionRunElsewhereShowsWithItsSteps();
    void theWindowsOwnRunIsNotReadAgainAndAgain();
    void aWriteUnderWayElsewhereShowsOnceCommitted();
    void cleanupTestCase();

private:
    template <typename T> T* child(const char* name) const
    {
        auto* widget = m_window->findChild<T*>(QString::fromLatin1(name));
        if (!widget)
            qFatal("no child named %s", name);
        return widget;
    }
    QString storePath() const { return m_dir.path() + QStringLiteral("/store.db"); }
    // Starts the command line on the window's store without waiting for it: the window's event loop goes on.
    QProcess* startCli(const QStringList& args);
    // Runs the command line to its end while the window's event loop goes on; false: it failed (said on stderr).
    bool runCli(const QStringList& args, QByteArray* out = nullptr);
    // `sandbench exec --json -- PROGRAM [ARGUMENT]`: the run's id, empty when it failed.
    QString execElsewhere(const QString& program, const QString& argument = {});
    QAbstractItemModel* history() const { return child<QTableView>("historyView")->model(); }
    AuditLogModel* audit() const { return m_window->findChild<AuditView*>()->model(); }
    bool historyHasRun(const QString& runId) const;
    bool auditHasRun(const QString& runId) const;
    // Every pane's read has ended and no run is under way.
    bool idle() const;
    void raiseDock(const char* name);
    void screenshot(const QString& name);

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

QProcess* TestLiveStore::startCli(const QStringList& args)
{
    auto* cli = new QProcess(this);
    cli->setProcessChannelMode(QProcess::SeparateChannels);
    // --store after the command's words, before the command a `--` hands over.
    QStringList arguments = args;
    const qsizetype dashes = arguments.indexOf(QStringLiteral("--"));
    arguments.insert(dashes < 0 ? arguments.size() : dashes, storePath());
    arguments.insert(dashes < 0 ? arguments.size() - 1 : dashes, QStringLiteral("--store"));
    cli->start(QStringLiteral(SANDBENCH_CLI), arguments);
    return cli;
}

bool TestLiveStore::runCli(const QStringList& args, QByteArray* out)
{
    QProcess* cli = startCli(args);
    // A wait, not a timed assertion: the window answers events meanwhile.
    for (int waited = 0; cli->state() != QProcess::NotRunning && waited < 120000; waited += 20)
        QTest::qWait(20);
    const bool done =
        cli->state() == QProcess::NotRunning && cli->exitStatus() == QProcess::NormalExit && cli->exitCode() == 0;
    if (!done)
        qWarning("sandbench %s: exit %d: %s", qPrintable(args.join(QLatin1Char(' '))), cli->exitCode(),
                 cli->readAllStandardError().constData());
    if (out)
        *out = cli->readAllStandardOutput();
    cli->deleteLater();
    return done;
}

QString TestLiveStore::execElsewhere(const QString& program, const QString& argument)
{
    QByteArray out;
    QStringList args{QStringLiteral("exec"), QStringLiteral("--json"), QStringLiteral("--"), program};
    if (!argument.isEmpty())
        args << argument;
    if (!runCli(args, &out))
        return {};
    return QJsonDocument::fromJson(out).object().value(QStringLiteral("run_id")).toString();
}

bool TestLiveStore::historyHasRun(const QString& runId) const
{
    const auto* model = history();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data(RunHistoryModel::RunIdRole).toString() == runId)
            return true;
    }
    return false;
}

bool TestLiveStore::auditHasRun(const QString& runId) const
{
    const auto* model = audit();
    for (int row = 0; row < model->rowCount(); ++row) {
        const AuditRow* entry = model->rowAt(row);
        if (entry && entry->record.operation == "run" && QString::fromStdString(entry->record.subject) == runId)
            return true;
    }
    return false;
}

bool TestLiveStore::idle() const
{
    const auto* auditView = m_window->findChild<AuditView*>();
    const auto* browser = m_window->checkpointBrowser();
    return !m_window->jobs()->isRunning() && m_window->livePanes()->settled() && !auditView->jobs()->isLoading()
           && !browser->jobs()->isLoading() && !browser->jobs()->isDiffing() && !browser->jobs()->isBusy();
}

void TestLiveStore::raiseDock(const char* name)
{
    auto* dock = child<QDockWidget>(name);
    dock->show();
    dock->raise();
    QTRY_VERIFY(LivePanes::shows(dock->widget()));
}

void TestLiveStore::screenshot(const QString& name)
{
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    QVERIFY(m_window->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

void TestLiveStore::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_window = std::make_unique<MainWindow>(storePath().toStdString());
    m_window->resize(1440, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    const auto error = m_window->openStore();
    QVERIFY2(!error, error ? qPrintable(*error) : "");
    QVERIFY(m_window->storeFollower()->isFollowing());
    QTRY_VERIFY_WITH_TIMEOUT(idle(), 30000);
}

void TestLiveStore::anExternalRunShowsInTheHistoryAndTheAuditLog()
{
    raiseDock("auditDock"); // the audit log in front of the history: the history still shows through the dashboard
    const QString runId = execElsewhere(QStringLiteral("/bin/echo"), QStringLiteral("hi from elsewhere"));
    QVERIFY2(!runId.isEmpty(), "exec --json names its run");
    QElapsedTimer since;
    since.start();
    QTRY_VERIFY_WITH_TIMEOUT(auditHasRun(runId) && historyHasRun(runId), 5000);
    qInfo("the run shows %lld ms after the command ended (a poll every %d ms, then the read)",
          static_cast<long long>(since.elapsed()), StoreFollower::kPollMs);
    // The newest entry is in view, at the top.
    QCOMPARE(QString::fromStdString(audit()->rowAt(0)->record.subject), runId);
    screenshot(QStringLiteral("live-external-run.png"));
    raiseDock("historyDock");
    QCOMPARE(history()->index(0, 0).data(RunHistoryModel::RunIdRole).toString(), runId);
}

void TestLiveStore::aCheckpointMadeElsewhereShowsInTheBrowser()
{
    m_window->showCheckpoints();
    QVERIFY(runCli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("elsewhere")}));
    auto* browser = m_window->checkpointBrowser();
    auto* sandboxes = qobject_cast<SandboxListModel*>(child<QTableView>("sandboxTable")->model());
    QVERIFY(sandboxes);
    QTRY_VERIFY_WITH_TIMEOUT(sandboxes->rowOf(QStringLiteral("elsewhere")) >= 0, 5000);
    QVERIFY(browser->selectSandbox(QStringLiteral("elsewhere")));
    auto* checkpoints = qobject_cast<CheckpointListModel*>(child<QTableView>("checkpointTable")->model());
    QVERIFY(checkpoints);
    QTRY_VERIFY_WITH_TIMEOUT(checkpoints->rowCount() == 1, 5000);

    QByteArray out;
    QVERIFY(runCli({QStringLiteral("sandbox"), QStringLiteral("path"), QStringLiteral("elsewhere")}, &out));
    const QString workspace = QString::fromUtf8(out).trimmed();
    QFile file(workspace + QStringLiteral("/notes.txt"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("written outside the window\n");
    file.close();
    QVERIFY(runCli({QStringLiteral("checkpoint"), QStringLiteral("create"), QStringLiteral("--sandbox"),
                    QStringLiteral("elsewhere"), QStringLiteral("--label"), QStringLiteral("from the command line")},
                   &out));
    const QString id = QString::fromUtf8(out).trimmed();
    QVERIFY(!id.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(checkpoints->rowOf(id) >= 0, 5000);
    QCOMPARE(checkpoints->rowCount(), 2);
    QCOMPARE(browser->currentSandbox(), QStringLiteral("elsewhere")); // the sandbox looked at stays selected
    QTRY_VERIFY_WITH_TIMEOUT(idle(), 30000);
    screenshot(QStringLiteral("live-external-checkpoint.png"));
}

void TestLiveStore::aPaneBehindAnotherTabReadsWhenItShows()
{
    raiseDock("historyDock"); // the audit log behind it
    QTRY_VERIFY(!LivePanes::shows(m_window->findChild<AuditView*>())); // the tabs change at the next layout
    auto* live = m_window->livePanes();
    const int auditReads = live->readCount(QStringLiteral("audit"));
    const QString runId = execElsewhere(QStringLiteral("/bin/true"));
    QVERIFY(!runId.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(historyHasRun(runId), 5000);
    // The read that brought the run to the history passed the hidden audit log by.
    QCOMPARE(live->readCount(QStringLiteral("audit")), auditReads);
    QVERIFY(!auditHasRun(runId));
    raiseDock("auditDock");
    QTRY_VERIFY_WITH_TIMEOUT(auditHasRun(runId), 5000);
    raiseDock("historyDock"); // the window's layout as it starts
}

void TestLiveStore::anAgentSessionRunElsewhereShowsWithItsSteps()
{
    // The sandbox reads the examples as another user may: a copy outside the checkout, readable by all.
    const QString ex = sb::guitest::copyAgentExamples(m_dir.path());
    QVERIFY(!ex.isEmpty());
    QVERIFY(runCli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("repo"),
                    QStringLiteral("--import"), ex + QStringLiteral("/upgrade-repo")}));
    QVERIFY(runCli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("upgrade"),
                    QStringLiteral("--from"), QStringLiteral("repo")}));
    m_window->showAgents();
    AgentWorkspace* agents = m_window->agentWorkspace();
    const int sessions = agents->sessionModel()->rowCount();
    QByteArray out;
    QVERIFY(runCli({QStringLiteral("agent"), QStringLiteral("run"), QStringLiteral("--json"),
                    QStringLiteral("--sandbox"), QStringLiteral("upgrade"), QStringLiteral("--policy"),
                    ex + QStringLiteral("/policy.yaml"), QStringLiteral("--read"), ex, QStringLiteral("--"),
                    QStringLiteral("python3"), ex + QStringLiteral("/upgrade_agent.py")},
                   &out));
    const QString id = QJsonDocument::fromJson(out).object().value(QStringLiteral("id")).toString();
    QVERIFY2(!id.isEmpty(), out.constData());
    QTRY_VERIFY_WITH_TIMEOUT(agents->sessionModel()->rowOf(id) >= 0, 5000);
    QCOMPARE(agents->sessionModel()->rowCount(), sessions + 1);
    QVERIFY(agents->openSession(id));
    QTRY_VERIFY_WITH_TIMEOUT(agents->isLoaded() && agents->stepModel()->rowCount() == 14, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(idle(), 30000);
    screenshot(QStringLiteral("live-external-session.png"));
}

void TestLiveStore::theWindowsOwnRunIsNotReadAgainAndAgain()
{
    raiseDock("historyDock");
    auto* live = m_window->livePanes();
    auto* follower = m_window->storeFollower();
    m_window->editor()->setText(QStringLiteral("print('from the window')\n"));
    QString runId;
    const auto finished = connect(m_window->jobs(), &JobRunner::runFinished, this,
                                  [&runId](const RunEvent& event) { runId = QString::fromStdString(event.result.runId); });
    child<QAction>("actionRun")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!runId.isEmpty() && !m_window->jobs()->isRunning(), 30000);
    disconnect(finished);
    QVERIFY(historyHasRun(runId)); // shown from the run's own snapshot
    // Its commit is a change like any other: followed by one more read of each pane that shows.
    QTRY_VERIFY_WITH_TIMEOUT(idle(), 10000);
    QTest::qWait(2 * StoreFollower::kPollMs);
    QTRY_VERIFY_WITH_TIMEOUT(idle(), 10000);
    const qint64 changes = follower->changeCount();
    const int historyReads = live->readCount(QStringLiteral("history"));
    const int auditReads = live->readCount(QStringLiteral("audit"));
    // Those reads write nothing: over several polls nothing is seen changing, and nothing is read again. A loop
    // would read at every poll.
    QTest::qWait(6 * StoreFollower::kPollMs);
    QCOMPARE(follower->changeCount(), changes);
    QCOMPARE(live->readCount(QStringLiteral("history")), historyReads);
    QCOMPARE(live->readCount(QStringLiteral("audit")), auditReads);
}

void TestLiveStore::aWriteUnderWayElsewhereShowsOnceCommitted()
{
    raiseDock("historyDock");
    auto* follower = m_window->storeFollower();
    QTRY_VERIFY_WITH_TIMEOUT(idle(), 10000);
    const int rows = history()->rowCount();
    sqlite3* other = nullptr;
    QCOMPARE(sqlite3_open(storePath().toUtf8().constData(), &other), SQLITE_OK);
    sqlite3_busy_timeout(other, 5000);
    // Another program holds the write lock with every run deleted, not yet committed: the window neither waits
    // for it nor shows what it has not committed.
    QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE; DELETE FROM runs", nullptr, nullptr, nullptr), SQLITE_OK);
    const qint64 changes = follower->changeCount();
    QTest::qWait(3 * StoreFollower::kPollMs);
    QCOMPARE(follower->changeCount(), changes);
    QVERIFY(follower->isFollowing());
    QCOMPARE(sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(other);
    QCOMPARE(history()->rowCount(), rows);
    // The next commit is seen as before.
    const QString runId = execElsewhere(QStringLiteral("/bin/true"));
    QVERIFY(!runId.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(historyHasRun(runId), 5000);
    QVERIFY(follower->isFollowing());
}

void TestLiveStore::cleanupTestCase()
{
    m_window->editor()->setModified(false);
    m_window->close();
    QVERIFY(!m_window->storeFollower()->isFollowing());
    m_window.reset();
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestLiveStore>(argc, argv);
}

#include "test_live_store.moc"
