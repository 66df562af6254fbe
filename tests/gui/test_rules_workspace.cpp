// The rules workspace, driven through the real main window offscreen: the demo opens in one click, an error
// typed into a condition is underlined with the checker's message, Evaluate and Compare run off the GUI thread
// and fill the charts and the changed-decisions table, a row opens its explanation, the comparison exports,
// and a long read can be cancelled. Screenshots go to the build tree.

#include "gui_test_main.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/ChangedDecisionsModel.h"
#include "ui/rules/RuleSetEditor.h"
#include "ui/rules/RulesCharts.h"
#include "ui/rules/RulesLexer.h"
#include "ui/rules/RulesWorkspace.h"
#include "rules/demo_data.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QHorizontalStackedBarSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <memory>
#include <sys/stat.h>

using namespace sb::ui;

class TestRulesWorkspace : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void lexerColoursCelInsideWhen();
    void demoOpensInOneClick();
    void typedErrorIsUnderlinedAndFixed();
    void largeRuleSetIsCheckedOffTheGuiThread();
    void evaluateShowsTheDistribution();
    void compareFillsTheChangedTable();
    void rowOpensTheExplanation();
    void exportsCsvAndReport();
    void importsIntoTheStore();
    void longReadCanBeCancelled();
    void aFolderReadsAsOneDatasetNamingItsFilesBadRow();
    void importCanBeCancelled();
    void hundredsOfThousandsOfChangedRowsScroll();
    void openingWhatIsNoFileSaysWhy();
    void impactOnASandboxsDatasetEqualsTheCommandLine();
    void ruleSetsThatDeclareOneFieldTwiceAreRefused();
    void cleanupTestCase();

private:
    RulesWorkspace* ws() const { return m_window->rulesWorkspace(); }
    QAction* action(const char* name) const
    {
        auto* a = ws()->findChild<QAction*>(QString::fromLatin1(name));
        Q_ASSERT(a);
        return a;
    }
    static int errorCount(const RuleSetEditor* ed)
    {
        int n = 0;
        for (const auto& d : ed->diagnostics())
            n += d.severity == sb::rules::Severity::Error ? 1 : 0;
        return n;
    }
    void waitIdle() { QTRY_VERIFY_WITH_TIMEOUT(!ws()->jobs()->isBusy(), 30000); }
    void screenshot(const QString& name, QWidget* widget = nullptr);

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

