// The audit log in the window: readable subjects, the outcome in its own column, the selected entry in full,
// Open run / checkpoint / session, a short Verify message, a tampered entry named and selected, Export to CSV
// and JSON Lines, and a long log read a page at a time.

#include "gui_test_main.h"

#include "store/audit.h"
#include "store/sqlite_db.h"
#include "store/store.h"
#include "ui/audit/AuditEntryPane.h"
#include "ui/audit/AuditView.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/AuditLogModel.h"
#include "ui/models/RunHistoryModel.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSplitter>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <memory>

using namespace sb::ui;

namespace {

const QString kRunId = QStringLiteral("3f2a91c4-5b6d-4e7f-8a9b-0c1d2e3f4a5b");
const QString kSessionId = QStringLiteral("9b8a7c6d-1e2f-4a3b-9c4d-5e6f7a8b9c0d");
const QString kCheckpointId = QStringLiteral("c0ffee1234567890abcdef");
constexpr int kLongLog = 100000;

sb::RunResult runResult(const std::string& runId, sb::Outcome outcome)
{
    sb::RunResult result;
    result.runId = runId;
    result.startedAtMs = 1'764'680'000'000;
    result.outcome = outcome;
    result.exitCode = outcome == sb::Outcome::Ok ? 0 : 1;
    result.durationMs = 12.5;
    result.isolation.level = sb::IsolationLevel::Process;
    result.isolation.layers = {{"rlimits", true}};
    return result;
}

} // namespace

class TestAuditView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void subjectsAreReadableAndTheOutcomeHasItsColumn();
    void detailPaneShowsTheWholeEntry();
    void openRunSelectsItInTheHistory();
    void openCheckpointAndSessionNameTheirIds();
    void verifySaysItShortly();
    void exportWritesTheFilteredEntries();
    void aTamperedEntryIsNamedAndSelected();
    void aLongLogIsReadAPageAtATime();

private:
    QString storePath() const { return m_dir.path() + QStringLiteral("/store.db"); }
    void storeExec(const QString& path, const QString& sql);
    void screenshot(const QString& name, QWidget* widget);
    // The window on `path` at `size`, with the audit log in front.
    std::unique_ptr<MainWindow> openWindow(const QString& path, QSize size);
    int rowOfSubjectKind(sb::AuditSubjectKind kind, const QString& operation) const;
    // How many entries the store's log holds (-1: unreadable).
    static int entriesIn(const QString& path);

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    AuditView* m_view = nullptr;
    QTableView* m_table = nullptr;
};

void TestAuditView::storeExec(const QString& path, const QString& sql)
{
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, &error);
    const QString message = QString::fromUtf8(error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, qPrintable(message));
}

