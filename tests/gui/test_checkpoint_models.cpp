// The checkpoint browser's Qt layer without a widget: the lane layout of the graph (data-driven), the
// models (under QAbstractItemModelTester), and CheckpointJobRunner on a real store.
#include "ui/jobs/CheckpointJobs.h"
#include "ui/models/CheckpointGraph.h"
#include "ui/models/CheckpointListModel.h"
#include "ui/models/DiffFileModel.h"
#include "ui/models/SandboxListModel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QGuiApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sb::ui;

namespace {

// "c>b a>b" style: each node is "id:parent,parent"; rows newest first.
std::vector<GraphNode> nodesOf(const QString& spec)
{
    std::vector<GraphNode> nodes;
    for (const QString& item : spec.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        GraphNode node;
        const QStringList parts = item.split(QLatin1Char(':'));
        node.id = parts.at(0).toStdString();
        if (parts.size() > 1) {
            for (const QString& parent : parts.at(1).split(QLatin1Char(','), Qt::SkipEmptyParts))
                node.parents.push_back(parent.toStdString());
        }
        nodes.push_back(std::move(node));
    }
    return nodes;
}

// One row as text: "lane|through|fromAbove|toBelow|outside".
QString rowText(const GraphRow& row)
{
    auto list = [](const std::vector<int>& lanes) {
        QStringList out;
        for (int lane : lanes)
            out << QString::number(lane);
        return out.join(QLatin1Char(','));
    };
    return QStringLiteral("%1|%2|%3|%4|%5")
        .arg(row.lane)
        .arg(list(row.through), list(row.fromAbove), list(row.toBelow))
        .arg(row.outsideParent ? QStringLiteral("out") : QString());
}

sb::CheckpointInfo checkpoint(std::string id, std::vector<std::string> parents, std::string label = {})
{
    sb::CheckpointInfo info;
    info.id = std::move(id);
    info.parents = std::move(parents);
    info.kind = "checkpoint";
    info.label = std::move(label);
    info.author = "alice";
    info.createdAtMs = 1'700'000'000'000;
    info.files = 3;
    info.bytes = 2048;
    return info;
}

} // namespace

class TestCheckpointModels : public QObject {
    Q_OBJECT
private slots:
    void layoutGraph_data();
    void layoutGraph();
    void graphGeometry();
    void countLines();
    void shortenIds();
    void sandboxModelPassesTester();
    void sandboxGovernanceTexts();
    void checkpointModelPassesTesterAndDrawsTheGraph();
    void diffFileModelPassesTester();
    void runnerCreatesChecksDiffsAndReportsErrors();
};

void TestCheckpointModels::layoutGraph_data()
{
    QTest::addColumn<QString>("nodes");
    QTest::addColumn<QStringList>("rows");
    QTest::newRow("one") << QStringLiteral("a") << QStringList{QStringLiteral("0||||")};
    QTest::newRow("chain") << QStringLiteral("c:b b:a a")
                           << QStringList{QStringLiteral("0|||0|"), QStringLiteral("0||0|0|"), QStringLiteral("0||0||")};
    QTest::newRow("parent in another sandbox") << QStringLiteral("b:a a:x")
                                               << QStringList{QStringLiteral("0|||0|"), QStringLiteral("0||0||out")};
    // Two children of one parent: the second opens a lane and joins the first's line at their parent.
    QTest::newRow("two heads") << QStringLiteral("c:a b:a a")
                               << QStringList{QStringLiteral("0|||0|"), QStringLiteral("1|0||0|"),
                                              QStringLiteral("0||0||")};
    // A merge: its second parent gets a lane of its own until that parent's row.
    QTest::newRow("merge") << QStringLiteral("m:a,b b:a a")
                           << QStringList{QStringLiteral("0|||0,1|"), QStringLiteral("1|0|1|0|"),
                                          QStringLiteral("0||0||")};
    // A lane freed by a node whose parent is outside is reused.
    QTest::newRow("lane reuse") << QStringLiteral("b:x a")
                                << QStringList{QStringLiteral("0||||out"), QStringLiteral("0||||")};
}

