// Two users' paths through the real window, one after the other as a team works, on the screen ctest gives the
// program: a laptop's 1366×768, a desktop's 1440×900, and 1440×900 on a high-DPI display (twice the pixels). ctest
// runs the program once per screen (QT_QPA_PLATFORM=offscreen:configfile=tests/gui/screens/NAME.json, with
// SANDBENCH_TEST_SCREEN=NAME), and the window is maximised on it.
//
// The analyst opens the rules demo, then the card rules of her sandbox from disk, tightens the velocity rule,
// saves, and compares it with production and the team's variants: the change chart, the changed decisions and a
// record's explanation, the number of flipped decisions equal to `sandbench rules impact`. The reviewer then
// opens the promotion review of her sandbox in the Checkpoints & Promotion workspace: the review fits the screen,
// shows the flips she measured and the changed line, and he approves and promotes it; the file lands in main, the
// approval in the audit log. At each state what the screen shows is read back (charts readable whole, toolbars
// without a "»", columns not cut) and a screenshot goes to the build tree, named after the screen.
#include "agent_test_support.h"
#include "chart_reading.h"
#include "gui_test_main.h"
#include "screen_reading.h"

#include "store/audit.h"
#include "store/store.h"
#include "ui/checkpoints/CheckpointBrowser.h"
#include "ui/editor/DiffView.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/ChangedDecisionsModel.h"
#include "ui/models/CheckpointListModel.h"
#include "ui/promote/PromotionDialog.h"
#include "ui/rules/RuleSetEditor.h"
#include "ui/rules/RulesCharts.h"
#include "ui/rules/RulesWorkspace.h"

#include <nlohmann/json.hpp>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolBar>
#include <QTreeWidget>

#include <memory>

using namespace sb::ui;
using Json = nlohmann::json;

namespace {

const QString kVelocityBefore = QStringLiteral("when: txn_count_24h > 12");
const QString kVelocityAfter = QStringLiteral("when: txn_count_24h > 9");

} // namespace

class TestUserPaths : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theAnalystsPath();
    void theReviewersPath();
    void cleanupTestCase();

private:
    template <typename T>
    T* child(const char* name) const
    {
        return sb::guitest::requireChild<T>(*m_window, name);
    }
    template <typename T>
    static T* in(QWidget* parent, const char* name)
    {
        return sb::guitest::requireChild<T>(*parent, name);
    }
    QString cli(const QStringList& arguments) { return sb::guitest::runCli(m_store, arguments); }
    Json impactByTheCommandLine();
    RulesWorkspace* rules() const { return m_window->rulesWorkspace(); }
    void screenshot(const QString& name, QWidget* widget = nullptr);
    static void verifyChartsReadable(RulesCharts* charts);

    QTemporaryDir m_dir;
    QString m_store;
    QString m_mainWorkspace;
    QString m_sandboxWorkspace;
    qint64 m_affected = -1; // decisions the analyst's change flips, as the window counted them
    std::unique_ptr<MainWindow> m_window;
};

void TestUserPaths::screenshot(const QString& name, QWidget* widget)
{
    QTest::qWait(300); // let the charts lay out their titles and axes at their final size
    QVERIFY(sb::guitest::saveScreenshot(widget ? widget : m_window.get(), sb::guitest::screenshotName(name)));
}

void TestUserPaths::verifyChartsReadable(RulesCharts* charts)
{
    const auto shown = charts->visibleCharts();
    QVERIFY(!shown.empty());
    for (QChartView* view : shown) {
        const QStringList problems = sb::guitest::unreadable(view);
        QVERIFY2(problems.isEmpty(), qPrintable(view->objectName() + QStringLiteral(": ") + problems.join(QStringLiteral("; "))));
    }
}