void TestRulesWorkspace::screenshot(const QString& name, QWidget* widget)
{
    QTest::qWait(300); // let the charts lay out their titles and axes at their final size
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    QVERIFY((widget ? widget : m_window.get())->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

void TestRulesWorkspace::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_window = std::make_unique<MainWindow>(QString(m_dir.path() + QStringLiteral("/store.db")).toStdString());
    const auto storeError = m_window->openStore();
    QVERIFY2(!storeError, storeError ? qPrintable(*storeError) : "");
    m_window->resize(1600, 1000);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    auto* rules = m_window->findChild<QAction*>(QStringLiteral("actionRules"));
    QVERIFY(rules);
    rules->trigger();
    QTRY_VERIFY(ws()->isVisible());
}

void TestRulesWorkspace::lexerColoursCelInsideWhen()
{
    const std::string text = "rules:\n  - id: big # a comment\n    when: amount > 10.5 && country in ['FR']\n";
    const auto styles = RulesLexer::classify(text);
    auto at = [&](std::string_view needle) { return styles[text.find(needle)]; };
    QCOMPARE(at("rules"), RulesLexer::Key);
    QCOMPARE(at("# a comment"), RulesLexer::Comment);
    QCOMPARE(at("when"), RulesLexer::Key);
    QCOMPARE(at("amount"), RulesLexer::CelIdentifier);
    QCOMPARE(at("10.5"), RulesLexer::Number);
    QCOMPARE(at("&&"), RulesLexer::CelOperator);
    QCOMPARE(at("in ["), RulesLexer::CelKeyword);
    QCOMPARE(at("'FR'"), RulesLexer::String);
}

void TestRulesWorkspace::demoOpensInOneClick()
{
    action("actionRulesDemo")->trigger();
    QCOMPARE(ws()->ruleSetCount(), 3);
    QTRY_VERIFY_WITH_TIMEOUT(ws()->dataset() != nullptr, 30000);
    QCOMPARE(ws()->dataset()->data.rowCount(), std::size_t(5000));
    waitIdle();
    QVERIFY(action("actionRulesEvaluate")->isEnabled());
    QVERIFY(action("actionRulesCompare")->isEnabled());
    // The demo's one deliberate warning: a disabled rule.
    QCOMPARE(errorCount(ws()->editor(0)), 0);
}

void TestRulesWorkspace::typedErrorIsUnderlinedAndFixed()
{
    RuleSetEditor* ed = ws()->editor(0);
    const QString text = ed->text();
    const int at = static_cast<int>(text.indexOf(QStringLiteral("when: amount > 10000.0")));
    QVERIFY(at > 0);
    const int word = at + 6; // "amount" (the file is ASCII: characters are bytes)
    int line = 0, index = 0;
    ed->lineIndexFromPosition(word, &line, &index);
    ed->setFocus();
    ed->setSelection(line, index, line, index + 6);
    QTest::keyClicks(ed, QStringLiteral("amout"));
    QCOMPARE(ed->text().mid(word, 5), QStringLiteral("amout"));
    QTRY_VERIFY_WITH_TIMEOUT(ed->hasErrorIndicatorAt(word), 5000);
    const QString message = ed->diagnosticAt(word);
    QVERIFY2(message.contains(QStringLiteral("error")) && message.contains(QStringLiteral("amout")), qPrintable(message));
    QVERIFY2(message.startsWith(QStringLiteral("%1:%2:").arg(line + 1).arg(index + 1)), qPrintable(message));
    ed->setCursorPosition(line, index + 5);
    ed->ensureLineVisible(line);
    screenshot(QStringLiteral("rules-01-error-underlined.png"));

    // Fix it: the underline and the message go.
    ed->setSelection(line, index, line, index + 5);
    QTest::keyClicks(ed, QStringLiteral("amount"));
    QTRY_COMPARE_WITH_TIMEOUT(errorCount(ed), 0, 5000);
    QVERIFY(!ed->hasErrorIndicatorAt(word));
    QVERIFY(ed->diagnosticAt(word).isEmpty());
}

// A rule set of a thousand rules is checked off the GUI thread: the check is still running when checkNow()
// returns, its errors arrive where they point, and a result for text that has changed since is dropped.
void TestRulesWorkspace::largeRuleSetIsCheckedOffTheGuiThread()
{
    RuleSetEditor* ed = ws()->editor(0);
    const QString original = ed->text();
    auto ruleSet = [](int badRule) {
        QString text = QStringLiteral("name: big\nversion: 1\nstrategy: first_match\ndefault:\n  decision: allow\n  score: 0\n"
                                      "fields:\n  amount: double\n  country: string\nrules:\n");
        for (int i = 0; i < 1000; ++i) {
            text += QStringLiteral("  - id: rule_%1\n    when: %2 > %3.0 && country != 'NO'\n    decision: review\n    score: 10\n")
                        .arg(i)
                        .arg(i == badRule ? QStringLiteral("amout") : QStringLiteral("amount"))
                        .arg(i);
        }
        return text;
    };
    const QString withError = ruleSet(700);
    QVERIFY(withError.size() > 32 * 1024);

    ed->setText(withError);
    ed->checkNow();
    QVERIFY(ed->isChecking());
    QTRY_VERIFY_WITH_TIMEOUT(!ed->isChecking(), 30000);
    QCOMPARE(errorCount(ed), 1);
    const int at = static_cast<int>(withError.indexOf(QStringLiteral("amout")));
    QVERIFY(ed->hasErrorIndicatorAt(at));
    int line = 0, index = 0;
    ed->lineIndexFromPosition(at, &line, &index);
    QVERIFY2(ed->diagnosticAt(at).startsWith(QStringLiteral("%1:%2:").arg(line + 1).arg(index + 1)),
             qPrintable(ed->diagnosticAt(at)));

    // Fixed before the check of the broken text ends: only the newer text's (clean) result is shown.
    ed->setText(ruleSet(300));
    ed->checkNow();
    ed->setText(ruleSet(-1));
    ed->checkNow();
    QTRY_VERIFY_WITH_TIMEOUT(!ed->isChecking(), 30000);
    QTest::qWait(200); // any stale result would have arrived by now
    QCOMPARE(errorCount(ed), 0);

    ed->setText(original);
    ed->checkNow();
    QTRY_VERIFY_WITH_TIMEOUT(!ed->isChecking(), 30000);
    QCOMPARE(errorCount(ed), 0);
}

void TestRulesWorkspace::evaluateShowsTheDistribution()
{
    auto* tabs = ws()->findChild<QTabWidget*>(QStringLiteral("ruleSetTabs"));
    tabs->setCurrentIndex(0);
    action("actionRulesEvaluate")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(ws()->result() != nullptr && !ws()->jobs()->isBusy(), 30000);
    QVERIFY(!ws()->result()->compare);
    QChart* chart = ws()->charts()->distributionChart()->chart();
    auto series = chart->series();
    QCOMPARE(series.size(), 1);
    auto* stacked = qobject_cast<QHorizontalStackedBarSeries*>(series.front());
    QVERIFY(stacked);
    double total = 0;
    QStringList decisions;
    for (QBarSet* set : stacked->barSets()) {
        decisions << set->label();
        total += set->sum();
    }
    QCOMPARE(total, 5000.0);
    QVERIFY2(decisions.contains(QStringLiteral("block")) && decisions.contains(QStringLiteral("allow")),
             qPrintable(decisions.join(QLatin1Char(','))));
    screenshot(QStringLiteral("rules-02-evaluate.png"));

    // A rule no record can reach past an earlier one is reported once the data shows it.
    RuleSetEditor* ed = ws()->editor(0);
    const QString original = ed->text();
    const QString shadowed = QStringLiteral("  - id: shadowed_copy\n    when: amount > 10000.0 && hour >= 0\n    decision: block\n    score: 95\n");
    QString text = original;
    text.insert(text.indexOf(QStringLiteral("  - id: sanctioned_ip_country")), shadowed);
    ed->setText(text);
    action("actionRulesEvaluate")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!ws()->jobs()->isBusy(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(ed->diagnostics().begin(), ed->diagnostics().end(), [](const EditorDiagnostic& d) {
                                 return d.message.contains(QStringLiteral("shadowed_copy")) && d.message.contains(QStringLiteral("shadow"));
                             }), 5000);
    ed->setText(original);
    action("actionRulesEvaluate")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!ws()->jobs()->isBusy(), 30000);
}