void TestCheckpointModels::layoutGraph()
{
    QFETCH(QString, nodes);
    QFETCH(QStringList, rows);
    const auto layout = sb::ui::layoutGraph(nodesOf(nodes));
    QStringList actual;
    for (const auto& row : layout)
        actual << rowText(row);
    QCOMPARE(actual, rows);
}

void TestCheckpointModels::graphGeometry()
{
    const GraphGeometry geometry{16, 4};
    QCOMPARE(geometry.laneCenter(0), 12);
    QCOMPARE(geometry.laneCenter(2), 44);
    QCOMPARE(geometry.width(3), 56);
}

void TestCheckpointModels::countLines()
{
    const auto counts = DiffFileModel::countLines("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old\n+new\n+more\n same\n");
    QCOMPARE(counts.added, 2);
    QCOMPARE(counts.removed, 1);
    QCOMPARE(DiffFileModel::countLines("").added, 0);
}

void TestCheckpointModels::shortenIds()
{
    const QString id = QString(64, QLatin1Char('a'));
    QCOMPARE(SandboxListModel::shortenIds(QStringLiteral("checkpoint ") + id), QStringLiteral("checkpoint aaaaaaaaaa"));
    QCOMPARE(SandboxListModel::shortenIds(QStringLiteral("sandbox main")), QStringLiteral("sandbox main"));
}

void TestCheckpointModels::sandboxModelPassesTester()
{
    SandboxListModel model(this);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    sb::SandboxInfo main;
    main.name = "main";
    sb::SandboxInfo trial;
    trial.name = "trial";
    trial.expiresAtMs = 5000;
    trial.origin = "checkpoint " + std::string(64, 'b');
    model.setSandboxes({main, trial}, 10000);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, SandboxListModel::ExpiresColumn).data().toString(), QStringLiteral("never"));
    QCOMPARE(model.index(1, SandboxListModel::ExpiresColumn).data().toString(), QStringLiteral("expired"));
    QVERIFY(model.index(1, 0).data(SandboxListModel::ExpiredRole).toBool());
    QCOMPARE(model.index(1, SandboxListModel::OriginColumn).data().toString(), QStringLiteral("checkpoint bbbbbbbbbb"));
    model.setSandboxes({trial}, 1000);
    QCOMPARE(model.index(0, SandboxListModel::ExpiresColumn).data().toString(), QStringLiteral("in 4s"));
    QCOMPARE(model.rowOf(QStringLiteral("main")), -1);
}