void TestUserPaths::initTestCase()
{
    // The screen ctest chose; a run on any other (a bare offscreen platform, say) would not test what it names.
    sb::guitest::verifyTestScreen();
    QVERIFY(!QTest::currentTestFailed());

    QVERIFY(m_dir.isValid());
    m_store = m_dir.path() + QStringLiteral("/store.db");
    // Production's card rules in main; the analyst's sandbox, made from main, with the demo's transactions.
    const QString demo = QStringLiteral(SANDBENCH_DEMO_DIR);
    QVERIFY(!cli({QStringLiteral("data"), QStringLiteral("import"), demo + QStringLiteral("/transactions.csv"),
                  QStringLiteral("--name"), QStringLiteral("card-tx")})
                 .isEmpty());
    m_mainWorkspace = cli({QStringLiteral("sandbox"), QStringLiteral("path"), QStringLiteral("main")}).trimmed();
    QVERIFY(!m_mainWorkspace.isEmpty());
    QVERIFY(QDir().mkpath(m_mainWorkspace + QStringLiteral("/rules")));
    QVERIFY(QFile::copy(demo + QStringLiteral("/rules/current.yaml"), m_mainWorkspace + QStringLiteral("/rules/card.yaml")));
    QVERIFY(!cli({QStringLiteral("checkpoint"), QStringLiteral("create"), QStringLiteral("--sandbox"), QStringLiteral("main"),
                  QStringLiteral("--label"), QStringLiteral("production rules")})
                 .isEmpty());
    QVERIFY(!cli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("velocity"), QStringLiteral("--dataset"),
                  QStringLiteral("card-tx")})
                 .isEmpty());
    m_sandboxWorkspace = cli({QStringLiteral("sandbox"), QStringLiteral("path"), QStringLiteral("velocity")}).trimmed();
    QVERIFY(QFile::exists(m_sandboxWorkspace + QStringLiteral("/rules/card.yaml")));

    m_window = std::make_unique<MainWindow>(m_store.toStdString());
    sb::guitest::showOnTestScreen(m_window.get());
    QVERIFY(!QTest::currentTestFailed());
    const auto error = m_window->openStore();
    QVERIFY2(!error, error ? qPrintable(*error) : "");
    QApplication::setActiveWindow(m_window.get()); // its shortcuts (Ctrl+2, Ctrl+4) work in the active window
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

Json TestUserPaths::impactByTheCommandLine()
{
    const QString out = cli({QStringLiteral("rules"), QStringLiteral("impact"), QStringLiteral("--baseline"),
                             m_mainWorkspace + QStringLiteral("/rules/card.yaml"), QStringLiteral("--candidate"),
                             m_sandboxWorkspace + QStringLiteral("/rules/card.yaml"), QStringLiteral("--data"),
                             QStringLiteral(SANDBENCH_DEMO_DIR) + QStringLiteral("/transactions.csv"),
                             QStringLiteral("--json")});
    return Json::parse(out.toStdString(), nullptr, false);
}

