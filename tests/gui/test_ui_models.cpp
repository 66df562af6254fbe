// Models, adapters and background jobs of the workbench, without a single widget.
#include "agents/session_store.h"
#include "demo/demo.h"
#include "ui/jobs/AuditJobs.h"
#include "ui/jobs/RunJob.h"
#include "ui/models/AuditLogModel.h"
#include "store/sqlite_db.h"
#include "ui/models/MetricsChartData.h"
#include "ui/models/RunHistoryModel.h"
#include "ui/models/Traceback.h"
#include "ui/style/OutcomeStyle.h"

#include <QAbstractItemModelTester>
#include <QGuiApplication>
#include <QSet>
#include <QColor>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <algorithm>

using namespace sb::ui;

namespace {

sb::StoredRun makeRun(std::int64_t id, sb::Outcome outcome, std::string label, std::vector<sb::BlockedEvent> blocked = {})
{
    sb::StoredRun run;
    run.id = id;
    run.request.label = std::move(label);
    run.request.source = "print(" + std::to_string(id) + ")";
    run.result.runId = "run-" + std::to_string(id);
    run.result.outcome = outcome;
    run.result.durationMs = 12.5 * static_cast<double>(id);
    run.result.startedAtMs = 1'700'000'000'000 + id * 1000;
    run.result.blocked = std::move(blocked);
    return run;
}

sb::AuditRecord makeRecord(std::int64_t seq, std::string operation, std::string subject, std::string details = "{}")
{
    sb::AuditRecord record;
    record.seq = seq;
    record.atMs = 1'700'000'000'000 + seq * 1000;
    record.actor = "alice";
    record.operation = std::move(operation);
    record.subject = std::move(subject);
    record.details = std::move(details);
    record.prevHash = std::string(64, '0');
    record.hash = std::string(64, 'a');
    return record;
}

// A store with `count` audit entries, through the core API.
std::filesystem::path storeWithAudit(const QTemporaryDir& dir, int count)
{
    const std::filesystem::path path = QString(dir.path() + QStringLiteral("/audit.db")).toStdString();
    auto store = sb::Store::open(path);
    if (!store)
        qFatal("%s", store.error().message.c_str());
    for (int i = 1; i <= count; ++i) {
        sb::AuditEntry entry(i % 2 ? "sandbox.create" : "run", "subject-" + std::to_string(i), {{"n", i}});
        entry.actor = i % 3 ? "alice" : "bob";
        if (!sb::appendAudit(*store, entry))
            qFatal("cannot append");
    }
    return path;
}

void editStore(const std::filesystem::path& path, const char* sql)
{
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

sb::RunRequest pythonRequest(std::string source, std::int64_t wallMs = 10000)
{
    sb::RunRequest request;
    request.language = sb::Language::Python;
    request.source = std::move(source);
    request.policy.limits.wallMs = wallMs;
    return request;
}

} // namespace

class TestUiModels : public QObject {
    Q_OBJECT
private slots:
    void historyModelPassesTester();
    void historyModelColumns();
    void historyModelTakesNewerRunsWithoutAReset();
    void chartDataHasEveryOutcome();
    void chartDataOfEmptyStoreKeepsBins();
    void chartDataOverATimeRangeAndAFilter();
    void countAxis_data();
    void countAxis();
    void binLabels();
    void errorLine_data();
    void errorLine();
    void outcomeColoursAreDistinct();
    void jobRecordsRunAndDropsStaleJob();
    void jobWithoutStoreStillRuns();
    void demoJobRecordsTheWorkedExampleLast();
    void demoJobWithoutStoreSaysWhyTheWorkedExampleDidNotRun();
    void auditModelPassesTester();
    void auditModelShowsAndMarks();
    void auditJobsLoadFilteredAndDropStaleLoads();
    void auditJobsVerifyAndNameTheBrokenEntry();
    void auditJobsCancelAVerification();
};

void TestUiModels::historyModelPassesTester()
{
    RunHistoryModel model(this);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setRuns({makeRun(3, sb::Outcome::Ok, "a"), makeRun(2, sb::Outcome::Blocked, "b", {{"import", "os"}}),
                   makeRun(1, sb::Outcome::Timeout, "")});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), static_cast<int>(RunHistoryModel::ColumnCount));
    model.setRuns({});
    QCOMPARE(model.rowCount(), 0);
    model.setRuns({makeRun(5, sb::Outcome::Crashed, "x"), makeRun(4, sb::Outcome::Ok, "y")});
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(model.runAt(1) != nullptr);
    QVERIFY(model.runAt(2) == nullptr);
    QVERIFY(model.runAt(-1) == nullptr);
}