void TestCheckpointModels::sandboxGovernanceTexts()
{
    sb::SandboxInfo idle;
    idle.name = "idle";
    idle.lastActivityMs = 1000;
    idle.idleTimeoutMs = 3'600'000;
    idle.quotaBytes = 2 * 1024 * 1024;
    idle.archived = true;
    idle.policy = "preset:agent";
    idle.datasets = {sb::DatasetRef{"tx", "idle.tx", std::string(64, 'a'), true, 0.5, 7},
                     sb::DatasetRef{"users", "users", std::string(64, 'b'), false, 1.0, 0}};
    const std::int64_t now = 1000 + 2 * 3'600'000;
    QCOMPARE(SandboxListModel::stateText(idle, now), QStringLiteral("archived, idle 2h of 1h"));
    QCOMPARE(SandboxListModel::usageText(idle, 1024), QStringLiteral("1.0 KiB of 2.0 MiB"));
    QCOMPARE(SandboxListModel::usageText(idle, std::nullopt), QStringLiteral("? of 2.0 MiB"));
    QCOMPARE(SandboxListModel::detailsText(idle, 1024, now),
             QStringLiteral("idle · archived, idle 2h of 1h · usage 1.0 KiB of 2.0 MiB · policy preset agent · "
                            "datasets tx (sample 0.5 of it: idle.tx), users"));
    sb::SandboxInfo plain;
    plain.name = "plain";
    plain.lastActivityMs = now;
    QCOMPARE(SandboxListModel::detailsText(plain, 10, now),
             QStringLiteral("plain · active, idle 0s · usage 10 B · policy default · datasets none"));

    SandboxListModel model(this);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSandboxes({idle, plain}, now, {{"idle", 1024}});
    QCOMPARE(model.index(0, SandboxListModel::StateColumn).data().toString(), QStringLiteral("archived"));
    QVERIFY(model.index(0, 0).data(SandboxListModel::ArchivedRole).toBool());
    QCOMPARE(model.index(0, SandboxListModel::UsageColumn).data().toString(), QStringLiteral("1.0 KiB of 2.0 MiB"));
    QCOMPARE(model.index(1, SandboxListModel::StateColumn).data().toString(), QStringLiteral("active"));
    QCOMPARE(model.index(1, SandboxListModel::UsageColumn).data().toString(), QStringLiteral("?"));
    QCOMPARE(model.usageOf("idle"), std::optional<std::uint64_t>(1024));
}

void TestCheckpointModels::checkpointModelPassesTesterAndDrawsTheGraph()
{
    CheckpointListModel model(this);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const std::string a(64, 'a');
    const std::string b(64, 'b');
    const std::string outside(64, 'c');
    model.setCheckpoints({checkpoint(b, {a}, "second"), checkpoint(a, {outside})}, b);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, CheckpointListModel::IdColumn).data().toString(), QStringLiteral("bbbbbbbbbb"));
    QCOMPARE(model.index(0, CheckpointListModel::LabelColumn).data().toString(), QStringLiteral("second"));
    QVERIFY(model.index(0, 0).data(CheckpointListModel::HeadRole).toBool());
    QVERIFY(!model.index(1, 0).data(CheckpointListModel::HeadRole).toBool());
    QVERIFY(model.index(1, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("another sandbox")));
    QCOMPARE(model.graphRowAt(0)->toBelow, std::vector<int>{0});
    QVERIFY(model.graphRowAt(1)->outsideParent);
    QCOMPARE(model.maxLanes(), 1);
    QCOMPARE(model.rowOf(QString::fromStdString(a)), 1);
    model.setCheckpoints({}, {});
    QCOMPARE(model.rowCount(), 0);
}

void TestCheckpointModels::diffFileModelPassesTester()
{
    DiffFileModel model(this);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    sb::FileDiff text;
    text.change.path = "rules.yaml";
    text.change.kind = sb::ChangeKind::Modified;
    text.unified = "--- a/rules.yaml\n+++ b/rules.yaml\n@@ -1 +1 @@\n-a\n+b\n";
    sb::FileDiff binary;
    binary.change.path = "model.bin";
    binary.change.kind = sb::ChangeKind::Added;
    binary.binary = true;
    sb::FileDiff large;
    large.change.path = "big.csv";
    large.change.kind = sb::ChangeKind::Removed;
    large.tooLarge = true;
    model.setFiles({text, binary, large});
    QCOMPARE(model.index(0, DiffFileModel::StatusColumn).data().toString(), QStringLiteral("M"));
    QCOMPARE(model.index(1, DiffFileModel::StatusColumn).data().toString(), QStringLiteral("A"));
    QCOMPARE(model.index(2, DiffFileModel::StatusColumn).data().toString(), QStringLiteral("D"));
    QCOMPARE(model.index(0, DiffFileModel::LinesColumn).data().toString(), QStringLiteral("+1 −1"));
    QCOMPARE(model.index(1, DiffFileModel::LinesColumn).data().toString(), QStringLiteral("binary"));
    QCOMPARE(model.index(2, DiffFileModel::LinesColumn).data().toString(), QStringLiteral("too large"));
    QVERIFY(!model.index(0, DiffFileModel::StatusColumn).data(Qt::DecorationRole).value<QIcon>().isNull());
    QCOMPARE(model.rowOf(QStringLiteral("big.csv")), 2);
}

