// The Dashboard's cluster jobs below the widgets: the listing of the configuration and the spool, made as the
// worker makes it (each state: not configured, a configuration that cannot be read, a spool that cannot be listed,
// jobs), the model over it (QAbstractItemModelTester, its states and texts) and the relative times.
#include "cluster/job_status.h"
#include "cluster/spool.h"
#include "ui/cluster/ClusterJobsModel.h"
#include "ui/cluster/ClusterJobsReader.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QLocale>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace sb::ui;
namespace cluster = sb::cluster;

namespace {

cluster::JobStatus makeJob(const std::string& folder, const std::string& phase, bool alive = true)
{
    cluster::JobStatus job;
    job.folder = folder;
    job.kind = "rules";
    job.title = "sandbench rules impact --data " + folder + ".csv --backend slurm";
    job.phase = phase;
    job.progress.tasks = 8;
    job.progress.done = 2;
    job.progress.queued = 3;
    job.progress.running = 3;
    job.user = "ana";
    job.host = "login1";
    job.pid = 4242;
    job.startedMs = 1'000'000;
    job.updatedMs = 1'060'000;
    job.alive = alive;
    return job;
}

void writeText(const QString& path, const QByteArray& text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

} // namespace

class TestClusterModels : public QObject {
    Q_OBJECT
private slots:
    void modelPassesTester();
    void statesAndTexts();
    void marksLastUntilTheJobGoes();
    void relativeTime_data();
    void relativeTime();
    void listingOfEachConfiguration();
    void readerListsOffTheGuiThreadAndCancels();
};

void TestClusterModels::modelPassesTester()
{
    ClusterJobsModel model(this);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), static_cast<int>(ClusterJobsModel::ColumnCount));
    model.setJobs({makeJob("/s/a", "scanning"), makeJob("/s/b", "failed", false)}, 1'100'000);
    QCOMPARE(model.rowCount(), 2);
    // The same jobs again: rows updated in place, no reset.
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    auto later = makeJob("/s/a", "evaluating");
    later.progress.done = 5;
    model.setJobs({later, makeJob("/s/b", "failed", false)}, 1'200'000);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(changes.count(), 1);
    QCOMPARE(model.index(0, ClusterJobsModel::PhaseColumn).data().toString(), QStringLiteral("evaluating"));
    // Other jobs: a reset.
    model.setJobs({makeJob("/s/c", "merging")}, 1'200'000);
    QCOMPARE(resets.count(), 1);
    QCOMPARE(model.rowCount(), 1);
    model.setJobs({}, 1'200'000);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.job(0) == nullptr);
    QCOMPARE(model.rowOf(QStringLiteral("/s/c")), -1);
}

