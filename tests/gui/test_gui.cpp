// Drives the real workbench window: types into the editor, runs with Ctrl+Return, runs the demo,
// and checks what a person would see. Every test uses its own temporary store and settings.
#include "gui_test_main.h"
#include "ui/audit/AuditView.h"
#include "ui/charts/MetricsDashboard.h"
#include "agents/session_store.h"
#include "demo/demo.h"
#include "ui/editor/CodeEditor.h"
#include "ui/help/HelpWindows.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/checkpoints/CheckpointBrowser.h"
#include "ui/jobs/CheckpointJobs.h"
#include "ui/models/RunHistoryModel.h"
#include "ui/rules/RulesWorkspace.h"
#include "isolation/policy.h"
#include "store/audit.h"
#include "store/store.h"

#include <Qsci/qscilexer.h>

#include <QAbstractBarSeries>
#include <QAction>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include "isolation/doctor.h"
#include "ui/models/AuditLogModel.h"

#include <QComboBox>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSpinBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStandardItemModel>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMap>
#include <QMenu>
#include <QTabBar>
#include <QTableWidget>
#include <QTabWidget>
#include <QToolBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTextBrowser>
#include <QTextCursor>
#include <QProgressBar>
#include <QTableView>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <sqlite3.h>

#include <memory>
#include <optional>
#include <sys/stat.h>

using namespace sb::ui;

namespace {

// How many entries the store's audit log holds now (-1: unreadable). Work the window started (the demo's
// sandboxes, its agent session) may still be adding some when a test looks.
qsizetype auditEntriesIn(const QString& storePath)
{
    auto store = sb::Store::open(std::filesystem::path(storePath.toStdString()));
    if (!store)
        return -1;
    auto entries = sb::listAudit(*store);
    return entries ? static_cast<qsizetype>(entries->size()) : -1;
}

// The newest agent session of a store, and how many runs it recorded: its agent's and its commands'.
struct RecordedSession {
    sb::agents::SessionInfo info;
    qint64 runs = 0;
};
std::optional<RecordedSession> newestSession(const QString& storePath)
{
    auto store = sb::Store::open(std::filesystem::path(storePath.toStdString()));
    if (!store)
        return std::nullopt;
    sb::agents::SessionStore sessions(*store);
    auto list = sessions.list();
    if (!list || list->empty())
        return std::nullopt;
    auto steps = sessions.allSteps(list->front().id);
    if (!steps)
        return std::nullopt;
    RecordedSession session{list->front(), list->front().runId.empty() ? 0 : 1};
    for (const auto& step : *steps)
        session.runs += step.tool == "run_command" && step.verdict == sb::agents::Verdict::Allowed ? 1 : 0;
    return session;
}

} // namespace

class TestGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void startsWithSnippetAndEmptyDashboard();
    void runPrintShowsOk();
    void blockedImportShowsBlocked();
    void whatTheProgramSaysIsShownApartAsItsClaim();
    void guiStaysResponsiveDuringRun();
    void cancelEndsRunEarly();
    void cancelBeforeTheStartShowsNothingRunning();
    void errorMarksTheLine();
    void demoMovesEveryCounter();
    void aReopenedWindowShowsThePersonsSnippetNotTheDemos();
    void viewMenuListsEachDockOnce();
    void helpOpensTheDocumentationAndListsTheShortcuts();
    void buttonsWithoutTextAreNamed();
    void workspacesUseTheWholeWindowAt1366();
    void rulesWorkspaceGuidesAndMarksTheBaseline();
    void doubleClickLoadsSnippet();
    void languageComboSwitchesLexer();
    void isolationLevelComboChoosesTheLevel();
    void auditViewFiltersVerifiesAndNamesTheBrokenEntry();
    void corruptStoreIsReportedAndLeftUntouched();
    void namedStoreInAMissingFolderIsRefused();
    void defaultStoreLocationGetsItsFolders();
    void openingASnippetThatIsNoFileSaysWhy();
    void aSnippetRunInTheWindowIsRecordedAsTheCommandLineRecordsIt();
    void theToolbarsSandboxAndPolicyAreTheCommandLinesOptions();
    void theDemoInTheWindowRunsTheCommandLinesCases();
    void auditVerifyInTheWindowAgreesWithTheCommandLine();
    void cleanupTestCase();

private:
    template <typename T>
    T* child(const char* name) const
    {
        return sb::guitest::requireChild<T>(*m_window, name);
    }
    QString badge() const { return child<QLabel>("outcomeBadge")->text(); }
    QString output() const { return child<QPlainTextEdit>("outputView")->toPlainText(); }
    qreal outcomeBar(sb::Outcome outcome) const;
    void typeSnippet(const QString& text);
    void runWithShortcut();
    void waitForJobEnd(int timeoutMs = 20000);
    void screenshot(const QString& name, QWidget* widget = nullptr);
    void storeExec(const QString& sql);
    QStringList auditColumn(int column) const;

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    CodeEditor* m_editor = nullptr;
};

qreal TestGui::outcomeBar(sb::Outcome outcome) const
{
    auto* view = child<QChartView>("outcomeChart");
    auto* series = qobject_cast<QAbstractBarSeries*>(view->chart()->series().constFirst());
    // One set per outcome (in kAllOutcomes order), non-zero only in its own row.
    const QBarSet* set = series->barSets().at(static_cast<int>(outcome));
    if (set->label() != QString::fromUtf8(sb::toString(outcome).data()))
        return -1; // the chart's sets are not where the test expects them: every comparison fails
    return set->sum();
}

void TestGui::typeSnippet(const QString& text)
{
    m_editor->clear();
    m_editor->setFocus();
    QTest::keyClicks(m_editor, text);
    QCOMPARE(m_editor->text(), text);
}

void TestGui::runWithShortcut()
{
    QVERIFY(child<QAction>("actionRun")->isEnabled());
    QTest::keyClick(m_editor, Qt::Key_Return, Qt::ControlModifier);
    QVERIFY2(m_window->jobs()->isRunning(), "Ctrl+Return did not start a run");
}

void TestGui::waitForJobEnd(int timeoutMs)
{
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->jobs()->isRunning(), timeoutMs);
}