void TestCheckpointModels::runnerCreatesChecksDiffsAndReportsErrors()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    CheckpointJobRunner runner(this);
    runner.setStorePath(std::filesystem::path(QString(dir.path() + QStringLiteral("/store.db")).toStdString()));
    QSignalSpy finished(&runner, &CheckpointJobRunner::taskFinished);
    QSignalSpy sandboxes(&runner, &CheckpointJobRunner::sandboxesLoaded);
    QSignalSpy checkpoints(&runner, &CheckpointJobRunner::checkpointsLoaded);
    QSignalSpy diffs(&runner, &CheckpointJobRunner::diffReady);

    sb::CreateSandboxRequest request;
    request.name = "trial";
    QVERIFY(runner.createSandbox(request));
    QVERIFY(runner.isBusy());
    QVERIFY(!runner.sweep(false)); // one task at a time
    QVERIFY(finished.wait(30000));
    auto outcome = finished.takeFirst().at(0).value<TaskOutcome>();
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QCOMPARE(outcome.sandbox, QStringLiteral("trial"));
    QVERIFY(!runner.isBusy());

    // Two loads at once: only the newer one is heard of.
    runner.loadSandboxes();
    runner.loadSandboxes();
    QVERIFY(sandboxes.wait(30000));
    QTest::qWait(200);
    QCOMPARE(sandboxes.size(), 1);
    const auto list = sandboxes.takeFirst().at(0).value<SandboxesSnapshot>();
    QCOMPARE(list.sandboxes.size(), std::size_t{2});
    const std::filesystem::path workspace = list.sandboxes.at(1).workspace;

    QFile file(QString::fromStdString((workspace / "notes.txt").string()));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("one\n");
    file.close();
    QVERIFY(runner.checkpoint(sb::CheckpointRequest{"trial", "notes", "", ""}));
    QVERIFY(finished.wait(30000));
    outcome = finished.takeFirst().at(0).value<TaskOutcome>();
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QVERIFY(outcome.summary.contains(QStringLiteral("1 added")));

    runner.loadCheckpoints(QStringLiteral("trial"));
    QVERIFY(checkpoints.wait(30000));
    const auto loaded = checkpoints.takeFirst().at(0).value<CheckpointsSnapshot>();
    QCOMPARE(loaded.checkpoints.size(), std::size_t{2});
    QCOMPARE(loaded.head, loaded.checkpoints.front().id);

    // The oldest against the newest: notes.txt added, with its text.
    runner.diff(QStringLiteral("trial"), QString::fromStdString(loaded.checkpoints.back().id),
                QString::fromStdString(loaded.checkpoints.front().id));
    QVERIFY(diffs.wait(30000));
    const auto diff = diffs.takeFirst().at(0).value<DiffSnapshot>();
    QVERIFY2(diff.diff.has_value(), qPrintable(diff.error));
    QCOMPARE(diff.diff->files.size(), std::size_t{1});
    QVERIFY(diff.diff->files.front().change.kind == sb::ChangeKind::Added);
    QVERIFY(diff.diff->files.front().unified.find("+one") != std::string::npos);

    // Errors are values: a clear message, not a crash.
    QVERIFY(runner.destroySandbox(QStringLiteral("no-such-sandbox")));
    QVERIFY(finished.wait(30000));
    outcome = finished.takeFirst().at(0).value<TaskOutcome>();
    QVERIFY(!outcome.error.isEmpty());
    QVERIFY(!outcome.cancelled);
}

int main(int argc, char* argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    TestCheckpointModels test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_checkpoint_models.moc"