void TestClusterModels::statesAndTexts()
{
    ClusterJobsModel model(this);
    auto running = makeJob("/s/run", "evaluating");
    running.progress.recordsDone = 1'234'567;
    running.progress.retried = 1;
    running.progress.jobs = {"17", "18"};
    auto cancelling = makeJob("/s/cancel", "scanning");
    cancelling.cancelRequested = true;
    auto failed = makeJob("/s/failed", "failed", false);
    failed.error = "Slurm job 18_2 failed on node n1: OUT_OF_MEMORY";
    auto gone = makeJob("/s/gone", "scanning", false);
    cluster::JobStatus unreadable;
    unreadable.folder = "/s/rules-bad";
    unreadable.phase = "unreadable";
    unreadable.error = "/s/rules-bad/status.json: not JSON";
    unreadable.alive = false;
    auto submitting = makeJob("/s/new", "submitting");
    submitting.progress = {};
    model.setJobs({running, cancelling, failed, gone, unreadable, submitting}, 1'000'000 + 125'000);

    const auto text = [&model](int row, int column) { return model.index(row, column).data().toString(); };
    QCOMPARE(model.state(0), ClusterJobState::Running);
    QCOMPARE(model.state(1), ClusterJobState::Cancelling);
    QCOMPARE(model.state(2), ClusterJobState::Failed);
    QCOMPARE(model.state(3), ClusterJobState::Gone);
    QCOMPARE(model.state(4), ClusterJobState::Unreadable);
    QCOMPARE(model.index(2, 0).data(ClusterJobsModel::StateRole).toInt(), static_cast<int>(ClusterJobState::Failed));

    QCOMPARE(text(0, ClusterJobsModel::TitleColumn),
             QStringLiteral("sandbench rules impact --data /s/run.csv --backend slurm"));
    QCOMPARE(text(0, ClusterJobsModel::KindColumn), QStringLiteral("rules"));
    QCOMPARE(text(0, ClusterJobsModel::ProgressColumn), QStringLiteral("2 / 8"));
    QCOMPARE(model.index(0, ClusterJobsModel::ProgressColumn).data(ClusterJobsModel::ProgressRole).toDouble(), 0.25);
    QCOMPARE(model.index(0, ClusterJobsModel::ProgressColumn).data(Qt::ToolTipRole).toString(),
             QStringLiteral("2 of 8 tasks done, 3 queued, 3 running, 1 retried"));
    QCOMPARE(text(0, ClusterJobsModel::RecordsColumn), QLocale().toString(1'234'567));
    QCOMPARE(text(0, ClusterJobsModel::JobsColumn), QStringLiteral("17, 18"));
    QCOMPARE(text(0, ClusterJobsModel::WhereColumn), QStringLiteral("ana@login1"));
    QCOMPARE(text(0, ClusterJobsModel::StartedColumn), QStringLiteral("2 min ago"));
    QCOMPARE(text(0, ClusterJobsModel::StateColumn), QStringLiteral("running"));
    QCOMPARE(text(1, ClusterJobsModel::StateColumn), QStringLiteral("cancelling…"));
    QCOMPARE(text(1, ClusterJobsModel::RecordsColumn), QString()); // none done yet
    QCOMPARE(text(2, ClusterJobsModel::StateColumn),
             QStringLiteral("failed: Slurm job 18_2 failed on node n1: OUT_OF_MEMORY"));
    QCOMPARE(text(3, ClusterJobsModel::StateColumn), QStringLiteral("gone"));
    QVERIFY(model.index(3, ClusterJobsModel::StateColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("Remove cancels whatever Slurm still has")));
    // An unreadable status: the folder's name for what was asked, the error for its state.
    QCOMPARE(text(4, ClusterJobsModel::TitleColumn), QStringLiteral("rules-bad"));
    QCOMPARE(text(4, ClusterJobsModel::PhaseColumn), QStringLiteral("unreadable"));
    QCOMPARE(text(4, ClusterJobsModel::StateColumn), QStringLiteral("unreadable: /s/rules-bad/status.json: not JSON"));
    QCOMPARE(text(4, ClusterJobsModel::WhereColumn), QString());
    // No tasks yet: no bar.
    QVERIFY(!model.index(5, ClusterJobsModel::ProgressColumn).data(ClusterJobsModel::ProgressRole).isValid());
    QCOMPARE(text(5, ClusterJobsModel::ProgressColumn), QString());
    QCOMPARE(text(5, ClusterJobsModel::PhaseColumn), QStringLiteral("submitting"));
}

void TestClusterModels::marksLastUntilTheJobGoes()
{
    ClusterJobsModel model(this);
    const QString a = QStringLiteral("/s/a");
    model.setJobs({makeJob("/s/a", "scanning"), makeJob("/s/b", "failed", false)}, 1'000'000);
    model.markCancelling(a);
    QCOMPARE(model.state(0), ClusterJobState::Cancelling);
    // A listing made before the cancel file was written does not undo what was asked.
    model.setJobs({makeJob("/s/a", "scanning"), makeJob("/s/b", "failed", false)}, 1'001'000);
    QCOMPARE(model.state(0), ClusterJobState::Cancelling);
    // A cancel asked of a job that has since failed shows the failure.
    model.setJobs({makeJob("/s/a", "failed", false), makeJob("/s/b", "failed", false)}, 1'002'000);
    QCOMPARE(model.state(0), ClusterJobState::Failed);
    model.markRemoving(QStringLiteral("/s/b"));
    QCOMPARE(model.state(1), ClusterJobState::Removing);
    model.clearMark(QStringLiteral("/s/b")); // the removal failed
    QCOMPARE(model.state(1), ClusterJobState::Failed);
    // Gone from the spool: the mark goes with it, and a new job in the same folder starts afresh.
    model.setJobs({}, 1'003'000);
    model.setJobs({makeJob("/s/a", "scanning")}, 1'004'000);
    QCOMPARE(model.state(0), ClusterJobState::Running);
}

void TestClusterModels::relativeTime_data()
{
    QTest::addColumn<qint64>("agoMs");
    QTest::addColumn<QString>("text");
    QTest::newRow("now") << qint64(0) << QStringLiteral("0 s ago");
    QTest::newRow("clock skew") << qint64(-5000) << QStringLiteral("0 s ago");
    QTest::newRow("seconds") << qint64(59'999) << QStringLiteral("59 s ago");
    QTest::newRow("a minute") << qint64(60'000) << QStringLiteral("1 min ago");
    QTest::newRow("minutes") << qint64(3'599'000) << QStringLiteral("59 min ago");
    QTest::newRow("hours") << qint64(3'600'000 * 5 + 60'000 * 7) << QStringLiteral("5 h 7 min ago");
}

void TestClusterModels::relativeTime()
{
    QFETCH(qint64, agoMs);
    QFETCH(QString, text);
    const qint64 now = 1'700'000'000'000;
    QCOMPARE(ClusterJobsModel::relativeTimeText(now - agoMs, now), text);
    // A day and more: the date and time.
    QCOMPARE(ClusterJobsModel::relativeTimeText(now - 86'400'000, now),
             QLocale().toString(QDateTime::fromMSecsSinceEpoch(now - 86'400'000), QLocale::ShortFormat));
}

void TestClusterModels::listingOfEachConfiguration()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString config = dir.filePath(QStringLiteral("config.yaml"));
    qputenv("SANDBENCH_CONFIG", config.toUtf8());

    // No file.
    auto listing = ClusterJobsReader::read();
    QCOMPARE(listing.state, ClusterJobsListing::State::NotConfigured);
    QCOMPARE(listing.configFile, config);
    // A file without a slurm section.
    writeText(config, "# no cluster yet\n");
    QCOMPARE(ClusterJobsReader::read().state, ClusterJobsListing::State::NotConfigured);
    // A file that is not of the form: its error, naming the file.
    writeText(config, "slurm:\n  spool: relative/spool\n");
    listing = ClusterJobsReader::read();
    QCOMPARE(listing.state, ClusterJobsListing::State::ConfigError);
    QVERIFY2(listing.error.contains(config) && listing.error.contains(QStringLiteral("absolute")),
             qPrintable(listing.error));
    // A spool that is not there.
    const QString spool = dir.filePath(QStringLiteral("spool"));
    writeText(config, "slurm:\n  spool: " + spool.toUtf8() + "\n");
    listing = ClusterJobsReader::read();
    QCOMPARE(listing.state, ClusterJobsListing::State::SpoolError);
    QCOMPARE(listing.spool, spool);
    QVERIFY2(listing.error.contains(QStringLiteral("cannot list the spool")), qPrintable(listing.error));
    // An empty spool, then one job.
    QVERIFY(QDir().mkpath(spool));
    listing = ClusterJobsReader::read();
    QCOMPARE(listing.state, ClusterJobsListing::State::Listed);
    QVERIFY(listing.jobs.empty());
    auto folder = cluster::JobFolder::create(spool.toStdString(), "rules");
    QVERIFY(folder);
    cluster::JobStatusWriter writer(folder->path(), "rules", "sandbench rules impact --backend slurm");
    listing = ClusterJobsReader::read();
    QCOMPARE(listing.state, ClusterJobsListing::State::Listed);
    QCOMPARE(listing.jobs.size(), std::size_t(1));
    QVERIFY(listing.jobs.front().alive);
    QVERIFY(listing.listedMs >= listing.jobs.front().startedMs);
    qunsetenv("SANDBENCH_CONFIG");
}

void TestClusterModels::readerListsOffTheGuiThreadAndCancels()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString config = dir.filePath(QStringLiteral("config.yaml"));
    const QString spool = dir.filePath(QStringLiteral("spool"));
    QVERIFY(QDir().mkpath(spool));
    writeText(config, "slurm:\n  spool: " + spool.toUtf8() + "\n");
    qputenv("SANDBENCH_CONFIG", config.toUtf8());
    auto folder = cluster::JobFolder::create(spool.toStdString(), "batch");
    QVERIFY(folder);
    cluster::JobStatusWriter writer(folder->path(), "batch", "sandbench batch cases/ --backend slurm");
    const QString path = QString::fromStdString(folder->path().string());

    ClusterJobsReader reader(this);
    QSignalSpy listed(&reader, &ClusterJobsReader::listed);
    reader.list();
    QVERIFY(reader.isListing());
    reader.list(); // asked again while listing: once more after it, never two at once
    QTRY_COMPARE(listed.count(), 2);
    QVERIFY(!reader.isListing());
    const auto first = listed.at(0).at(0).value<ClusterJobsListing>();
    QCOMPARE(first.jobs.size(), std::size_t(1));

    QSignalSpy cancelled(&reader, &ClusterJobsReader::cancelDone);
    reader.requestCancel(path);
    QCOMPARE(reader.pendingActions(), 1);
    QTRY_COMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.at(0).at(1).toString(), QString());
    QVERIFY(cluster::cancelRequested(folder->path()));
    // The listing after the cancel shows it.
    QTRY_COMPARE(listed.count(), 3);
    QVERIFY(listed.at(2).at(0).value<ClusterJobsListing>().jobs.front().cancelRequested);

    // A running command's folder is not removed: the error says why.
    QSignalSpy removed(&reader, &ClusterJobsReader::removeDone);
    reader.removeJob(path);
    QTRY_COMPARE(removed.count(), 1);
    QVERIFY2(removed.at(0).at(1).toString().contains(QStringLiteral("still runs")),
             qPrintable(removed.at(0).at(1).toString()));
    QVERIFY(std::filesystem::exists(folder->path()));
    writer.fail("cancelled");
    reader.removeJob(path);
    QTRY_COMPARE(removed.count(), 2);
    QCOMPARE(removed.at(1).at(1).toString(), QString());
    QVERIFY(!std::filesystem::exists(folder->path()));
    QTRY_VERIFY(!reader.isListing() && reader.pendingActions() == 0);
    qunsetenv("SANDBENCH_CONFIG");
}

int main(int argc, char* argv[])
{
    // Offscreen unless the person running the test chose a platform.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    TestClusterModels test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_cluster_models.moc"