void TestAuditView::screenshot(const QString& name, QWidget* widget)
{
    // What a person would see: the layouts that changed texts asked for are done first.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    QVERIFY(widget->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

std::unique_ptr<MainWindow> TestAuditView::openWindow(const QString& path, QSize size)
{
    auto window = std::make_unique<MainWindow>(sb::StoreLocation{path.toStdString(), false});
    window->resize(size);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    if (const auto error = window->openStore()) {
        qWarning("%s", qPrintable(*error));
        return nullptr;
    }
    window->showAudit();
    return window;
}

int TestAuditView::rowOfSubjectKind(sb::AuditSubjectKind kind, const QString& operation) const
{
    for (int row = 0; row < m_table->model()->rowCount(); ++row) {
        const QModelIndex index = m_table->model()->index(row, AuditLogModel::OperationColumn);
        if (index.data(AuditLogModel::SubjectKindRole).toInt() == static_cast<int>(kind)
            && index.data().toString() == operation)
            return row;
    }
    return -1;
}

int TestAuditView::entriesIn(const QString& path)
{
    auto store = sb::Store::open(std::filesystem::path(path.toStdString()));
    auto entries = store ? sb::listAudit(*store) : sb::Result<std::vector<sb::AuditRecord>>(sb::fail("unreadable"));
    return entries ? static_cast<int>(entries->size()) : -1;
}

void TestAuditView::initTestCase()
{
    QVERIFY(m_dir.isValid());
    qputenv("SANDBENCH_AUDIT_KEYS", QString(m_dir.path() + QStringLiteral("/keys")).toUtf8());
    {
        auto store = sb::Store::open(std::filesystem::path(storePath().toStdString()));
        QVERIFY2(store.has_value(), store ? "" : store.error().message.c_str());
        // A run as the window records it (with its history row), and the operations of a sandbox and a session.
        sb::RunRequest request;
        request.language = sb::Language::Python;
        request.source = "print(1)\n";
        request.label = "print(1).py";
        request.policy.name = "default";
        QVERIFY(store->recordRun(request, runResult(kRunId.toStdString(), sb::Outcome::Blocked)).has_value());
        const std::string checkpoint = kCheckpointId.toStdString();
        const std::vector<sb::AuditEntry> entries = {
            sb::AuditEntry("sandbox.create", "trial", {{"from", "main"}, {"checkpoint", checkpoint}}),
            sb::AuditEntry("checkpoint.create", "trial", {{"checkpoint", checkpoint}, {"label", "before change"}}),
            sb::AuditEntry("checkpoint.label", "trial",
                           {{"checkpoint", checkpoint}, {"label", "reviewed"}, {"previous", "before change"}}),
            sb::AuditEntry("session.start", kSessionId.toStdString(),
                           {{"kind", "agent"}, {"command", {"/usr/bin/python3", "agent.py"}}, {"sandbox", "trial"}}),
            sb::AuditEntry("session.end", kSessionId.toStdString(),
                           {{"status", "completed"}, {"message", ""}, {"steps", 4}, {"cost", 0.5}}),
            sb::AuditEntry("sandbox.set", "trial", {{"quota_bytes", 1048576}}),
        };
        for (const auto& entry : entries)
            QVERIFY(sb::appendAudit(*store, entry).has_value());
    }
    m_window = openWindow(storePath(), QSize(1366, 768));
    QVERIFY(m_window);
    m_view = m_window->findChild<AuditView*>(QStringLiteral("auditView"));
    m_table = m_window->findChild<QTableView*>(QStringLiteral("auditTable"));
    QVERIFY(m_view && m_table);
    // The policy's version, the run, the six above and what the window records on opening (main).
    auto* count = m_window->findChild<QLabel*>(QStringLiteral("auditCountLabel"));
    QTRY_VERIFY2(m_table->model()->rowCount() >= 8 && m_table->model()->rowCount() == entriesIn(storePath()),
                 qPrintable(count->text() + QLatin1Char(' ') + count->toolTip()));
}

void TestAuditView::subjectsAreReadableAndTheOutcomeHasItsColumn()
{
    auto* model = m_table->model();
    const int run = rowOfSubjectKind(sb::AuditSubjectKind::Run, QStringLiteral("run"));
    QVERIFY(run >= 0);
    const QString subject = model->index(run, AuditLogModel::SubjectColumn).data().toString();
    QCOMPARE(subject, QStringLiteral("run 3f2a91c · print(1).py"));
    QVERIFY(!subject.contains(kRunId));
    QVERIFY(model->index(run, AuditLogModel::SubjectColumn).data(Qt::ToolTipRole).toString().contains(kRunId));
    QCOMPARE(model->index(run, AuditLogModel::OutcomeColumn).data().toString(), QStringLiteral("blocked"));
    // No subject column cell shows a whole UUID.
    const QRegularExpression uuid(QStringLiteral("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"));
    for (int row = 0; row < model->rowCount(); ++row)
        QVERIFY2(!uuid.match(model->index(row, AuditLogModel::SubjectColumn).data().toString()).hasMatch(),
                 qPrintable(model->index(row, AuditLogModel::SubjectColumn).data().toString()));

    // The checkpoint by its sandbox and its latest label; the session by its program; the outcome of each.
    const int created = rowOfSubjectKind(sb::AuditSubjectKind::Checkpoint, QStringLiteral("checkpoint.create"));
    QCOMPARE(model->index(created, AuditLogModel::SubjectColumn).data().toString(),
             QStringLiteral("trial · checkpoint c0ffee1 “reviewed”"));
    QCOMPARE(model->index(created, AuditLogModel::OutcomeColumn).data().toString(), QStringLiteral("done"));
    const int ended = rowOfSubjectKind(sb::AuditSubjectKind::Session, QStringLiteral("session.end"));
    QCOMPARE(model->index(ended, AuditLogModel::SubjectColumn).data().toString(),
             QStringLiteral("session 9b8a7c6 · python3 agent.py in trial"));
    QCOMPARE(model->index(ended, AuditLogModel::OutcomeColumn).data().toString(), QStringLiteral("completed"));
    const int set = rowOfSubjectKind(sb::AuditSubjectKind::Sandbox, QStringLiteral("sandbox.set"));
    QCOMPARE(model->index(set, AuditLogModel::SubjectColumn).data().toString(), QStringLiteral("sandbox trial"));

    // Time, actor, action, subject and outcome come first, and the outcome is shown whole.
    auto* header = m_table->horizontalHeader();
    QCOMPARE(header->visualIndex(AuditLogModel::TimeColumn), 0);
    QCOMPARE(header->visualIndex(AuditLogModel::OutcomeColumn), 4);
    const QString outcome = model->index(run, AuditLogModel::OutcomeColumn).data().toString();
    QVERIFY(m_table->fontMetrics().horizontalAdvance(outcome) + 8 <= header->sectionSize(AuditLogModel::OutcomeColumn));
    QVERIFY(m_table->isVisible());
    QVERIFY(m_table->visualRect(model->index(run, AuditLogModel::OutcomeColumn)).right() < m_table->viewport()->width());
    // Compact rows: many fit where the audit log is in front.
    QVERIFY2(m_table->viewport()->height() / m_table->verticalHeader()->defaultSectionSize() >= 10,
             qPrintable(QStringLiteral("%1 px for rows of %2 px").arg(m_table->viewport()->height())
                            .arg(m_table->verticalHeader()->defaultSectionSize())));
}

void TestAuditView::detailPaneShowsTheWholeEntry()
{
    const int run = rowOfSubjectKind(sb::AuditSubjectKind::Run, QStringLiteral("run"));
    m_table->selectRow(run);
    const QString text = m_view->entryPane()->text();
    const auto* record = m_view->model()->recordAt(run);
    QVERIFY(record);
    // Every field, the whole id, both hashes and the details indented as JSON.
    QVERIFY2(text.contains(kRunId), qPrintable(text));
    QVERIFY(text.contains(QString::fromStdString(record->hash)));
    QVERIFY(text.contains(QString::fromStdString(record->prevHash)));
    QVERIFY(text.contains(QString::fromStdString(record->actor)));
    const auto details = nlohmann::json::parse(record->details);
    for (const auto& [key, value] : details.items()) {
        const QString line = QStringLiteral("  \"%1\": %2").arg(QString::fromStdString(key),
                                                              QString::fromStdString(value.dump()));
        QVERIFY2(text.contains(line), qPrintable(line + QStringLiteral(" not in:\n") + text));
    }
    // The table's cell elides the details; the pane has them all, the source's hash in full.
    QVERIFY(text.contains(QString::fromStdString(details.at("source_sha256").get<std::string>())));
    screenshot(QStringLiteral("audit-1366x768-run.png"), m_window.get());
}

void TestAuditView::openRunSelectsItInTheHistory()
{
    const int run = rowOfSubjectKind(sb::AuditSubjectKind::Run, QStringLiteral("run"));
    m_table->selectRow(run);
    auto* open = m_window->findChild<QPushButton*>(QStringLiteral("auditOpenButton"));
    QVERIFY(open && open->isVisible());
    QCOMPARE(open->text(), QStringLiteral("Open run"));
    QTRY_VERIFY(open->width() >= open->sizeHint().width()); // whole, not squeezed by a long title
    QSignalSpy opened(m_view, &AuditView::openRequested);
    QTest::mouseClick(open, Qt::LeftButton);
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.at(0).at(0).toString(), QStringLiteral("run"));
    QCOMPARE(opened.at(0).at(1).toString(), kRunId);
    // The window shows that run selected in its history.
    auto* history = m_window->findChild<QTableView*>(QStringLiteral("historyView"));
    QTRY_VERIFY(history->isVisible());
    const QModelIndexList selected = history->selectionModel()->selectedRows();
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.constFirst().data(RunHistoryModel::RunIdRole).toString(), kRunId);
    m_window->showAudit();
}