void TestGui::screenshot(const QString& name, QWidget* widget)
{
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    QVERIFY((widget ? widget : m_window.get())->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

// Edits the window's store below Sandbench, as a person with the sqlite3 shell would.
void TestGui::storeExec(const QString& sql)
{
    const QByteArray path = QString(m_dir.path() + QStringLiteral("/store.db")).toUtf8();
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.constData(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, &error);
    const QString message = QString::fromUtf8(error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, qPrintable(message));
}

QStringList TestGui::auditColumn(int column) const
{
    QStringList values;
    const auto* model = child<QTableView>("auditTable")->model();
    for (int row = 0; row < model->rowCount(); ++row)
        values << model->index(row, column).data().toString();
    return values;
}

void TestGui::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_window = std::make_unique<MainWindow>(QString(m_dir.path() + QStringLiteral("/store.db")).toStdString());
    m_window->resize(1440, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    const auto error = m_window->openStore();
    QVERIFY2(!error, error ? qPrintable(*error) : "");
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    m_editor = child<CodeEditor>("codeEditor");
}

void TestGui::startsWithSnippetAndEmptyDashboard()
{
    QVERIFY(m_editor->text().contains(QStringLiteral("print")));
    QCOMPARE(child<MetricsDashboard>("metricsDashboard")->data().total, 0);
    QCOMPARE(child<QTableView>("historyView")->model()->rowCount(), 0);
    QVERIFY(!child<QLabel>("storeBanner")->isVisible());
    screenshot(QStringLiteral("01-first-start.png"));
}

void TestGui::runPrintShowsOk()
{
    const qreal okBefore = outcomeBar(sb::Outcome::Ok);
    typeSnippet(QStringLiteral("print(6*7)"));
    runWithShortcut();
    waitForJobEnd();
    QCOMPARE(badge(), QStringLiteral("ok"));
    QVERIFY2(output().contains(QStringLiteral("42")), qPrintable(output()));
    QTRY_COMPARE_WITH_TIMEOUT(outcomeBar(sb::Outcome::Ok), okBefore + 1, 5000);
    QCOMPARE(child<QTableView>("historyView")->model()->rowCount(), 1);
    QVERIFY(!child<QLabel>("timingsLabel")->text().isEmpty());
    QVERIFY(child<QAction>("actionRun")->isEnabled());
    screenshot(QStringLiteral("02-after-run.png"));
}

void TestGui::isolationLevelComboChoosesTheLevel()
{
    auto* combo = child<QComboBox>("levelCombo");
    QCOMPARE(combo->count(), 4); // "from the policy" and the three levels
    const int process = combo->findText(QStringLiteral("process"));
    QVERIFY(process >= 0);
    combo->setCurrentIndex(process);
    typeSnippet(QStringLiteral("print('level')"));
    runWithShortcut();
    waitForJobEnd();
    QCOMPARE(badge(), QStringLiteral("ok"));
    // One line: the level and a count; the list of layers only on request.
    auto* layers = child<QLabel>("layersLabel");
    QVERIFY2(layers->text().contains(QStringLiteral("<b>process</b> isolation")), qPrintable(layers->text()));
    QVERIFY2(layers->text().contains(QStringLiteral("layers active")), qPrintable(layers->text()));
    QVERIFY2(!layers->text().contains(QStringLiteral("pid_namespace")), qPrintable(layers->text()));
    QVERIFY2(layers->toolTip().contains(QStringLiteral("pid_namespace")), qPrintable(layers->toolTip()));
    auto* details = child<QLabel>("layerDetailsLabel");
    QVERIFY(!details->isVisible());
    emit layers->linkActivated(QStringLiteral("layers"));
    QVERIFY(details->isVisible());
    QVERIFY2(details->text().contains(QStringLiteral("pid_namespace")), qPrintable(details->text()));
    QVERIFY2(!details->text().contains(QStringLiteral("✔&nbsp;pid_namespace")), qPrintable(details->text()));
    emit layers->linkActivated(QStringLiteral("layers"));
    QVERIFY(!details->isVisible());
    // Back to the deepest level this machine offers, for the tests that follow.
    combo->setCurrentIndex(combo->findData(static_cast<int>(sb::highestAvailableLevel())));
}

void TestGui::blockedImportShowsBlocked()
{
    const qreal blockedBefore = outcomeBar(sb::Outcome::Blocked);
    typeSnippet(QStringLiteral("import os"));
    runWithShortcut();
    waitForJobEnd();
    QCOMPARE(badge(), QStringLiteral("blocked"));
    QVERIFY2(output().contains(QStringLiteral("os")), qPrintable(output()));
    QTRY_COMPARE_WITH_TIMEOUT(outcomeBar(sb::Outcome::Blocked), blockedBefore + 1, 5000);
    // The key line first: in the header and at the top of the output; the importing line marked.
    const QString message = child<QLabel>("messageLabel")->text();
    QVERIFY2(message.startsWith(QStringLiteral("Blocked import: os")), qPrintable(message));
    QVERIFY(child<QLabel>("messageLabel")->isVisible());
    QVERIFY2(output().startsWith(QStringLiteral("── blocked ──\nimport: os")), qPrintable(output()));
    QCOMPARE(m_editor->blockedLines(), QList<int>{0});
    QVERIFY2(m_editor->errorMessage(0).contains(QStringLiteral("os")), qPrintable(m_editor->errorMessage(0)));
    screenshot(QStringLiteral("04-blocked-import.png"));
    // The mark belongs to that text: an edit clears it.
    QTest::keyClick(m_editor, Qt::Key_Space);
    QVERIFY(m_editor->blockedLines().isEmpty());
}

// A refusal only the program's own guard saw reaches the window as the program's word, under its own
// heading, and the badge shows what the sandbox observed.
void TestGui::whatTheProgramSaysIsShownApartAsItsClaim()
{
    typeSnippet(QStringLiteral("__import__('o' + 's')"));
    runWithShortcut();
    waitForJobEnd();
    QCOMPARE(badge(), QStringLiteral("error"));
    QVERIFY2(output().contains(QStringLiteral("the program says (not observed by the sandbox)")), qPrintable(output()));
    QVERIFY2(output().contains(QStringLiteral("import: os")), qPrintable(output()));
    QVERIFY2(!output().contains(QStringLiteral("\nblocked\n")), qPrintable(output()));
    auto* view = child<QPlainTextEdit>("outputView");
    view->moveCursor(QTextCursor::End);
    view->ensureCursorVisible();
    screenshot(QStringLiteral("07-program-claim.png"));
}

void TestGui::guiStaysResponsiveDuringRun()
{
    m_editor->setText(QStringLiteral("import time\ntime.sleep(1)\nprint('done')\n"));
    int ticks = 0;
    QTimer timer;
    timer.setInterval(10);
    connect(&timer, &QTimer::timeout, this, [&ticks] { ++ticks; });
    timer.start();
    QElapsedTimer clock;
    clock.start();
    QVERIFY(!child<QToolButton>("statusCancelButton")->isVisible()); // idle: nothing to cancel
    runWithShortcut();
    QVERIFY(!child<QAction>("actionRun")->isEnabled());
    QVERIFY(child<QAction>("actionCancel")->isEnabled());
    QVERIFY(child<QToolButton>("statusCancelButton")->isVisible());
    waitForJobEnd();
    QVERIFY(!child<QToolButton>("statusCancelButton")->isVisible());
    const auto elapsed = clock.elapsed();
    QCOMPARE(badge(), QStringLiteral("ok"));
    timer.stop();
    QVERIFY2(elapsed >= 1000, qPrintable(QString::number(elapsed)));
    // A blocked GUI thread would deliver a handful of ticks at most; 10 ms ticks over ≥1 s give ~100.
    QVERIFY2(ticks >= static_cast<int>(elapsed / 10 / 3), qPrintable(QStringLiteral("%1 ticks in %2 ms").arg(ticks).arg(elapsed)));
}

void TestGui::cancelEndsRunEarly()
{
    m_editor->setText(QStringLiteral("import time\ntime.sleep(30)\n"));
    QElapsedTimer clock;
    clock.start();
    QSignalSpy started(m_window->jobs(), &JobRunner::runStarted);
    runWithShortcut();
    QCOMPARE(badge(), QStringLiteral("running…")); // at once: not the last run's outcome until the sandbox starts
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000); // the store opened, the sandbox starting
    QTest::qWait(300);
    QCOMPARE(badge(), QStringLiteral("running…"));
    child<QAction>("actionCancel")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->jobs()->isRunning(), 10000);
    QVERIFY2(clock.elapsed() < 20000, "cancel did not end the run early");
    QVERIFY(child<QAction>("actionRun")->isEnabled());
    QVERIFY(!child<QAction>("actionCancel")->isEnabled());
    QCOMPARE(badge(), QStringLiteral("error"));
    QVERIFY(child<QLabel>("messageLabel")->text().contains(QStringLiteral("cancel")));
}