void TestUiModels::historyModelTakesNewerRunsWithoutAReset()
{
    RunHistoryModel model(this);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(
        {makeRun(3, sb::Outcome::Ok, "c"), makeRun(2, sb::Outcome::Ok, "b"), makeRun(1, sb::Outcome::Ok, "a")});
    const QPersistentModelIndex looked(model.index(1, 0)); // run 2, selected in a view
    int resets = 0;
    connect(&model, &QAbstractItemModel::modelReset, this, [&resets] { ++resets; });
    // Two newer runs, and the oldest past the limit gone: inserted on top, removed at the bottom.
    model.setRuns({makeRun(5, sb::Outcome::Ok, "e"), makeRun(4, sb::Outcome::Blocked, "d"),
                   makeRun(3, sb::Outcome::Ok, "c"), makeRun(2, sb::Outcome::Ok, "b")});
    QCOMPARE(resets, 0);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.runAt(0)->id, std::int64_t{5});
    QCOMPARE(model.runAt(3)->id, std::int64_t{2});
    QVERIFY(looked.isValid());
    QCOMPARE(looked.row(), 3);
    QCOMPARE(looked.data(RunHistoryModel::RunIdRole).toString(), QStringLiteral("run-2"));
    // The same runs again: nothing moves.
    model.setRuns({makeRun(5, sb::Outcome::Ok, "e"), makeRun(4, sb::Outcome::Blocked, "d"),
                   makeRun(3, sb::Outcome::Ok, "c"), makeRun(2, sb::Outcome::Ok, "b")});
    QCOMPARE(resets, 0);
    QCOMPARE(looked.row(), 3);
    // Runs that do not continue those shown (a run removed between them): a reset.
    model.setRuns(
        {makeRun(6, sb::Outcome::Ok, "f"), makeRun(5, sb::Outcome::Ok, "e"), makeRun(3, sb::Outcome::Ok, "c")});
    QCOMPARE(resets, 1);
    QCOMPARE(model.rowCount(), 3);
}

void TestUiModels::historyModelColumns()
{
    RunHistoryModel model(this);
    sb::StoredRun inSandbox = makeRun(2, sb::Outcome::Blocked, "import os", {{"import", "os"}});
    inSandbox.sandbox = "feature-x";
    model.setRuns({inSandbox, makeRun(1, sb::Outcome::Ok, "")});
    QCOMPARE(model.data(model.index(0, RunHistoryModel::LabelColumn)).toString(), QStringLiteral("import os"));
    QCOMPARE(model.data(model.index(0, RunHistoryModel::OutcomeColumn)).toString(), QStringLiteral("blocked"));
    QCOMPARE(model.data(model.index(0, RunHistoryModel::DetailColumn)).toString(), QStringLiteral("import: os"));
    QCOMPARE(model.data(model.index(0, RunHistoryModel::LanguageColumn)).toString(), QStringLiteral("python"));
    QCOMPARE(model.data(model.index(1, RunHistoryModel::LabelColumn)).toString(), QStringLiteral("snippet"));
    QCOMPARE(model.data(model.index(0, RunHistoryModel::SandboxColumn)).toString(), QStringLiteral("feature-x"));
    QVERIFY(model.data(model.index(0, RunHistoryModel::SandboxColumn), Qt::ToolTipRole).toString().contains(QStringLiteral("feature-x")));
    QCOMPARE(model.data(model.index(1, RunHistoryModel::SandboxColumn)).toString(), QString());
    QCOMPARE(model.data(model.index(1, 0), RunHistoryModel::SourceRole).toString(), QStringLiteral("print(1)"));
    QCOMPARE(model.data(model.index(1, 0), RunHistoryModel::OutcomeRole).toString(), QStringLiteral("ok"));
    QVERIFY(!model.headerData(RunHistoryModel::TimeColumn, Qt::Horizontal).toString().isEmpty());
}