void TestRulesWorkspace::compareFillsTheChangedTable()
{
    action("actionRulesCompare")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(ws()->result() != nullptr && ws()->result()->compare && !ws()->jobs()->isBusy(), 30000);
    const auto* result = ws()->result();
    QCOMPARE(result->impacts.size(), std::size_t(2));
    QVERIFY(result->baselineSummary.has_value());
    screenshot(QStringLiteral("rules-03-compare-charts.png"));
    screenshot(QStringLiteral("rules-05-compare-dock.png"), m_window->findChild<QDockWidget*>(QStringLiteral("rulesDock")));

    auto* combo = ws()->findChild<QComboBox*>(QStringLiteral("variantCombo"));
    QCOMPARE(combo->currentText(), QStringLiteral("variant_a"));
    QTableView* table = ws()->changedView();
    QAbstractItemModelTester tester(table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto affected = result->impacts[0].affected;
    QVERIFY(affected > 0);
    QCOMPARE(table->model()->rowCount(), static_cast<int>(affected));

    // Sort by the proposed score, highest first.
    table->sortByColumn(ChangedDecisionsModel::NewScoreColumn, Qt::DescendingOrder);
    const double first = table->model()->index(0, ChangedDecisionsModel::NewScoreColumn).data().toDouble();
    const double last = table->model()->index(table->model()->rowCount() - 1, ChangedDecisionsModel::NewScoreColumn).data().toDouble();
    QVERIFY(first >= last);

    // Filter on a decision.
    auto* filter = ws()->findChild<QLineEdit*>(QStringLiteral("changedFilter"));
    QTest::keyClicks(filter, QStringLiteral("review"));
    QVERIFY(table->model()->rowCount() > 0);
    QVERIFY(table->model()->rowCount() <= affected);
    filter->clear();
    QCOMPARE(table->model()->rowCount(), static_cast<int>(affected));

    combo->setCurrentIndex(1);
    QCOMPARE(table->model()->rowCount(), static_cast<int>(result->impacts[1].affected));
    combo->setCurrentIndex(0);
}

void TestRulesWorkspace::rowOpensTheExplanation()
{
    auto* resultTabs = ws()->findChild<QTabWidget*>(QStringLiteral("rulesResultTabs"));
    resultTabs->setCurrentIndex(1);
    QTableView* table = ws()->changedView();
    const QString record = table->model()->index(0, ChangedDecisionsModel::RecordColumn).data().toString();
    const QString proposed = table->model()->index(0, ChangedDecisionsModel::NewRuleColumn).data().toString();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(0, 0)).center());
    const QString text = ws()->explanationView()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("Record %1").arg(record)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("variant_a")) && text.contains(QStringLiteral("current")), qPrintable(text));
    QVERIFY2(text.contains(proposed), qPrintable(text));
    screenshot(QStringLiteral("rules-04-changed-explanation.png"));
}