void TestGui::cancelBeforeTheStartShowsNothingRunning()
{
    // Cancelled in the same event as the run was asked for: the job's thread sees it before the sandbox starts,
    // or the run is cancelled as it starts. Either way the pane ends showing no run in progress.
    m_editor->setText(QStringLiteral("import time\ntime.sleep(30)\n"));
    runWithShortcut();
    QCOMPARE(badge(), QStringLiteral("running…"));
    child<QAction>("actionCancel")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->jobs()->isRunning(), 10000);
    QVERIFY(child<QAction>("actionRun")->isEnabled());
    QVERIFY2(badge() == QStringLiteral("not run") || badge() == QStringLiteral("error"), qPrintable(badge()));
    QCOMPARE(child<QLabel>("statusLabel")->text(), QStringLiteral("Cancelled"));
    screenshot(QStringLiteral("23-cancelled-before-the-start.png"));
}

void TestGui::errorMarksTheLine()
{
    m_editor->setText(QStringLiteral("x = 1\ny = x / 0\n"));
    runWithShortcut();
    waitForJobEnd();
    QCOMPARE(badge(), QStringLiteral("error"));
    QVERIFY2(output().contains(QStringLiteral("ZeroDivisionError")), qPrintable(output()));
    QCOMPARE(m_editor->errorLines(), QList<int>{1});
}

void TestGui::demoMovesEveryCounter()
{
    auto* demo = child<QAction>("actionDemo");
    QVERIFY(demo->isEnabled());
    const qint64 totalBefore = child<MetricsDashboard>("metricsDashboard")->data().total;
    // The person's snippet, its language and the mark of its last run (errorMarksTheLine).
    const QString snippet = m_editor->text();
    QCOMPARE(m_editor->errorLines(), QList<int>{1});
    auto* language = child<QComboBox>("languageCombo");
    const int languageIndex = language->currentIndex();
    QVERIFY(m_editor->language() == sb::Language::Python);
    demo->trigger();
    QVERIFY(m_editor->errorLines().isEmpty()); // stale: it belonged to the snippet's last run
    QVERIFY(m_window->jobs()->isRunning());
    QVERIFY(child<QProgressBar>("demoProgress")->isVisible());
    QVERIFY(!demo->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->jobs()->isRunning(), 180000);

    const auto& cases = sb::demoCases();
    const auto& data = child<MetricsDashboard>("metricsDashboard")->data();
    // Every case's run, and the worked example's, recorded as an agent session: its agent's run and the
    // commands it ran.
    const auto example = newestSession(m_dir.path() + QStringLiteral("/store.db"));
    QVERIFY(example.has_value());
    QCOMPARE(QString::fromStdString(std::string(sb::agents::toString(example->info.status))), QStringLiteral("completed"));
    QCOMPARE(example->info.steps, std::int64_t{14});
    const QString sessionLine = QStringLiteral("Worked example: agent session %1 completed, 14 step")
                                    .arg(QString::fromStdString(example->info.id));
    QVERIFY2(output().contains(sessionLine), qPrintable(output().right(400)));
    QCOMPARE(data.total, totalBefore + static_cast<qint64>(cases.size()) + example->runs);
    for (const auto& demoCase : cases) {
        bool counted = false;
        for (sb::Outcome outcome : demoCase.expected)
            counted = counted || outcomeBar(outcome) > 0;
        QVERIFY2(counted, demoCase.name.c_str());
    }
    QVERIFY2(output().contains(QStringLiteral("Demo finished")), qPrintable(output()));
    QVERIFY2(output().contains(QStringLiteral("every case ended as expected")), qPrintable(output()));
    QVERIFY(!child<QProgressBar>("demoProgress")->isVisible());
    QVERIFY(child<QLabel>("counterP95")->text() != QStringLiteral("–"));
    // The demo ran beside the person's work: their snippet and language stay, and the header names the demo's
    // log rather than showing its last case as if it were the snippet's outcome.
    QCOMPARE(m_editor->text(), snippet);
    QCOMPARE(language->currentIndex(), languageIndex);
    QVERIFY(m_editor->language() == sb::Language::Python);
    QCOMPARE(badge(), QStringLiteral("demo"));
    const QString timings = child<QLabel>("timingsLabel")->text();
    QVERIFY2(timings.contains(QStringLiteral("Demo finished")), qPrintable(timings));
    const QString message = child<QLabel>("messageLabel")->text();
    QVERIFY2(message.contains(QStringLiteral("the snippet in the editor has not run")), qPrintable(message));
    QVERIFY(!child<QLabel>("layersLabel")->isVisible());
    screenshot(QStringLiteral("03-after-demo.png"));
    m_window->resize(1366, 768);
    QTRY_COMPARE(m_window->width(), 1366);
    screenshot(QStringLiteral("03-after-demo-1366.png"));
    m_window->resize(1440, 900);
    QTRY_COMPARE(m_window->width(), 1440);
}

void TestGui::doubleClickLoadsSnippet()
{
    m_editor->setText(QStringLiteral("# something else"));
    auto* view = child<QTableView>("historyView");
    const int last = view->model()->rowCount() - 1; // the oldest run: print(6*7)
    QVERIFY(last >= 0);
    const QModelIndex index = view->model()->index(last, 1);
    view->scrollTo(index);
    const QPoint centre = view->visualRect(index).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, centre);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, centre);
    QTRY_COMPARE(m_editor->text(), QStringLiteral("print(6*7)"));
    QCOMPARE(badge(), QStringLiteral("ok"));
}

void TestGui::languageComboSwitchesLexer()
{
    auto* combo = child<QComboBox>("languageCombo");
    combo->setCurrentIndex(combo->findData(static_cast<int>(sb::Language::Shell)));
    QVERIFY(m_editor->language() == sb::Language::Shell);
    QCOMPARE(QString::fromLatin1(m_editor->lexer()->language()), QStringLiteral("Bash"));
    combo->setCurrentIndex(combo->findData(static_cast<int>(sb::Language::Python)));
    QVERIFY(m_editor->language() == sb::Language::Python);
}