void TestUiModels::chartDataHasEveryOutcome()
{
    sb::MetricsSnapshot snapshot;
    snapshot.total = 4;
    snapshot.outcomes = {{sb::Outcome::Ok, 2, 0.5}, {sb::Outcome::Blocked, 1, 0.25}, {sb::Outcome::Timeout, 1, 0.25}};
    snapshot.p50Ms = 10;
    snapshot.durationHistogram = sb::durationHistogram({5, 30, 30, 6000});
    const auto data = chartDataFrom(snapshot);
    QCOMPARE(data.outcomes.size(), sb::kAllOutcomes.size());
    for (std::size_t i = 0; i < sb::kAllOutcomes.size(); ++i)
        QVERIFY(data.outcomes[i].outcome == sb::kAllOutcomes[i]);
    QCOMPARE(data.countOf(sb::Outcome::Ok), 2);
    QCOMPARE(data.countOf(sb::Outcome::Crashed), 0);
    QCOMPARE(data.okRate, 0.5);
    QCOMPARE(data.blocked, 1);
    QCOMPARE(data.timeouts, 1);
    QCOMPARE(data.maxOutcomeCount(), 2);
    QCOMPARE(data.histogram.size(), snapshot.durationHistogram.size());
    QCOMPARE(data.maxHistogramCount(), 2);
}

void TestUiModels::chartDataOfEmptyStoreKeepsBins()
{
    const auto data = chartDataFrom({});
    QCOMPARE(data.total, 0);
    QCOMPARE(data.outcomes.size(), sb::kAllOutcomes.size());
    QVERIFY(!data.histogram.empty());
    QCOMPARE(data.maxHistogramCount(), 0);
}

void TestUiModels::chartDataOverATimeRangeAndAFilter()
{
    const std::int64_t minute = 60 * 1000;
    const std::int64_t now = 1'700'000'000'000;
    const std::vector<sb::RunPoint> runs = {
        {now - 3 * 24 * 60 * minute, sb::Outcome::Error, 70}, // three days ago
        {now - 5 * 60 * minute, sb::Outcome::Timeout, 5000},  // five hours ago
        {now - 30 * minute, sb::Outcome::Blocked, 8},
        {now - 20 * minute, sb::Outcome::Ok, 12},
        {now - 10 * minute, sb::Outcome::Ok, -1}, // no duration recorded
    };
    const sb::MetricsSnapshot snapshot; // the all-time aggregates are not used when there are points
    auto all = chartDataFrom(snapshot, runs, TimeRange::All, {}, now);
    QCOMPARE(all.total, 5);
    auto hour = chartDataFrom(snapshot, runs, TimeRange::LastHour, {}, now);
    QCOMPARE(hour.total, 3);
    QCOMPARE(hour.countOf(sb::Outcome::Ok), 2);
    QCOMPARE(hour.okRate, 2.0 / 3.0);
    QCOMPARE(hour.timeline.bucketMs, 5 * minute);
    std::int64_t inLine = 0;
    for (const auto& line : hour.timeline.series)
        for (auto n : line.counts)
            inLine += n;
    QCOMPARE(inLine, 3);
    QCOMPARE(hour.timeline.series.size(), std::size_t(2)); // ok and blocked
    QCOMPARE(chartDataFrom(snapshot, runs, TimeRange::LastDay, {}, now).total, 4);
    QCOMPARE(chartDataFrom(snapshot, runs, TimeRange::LastWeek, {}, now).total, 5);

    // A filter on ok: the counters narrow, the outcome bars keep every outcome, the histogram only ok runs'.
    RunFilter ok;
    ok.outcome = sb::Outcome::Ok;
    const auto filtered = chartDataFrom(snapshot, runs, TimeRange::All, ok, now);
    QCOMPARE(filtered.total, 2);
    QCOMPARE(filtered.countOf(sb::Outcome::Error), 1);
    QCOMPARE(filtered.maxHistogramCount(), 1); // the one ok run with a duration, in 10–25
    QCOMPARE(filtered.timeline.series.size(), std::size_t(1));
    // A duration bin: runs without a duration are never in one.
    RunFilter fast;
    fast.durationMs = std::pair{10.0, 25.0};
    QVERIFY(fast.accepts(sb::Outcome::Ok, 12, now));
    QVERIFY(!fast.accepts(sb::Outcome::Ok, -1, now));
    QVERIFY(!fast.accepts(sb::Outcome::Ok, 25, now));
    QCOMPARE(chartDataFrom(snapshot, runs, TimeRange::All, fast, now).total, 1);
    QVERIFY(fast.describe().contains(QStringLiteral("10–25")));
    QCOMPARE(timeRangeFromKey(timeRangeKey(TimeRange::LastWeek)), TimeRange::LastWeek);
    QCOMPARE(timeRangeFromKey(QStringLiteral("nonsense")), TimeRange::All);
}