void TestRulesWorkspace::exportsCsvAndReport()
{
    const QString csv = m_dir.path() + QStringLiteral("/changed.csv");
    QVERIFY(ws()->exportChangedCsv(csv));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.front(), QByteArray("record_id,old_decision,new_decision,old_score,new_score,old_rule,new_rule"));
    QCOMPARE(lines.size(), static_cast<int>(ws()->result()->impacts[0].affected) + 1);

    const QString report = m_dir.path() + QStringLiteral("/report.html");
    QVERIFY(ws()->exportReport(report));
    QFile html(report);
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QByteArray body = html.readAll();
    QVERIFY(body.contains("data:image/png;base64,"));
    QVERIFY(body.contains("variant_b"));
}

void TestRulesWorkspace::longReadCanBeCancelled()
{
    // A file large enough that the read is still running when Cancel is pressed.
    const QString path = m_dir.path() + QStringLiteral("/big.csv");
    {
        std::ofstream out(path.toStdString());
        sb::rules::writeDemoTransactions(out, 600000, 7);
    }
    const auto* before = ws()->dataset();
    QVERIFY(ws()->loadDataFile(path));
    QVERIFY(ws()->jobs()->isBusy());
    QVERIFY(action("actionRulesCancel")->isEnabled());
    action("actionRulesCancel")->trigger();
    waitIdle();
    QCOMPARE(ws()->statusText(), QStringLiteral("Cancelled"));
    QCOMPARE(ws()->dataset(), before); // the demo data stays
    QVERIFY(!action("actionRulesCancel")->isEnabled());
}

void TestRulesWorkspace::aFolderReadsAsOneDatasetNamingItsFilesBadRow()
{
    // A folder of two parts (core decides it is data: usecases/dataset_source.h); the second has a record of one
    // cell too many on its own line 3, which the window skips and names by file and line.
    const QString folder = m_dir.path() + QStringLiteral("/parts");
    QVERIFY(QDir().mkpath(folder));
    const auto part = [](std::uint64_t seed) {
        std::ostringstream out;
        sb::rules::writeDemoTransactions(out, 5, seed);
        return QString::fromStdString(out.str()).split(QLatin1Char('\n'));
    };
    QStringList second = part(2);
    second[2] += QStringLiteral(",one-cell-too-many");
    const auto write = [](const QString& path, const QStringList& lines) {
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(lines.join(QLatin1Char('\n')).toUtf8()) >= 0;
    };
    QVERIFY(write(folder + QStringLiteral("/part-1.csv"), part(1)));
    QVERIFY(write(folder + QStringLiteral("/part-2.csv"), second));
    // The Dataset menu offers a folder beside a file (its dialog picks one and loads it as below).
    const auto* menu = ws()->findChild<QMenu*>(QStringLiteral("rulesDataMenu"));
    QVERIFY(menu && menu->actions().contains(action("actionRulesDataFolder")));
    QVERIFY(action("actionRulesDataFolder")->isEnabled());
    QVERIFY(ws()->loadDataFile(folder));
    waitIdle();
    QVERIFY2(ws()->dataset() && ws()->dataset()->data.rowCount() == 9,
             qPrintable(ws()->findChild<QLabel*>(QStringLiteral("rulesDataLabel"))->text()));
    const auto* label = ws()->findChild<QLabel*>(QStringLiteral("rulesDataLabel"));
    QVERIFY(label);
    QVERIFY2(label->text().contains(QStringLiteral("1 bad rows skipped (first: part-2.csv, line 3: ")),
             qPrintable(label->text()));
}