void TestUserPaths::theAnalystsPath()
{
    // Ctrl+2: the rules workspace, using the whole window but for the workspace bar.
    QTest::keyClick(m_window.get(), Qt::Key_2, Qt::ControlModifier);
    QTRY_VERIFY(child<QAction>("actionRules")->isChecked());
    auto* dock = child<QDockWidget>("rulesDock");
    QTRY_VERIFY(dock->isVisible());
    QTRY_VERIFY(dock->width() >= m_window->width() - child<QToolBar>("workspaceBar")->width() - 40);
    QVERIFY(!m_window->centralWidget()->isVisible());

    // The demo's rule sets and records from the empty state, then her sandbox's rules from disk.
    auto* demoButton = in<QPushButton>(rules(), "rulesEmptyDemoButton");
    QTRY_VERIFY(demoButton->isVisible());
    QTest::mouseClick(demoButton, Qt::LeftButton);
    QTRY_COMPARE(rules()->ruleSetCount(), 3);
    QVERIFY(rules()->openRuleSetFile(m_sandboxWorkspace + QStringLiteral("/rules/card.yaml")));
    QCOMPARE(rules()->ruleSetCount(), 4);
    QTRY_VERIFY_WITH_TIMEOUT(rules()->dataset() != nullptr && !rules()->jobs()->isBusy(), 60000);
    auto* tabs = in<QTabWidget>(rules(), "ruleSetTabs");
    QCOMPARE(tabs->count(), 4);
    QCOMPARE(tabs->tabText(3), QStringLiteral("card"));
    tabs->setCurrentIndex(3);
    VERIFY_READABLE(sb::guitest::toolBarOverflow(in<QToolBar>(rules(), "rulesToolBar")));
    VERIFY_READABLE(sb::guitest::blurredIcons(m_window.get()));

    // Tighten the velocity rule by typing, as she would: 12 transactions a day becomes 9.
    RuleSetEditor* editor = rules()->currentEditor();
    QVERIFY(editor == rules()->editor(3));
    const int at = static_cast<int>(editor->text().indexOf(kVelocityBefore));
    QVERIFY(at > 0);
    const int number = at + static_cast<int>(kVelocityBefore.size()) - 2;
    int line = 0;
    int index = 0;
    editor->lineIndexFromPosition(number, &line, &index);
    editor->setFocus();
    editor->setSelection(line, index, line, index + 2);
    QTest::keyClicks(editor, QStringLiteral("9"));
    QVERIFY(editor->text().contains(kVelocityAfter));
    QVERIFY(editor->isModified());
    QTRY_VERIFY_WITH_TIMEOUT(!editor->isChecking(), 10000);
    for (const auto& diagnostic : editor->diagnostics())
        QVERIFY2(diagnostic.severity != sb::rules::Severity::Error, qPrintable(diagnostic.message));
    editor->ensureLineVisible(line);
    screenshot(QStringLiteral("analyst-01-edited"));

    // Save: to the file it came from, in her sandbox.
    in<QAction>(rules(), "actionRulesSave")->trigger();
    QVERIFY(!editor->isModified());
    QFile saved(m_sandboxWorkspace + QStringLiteral("/rules/card.yaml"));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const QString savedText = QString::fromUtf8(saved.readAll());
    QVERIFY(savedText.contains(kVelocityAfter));
    QVERIFY(!savedText.contains(kVelocityBefore));

    // Compare with production (the baseline tab) and the team's variants.
    in<QAction>(rules(), "actionRulesCompare")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(rules()->result() != nullptr && rules()->result()->compare && !rules()->jobs()->isBusy(),
                             60000);
    const auto* result = rules()->result();
    QCOMPARE(result->impacts.size(), std::size_t{3});
    auto* variant = in<QComboBox>(rules(), "variantCombo");
    const int card = variant->findText(QStringLiteral("card"));
    QVERIFY(card >= 0);
    variant->setCurrentIndex(card);
    const sb::rules::Impact& impact = result->impacts.at(static_cast<std::size_t>(card));
    QVERIFY(impact.affected > 0);

    // The flips the window counts are the command line's.
    const Json byCli = impactByTheCommandLine();
    QVERIFY(byCli.is_object());
    QCOMPARE(impact.affected, byCli.at("affected").get<std::int64_t>());
    QCOMPARE(impact.total, byCli.at("total").get<std::int64_t>());
    QCOMPARE(impact.scoreChanged, byCli.at("score_changed").get<std::int64_t>());
    m_affected = impact.affected;

    auto* resultTabs = in<QTabWidget>(rules(), "rulesResultTabs");
    resultTabs->setCurrentIndex(0);
    QTRY_VERIFY(rules()->charts()->isVisible());
    verifyChartsReadable(rules()->charts());
    screenshot(QStringLiteral("analyst-02-compared"));

    // The changed decisions, each record's explanation a click away.
    resultTabs->setCurrentIndex(1);
    QTableView* table = rules()->changedView();
    QTRY_VERIFY(table->isVisible());
    QCOMPARE(table->model()->rowCount(), static_cast<int>(impact.affected));
    const int lastColumn = ChangedDecisionsModel::NewRuleColumn;
    const int columnsEnd = table->horizontalHeader()->sectionViewportPosition(lastColumn)
                           + table->horizontalHeader()->sectionSize(lastColumn);
    QVERIFY2(columnsEnd <= table->viewport()->width(), qPrintable(QString::number(columnsEnd)));
    const QModelIndex first = table->model()->index(0, ChangedDecisionsModel::RecordColumn);
    const QString record = first.data().toString();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(first).center());
    const QString explanation = rules()->explanationView()->toPlainText();
    QVERIFY2(explanation.contains(QStringLiteral("Record %1").arg(record)), qPrintable(explanation));
    QVERIFY2(explanation.contains(QStringLiteral("card")) && explanation.contains(QStringLiteral("current")),
             qPrintable(explanation));
    screenshot(QStringLiteral("analyst-03-changed-decisions"));
}