void TestUiModels::countAxis_data()
{
    QTest::addColumn<qint64>("largest");
    QTest::addColumn<qint64>("max");
    QTest::newRow("empty") << qint64(0) << qint64(4);
    QTest::newRow("one") << qint64(1) << qint64(4);
    QTest::newRow("four") << qint64(4) << qint64(4);
    QTest::newRow("five") << qint64(5) << qint64(8);
    QTest::newRow("nine") << qint64(9) << qint64(20);
    QTest::newRow("forty") << qint64(40) << qint64(40);
    QTest::newRow("hundred-one") << qint64(101) << qint64(200);
}

void TestUiModels::countAxis()
{
    QFETCH(qint64, largest);
    QFETCH(qint64, max);
    const auto axis = countAxisFor(largest);
    QCOMPARE(axis.max, max);
    QVERIFY(axis.max >= largest);
    QCOMPARE((axis.max % (axis.tickCount - 1)), 0); // every tick on a whole number
}

void TestUiModels::binLabels()
{
    QCOMPARE(histogramBinLabel({0, 10, 0}, false), QStringLiteral("<10"));
    QCOMPARE(histogramBinLabel({10, 25, 0}, false), QStringLiteral("10–25"));
    QCOMPARE(histogramBinLabel({5000, 0, 0}, true), QStringLiteral("≥5000"));
}

void TestUiModels::errorLine_data()
{
    QTest::addColumn<QString>("stderrText");
    QTest::addColumn<int>("line");
    QTest::newRow("python") << QStringLiteral("Traceback (most recent call last):\n  File \"/tmp/sb-1/snippet.py\", line 3, in <module>\n"
                                              "    1/0\nZeroDivisionError: division by zero\n")
                            << 2;
    QTest::newRow("python-library-frame")
        << QStringLiteral("Traceback (most recent call last):\n  File \"/w/snippet.py\", line 2, in <module>\n"
                          "  File \"/usr/lib/python3.11/json/__init__.py\", line 346, in loads\nValueError\n")
        << 1;
    QTest::newRow("dash") << QStringLiteral("/w/snippet.sh: 4: nosuchcmd: not found\n") << 3;
    QTest::newRow("bash") << QStringLiteral("snippet.sh: line 7: nosuchcmd: command not found\n") << 6;
    QTest::newRow("none") << QStringLiteral("something went wrong\n") << -1;
}

void TestUiModels::errorLine()
{
    QFETCH(QString, stderrText);
    QFETCH(int, line);
    QCOMPARE(errorLineFromStderr(stderrText).value_or(-1), line);
}

void TestUiModels::outcomeColoursAreDistinct()
{
    QSet<QRgb> colours;
    for (sb::Outcome outcome : sb::kAllOutcomes)
        colours.insert(outcomeColor(outcome).rgb());
    QCOMPARE(colours.size(), static_cast<qsizetype>(sb::kAllOutcomes.size()));
}