void TestRulesWorkspace::importsIntoTheStore()
{
    const QString path = m_dir.path() + QStringLiteral("/small.csv");
    {
        std::ofstream out(path.toStdString());
        sb::rules::writeDemoTransactions(out, 1200, 3);
    }
    QVERIFY(ws()->importDataFile(path, QStringLiteral("small")));
    waitIdle();
    QVERIFY2(ws()->dataset() && ws()->dataset()->data.rowCount() == 1200, qPrintable(ws()->statusText()));
    QCOMPARE(ws()->storedDatasets(), QStringList{QStringLiteral("small")});
    // Snapshots are immutable: the same name again is refused, with a message.
    QVERIFY(ws()->importDataFile(path, QStringLiteral("small")));
    waitIdle();
    QVERIFY2(ws()->statusText().contains(QStringLiteral("small")), qPrintable(ws()->statusText()));
    // Back to the demo, then the stored snapshot again.
    QVERIFY(ws()->loadDataFile({}));
    waitIdle();
    QCOMPARE(ws()->dataset()->data.rowCount(), std::size_t(5000));
    QVERIFY(ws()->loadSnapshot(QStringLiteral("small")));
    waitIdle();
    QCOMPARE(ws()->dataset()->data.rowCount(), std::size_t(1200));
    QVERIFY(ws()->loadDataFile({}));
    waitIdle();
}

void TestRulesWorkspace::importCanBeCancelled()
{
    const QString path = m_dir.path() + QStringLiteral("/big.csv"); // written by longReadCanBeCancelled
    QVERIFY(QFile::exists(path));
    QVERIFY(ws()->importDataFile(path, QStringLiteral("big")));
    action("actionRulesCancel")->trigger();
    waitIdle();
    QCOMPARE(ws()->statusText(), QStringLiteral("Cancelled"));
    QVERIFY(!ws()->storedDatasets().contains(QStringLiteral("big")));
}

void TestRulesWorkspace::hundredsOfThousandsOfChangedRowsScroll()
{
    // Every record changes: a table of 300,000 rows, which the view must show without touching them all.
    constexpr int kRows = 300000;
    const QString path = m_dir.path() + QStringLiteral("/many.csv");
    {
        std::ofstream out(path.toStdString());
        sb::rules::writeDemoTransactions(out, kRows, 11);
    }
    const QString head = QStringLiteral("name: t\nversion: 1\nstrategy: first_match\ndefault: {decision: allow, score: 0}\n"
                                        "rules:\n  - id: all\n    when: amount %1 0.0\n    decision: %2\n    score: 50\n");
    RulesWorkspace workspace;
    workspace.resize(1200, 800);
    workspace.show();
    workspace.addRuleSet(QStringLiteral("base"), head.arg(QStringLiteral(">="), QStringLiteral("block")));
    workspace.addRuleSet(QStringLiteral("none"), head.arg(QStringLiteral("<"), QStringLiteral("block")));
    QVERIFY(workspace.loadDataFile(path));
    QTRY_VERIFY_WITH_TIMEOUT(workspace.dataset() != nullptr && !workspace.jobs()->isBusy(), 60000);
    QVERIFY(workspace.compare());
    QTRY_VERIFY_WITH_TIMEOUT(workspace.result() != nullptr && !workspace.jobs()->isBusy(), 60000);
    QTableView* table = workspace.changedView();
    QCOMPARE(table->model()->rowCount(), kRows);
    QElapsedTimer timer;
    timer.start();
    table->scrollToBottom();
    QTest::qWait(50);
    table->scrollToTop();
    QTest::qWait(50);
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(table->model()->index(kRows - 1, ChangedDecisionsModel::NewDecisionColumn).data().toString(), QStringLiteral("allow"));
}