void TestGui::auditViewFiltersVerifiesAndNamesTheBrokenEntry()
{
    auto* dock = child<QDockWidget>("auditDock");
    dock->show();
    dock->raise();
    auto* table = child<QTableView>("auditTable");
    QTRY_VERIFY(table->isVisible());
    // Every run so far was recorded with its audit entry, and the first policy version too.
    QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() >= 5, 5000);
    const QStringList operations = auditColumn(AuditLogModel::OperationColumn);
    QVERIFY2(operations.contains(QStringLiteral("run")), qPrintable(operations.join(u',')));
    QVERIFY2(operations.contains(QStringLiteral("policy.version")), qPrintable(operations.join(u',')));
    // The audit view reloads after each recorded run, off the GUI thread: wait for it to catch up.
    QTRY_COMPARE(auditColumn(AuditLogModel::OperationColumn).count(QStringLiteral("run")),
                 child<QTableView>("historyView")->model()->rowCount());

    // Operation filter: only runs.
    auto* operation = child<QComboBox>("auditOperationFilter");
    const int runIndex = operation->findData(QStringLiteral("run"));
    QVERIFY(runIndex > 0);
    operation->setCurrentIndex(runIndex);
    QTRY_COMPARE(auditColumn(AuditLogModel::OperationColumn).count(QStringLiteral("run")), table->model()->rowCount());
    QTRY_VERIFY(!auditColumn(AuditLogModel::OperationColumn).contains(QStringLiteral("policy.version")));

    // Text filter, typed: the blocked runs.
    auto* text = child<QLineEdit>("auditTextFilter");
    text->setFocus();
    QTest::keyClicks(text, QStringLiteral("outcome\":\"blocked"));
    QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() >= 1 && table->model()->rowCount() < operations.size(), 5000);
    QTRY_VERIFY(auditColumn(AuditLogModel::DetailsColumn).filter(QStringLiteral("outcome=blocked")).size()
                == table->model()->rowCount());
    text->clear();
    operation->setCurrentIndex(0);
    // Unfiltered again: every entry the store holds by then (the view reloads as entries are added).
    const QString storePath = m_dir.path() + QStringLiteral("/store.db");
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), auditEntriesIn(storePath), 30000);
    QVERIFY(table->model()->rowCount() >= operations.size());

    // Verify: intact, off the GUI thread.
    auto* verify = child<QPushButton>("auditVerifyButton");
    auto* verdict = child<QLabel>("auditVerifyResult");
    QTest::mouseClick(verify, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(verdict->text().contains(QStringLiteral("intact")), 10000);
    // Every entry the table shows (the whole log here) was checked.
    const QString said = child<AuditView>("auditView")->verdictText();
    QVERIFY2(said.contains(QStringLiteral("%1 entries").arg(table->model()->rowCount())), qPrintable(said));
    screenshot(QStringLiteral("05-audit-intact.png"), dock);
    QVERIFY(verify->isEnabled());
    QVERIFY(!child<QProgressBar>("auditVerifyProgress")->isVisible());

    // Someone edits entry 2 with the sqlite3 shell: Verify names it, marks its row and selects it.
    auto* model = qobject_cast<AuditLogModel*>(table->model());
    QVERIFY(model);
    const auto rowOf2 = [model] { return model->rowOfSeq(2); };
    const QString actor = model->index(rowOf2(), AuditLogModel::ActorColumn).data().toString();
    storeExec(QStringLiteral("UPDATE audit_log SET actor = 'mallory' WHERE seq = 2"));
    child<QToolButton>("auditRefreshButton")->click();
    QTRY_COMPARE(model->index(rowOf2(), AuditLogModel::ActorColumn).data().toString(), QStringLiteral("mallory"));
    QTest::mouseClick(verify, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(verdict->text().contains(QStringLiteral("broken")), 10000);
    QVERIFY2(verdict->text().contains(QStringLiteral("entry 2")), qPrintable(verdict->text()));
    QVERIFY(model->index(rowOf2(), 0).data(AuditLogModel::BrokenRole).toBool());
    QVERIFY(!model->index(model->rowOfSeq(1), 0).data(AuditLogModel::BrokenRole).toBool());
    QCOMPARE(table->currentIndex().row(), rowOf2());
    QCOMPARE(table->selectionModel()->selectedRows().size(), 1); // its details beside the table
    screenshot(QStringLiteral("05-audit-broken.png"));
    screenshot(QStringLiteral("06-audit-view.png"), dock);

    // Undone: intact again, and the history tab back in front for the tests that follow.
    storeExec(QStringLiteral("UPDATE audit_log SET actor = '%1' WHERE seq = 2").arg(actor));
    QTest::mouseClick(verify, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(verdict->text().contains(QStringLiteral("intact")), 10000);
    QVERIFY(!model->index(rowOf2(), 0).data(AuditLogModel::BrokenRole).toBool());
    child<QDockWidget>("historyDock")->raise();
}

void TestGui::corruptStoreIsReportedAndLeftUntouched()
{
    const QString path = m_dir.path() + QStringLiteral("/corrupt.db");
    const QByteArray garbage = QByteArray("this is not a sandbench store\n").repeated(200);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(garbage);
    }
    MainWindow window(path.toStdString());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto error = window.openStore();
    QVERIFY(error.has_value());
    QVERIFY(!error->isEmpty());
    auto* banner = window.findChild<QLabel*>(QStringLiteral("storeBanner"));
    QVERIFY(banner);
    QTRY_VERIFY(banner->isVisible()); // in a toolbar row of its own, laid out on the next turn of the loop
    QVERIFY(banner->text().contains(path));

    auto* editor = window.findChild<CodeEditor*>(QStringLiteral("codeEditor"));
    QVERIFY(!editor->text().isEmpty());
    editor->clear();
    editor->setFocus();
    QTest::keyClicks(editor, QStringLiteral("print(1)"));
    QCOMPARE(editor->text(), QStringLiteral("print(1)"));
    window.grab().save(QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QStringLiteral("/04-corrupt-store.png"));

    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), garbage);
    QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));
}

// --store with a folder that does not exist (a typo) is refused, naming the folder, as the command line
// refuses it: no folder is made and no empty store opened.
void TestGui::namedStoreInAMissingFolderIsRefused()
{
    const QString folder = m_dir.path() + QStringLiteral("/no/such/dir");
    const QString path = folder + QStringLiteral("/store.db");
    MainWindow window(sb::Store::locate(path.toStdString()));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto error = window.openStore();
    QVERIFY(error.has_value());
    QVERIFY2(error->contains(QStringLiteral("the folder %1 does not exist").arg(folder)), qPrintable(*error));
    QVERIFY(!QDir(m_dir.path() + QStringLiteral("/no")).exists());
}

// The default location is Sandbench's own: its folders are made on first use.
void TestGui::defaultStoreLocationGetsItsFolders()
{
    const QString path = m_dir.path() + QStringLiteral("/xdg/sandbench/workbench.db");
    MainWindow window(sb::StoreLocation{path.toStdString(), true});
    const auto error = window.openStore();
    QVERIFY2(!error.has_value(), qPrintable(error.value_or(QString())));
    QVERIFY(QFile::exists(path));
}

// Open… of something that is not a file (a FIFO with no writer would block the window) says what it is.
void TestGui::openingASnippetThatIsNoFileSaysWhy()
{
    const QString fifo = m_dir.path() + QStringLiteral("/pipe.py");
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    auto* editor = child<CodeEditor>("codeEditor");
    const QString before = editor->text();
    QVERIFY(!m_window->openFile(fifo));
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = m_window->findChild<QMessageBox*>(QStringLiteral("openSnippetErrorBox"))) != nullptr);
    QVERIFY2(box->informativeText().contains(QStringLiteral("%1: the snippet is not a regular file but a FIFO").arg(fifo)),
             qPrintable(box->informativeText()));
    delete box;
    QCOMPARE(editor->text(), before);
    QVERIFY(!m_window->openFile(QStringLiteral("/dev/zero")));
    QTRY_VERIFY((box = m_window->findChild<QMessageBox*>(QStringLiteral("openSnippetErrorBox"))) != nullptr);
    QVERIFY2(box->informativeText().contains(QStringLiteral("character device")), qPrintable(box->informativeText()));
    delete box;
}