void TestUiModels::jobRecordsRunAndDropsStaleJob()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::filesystem::path storePath = QString(dir.path() + QStringLiteral("/store.db")).toStdString();

    QObject owner;
    auto* jobs = new JobRunner(&owner);
    jobs->setStorePath(storePath);
    std::vector<RunEvent> finished;
    std::vector<quint64> done;
    connect(jobs, &JobRunner::runFinished, this, [&finished](const RunEvent& event) { finished.push_back(event); });
    connect(jobs, &JobRunner::jobFinished, this, [&done](quint64 jobId, bool) { done.push_back(jobId); });

    const quint64 slow = jobs->startRun(pythonRequest("import time\ntime.sleep(20)\n", 30000));
    QVERIFY(jobs->isRunning());
    const quint64 fast = jobs->startRun(pythonRequest("print(6*7)\n"));
    QVERIFY(fast != slow);
    QCOMPARE(jobs->currentJobId(), fast);

    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isRunning(), 20000);
    QCOMPARE(done, std::vector<quint64>{fast}); // the superseded job's end is not reported
    QCOMPARE(finished.size(), std::size_t(1));
    const auto& event = finished.front();
    QCOMPARE(event.jobId, fast);
    QCOMPARE(outcomeName(event.result.outcome), QStringLiteral("ok"));
    QVERIFY(event.result.stdoutText.find("42") != std::string::npos);
    QVERIFY2(event.storeError.isEmpty(), qPrintable(event.storeError));
    QVERIFY(event.store.has_value());
    QVERIFY(event.store->metrics.total >= 1);
    QCOMPARE(event.store->history.front().result.runId, event.result.runId);
}

void TestUiModels::jobWithoutStoreStillRuns()
{
    QObject owner;
    auto* jobs = new JobRunner(&owner);
    std::vector<RunEvent> started;
    std::vector<RunEvent> finished;
    connect(jobs, &JobRunner::runStarted, this, [&started](const RunEvent& event) { started.push_back(event); });
    connect(jobs, &JobRunner::runFinished, this, [&finished](const RunEvent& event) { finished.push_back(event); });
    jobs->startRun(pythonRequest("print('hi')\n"));
    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isRunning(), 20000);
    QCOMPARE(started.size(), std::size_t(1));
    QCOMPARE(finished.size(), std::size_t(1));
    QCOMPARE(finished.front().total, 1);
    QVERIFY(!finished.front().store.has_value());
    QCOMPARE(outcomeName(finished.front().result.outcome), QStringLiteral("ok"));
}

// The demo job's last step records the worked example as an agent session, after every case.
void TestUiModels::demoJobRecordsTheWorkedExampleLast()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::filesystem::path storePath = QString(dir.path() + QStringLiteral("/store.db")).toStdString();
    QObject owner;
    auto* jobs = new JobRunner(&owner);
    jobs->setStorePath(storePath);
    std::vector<RunEvent> started;
    std::vector<RunEvent> finished;
    connect(jobs, &JobRunner::runStarted, this, [&started](const RunEvent& event) { started.push_back(event); });
    connect(jobs, &JobRunner::runFinished, this, [&finished](const RunEvent& event) { finished.push_back(event); });
    jobs->startDemo();
    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isRunning(), 180000);

    const auto cases = static_cast<int>(sb::demoCases().size());
    QCOMPARE(demoJobSteps(), cases + 1);
    QCOMPARE(static_cast<int>(finished.size()), cases + 1);
    // Its parts are announced as they begin: its files, its sandboxes, the agent's session.
    QStringList parts;
    for (const RunEvent& event : started) {
        if (event.agentSession)
            parts << QString::fromStdString(event.request.label);
    }
    QCOMPARE(parts, (QStringList{QStringLiteral("the worked example: its files"),
                                 QStringLiteral("the worked example: its sandboxes"),
                                 QStringLiteral("the worked example: the agent's session")}));
    for (int i = 0; i < cases; ++i)
        QVERIFY(!finished[static_cast<std::size_t>(i)].agentSession.has_value());
    const RunEvent& last = finished.back();
    QCOMPARE(last.index, cases);
    QCOMPARE(last.total, cases + 1);
    QVERIFY(last.agentSession.has_value());
    QVERIFY2(last.agentSession->session.has_value(), qPrintable(last.agentSession->error));
    const sb::agents::SessionInfo& session = *last.agentSession->session;
    QVERIFY2(last.agentSession->asExpected, session.message.c_str());
    QCOMPARE(QString::fromStdString(std::string(sb::agents::toString(session.status))), QStringLiteral("completed"));
    QCOMPARE(session.steps, std::int64_t{14});
    QCOMPARE(QString::fromStdString(session.sandbox), QStringLiteral("demo-upgrade"));
    QVERIFY(agentSessionSummary(*last.agentSession).contains(QString::fromStdString(session.id)));
    // The store the event carries holds the session's runs: its agent's, after every case's.
    QVERIFY(last.store.has_value());
    QVERIFY(!session.runId.empty());
    QVERIFY(std::any_of(last.store->history.begin(), last.store->history.end(),
                        [&session](const sb::StoredRun& run) { return run.result.runId == session.runId; }));
    QVERIFY(last.store->metrics.total > cases);
    auto store = sb::Store::open(storePath);
    QVERIFY(store.has_value());
    auto stored = sb::agents::SessionStore(*store).find(session.id);
    QVERIFY(stored.has_value());
    QCOMPARE(stored->steps, std::int64_t{14});
}