// Open rule set and Open dataset go through the one bounded reader: a FIFO with no writer is refused at
// once (it would block), a device is never read, and the status says what the file is.
void TestRulesWorkspace::openingWhatIsNoFileSaysWhy()
{
    waitIdle();
    const int ruleSets = ws()->ruleSetCount();
    const QString fifo = m_dir.path() + QStringLiteral("/pipe.yaml");
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    QVERIFY(!ws()->openRuleSetFile(fifo));
    QCOMPARE(ws()->statusText(), fifo + QStringLiteral(": the rule set is not a regular file but a FIFO"));
    QVERIFY(!ws()->openRuleSetFile(QStringLiteral("/dev/zero")));
    QCOMPARE(ws()->statusText(),
             QStringLiteral("/dev/zero: the rule set is not a regular file but a character device"));
    QCOMPARE(ws()->ruleSetCount(), ruleSets);

    const QString data = m_dir.path() + QStringLiteral("/pipe.csv");
    QVERIFY(::mkfifo(QFile::encodeName(data).constData(), 0600) == 0);
    const auto* before = ws()->dataset();
    QVERIFY(ws()->loadDataFile(data)); // read off the GUI thread: the refusal comes as the job's end
    waitIdle();
    QCOMPARE(ws()->statusText(), data + QStringLiteral(": the data file is not a regular file but a FIFO"));
    QCOMPARE(ws()->dataset(), before);
}

namespace {

// The real `sandbench` on the test's store: its standard output, or a failure.
QByteArray runCli(const QStringList& args, int expectedStatus = 0)
{
    QProcess cli;
    cli.start(QStringLiteral(SANDBENCH_CLI), args);
    if (!cli.waitForFinished(120000) || cli.exitStatus() != QProcess::NormalExit || cli.exitCode() != expectedStatus) {
        qWarning("sandbench %s: %s", qPrintable(args.join(QLatin1Char(' '))), cli.readAllStandardError().constData());
        return {};
    }
    return cli.readAllStandardOutput();
}

void writeText(const QString& path, const QString& text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.toUtf8());
}

const char* const kImpactHead = "name: %1\nversion: 1\nstrategy: first_match\ndefault: {decision: allow, score: 0}\n"
                                "fields: {amount: double}\nrules:\n  - id: big\n    when: amount > %2\n"
                                "    decision: block\n    score: 80\n";

} // namespace