void TestAuditView::openCheckpointAndSessionNameTheirIds()
{
    auto* open = m_window->findChild<QPushButton*>(QStringLiteral("auditOpenButton"));
    QSignalSpy opened(m_view, &AuditView::openRequested);
    m_table->selectRow(rowOfSubjectKind(sb::AuditSubjectKind::Checkpoint, QStringLiteral("checkpoint.label")));
    QCOMPARE(open->text(), QStringLiteral("Open checkpoint"));
    QVERIFY(m_view->entryPane()->text().contains(kCheckpointId));
    QTest::mouseClick(open, Qt::LeftButton);
    m_table->selectRow(rowOfSubjectKind(sb::AuditSubjectKind::Session, QStringLiteral("session.start")));
    QCOMPARE(open->text(), QStringLiteral("Open session"));
    QTest::mouseClick(open, Qt::LeftButton);
    QCOMPARE(opened.count(), 2);
    QCOMPARE(opened.at(0), (QVariantList{QStringLiteral("checkpoint"), kCheckpointId, QStringLiteral("trial")}));
    QCOMPARE(opened.at(1), (QVariantList{QStringLiteral("session"), kSessionId, QString()}));
    m_window->showAudit();
}

void TestAuditView::verifySaysItShortly()
{
    auto* verify = m_window->findChild<QPushButton*>(QStringLiteral("auditVerifyButton"));
    QTest::mouseClick(verify, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(m_view->verdictText().contains(QStringLiteral("intact")), 30000);
    const QString verdict = m_view->verdictText();
    const QRegularExpression shortForm(
        QStringLiteral("^✔ Chain intact: %1 entries, head [0-9a-f]{7}…$").arg(m_table->model()->rowCount()));
    QVERIFY2(shortForm.match(verdict).hasMatch(), qPrintable(verdict));
    // The whole head hash is in the tooltip, and in the head entry's pane to select and copy.
    const auto* head = m_view->model()->recordAt(0);
    QVERIFY(m_window->findChild<QLabel*>(QStringLiteral("auditVerifyResult"))->toolTip().contains(
        QString::fromStdString(head->hash)));
    // The agent sessions took most of the width (Open session): the outcome is still in sight.
    QVERIFY(m_table->visualRect(m_table->model()->index(0, AuditLogModel::OutcomeColumn)).right()
            < m_table->viewport()->width());
    screenshot(QStringLiteral("audit-1366x768-intact.png"), m_window.get());
}

void TestAuditView::exportWritesTheFilteredEntries()
{
    QSignalSpy finished(m_view, &AuditView::exportFinished);
    const QString csvPath = m_dir.path() + QStringLiteral("/audit.csv");
    QVERIFY(m_view->exportTo(csvPath, sb::AuditExportFormat::Csv));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QCOMPARE(finished.at(0).at(2).toString(), QString());
    const int entries = m_table->model()->rowCount();
    QCOMPARE(finished.at(0).at(1).toLongLong(), entries);
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList csvLines = QString::fromUtf8(csv.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(csvLines.size(), entries + 1);
    QCOMPARE(csvLines.at(0), QStringLiteral("seq,at,actor,operation,subject,subject_name,outcome,details,prev_hash,hash"));
    QVERIFY(csvLines.at(1).startsWith(QStringLiteral("1,")));
    const QString runLine = csvLines.filter(kRunId).value(0);
    QVERIFY2(runLine.contains(QStringLiteral(",run,%1,run 3f2a91c · print(1).py,blocked,\"{").arg(kRunId)),
             qPrintable(runLine));

    // JSON Lines, filtered: only the checkpoint family.
    auto* operation = m_window->findChild<QComboBox*>(QStringLiteral("auditOperationFilter"));
    const int family = operation->findData(QStringLiteral("checkpoint"));
    QVERIFY(family > 0);
    QCOMPARE(operation->itemText(family), QStringLiteral("checkpoint.*"));
    operation->setCurrentIndex(family);
    QTRY_COMPARE(m_table->model()->rowCount(), 2);
    const QString jsonPath = m_dir.path() + QStringLiteral("/audit.jsonl");
    QVERIFY(m_view->exportTo(jsonPath, sb::AuditExportFormat::JsonLines));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
    QFile jsonl(jsonPath);
    QVERIFY(jsonl.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = jsonl.readAll().split('\n');
    QCOMPARE(lines.size(), 3); // two lines and the empty rest after the last line's end
    QVERIFY(lines.at(2).isEmpty());
    for (int i = 0; i < 2; ++i) {
        QJsonParseError error;
        const QJsonObject entry = QJsonDocument::fromJson(lines.at(i), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(entry.value(QStringLiteral("operation")).toString().startsWith(QStringLiteral("checkpoint.")));
        QCOMPARE(entry.value(QStringLiteral("details")).toObject().value(QStringLiteral("checkpoint")).toString(),
                 kCheckpointId);
        QCOMPARE(entry.value(QStringLiteral("subject_name")).toString(),
                 QStringLiteral("trial · checkpoint c0ffee1 “reviewed”"));
        QCOMPARE(entry.value(QStringLiteral("hash")).toString().size(), 64);
    }
    operation->setCurrentIndex(0);
    QTRY_COMPARE(m_table->model()->rowCount(), entries);
}

void TestAuditView::aTamperedEntryIsNamedAndSelected()
{
    // Someone edits the run's entry with the sqlite3 shell: Verify names it and selects it.
    storeExec(storePath(), QStringLiteral("UPDATE audit_log SET details = replace(details, 'blocked', 'ok') "
                                          "WHERE operation = 'run'"));
    auto* verify = m_window->findChild<QPushButton*>(QStringLiteral("auditVerifyButton"));
    m_window->findChild<QToolButton*>(QStringLiteral("auditRefreshButton"))->click();
    QTRY_COMPARE(m_table->model()->index(rowOfSubjectKind(sb::AuditSubjectKind::Run, QStringLiteral("run")),
                                         AuditLogModel::OutcomeColumn).data().toString(),
                 QStringLiteral("ok"));
    QTest::mouseClick(verify, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(m_view->verdictText().contains(QStringLiteral("broken")), 30000);
    const int run = rowOfSubjectKind(sb::AuditSubjectKind::Run, QStringLiteral("run"));
    const qint64 seq = m_table->model()->index(run, 0).data(AuditLogModel::SeqRole).toLongLong();
    QVERIFY2(m_view->verdictText().startsWith(QStringLiteral("✘ Chain broken at entry %1 (altered)").arg(seq)),
             qPrintable(m_view->verdictText()));
    QCOMPARE(m_table->currentIndex().row(), run);
    QCOMPARE(m_table->selectionModel()->selectedRows().size(), 1);
    QVERIFY(m_table->model()->index(run, 0).data(AuditLogModel::BrokenRole).toBool());
    QVERIFY(m_view->entryPane()->text().contains(QStringLiteral("This entry breaks the chain")));
    screenshot(QStringLiteral("audit-1366x768-broken.png"), m_window.get());
    m_window.reset();
}

void TestAuditView::aLongLogIsReadAPageAtATime()
{
    const QString path = m_dir.path() + QStringLiteral("/long.db");
    {
        auto store = sb::Store::open(std::filesystem::path(path.toStdString()));
        QVERIFY(store.has_value());
        auto db = sb::sqlite::connectionOf(*store);
        QVERIFY(db.has_value());
        sb::sqlite::Transaction transaction(*db);
        QVERIFY(transaction.begin().has_value());
        for (int i = 0; i < kLongLog; ++i) {
            const std::string id = QStringLiteral("%1-0000-4000-8000-000000000000").arg(i, 8, 16, QLatin1Char('0')).toStdString();
            sb::AuditEntry entry = i % 3 ? sb::AuditEntry("run", id, {{"label", "job " + std::to_string(i)}, {"outcome", i % 7 ? "ok" : "timeout"}})
                                         : sb::AuditEntry("checkpoint.create", "trial", {{"checkpoint", id}, {"label", "step " + std::to_string(i)}});
            QVERIFY(sb::appendAudit(*db, entry).has_value());
        }
        QVERIFY(transaction.commit().has_value());
    }
    auto window = openWindow(path, QSize(1440, 900));
    QVERIFY(window);
    auto* view = window->findChild<AuditView*>(QStringLiteral("auditView"));
    auto* table = window->findChild<QTableView*>(QStringLiteral("auditTable"));
    // The newest page first, the rest as the table scrolls.
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), static_cast<int>(kAuditPageSize), 30000);
    QVERIFY(view->model()->hasMore());
    // The newest entry on top; the window's own first steps may append one after the first page was read,
    // which the view follows.
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->index(0, 0).data(AuditLogModel::SeqRole).toLongLong(), entriesIn(path),
                              30000);
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), static_cast<int>(kAuditPageSize), 30000);
    table->selectRow(1);
    screenshot(QStringLiteral("audit-1440x900-long.png"), window.get());
    table->scrollToBottom();
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), static_cast<int>(2 * kAuditPageSize), 30000);

    // An entry far below the pages read is tampered with: Verify reads down to it and selects it.
    storeExec(path, QStringLiteral("UPDATE audit_log SET actor = 'mallory' WHERE seq = 10"));
    QTest::mouseClick(window->findChild<QPushButton*>(QStringLiteral("auditVerifyButton")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(view->verdictText().contains(QStringLiteral("broken")), 120000);
    QVERIFY2(view->verdictText().startsWith(QStringLiteral("✘ Chain broken at entry 10 ")), qPrintable(view->verdictText()));
    QTRY_COMPARE_WITH_TIMEOUT(table->currentIndex().data(AuditLogModel::SeqRole).toLongLong(), 10, 30000);
    QCOMPARE(table->currentIndex().data(AuditLogModel::BrokenRole).toBool(), true);
    screenshot(QStringLiteral("audit-1440x900-broken.png"), window.get());
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestAuditView>(argc, argv);
}

#include "test_audit_view.moc"