void TestUiModels::demoJobWithoutStoreSaysWhyTheWorkedExampleDidNotRun()
{
    QObject owner;
    auto* jobs = new JobRunner(&owner);
    std::vector<RunEvent> finished;
    connect(jobs, &JobRunner::runFinished, this, [&finished](const RunEvent& event) { finished.push_back(event); });
    jobs->startDemo();
    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isRunning(), 180000);
    QCOMPARE(static_cast<int>(finished.size()), demoJobSteps());
    const RunEvent& last = finished.back();
    QVERIFY(last.agentSession.has_value());
    QVERIFY(!last.agentSession->session.has_value());
    QVERIFY(!last.agentSession->asExpected);
    QVERIFY2(last.agentSession->error.contains(QStringLiteral("store")), qPrintable(last.agentSession->error));
    QVERIFY(agentSessionSummary(*last.agentSession).startsWith(QStringLiteral("Worked example: could not run: ")));
}

// Rows as a load hands them over: newest first, each with its subject and details line.
std::vector<AuditRow> auditRows(std::vector<sb::AuditRecord> records)
{
    std::vector<AuditRow> rows;
    for (auto it = records.rbegin(); it != records.rend(); ++it) {
        sb::AuditSubject subject = sb::auditSubjectOf(*it);
        std::string line = sb::auditDetailsLine(it->details);
        rows.push_back(AuditRow{std::move(*it), std::move(subject), std::move(line)});
    }
    return rows;
}

void TestUiModels::auditModelPassesTester()
{
    AuditLogModel model(this);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setRows(auditRows({makeRecord(1, "run", "a"), makeRecord(2, "policy.version", "p@1"), makeRecord(3, "run", "b")}),
                  false);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), static_cast<int>(AuditLogModel::ColumnCount));
    model.setBrokenSeq(2);
    model.setBrokenSeq(std::nullopt);
    model.setRows({}, false);
    QCOMPARE(model.rowCount(), 0);
    model.setBrokenSeq(5); // with no rows: nothing to signal
    model.setRows(auditRows({makeRecord(7, "run", "c")}), false);
    QVERIFY(model.recordAt(0) != nullptr);
    QVERIFY(model.recordAt(1) == nullptr);
    QVERIFY(model.recordAt(-1) == nullptr);

    // Older pages: asked for when the view reaches the end, appended below, a stale one ignored.
    QSignalSpy wanted(&model, &AuditLogModel::olderWanted);
    model.setRows(auditRows({makeRecord(8, "run", "d"), makeRecord(9, "run", "e")}), true);
    // The tester may have fetched already, as a view does.
    if (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(wanted.count(), 1);
    QCOMPARE(wanted.at(0).at(0).toLongLong(), 8);
    QVERIFY(!model.canFetchMore({})); // one page at a time
    model.appendOlder(auditRows({makeRecord(2, "run", "x")}), true, 5); // not below the oldest row: stale
    QCOMPARE(model.rowCount(), 2);
    model.appendOlder(auditRows({makeRecord(6, "run", "f"), makeRecord(7, "run", "g")}), false, 8);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.rowOfSeq(6), 3);
    QVERIFY(!model.canFetchMore({}));
}

