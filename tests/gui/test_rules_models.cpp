// The rules workspace's Qt layer without widgets: RulesJobRunner reads, evaluates and compares on a worker and
// hands back snapshots, and ChangedDecisionsModel (checked by QAbstractItemModelTester) shows what changed.

#include "ui/jobs/RulesJobs.h"
#include "ui/models/ChangedDecisionsModel.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

using namespace sb::ui;

namespace {

QString demoRules(const char* name)
{
    QFile file(QStringLiteral(SANDBENCH_SOURCE_DIR "/resources/demo/rules/") + QString::fromLatin1(name)
               + QStringLiteral(".yaml"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class TestRulesModels : public QObject {
    Q_OBJECT
private slots:
    void compareGivesImpactAndAModel();
    void brokenRuleSetIsAnErrorValue();
    void scoreHistogramBins();
};

void TestRulesModels::compareGivesImpactAndAModel()
{
    RulesJobRunner jobs(nullptr);
    QSignalSpy loaded(&jobs, &RulesJobRunner::dataLoaded);
    QVERIFY(jobs.loadData({}, {}));
    QVERIFY(!jobs.loadData({}, {})); // one job at a time
    QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 30000);
    const auto data = loaded.front().front().value<std::shared_ptr<const LoadedDataset>>();
    QCOMPARE(data->data.rowCount(), std::size_t(5000));

    QSignalSpy ready(&jobs, &RulesJobRunner::resultReady);
    QVERIFY(jobs.compare(data, {{QStringLiteral("current"), demoRules("current")},
                                {QStringLiteral("variant_a"), demoRules("variant_a")}}));
    QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, 30000);
    const auto result = ready.front().front().value<std::shared_ptr<const RulesResult>>();
    QVERIFY(result->compare);
    QCOMPARE(result->impacts.size(), std::size_t(1));
    QCOMPARE(result->labelColumn, QStringLiteral("is_fraud"));
    QVERIFY(result->baselineSummary && result->baselineSummary->flagged);

    ChangedDecisionsModel model(nullptr);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResult(result, 1);
    QCOMPARE(model.rowCount(), static_cast<int>(result->impacts[0].affected));
    for (int r = 0; r < model.rowCount(); ++r)
        QVERIFY(model.index(r, ChangedDecisionsModel::OldDecisionColumn).data()
                != model.index(r, ChangedDecisionsModel::NewDecisionColumn).data());
    QCOMPARE(model.toCsv().count(QLatin1Char('\n')), model.rowCount() + 1);
    model.setResult(result, 0); // no variant: empty
    QCOMPARE(model.rowCount(), 0);
}

void TestRulesModels::brokenRuleSetIsAnErrorValue()
{
    RulesJobRunner jobs(nullptr);
    QSignalSpy loaded(&jobs, &RulesJobRunner::dataLoaded);
    QVERIFY(jobs.loadData({}, {}));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 30000);
    const auto data = loaded.front().front().value<std::shared_ptr<const LoadedDataset>>();
    QSignalSpy failed(&jobs, &RulesJobRunner::failed);
    QString broken = demoRules("current");
    broken.replace(QStringLiteral("when: amount > 10000.0"), QStringLiteral("when: amout > 10000.0"));
    QVERIFY(jobs.evaluate(data, {QStringLiteral("current"), broken}));
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
    const QString message = failed.front().front().toString();
    QVERIFY2(message.contains(QStringLiteral("amout")) && message.contains(QStringLiteral(":29:")), qPrintable(message));
    QCOMPARE(failed.front().at(1).toBool(), false);
}

void TestRulesModels::scoreHistogramBins()
{
    sb::rules::Evaluation ev;
    for (double score : {0.0, 5.0, 10.0, 99.0, 100.0, 250.0, -3.0})
        ev.records.push_back({.rule = 0, .decision = 0, .errors = 0, .score = score});
    const auto bins = scoreHistogram(ev, 0.0); // the default score 0 is left out
    QCOMPARE(bins.size(), std::size_t(10));
    QCOMPARE(bins[0], std::int64_t(2)); // 5, -3
    QCOMPARE(bins[1], std::int64_t(1)); // 10
    QCOMPARE(bins[9], std::int64_t(3)); // 99, 100, 250
}

QTEST_GUILESS_MAIN(TestRulesModels)

#include "test_rules_models.moc"