// A stored snapshot a sandbox refers to (sampled for it) reads the same in the window as with
// `rules impact --sandbox`, and the impact on it is the same.
void TestRulesWorkspace::impactOnASandboxsDatasetEqualsTheCommandLine()
{
    const QString store = m_dir.path() + QStringLiteral("/store.db");
    const QString csv = m_dir.path() + QStringLiteral("/tx.csv");
    {
        std::ofstream out(csv.toStdString());
        sb::rules::writeDemoTransactions(out, 3000, 5);
    }
    const QString baseText = QString::fromLatin1(kImpactHead).arg(QStringLiteral("base"), QStringLiteral("400.0"));
    const QString candText = QString::fromLatin1(kImpactHead).arg(QStringLiteral("cand"), QStringLiteral("150.0"));
    const QString base = m_dir.path() + QStringLiteral("/base.yaml");
    const QString cand = m_dir.path() + QStringLiteral("/cand.yaml");
    writeText(base, baseText);
    writeText(cand, candText);
    const QString storeFlag = QStringLiteral("--store");
    QVERIFY(!runCli({QStringLiteral("data"), QStringLiteral("import"), csv, QStringLiteral("--name"),
                     QStringLiteral("tx"), storeFlag, store})
                 .isNull());
    QVERIFY(!runCli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("exp"), QStringLiteral("--dataset"),
                     QStringLiteral("tx"), QStringLiteral("--sample"), QStringLiteral("0.5"), QStringLiteral("--seed"),
                     QStringLiteral("7"), QStringLiteral("--json"), storeFlag, store})
                 .isNull());
    const QByteArray out = runCli({QStringLiteral("rules"), QStringLiteral("impact"), QStringLiteral("--baseline"), base,
                                   QStringLiteral("--candidate"), cand, QStringLiteral("--data"), QStringLiteral("tx"),
                                   QStringLiteral("--sandbox"), QStringLiteral("exp"), QStringLiteral("--limit"),
                                   QStringLiteral("100000"), QStringLiteral("--json"), storeFlag, store});
    const QJsonObject cli = QJsonDocument::fromJson(out).object();
    QVERIFY2(!cli.isEmpty(), out.constData());

    RulesWorkspace workspace;
    workspace.setStorePath(store.toStdString());
    workspace.addRuleSet(QStringLiteral("base"), baseText);
    workspace.addRuleSet(QStringLiteral("cand"), candText);
    QVERIFY(workspace.loadSnapshot(QStringLiteral("tx"), QStringLiteral("exp")));
    QTRY_VERIFY_WITH_TIMEOUT(!workspace.jobs()->isBusy(), 60000);
    QVERIFY2(workspace.dataset(), qPrintable(workspace.statusText()));
    // The sandbox's sample, not the store's whole snapshot.
    const auto rows = static_cast<qint64>(workspace.dataset()->data.rowCount());
    QCOMPARE(rows, cli[QStringLiteral("data")].toObject()[QStringLiteral("rows")].toInteger());
    QVERIFY(rows < 3000);
    QVERIFY(workspace.compare());
    QTRY_VERIFY_WITH_TIMEOUT(workspace.result() != nullptr && !workspace.jobs()->isBusy(), 60000);
    const sb::rules::Impact& impact = workspace.result()->impacts.at(0);
    QCOMPARE(impact.total, cli[QStringLiteral("total")].toInteger());
    QCOMPARE(impact.affected, cli[QStringLiteral("affected")].toInteger());
    QCOMPARE(impact.impactRate, cli[QStringLiteral("impact_rate")].toDouble());
    QCOMPARE(impact.scoreChanged, cli[QStringLiteral("score_changed")].toInteger());
    const QJsonArray changed = cli[QStringLiteral("changed")].toArray();
    QCOMPARE(static_cast<qsizetype>(impact.changedRows.size()), changed.size());
    const auto& data = workspace.dataset()->data;
    for (qsizetype i = 0; i < changed.size(); ++i) {
        const QString id = changed[i].toObject()[QStringLiteral("record_id")].toVariant().toString();
        QCOMPARE(QString::fromStdString(data.recordId(impact.changedRows[static_cast<std::size_t>(i)])), id);
    }

    // A name the sandbox does not refer to is refused, as on the command line.
    QVERIFY(workspace.loadSnapshot(QStringLiteral("other"), QStringLiteral("exp")));
    QTRY_VERIFY_WITH_TIMEOUT(!workspace.jobs()->isBusy(), 60000);
    QVERIFY2(workspace.statusText().contains(QStringLiteral("sandbox 'exp' has no dataset 'other'")),
             qPrintable(workspace.statusText()));
}

// The fields of every rule set type the data, merged as the command line merges them: one field declared with
// two types by two rule sets is refused before anything is read.
void TestRulesWorkspace::ruleSetsThatDeclareOneFieldTwiceAreRefused()
{
    RulesWorkspace workspace;
    workspace.addRuleSet(QStringLiteral("base"), QString::fromLatin1(kImpactHead).arg(QStringLiteral("base"), QStringLiteral("1.0")));
    workspace.addRuleSet(QStringLiteral("odd"), QStringLiteral("name: odd\nversion: 1\nstrategy: first_match\n"
                                                               "default: {decision: allow, score: 0}\n"
                                                               "fields: {amount: string}\nrules: []\n"));
    QVERIFY(!workspace.loadDataFile({}));
    QVERIFY2(workspace.statusText().contains(QStringLiteral("field 'amount' is declared string")),
             qPrintable(workspace.statusText()));
}

void TestRulesWorkspace::cleanupTestCase()
{
    m_window.reset();
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestRulesWorkspace>(argc, argv);
}

#include "test_rules_workspace.moc"