void TestUiModels::auditModelShowsAndMarks()
{
    AuditLogModel model(this);
    auto odd = makeRecord(3, "sandbox.destroy", "evil\x1b[2J\xe2\x80\xaename",
                          R"({"outcome":"ok","sha256":")" + std::string(64, 'b') + R"("})");
    auto unreadable = makeRecord(4, "run", "x");
    unreadable.problem = "entry 4: hash is NULL";
    // Newest first: entry 4 in row 0, entry 1 in row 3.
    model.setRows(auditRows({makeRecord(1, "policy.version", "mine@1"), makeRecord(2, "run", "r2"), odd, unreadable}),
                  false);
    QCOMPARE(model.data(model.index(3, AuditLogModel::OperationColumn)).toString(), QStringLiteral("policy.version"));
    QCOMPARE(model.data(model.index(3, AuditLogModel::SubjectColumn)).toString(), QStringLiteral("policy mine@1"));
    QCOMPARE(model.data(model.index(3, AuditLogModel::ActorColumn)).toString(), QStringLiteral("alice"));
    QCOMPARE(model.data(model.index(2, 0), AuditLogModel::SeqRole).toLongLong(), 2);
    // Text from the file cannot clear the screen or turn itself around.
    QCOMPARE(model.data(model.index(1, AuditLogModel::SubjectColumn)).toString(),
             QStringLiteral("sandbox evil\\x1b[2J\\u{202e}name"));
    QCOMPARE(model.data(model.index(1, AuditLogModel::DetailsColumn)).toString(),
             QStringLiteral("outcome=ok sha256=bbbbbbbbbbbb"));
    QCOMPARE(model.data(model.index(1, AuditLogModel::OutcomeColumn)).toString(), QStringLiteral("ok"));
    QCOMPARE(model.data(model.index(3, AuditLogModel::OutcomeColumn)).toString(), QStringLiteral("done"));

    QCOMPARE(model.rowOfSeq(2), 2);
    QCOMPARE(model.rowOfSeq(4), 0);
    QCOMPARE(model.rowOfSeq(5), -1);
    QCOMPARE(model.rowOfSeq(0), -1);

    // A row that cannot be read is marked from the start; the entry verification names, once it has.
    QVERIFY(model.data(model.index(0, 0), AuditLogModel::BrokenRole).toBool());
    QVERIFY(model.data(model.index(0, 0), Qt::ToolTipRole).toString().contains(QStringLiteral("hash is NULL")));
    QVERIFY(!model.data(model.index(2, 0), AuditLogModel::BrokenRole).toBool());
    QVERIFY(!model.data(model.index(2, 0), Qt::BackgroundRole).isValid());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setBrokenSeq(2);
    QCOMPARE(changed.count(), 1);
    QVERIFY(model.data(model.index(2, 0), AuditLogModel::BrokenRole).toBool());
    QVERIFY(model.data(model.index(2, 3), Qt::BackgroundRole).value<QColor>().isValid());
    QVERIFY(!model.data(model.index(3, 0), AuditLogModel::BrokenRole).toBool());
    model.setBrokenSeq(2);
    QCOMPARE(changed.count(), 1); // no change, no signal
    for (int column = 0; column < AuditLogModel::ColumnCount; ++column)
        QVERIFY(!model.headerData(column, Qt::Horizontal).toString().isEmpty());
}

void TestUiModels::auditJobsLoadFilteredAndDropStaleLoads()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto path = storeWithAudit(dir, 9);
    QObject owner;
    auto* jobs = new AuditJobRunner(&owner);
    std::vector<AuditSnapshot> snapshots;
    connect(jobs, &AuditJobRunner::loaded, this, [&snapshots](const AuditSnapshot& s) { snapshots.push_back(s); });

    QCOMPARE(jobs->load({}), quint64(0)); // no store yet: nothing to read
    jobs->setStorePath(path);
    jobs->load({});
    jobs->load({.operation = "run"});
    jobs->load({.operation = "sandbox.create", .actor = "bob"});
    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isLoading(), 10000);
    QCOMPARE(snapshots.size(), std::size_t(1)); // only the latest load is heard of
    const auto& snapshot = snapshots.front();
    QVERIFY2(snapshot.error.isEmpty(), qPrintable(snapshot.error));
    QCOMPARE(snapshot.rows.size(), std::size_t(2)); // 9 and 3, newest first
    QCOMPARE(snapshot.rows[0].record.seq, 9);
    QCOMPARE(snapshot.rows[1].record.seq, 3);
    QCOMPARE(snapshot.rows[0].subject.name, std::string("sandbox subject-9"));
    QVERIFY(!snapshot.more);
    QCOMPARE(snapshot.facets.operations, (std::vector<std::string>{"run", "sandbox.create"}));
    QCOMPARE(snapshot.facets.actors, (std::vector<std::string>{"alice", "bob"}));

    // A store that cannot be opened is an error in the snapshot, not a crash.
    const auto bad = std::filesystem::path(dir.path().toStdString()) / "garbage.db";
    {
        QFile file(QString::fromStdString(bad.string()));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
    }
    jobs->setStorePath(bad);
    jobs->load({});
    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isLoading(), 10000);
    QCOMPARE(snapshots.size(), std::size_t(2));
    QVERIFY(!snapshots.back().error.isEmpty());
}