void TestUserPaths::theReviewersPath()
{
    QVERIFY2(m_affected > 0, "the analyst's path runs first");
    // Ctrl+4: Checkpoints & Promotion; the analyst's sandbox, and Promote… on it.
    QTest::keyClick(m_window.get(), Qt::Key_4, Qt::ControlModifier);
    QTRY_VERIFY(child<QAction>("actionCheckpoints")->isChecked());
    CheckpointBrowser* browser = m_window->checkpointBrowser();
    QTRY_VERIFY(browser->isVisible());
    for (const char* name : {"checkpointToolBar", "checkpointActionsBar"})
        VERIFY_READABLE(sb::guitest::toolBarOverflow(child<QToolBar>(name)));
    QTRY_VERIFY_WITH_TIMEOUT(browser->selectSandbox(QStringLiteral("velocity")), 30000);
    auto* promote = child<QAction>("actionPromoteSandbox");
    QTRY_VERIFY_WITH_TIMEOUT(promote->isEnabled(), 30000);
    screenshot(QStringLiteral("reviewer-01-sandbox"));
    promote->trigger();
    PromotionDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = qobject_cast<PromotionDialog*>(QApplication::activeModalWidget())) != nullptr);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->jobs()->isBusy() && dialog->report().has_value(), 60000);
    const auto& report = *dialog->report();

    // The review fits the screen.
    VERIFY_READABLE(sb::guitest::offScreen(dialog));

    // What it shows: the rule file changed, the decisions it flips as the analyst measured them, the line.
    auto* files = in<QTreeWidget>(dialog, "promotionFiles");
    QVERIFY(files->currentItem());
    QCOMPARE(files->currentItem()->text(1), QStringLiteral("rules/card.yaml"));
    QCOMPARE(report.decisionImpacts.size(), std::size_t{1});
    QCOMPARE(static_cast<qint64>(report.decisionImpacts[0].changed), m_affected);
    auto* ruleImpact = in<QLabel>(dialog, "promotionRuleImpact");
    QVERIFY(ruleImpact->isVisible());
    QVERIFY2(ruleImpact->text().contains(QStringLiteral("%1 of %2").arg(m_affected).arg(report.decisionImpacts[0].records)),
             qPrintable(ruleImpact->text()));
    QVERIFY(in<QLabel>(dialog, "promotionRisk")->text() != QStringLiteral("Low risk"));
    const QString diff = in<DiffView>(dialog, "promotionDiff")->text();
    QVERIFY2(diff.contains(QStringLiteral("-    ") + kVelocityBefore) && diff.contains(QStringLiteral("+    ") + kVelocityAfter),
             qPrintable(diff));

    // He approves, with his name and why, and promotes.
    QTest::keyClicks(in<QLineEdit>(dialog, "promotionApprovalBy"), QStringLiteral("Dana Reviewer"));
    QTest::keyClicks(in<QLineEdit>(dialog, "promotionApprovalNote"),
                     QStringLiteral("velocity flips checked against the fraud labels"));
    auto* promoteButton = in<QPushButton>(dialog, "promotionPromote");
    QTRY_VERIFY(promoteButton->isEnabled());
    screenshot(QStringLiteral("reviewer-02-review"), dialog);
    QTest::mouseClick(promoteButton, Qt::LeftButton);
    auto* status = in<QLabel>(dialog, "promotionStatus");
    QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith(QStringLiteral("Promoted")), 60000);
    screenshot(QStringLiteral("reviewer-03-promoted"), dialog);
    QTest::mouseClick(in<QPushButton>(dialog, "promotionClose"), Qt::LeftButton);
    QTRY_VERIFY(!QApplication::activeModalWidget());

    // Production has the analyst's rule; the approval is in the audit log, under his name.
    QFile production(m_mainWorkspace + QStringLiteral("/rules/card.yaml"));
    QVERIFY(production.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(production.readAll()).contains(kVelocityAfter));
    auto store = sb::Store::open(m_store.toStdString());
    QVERIFY(store);
    sb::AuditFilter filter;
    filter.operation = "approve";
    auto approvals = sb::listAudit(*store, filter);
    QVERIFY(approvals);
    QCOMPARE(approvals->size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(approvals->front().actor), QStringLiteral("Dana Reviewer"));
    const Json details = Json::parse(approvals->front().details);
    QCOMPARE(details.value("note", std::string()), std::string("velocity flips checked against the fraud labels"));

    // The browser shows main's newest checkpoint: the promotion.
    QTRY_VERIFY_WITH_TIMEOUT(browser->selectSandbox(QStringLiteral("main")), 30000);
    auto* checkpoints = child<QTableView>("checkpointTable");
    QTRY_VERIFY_WITH_TIMEOUT(checkpoints->model()->rowCount() > 0
                                 && checkpoints->model()->index(0, CheckpointListModel::KindColumn).data().toString()
                                        == QStringLiteral("promote"),
                             30000);
    screenshot(QStringLiteral("reviewer-04-main"));
}

void TestUserPaths::cleanupTestCase()
{
    m_window.reset();
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestUserPaths>(argc, argv);
}

#include "test_user_paths.moc"