// The same use case through both front ends (core/usecases): a window of its own on a fresh store, and the
// sandbench binary on that store.
namespace {

struct CliRun {
    int status = -1;
    QByteArray out;
    QByteArray err;
};

CliRun runCli(const QStringList& arguments)
{
    QProcess process;
    process.start(QStringLiteral(SANDBENCH_CLI), arguments);
    CliRun run;
    if (!process.waitForFinished(120000))
        return run;
    run.status = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

template <typename T>
T* childOf(QWidget& window, const char* name)
{
    auto* widget = window.findChild<T*>(QString::fromLatin1(name));
    if (!widget)
        qFatal("no child named %s", name);
    return widget;
}

// A window on its own store, shown and with its store open.
std::unique_ptr<MainWindow> openWindow(const QString& storePath)
{
    auto window = std::make_unique<MainWindow>(storePath.toStdString());
    window->resize(1200, 800);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    if (const auto error = window->openStore())
        qWarning("the store did not open: %s", qPrintable(*error));
    return window;
}

std::vector<sb::StoredRun> recordedRuns(const QString& storePath, int limit)
{
    auto store = sb::Store::open(std::filesystem::path(storePath.toStdString()));
    if (!store)
        return {};
    auto runs = store->recentRuns(limit);
    return runs ? std::move(*runs) : std::vector<sb::StoredRun>{};
}

QString renderedPolicy(const sb::StoredRun& run)
{
    return QString::fromStdString(sb::renderPolicy(run.request.policy));
}

} // namespace

// The window's level, timeout and memory are what --level, --timeout-ms and --memory-mb ask: both front ends
// resolve them into the same policy, run under it and record the same version of it.
void TestGui::aSnippetRunInTheWindowIsRecordedAsTheCommandLineRecordsIt()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString storePath = dir.path() + QStringLiteral("/store.db");
    auto window = openWindow(storePath);
    QVERIFY(window);
    auto* level = childOf<QComboBox>(*window, "levelCombo");
    level->setCurrentIndex(level->findText(QStringLiteral("process")));
    childOf<QSpinBox>(*window, "timeoutSpin")->setValue(3000);
    childOf<QSpinBox>(*window, "memorySpin")->setValue(128);
    const QString snippet = QStringLiteral("print(6*7)\n");
    childOf<CodeEditor>(*window, "codeEditor")->setText(snippet);
    childOf<QAction>(*window, "actionRun")->trigger();
    QVERIFY(window->jobs()->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!window->jobs()->isRunning(), 20000);

    QFile file(dir.path() + QStringLiteral("/snippet.py"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(snippet.toUtf8());
    file.close();
    const CliRun cli = runCli({QStringLiteral("run"), file.fileName(), QStringLiteral("--store"), storePath,
                               QStringLiteral("--level"), QStringLiteral("process"), QStringLiteral("--timeout-ms"),
                               QStringLiteral("3000"), QStringLiteral("--memory-mb"), QStringLiteral("128"),
                               QStringLiteral("--json")});
    QVERIFY2(cli.status == 0, cli.err.constData());

    const auto runs = recordedRuns(storePath, 10);
    QCOMPARE(runs.size(), std::size_t(2));
    const sb::StoredRun& fromCli = runs[0]; // newest first
    const sb::StoredRun& fromWindow = runs[1];
    QVERIFY(fromWindow.result.outcome == sb::Outcome::Ok);
    QVERIFY(fromCli.result.outcome == fromWindow.result.outcome);
    QVERIFY(fromWindow.request.policy.level == sb::IsolationLevel::Process);
    QVERIFY(fromCli.request.policy.level == fromWindow.request.policy.level);
    QCOMPARE(fromWindow.request.policy.limits.wallMs, std::int64_t{3000});
    QCOMPARE(fromWindow.request.policy.limits.memoryMb, std::int64_t{128});
    QCOMPARE(renderedPolicy(fromCli), renderedPolicy(fromWindow));
    QVERIFY(fromWindow.policy.id != 0);
    QCOMPARE(fromCli.policy.id, fromWindow.policy.id); // one recorded version of one policy
}

// The toolbar's sandbox and policy are --sandbox and --policy: a run in the window works in the chosen sandbox's
// workspace (the title says which) under the chosen preset, and is recorded with the same version of that policy
// as the command line's. "The sandbox's own" is offered only with a sandbox chosen; a policy file that is gone
// refuses the run, naming it.
void TestGui::theToolbarsSandboxAndPolicyAreTheCommandLinesOptions()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString storePath = dir.path() + QStringLiteral("/store.db");
    QCOMPARE(runCli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("trial"), QStringLiteral("--store"),
                     storePath})
                 .status,
             0);
    const CliRun where = runCli({QStringLiteral("sandbox"), QStringLiteral("path"), QStringLiteral("trial"),
                                 QStringLiteral("--store"), storePath});
    QCOMPARE(where.status, 0);
    const QString workspace = QString::fromUtf8(where.out).trimmed();
    QVERIFY(QFileInfo(workspace).isDir());

    auto window = openWindow(storePath);
    QVERIFY(window);
    auto* sandboxes = childOf<QComboBox>(*window, "sandboxCombo");
    auto* policies = childOf<QComboBox>(*window, "policyCombo");
    auto* level = childOf<QComboBox>(*window, "levelCombo");
    const int own = policies->findData(QStringLiteral(":sandbox"));
    QVERIFY(own > 0);
    const auto* items = qobject_cast<QStandardItemModel*>(policies->model());
    QVERIFY(!items->item(own)->isEnabled()); // no sandbox chosen yet
    QTRY_VERIFY(sandboxes->findData(QStringLiteral("trial")) > 0);
    QVERIFY(window->setCurrentSandbox(QStringLiteral("trial")));
    QVERIFY(items->item(own)->isEnabled());
    QVERIFY2(window->windowTitle().contains(QStringLiteral("trial")), qPrintable(window->windowTitle()));

    const int preset = policies->findData(QStringLiteral("python-snippet"));
    QVERIFY(preset > 0);
    policies->setCurrentIndex(preset);
    emit policies->activated(preset);
    QCOMPARE(window->currentPolicy(), QStringLiteral("python-snippet"));
    QCOMPARE(level->currentData().toInt(), -1); // a named policy: its own level
    const QString snippet = QStringLiteral("open('made-in-window.txt', 'w').write('x')\nprint('made')\n");
    window->editor()->setText(snippet);
    childOf<QAction>(*window, "actionRun")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!window->jobs()->isRunning(), 20000);
    QVERIFY(QFileInfo::exists(workspace + QStringLiteral("/made-in-window.txt")));

    QFile file(dir.path() + QStringLiteral("/snippet.py"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(snippet.toUtf8());
    file.close();
    const CliRun cli = runCli({QStringLiteral("run"), file.fileName(), QStringLiteral("--store"), storePath,
                               QStringLiteral("--sandbox"), QStringLiteral("trial"), QStringLiteral("--policy"),
                               QStringLiteral("python-snippet")});
    QVERIFY2(cli.status == 0, cli.err.constData());
    const auto runs = recordedRuns(storePath, 10);
    QCOMPARE(runs.size(), std::size_t(2));
    QVERIFY(runs[1].result.outcome == sb::Outcome::Ok);
    QCOMPARE(renderedPolicy(runs[0]), renderedPolicy(runs[1]));
    QCOMPARE(runs[0].policy.id, runs[1].policy.id);
    // Both recorded with the sandbox they worked in; the window's history says so.
    QCOMPARE(runs[0].sandbox, std::string("trial"));
    QCOMPARE(runs[1].sandbox, std::string("trial"));
    QTRY_COMPARE(window->historyView()->model()->index(0, RunHistoryModel::SandboxColumn).data().toString(),
                 QStringLiteral("trial"));

    // A policy file deleted after it was chosen: the run is refused, not run under another policy.
    const QString gone = dir.path() + QStringLiteral("/gone.yaml");
    QFile policyFile(gone);
    QVERIFY(policyFile.open(QIODevice::WriteOnly));
    policyFile.write("name: gone\nlevel: process\n");
    policyFile.close();
    const int before = static_cast<int>(recordedRuns(storePath, 10).size());
    policies->insertItem(policies->count() - 1, QStringLiteral("gone.yaml"), gone);
    policies->setCurrentIndex(policies->count() - 2);
    QVERIFY(QFile::remove(gone));
    childOf<QAction>(*window, "actionRun")->trigger();
    QTRY_VERIFY(!window->jobs()->isRunning());
    auto* status = childOf<QLabel>(*window, "statusLabel");
    QVERIFY2(status->text().contains(QStringLiteral("gone.yaml")), qPrintable(status->text()));
    QCOMPARE(static_cast<int>(recordedRuns(storePath, 10).size()), before);

    // Back to no sandbox: "the sandbox's own" is not offered again.
    QVERIFY(window->setCurrentSandbox(QString()));
    QVERIFY(!items->item(own)->isEnabled());
    QVERIFY(!window->windowTitle().contains(QStringLiteral("trial")));
}

// The demo: the same cases under the same policies, each ending as its case expects in both.
void TestGui::theDemoInTheWindowRunsTheCommandLinesCases()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString storePath = dir.path() + QStringLiteral("/store.db");
    auto window = openWindow(storePath);
    QVERIFY(window);
    auto* level = childOf<QComboBox>(*window, "levelCombo");
    QCOMPARE(level->currentData().toInt(), static_cast<int>(sb::highestAvailableLevel()));
    childOf<QAction>(*window, "actionDemo")->trigger();
    QVERIFY(window->jobs()->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!window->jobs()->isRunning(), 120000);
    const QString log = childOf<QPlainTextEdit>(*window, "outputView")->toPlainText();
    const bool windowAllExpected = log.contains(QStringLiteral("Demo finished: every case ended as expected."));
    window.reset();

    const CliRun cli = runCli({QStringLiteral("demo"), QStringLiteral("--store"), storePath, QStringLiteral("--json")});
    const QJsonObject report = QJsonDocument::fromJson(cli.out).object();
    QVERIFY2(!report.isEmpty(), cli.err.constData());
    QCOMPARE(report.value(QStringLiteral("all_as_expected")).toBool(), windowAllExpected);
    QCOMPARE(cli.status, windowAllExpected ? 0 : 1);

    // Both recorded the worked example as an agent session, and both completed it or neither did.
    const QJsonObject cliSession = report.value(QStringLiteral("agent_session")).toObject();
    QCOMPARE(cliSession.value(QStringLiteral("as_expected")).toBool(),
             log.contains(QStringLiteral("Worked example: agent session")) && log.contains(QStringLiteral(" completed, ")));
    auto store = sb::Store::open(std::filesystem::path(storePath.toStdString()));
    QVERIFY(store.has_value());
    auto sessions = sb::agents::SessionStore(*store).list();
    QVERIFY(sessions.has_value());
    QCOMPARE(sessions->size(), std::size_t{2});

    // The cases' runs (the worked example's are the session's).
    const std::size_t cases = sb::demoCases().size();
    auto runs = recordedRuns(storePath, 1000);
    std::erase_if(runs, [](const sb::StoredRun& run) { return !run.request.label.starts_with("demo: "); });
    QCOMPARE(runs.size(), 2 * cases);
    // Newest first: the command line's cases, then the window's, each in reverse case order.
    for (std::size_t i = 0; i < cases; ++i) {
        const sb::StoredRun& fromCli = runs[i];
        const sb::StoredRun& fromWindow = runs[cases + i];
        QCOMPARE(QString::fromStdString(fromCli.request.label), QString::fromStdString(fromWindow.request.label));
        QCOMPARE(renderedPolicy(fromCli), renderedPolicy(fromWindow));
        QCOMPARE(fromCli.policy.id, fromWindow.policy.id);
    }
}