void TestUiModels::auditJobsVerifyAndNameTheBrokenEntry()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto path = storeWithAudit(dir, 6);
    QObject owner;
    auto* jobs = new AuditJobRunner(&owner);
    jobs->setStorePath(path);
    std::vector<std::pair<AuditCheck, bool>> checks;
    connect(jobs, &AuditJobRunner::verified, this,
            [&checks](const AuditCheck& check, bool cancelled) { checks.emplace_back(check, cancelled); });

    QVERIFY(jobs->verify() != 0);
    QVERIFY(jobs->isVerifying());
    QCOMPARE(jobs->verify(), quint64(0)); // one at a time
    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isVerifying(), 10000);
    QCOMPARE(checks.size(), std::size_t(1));
    QVERIFY(checks[0].first.verification.has_value());
    QVERIFY(checks[0].first.verification->intact());
    QCOMPARE(checks[0].first.verification->entries, 6);
    QVERIFY(!checks[0].second);

    editStore(path, "UPDATE audit_log SET subject = 'edited' WHERE seq = 4");
    jobs->verify();
    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isVerifying(), 10000);
    QCOMPARE(checks.size(), std::size_t(2));
    const auto& broken = checks[1].first.verification;
    QVERIFY(broken && broken->broken);
    QCOMPARE(broken->broken->seq, 4);
    QVERIFY(broken->broken->damage == sb::AuditDamage::Altered);
}

void TestUiModels::auditJobsCancelAVerification()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::filesystem::path path = QString(dir.path() + QStringLiteral("/big.db")).toStdString();
    constexpr int kEntries = 30000;
    {
        auto store = sb::Store::open(path);
        QVERIFY(store.has_value());
        auto db = sb::sqlite::connectionOf(*store);
        QVERIFY(db.has_value());
        sb::sqlite::Transaction transaction(*db);
        QVERIFY(transaction.begin().has_value());
        for (int i = 0; i < kEntries; ++i)
            QVERIFY(sb::appendAudit(*db, sb::AuditEntry("run", "r" + std::to_string(i))).has_value());
        QVERIFY(transaction.commit().has_value());
    }
    QObject owner;
    auto* jobs = new AuditJobRunner(&owner);
    jobs->setStorePath(path);
    std::vector<std::pair<qint64, qint64>> progress;
    std::vector<bool> cancelled;
    connect(jobs, &AuditJobRunner::verifyProgress, this, [&progress](qint64 done, qint64 total) {
        progress.emplace_back(done, total);
    });
    connect(jobs, &AuditJobRunner::verified, this, [&cancelled](const AuditCheck&, bool wasCancelled) {
        cancelled.push_back(wasCancelled);
    });

    // Run to the end: the progress ends at every entry checked.
    jobs->verify();
    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isVerifying(), 30000);
    QCOMPARE(cancelled, std::vector<bool>{false});
    QVERIFY(!progress.empty());
    QCOMPARE(progress.back(), std::make_pair(qint64(kEntries), qint64(kEntries)));

    // Cancelled before it gets far: reported as cancelled, not as intact.
    jobs->verify();
    jobs->cancelVerify();
    QTRY_VERIFY_WITH_TIMEOUT(!jobs->isVerifying(), 30000);
    QCOMPARE(cancelled, (std::vector<bool>{false, true}));
}

int main(int argc, char* argv[])
{
    // Offscreen unless the person running the test chose a platform.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    TestUiModels test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_ui_models.moc"