// Verify in the audit view and `sandbench audit verify` find the same: intact with as many entries, then the
// same broken entry.
void TestGui::auditVerifyInTheWindowAgreesWithTheCommandLine()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString storePath = dir.path() + QStringLiteral("/store.db");
    QFile file(dir.path() + QStringLiteral("/snippet.py"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("print(1)\n");
    file.close();
    for (int i = 0; i < 3; ++i)
        QCOMPARE(runCli({QStringLiteral("run"), file.fileName(), QStringLiteral("--store"), storePath}).status, 0);

    auto window = openWindow(storePath);
    QVERIFY(window);
    auto* dock = childOf<QDockWidget>(*window, "auditDock");
    dock->show();
    dock->raise();
    auto* verify = childOf<QPushButton>(*window, "auditVerifyButton");
    auto* verdict = childOf<QLabel>(*window, "auditVerifyResult");
    QTRY_VERIFY(verify->isEnabled());
    // The window's start-up sweep ends first: its end marks a verdict as stale ("New entries since …"), which
    // would otherwise race the verdict the test waits for.
    QTRY_VERIFY_WITH_TIMEOUT(!window->checkpointBrowser()->jobs()->isBusy(), 60000);

    const auto verifyBoth = [&](QJsonObject& cliReport) {
        QTest::mouseClick(verify, Qt::LeftButton);
        // A deadline for a hang, not a timing: the verify job shares a loaded CI machine with other tests.
        QTRY_VERIFY2_WITH_TIMEOUT(verdict->text().contains(QStringLiteral("intact"))
                                      || verdict->text().contains(QStringLiteral("broken")),
                                  qPrintable(QStringLiteral("the window's verdict: ") + verdict->text()), 60000);
        const CliRun cli = runCli({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--store"),
                                   storePath, QStringLiteral("--json")});
        cliReport = QJsonDocument::fromJson(cli.out).object();
        QVERIFY2(!cliReport.isEmpty(), cli.err.constData());
        QCOMPARE(cli.status, cliReport.value(QStringLiteral("intact")).toBool() ? 0 : 1);
        QCOMPARE(verdict->text().contains(QStringLiteral("intact")), cliReport.value(QStringLiteral("intact")).toBool());
    };

    // The window's own start-up work (its sweep) may append an entry between the two verifications: then
    // both verify again, until they read the same log.
    QJsonObject intact;
    int entries = 0;
    for (int attempt = 0; attempt < 3; ++attempt) {
        verifyBoth(intact);
        QVERIFY2(intact.value(QStringLiteral("intact")).toBool(),
                 QJsonDocument(intact).toJson(QJsonDocument::Compact).constData());
        entries = intact.value(QStringLiteral("entries")).toInt();
        if (verdict->text().contains(QStringLiteral(": %1 entries").arg(entries)))
            break;
        verdict->clear();
    }
    QVERIFY(entries >= 4); // three runs and their policy's version
    QVERIFY2(verdict->text().contains(QStringLiteral(": %1 entries").arg(entries)), qPrintable(verdict->text()));

    // Someone edits entry 2 with the sqlite3 shell: both name it.
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(storePath.toUtf8().constData(), &db), SQLITE_OK);
    const int rc = sqlite3_exec(db, "UPDATE audit_log SET actor = 'mallory' WHERE seq = 2", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    QCOMPARE(rc, SQLITE_OK);
    verdict->clear();
    QJsonObject broken;
    verifyBoth(broken);
    QVERIFY(!broken.value(QStringLiteral("intact")).toBool());
    const int seq = broken.value(QStringLiteral("first_broken")).toObject().value(QStringLiteral("seq")).toInt();
    QCOMPARE(seq, 2);
    QVERIFY2(verdict->text().contains(QStringLiteral("entry %1").arg(seq)), qPrintable(verdict->text()));
}

// Opening the store again picks up the person's own last snippet and its language: the demo's cases and
// the agent's runs, newer in the history, are not theirs.
void TestGui::aReopenedWindowShowsThePersonsSnippetNotTheDemos()
{
    const QString storePath = m_dir.path() + QStringLiteral("/store.db");
    const auto newest = recordedRuns(storePath, 1);
    QVERIFY(!newest.empty());
    QVERIFY2(newest.front().request.label.starts_with("demo: ") || newest.front().request.label.starts_with("agent "),
             newest.front().request.label.c_str());
    auto window = openWindow(storePath);
    QVERIFY(window);
    QCOMPARE(window->editor()->text(), QStringLiteral("x = 1\ny = x / 0\n")); // errorMarksTheLine's run
    QVERIFY(window->editor()->language() == sb::Language::Python);
    QCOMPARE(childOf<QComboBox>(*window, "languageCombo")->currentData().toInt(),
             static_cast<int>(sb::Language::Python));
    window.reset();
    QApplication::setActiveWindow(m_window.get());
}

void TestGui::viewMenuListsEachDockOnce()
{
    auto* menu = child<QMenu>("viewMenu");
    QStringList texts;
    for (const QAction* action : menu->actions()) {
        if (action->isSeparator())
            continue;
        QString text = action->text();
        text.remove(QLatin1Char('&'));
        QVERIFY2(!texts.contains(text), qPrintable(text + QStringLiteral(" twice in ") + texts.join(QLatin1Char('|'))));
        texts << text;
    }
    for (const auto* dock : m_window->findChildren<QDockWidget*>()) {
        const QString title = dock->windowTitle();
        QVERIFY2(texts.contains(title), qPrintable(title + QStringLiteral(" not in ") + texts.join(QLatin1Char('|'))));
    }
}

// Help ▸ Documentation shows the built-in README, follows a link to a document of docs/ and back, says when a link
// leads outside what is built in; Help ▸ Keyboard Shortcuts lists the window's actions with their keys.
void TestGui::helpOpensTheDocumentationAndListsTheShortcuts()
{
    auto* docsAction = child<QAction>("actionDocumentation");
    QCOMPARE(docsAction->shortcut(), QKeySequence(QKeySequence::HelpContents));
    docsAction->trigger();
    auto* docs = m_window->findChild<sb::ui::DocsBrowser*>(QStringLiteral("docsBrowser"));
    QVERIFY(docs);
    QTRY_VERIFY(docs->isVisible());
    QCOMPARE(docs->currentPath(), QStringLiteral("README.md"));
    const QString readme = docs->browser()->toPlainText();
    QVERIFY2(readme.contains(QStringLiteral("Quick start")), qPrintable(readme.left(300)));
    // Every document the README links to in docs/ is built in.
    QVERIFY(docs->openDocument(QStringLiteral("docs/ISOLATION.md")));
    QVERIFY(docs->browser()->toPlainText().contains(QStringLiteral("container")));
    QVERIFY(docs->browser()->isBackwardAvailable());
    docs->browser()->backward();
    QCOMPARE(docs->currentPath(), QStringLiteral("README.md"));
    QCOMPARE(docs->findChild<QComboBox*>(QStringLiteral("docsContents"))->currentText(), QStringLiteral("README.md"));
    // A link as the README writes it, relative to the README.
    emit docs->browser()->anchorClicked(QUrl(QStringLiteral("docs/CLI.md")));
    QCOMPARE(docs->currentPath(), QStringLiteral("docs/CLI.md"));
    emit docs->browser()->anchorClicked(QUrl(QStringLiteral("../core/store/wal_vfs.h")));
    QCOMPARE(docs->currentPath(), QStringLiteral("docs/CLI.md"));
    QVERIFY2(docs->noteText().contains(QStringLiteral("core/store/wal_vfs.h")), qPrintable(docs->noteText()));
    QVERIFY(!docs->openDocument(QStringLiteral("../../etc/passwd")));
    docs->openDocument(QStringLiteral("README.md"));
    QCOMPARE(docs->findChild<QComboBox*>(QStringLiteral("docsContents"))->currentText(), QStringLiteral("README.md"));
    screenshot(QStringLiteral("21-documentation.png"), docs);
    docs->close();

    child<QAction>("actionShortcuts")->trigger();
    auto* shortcuts = m_window->findChild<sb::ui::ShortcutsDialog*>(QStringLiteral("shortcutsDialog"));
    QVERIFY(shortcuts);
    QTRY_VERIFY(shortcuts->isVisible());
    QMap<QString, QString> rows;
    for (int row = 0; row < shortcuts->table()->rowCount(); ++row)
        rows.insert(shortcuts->table()->item(row, 0)->text(), shortcuts->table()->item(row, 1)->text());
    const QString runKeys = QKeySequence(Qt::CTRL | Qt::Key_Return).toString(QKeySequence::NativeText);
    QVERIFY2(rows.value(QStringLiteral("Run")).contains(runKeys), qPrintable(rows.keys().join(QLatin1Char('|'))));
    QCOMPARE(rows.value(QStringLiteral("Documentation")), QKeySequence(QKeySequence::HelpContents).toString(QKeySequence::NativeText));
    QVERIFY(rows.contains(QStringLiteral("Demo")));
    screenshot(QStringLiteral("22-shortcuts.png"), shortcuts);
    shortcuts->close();
    // The window's shortcuts need it active again, as closing a dialog leaves it for a person.
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

// A button that shows only an icon (or a sign) says what it does to the mouse and to a screen reader.
void TestGui::buttonsWithoutTextAreNamed()
{
    for (auto* button : m_window->findChildren<QToolButton*>()) {
        // Qt's own: the toolbar's and the menu bar's extensions and a tab bar's scroll arrows.
        if (QString::fromLatin1(button->metaObject()->className()) != QStringLiteral("QToolButton")
            || button->objectName().startsWith(QStringLiteral("qt_")) || qobject_cast<QTabBar*>(button->parentWidget()))
            continue;
        const QAction* action = button->defaultAction();
        const QString text = action ? action->text() : button->text();
        const bool hasIcon = !(action ? action->icon() : button->icon()).isNull();
        const bool iconOnly = (button->toolButtonStyle() == Qt::ToolButtonIconOnly && hasIcon) || text.isEmpty()
                              || text.size() == 1;
        if (!iconOnly)
            continue;
        const QString what = button->objectName() + QLatin1Char(' ') + text;
        QVERIFY2(!button->toolTip().isEmpty(), qPrintable(what + QStringLiteral(": no tooltip")));
        QVERIFY2(!button->accessibleName().isEmpty() || (action && !action->text().isEmpty()),
                 qPrintable(what + QStringLiteral(": no accessible name")));
    }
}

// At 1366×768 each workspace uses the whole window: the snippets' editor is hidden behind the checkpoint
// browser and the rules, and every action of their toolbars shows (none behind the "»" of an overflowing bar).
// Back in the snippets, the editor and the history are there with their columns whole. What a person adds to a
// workspace stays in it, and only in it, until Reset.
void TestGui::workspacesUseTheWholeWindowAt1366()
{
    m_window->resize(1366, 768);
    QTRY_COMPARE(m_window->width(), 1366);
    auto* central = m_window->centralWidget();
    QCOMPARE(central->objectName(), QStringLiteral("snippetArea"));
    child<QAction>("actionCheckpoints")->trigger();
    QTRY_VERIFY(!central->isVisible());
    auto* checkpointDock = child<QDockWidget>("checkpointDock");
    QTRY_VERIFY(checkpointDock->isVisible());
    auto* bar = child<QToolBar>("workspaceBar");
    QTRY_VERIFY2(checkpointDock->width() >= 1366 - bar->width() - 40, qPrintable(QString::number(checkpointDock->width())));
    QVERIFY(child<QAction>("actionCheckpoints")->isChecked());
    QVERIFY(!child<QDockWidget>("historyDock")->isVisible());
    auto* browser = m_window->checkpointBrowser();
    for (const char* name : {"checkpointToolBar", "checkpointActionsBar"}) {
        auto* toolBar = child<QToolBar>(name);
        for (QAction* action : toolBar->actions()) {
            if (action->isSeparator())
                continue;
            QWidget* button = toolBar->widgetForAction(action);
            QVERIFY2(button && button->isVisible(), qPrintable(action->text() + QStringLiteral(" is behind »")));
        }
    }
    QVERIFY(child<QToolBar>("checkpointToolBar")->actions().contains(browser->sweepAction()));
    QVERIFY(child<QToolBar>("checkpointToolBar")->actions().contains(child<QAction>("actionRefreshCheckpoints")));
    screenshot(QStringLiteral("10-checkpoints-1366.png"));

    // The metrics added to the rules workspace are there when it comes back, and not in the snippets'.
    m_window->showRules();
    auto* rulesDock = child<QDockWidget>("rulesDock");
    QTRY_VERIFY(rulesDock->isVisible());
    QTRY_VERIFY(rulesDock->width() >= 1366 - bar->width() - 40);
    QVERIFY(!checkpointDock->isVisible());
    auto* metricsDock = child<QDockWidget>("metricsDock");
    metricsDock->toggleViewAction()->trigger();
    QTRY_VERIFY(metricsDock->isVisible());
    screenshot(QStringLiteral("11-rules-empty-1366.png"));

    m_window->showSnippets();
    QTRY_VERIFY(central->isVisible());
    QTRY_VERIFY(!rulesDock->isVisible());
    QVERIFY(!metricsDock->isVisible());
    QVERIFY(child<QDockWidget>("historyDock")->isVisible());
    // The editor has the window's width but for the bar; the history's columns are not cut.
    QTRY_VERIFY(central->width() >= 1366 - bar->width() - 40);
    auto* history = child<QTableView>("historyView");
    const int outcomeEnd = history->horizontalHeader()->sectionViewportPosition(RunHistoryModel::OutcomeColumn)
                           + history->horizontalHeader()->sectionSize(RunHistoryModel::OutcomeColumn);
    QVERIFY2(outcomeEnd <= history->viewport()->width(), qPrintable(QString::number(outcomeEnd)));
    QVERIFY(m_window->minimumSizeHint().height() <= 768);
    screenshot(QStringLiteral("09-snippets-1366.png"));

    m_window->showRules();
    QTRY_VERIFY(metricsDock->isVisible());
    child<QAction>("actionResetLayout")->trigger();
    QTRY_VERIFY(!metricsDock->isVisible());
    QVERIFY(rulesDock->isVisible());

    // Ctrl+6: the dashboard, its charts above the history they filter.
    QTest::keyClick(m_window.get(), Qt::Key_6, Qt::ControlModifier);
    QTRY_VERIFY(child<QAction>("actionDashboard")->isChecked());
    QTRY_VERIFY(metricsDock->isVisible());
    QVERIFY(child<QDockWidget>("historyDock")->isVisible());
    QVERIFY(metricsDock->y() < child<QDockWidget>("historyDock")->y());
    screenshot(QStringLiteral("08-dashboard-1366.png"));

    m_window->showSnippets();
    m_window->resize(1440, 900);
    QTRY_COMPARE(m_window->width(), 1440);
}

// The rules workspace opens on an empty state with ways to begin; with rule sets open, the first tab carries
// a baseline badge and every tab a close button of the workspace's own (not the style's red one).
void TestGui::rulesWorkspaceGuidesAndMarksTheBaseline()
{
    m_window->showRules();
    auto* rules = m_window->rulesWorkspace();
    auto* empty = rules->findChild<QWidget*>(QStringLiteral("rulesEmptyState"));
    QVERIFY(empty);
    QTRY_VERIFY(empty->isVisible());
    auto* demoButton = rules->findChild<QPushButton*>(QStringLiteral("rulesEmptyDemoButton"));
    QVERIFY(demoButton && demoButton->isVisible());
    QVERIFY(rules->findChild<QPushButton*>(QStringLiteral("rulesEmptyOpenButton"))->isVisible());
    auto* text = rules->findChild<QLabel*>(QStringLiteral("rulesEmptyText"));
    QVERIFY(text->wordWrap());
    QVERIFY2(text->height() >= text->heightForWidth(text->width()), "the empty state's text is clipped");

    QTest::mouseClick(demoButton, Qt::LeftButton);
    QTRY_COMPARE(rules->ruleSetCount(), 3);
    QTRY_VERIFY(!empty->isVisible());
    auto* tabs = rules->findChild<QTabWidget*>(QStringLiteral("ruleSetTabs"));
    QVERIFY(!tabs->tabsClosable());
    auto* bar = tabs->tabBar();
    auto* badge = qobject_cast<QLabel*>(bar->tabButton(0, QTabBar::LeftSide));
    QVERIFY(badge);
    QCOMPARE(badge->text(), QStringLiteral("baseline"));
    QCOMPARE(tabs->tabText(0), QStringLiteral("current")); // the badge is not part of the rule set's name
    for (int i = 0; i < bar->count(); ++i) {
        QVERIFY(i == 0 || !bar->tabButton(i, QTabBar::LeftSide));
        auto* close = qobject_cast<QToolButton*>(bar->tabButton(i, QTabBar::RightSide));
        QVERIFY(close);
        QCOMPARE(close->objectName(), QStringLiteral("ruleSetCloseButton"));
        QVERIFY(!close->accessibleName().isEmpty());
    }
    m_window->resize(1366, 768);
    QTRY_COMPARE(m_window->width(), 1366);
    QTRY_VERIFY_WITH_TIMEOUT(rules->dataset() != nullptr, 20000);
    // Every action of the workspace's toolbar shows in a dock beside the editor (none behind "»").
    m_window->showRules();
    QTRY_VERIFY(child<QDockWidget>("rulesDock")->width() >= 1366 * 2 / 5);
    auto* rulesBar = rules->findChild<QToolBar*>(QStringLiteral("rulesToolBar"));
    for (QAction* action : rulesBar->actions()) {
        if (action->isSeparator() || !action->isVisible())
            continue;
        QWidget* button = rulesBar->widgetForAction(action);
        QTRY_VERIFY2(button && button->isVisible(), qPrintable(action->text() + QStringLiteral(" is behind »")));
    }
    QVERIFY(rules->compare());
    QTRY_VERIFY_WITH_TIMEOUT(rules->result() != nullptr && !rules->jobs()->isBusy(), 60000);
    screenshot(QStringLiteral("12-rules-demo-1366.png"));
    // Closing the baseline makes the next tab the baseline.
    qobject_cast<QToolButton*>(bar->tabButton(0, QTabBar::RightSide))->click();
    QCOMPARE(rules->ruleSetCount(), 2);
    QCOMPARE(tabs->tabText(0), QStringLiteral("variant_a"));
    QVERIFY(qobject_cast<QLabel*>(bar->tabButton(0, QTabBar::LeftSide)));
    QVERIFY(!bar->tabButton(1, QTabBar::LeftSide));
    m_window->resize(1440, 900);
    QTRY_COMPARE(m_window->width(), 1440);
    m_window->showSnippets();
}

void TestGui::cleanupTestCase()
{
    m_window.reset();
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestGui>(argc, argv);
}

#include "test_gui.moc"
