// Drives the promotion review dialog in the real window: Promote… on a sandbox opens it, the preview runs off
// the GUI thread, and the test reads and clicks it as a person would — a clean promotion (the file lands in
// main's workspace as a 'promote' checkpoint), a conflict (listed; Promote disabled until a side is taken),
// a high-risk change (Promote disabled until name and note are filled; the approval is in the audit log),
// an export to a folder, a cancelled preview, and the review of a rule-set change with a binary file (not low
// risk, the decisions it flips as `sandbench rules impact` counts them, the binary file as a panel, both diff
// layouts, a size that fits a small screen). Screenshots go to the build tree.
#include "gui_test_main.h"
#include "ui/checkpoints/CheckpointBrowser.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/DiffLayout.h"
#include "ui/editor/DiffPane.h"
#include "ui/editor/DiffView.h"
#include "ui/editor/SideBySideDiffView.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/CheckpointListModel.h"
#include "ui/promote/PromotionDialog.h"
#include "store/audit.h"
#include "store/store.h"
#include "sandboxes/sandbox_engine.h"
#include "usecases/dataset_source.h"
#include "usecases/sandbox_datasets.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <nlohmann/json.hpp>

#include <memory>

using namespace sb::ui;

class TestPromotionDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanPromotionLandsInMain();
    void exportWritesAFolder();
    void conflictBlocksUntilASideIsTaken();
    void highRiskNeedsAnApproval();
    void previewCanBeCancelled();
    void previewEqualsTheCommandLinesDryRun();
    void ruleSetsAndABinaryAreReviewed();
    void sideBySideRowsPairLinesAndNumberEachSide();
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
    CheckpointBrowser* browser() const { return m_window->checkpointBrowser(); }
    std::filesystem::path storePath() const { return QString(m_dir.path() + QStringLiteral("/store.db")).toStdString(); }
    QString makeSandbox(const QString& name, const std::vector<std::string>& datasets = {}); // from main; its workspace
    QString workspaceOf(const QString& sandbox);
    std::vector<sb::CheckpointInfo> checkpointsOf(const QString& sandbox);
    PromotionDialog* openDialog(const QString& sandbox);
    static void waitForPreview(PromotionDialog* dialog);
    void writeFile(const QString& path, const QByteArray& bytes);
    void screenshot(const QString& name, QWidget* widget);

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

QString TestPromotionDialog::makeSandbox(const QString& name, const std::vector<std::string>& datasets)
{
    auto store = sb::Store::open(storePath());
    if (!store)
        qFatal("store: %s", store.error().message.c_str());
    auto engine = sb::SandboxEngine::open(*store);
    if (!engine)
        qFatal("engine: %s", engine.error().message.c_str());
    sb::CreateSandboxRequest request;
    request.name = name.toStdString();
    for (const auto& dataset : datasets) {
        auto ref = sb::datasetReference(*store, dataset);
        if (!ref)
            qFatal("dataset: %s", ref.error().message.c_str());
        request.datasets.push_back(*ref);
    }
    auto made = (*engine)->createSandbox(request);
    if (!made)
        qFatal("create: %s", made.error().message.c_str());
    return QString::fromStdString(made->sandbox.workspace.string());
}

QString TestPromotionDialog::workspaceOf(const QString& sandbox)
{
    auto store = sb::Store::open(storePath());
    auto engine = sb::SandboxEngine::open(*store);
    auto info = (*engine)->sandbox(sandbox.toStdString());
    return info ? QString::fromStdString(info->workspace.string()) : QString();
}

std::vector<sb::CheckpointInfo> TestPromotionDialog::checkpointsOf(const QString& sandbox)
{
    auto store = sb::Store::open(storePath());
    auto engine = sb::SandboxEngine::open(*store);
    auto list = (*engine)->checkpoints(sandbox.toStdString());
    return list ? *list : std::vector<sb::CheckpointInfo>{};
}

PromotionDialog* TestPromotionDialog::openDialog(const QString& sandbox)
{
    browser()->reload();
    if (!QTest::qWaitFor([&] { return browser()->selectSandbox(sandbox); }, 20000))
        return nullptr;
    auto* action = child<QAction>("actionPromoteSandbox");
    if (!QTest::qWaitFor([&] { return action->isEnabled(); }, 20000))
        return nullptr;
    // The dialog shows (and its preview starts) synchronously: it is found below before any event runs.
    action->trigger();
    PromotionDialog* found = nullptr;
    for (int i = 0; i < 100 && !found; ++i) {
        found = qobject_cast<PromotionDialog*>(QApplication::activeModalWidget());
        if (!found)
            QTest::qWait(50);
    }
    return found;
}

void TestPromotionDialog::waitForPreview(PromotionDialog* dialog)
{
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->jobs()->isBusy() && dialog->report().has_value(), 30000);
}

void TestPromotionDialog::writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

void TestPromotionDialog::screenshot(const QString& name, QWidget* widget)
{
    QTest::qWait(100); // let pending layout requests run, as they would before a person sees the dialog
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    QVERIFY(widget->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

void TestPromotionDialog::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_window = std::make_unique<MainWindow>(storePath());
    m_window->resize(1440, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    const auto error = m_window->openStore();
    QVERIFY2(!error, error ? qPrintable(*error) : "");
    QApplication::setActiveWindow(m_window.get());
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    child<QAction>("actionCheckpoints")->trigger();
    QTRY_VERIFY(browser()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!browser()->jobs()->isBusy() && !browser()->jobs()->isLoading(), 20000);
    // Main gets a README and a rules file to change later.
    const QString main = workspaceOf(QStringLiteral("main"));
    QVERIFY(!main.isEmpty());
    writeFile(main + QStringLiteral("/README.txt"), "The production workspace.\n");
    writeFile(main + QStringLiteral("/rules/limits.yaml"), "threshold: 10\nscore: 40\n");
}

void TestPromotionDialog::cleanPromotionLandsInMain()
{
    const QString workspace = makeSandbox(QStringLiteral("clean"));
    writeFile(workspace + QStringLiteral("/rules/limits.yaml"), "threshold: 25\nscore: 40\ndecision: review\n");
    writeFile(workspace + QStringLiteral("/notes/hello.txt"), "hello from the sandbox\n");

    // The Sandboxes menu offers it too.
    QVERIFY(child<QMenu>("sandboxMenu")->actions().contains(child<QAction>("actionPromoteSandbox")));
    auto* dialog = openDialog(QStringLiteral("clean"));
    QVERIFY(dialog);
    waitForPreview(dialog);
    QCOMPARE(in<QComboBox>(dialog, "promotionTarget")->currentText(), QStringLiteral("main"));
    QVERIFY(in<QLabel>(dialog, "promotionHeader")->text().contains(QStringLiteral("common ancestor")));
    // The sandbox's files were written after its last checkpoint: the preview says it measured them as they are.
    QVERIFY2(in<QLabel>(dialog, "promotionHeader")->text().contains(QStringLiteral("+ unsaved changes")),
             qPrintable(in<QLabel>(dialog, "promotionHeader")->text()));
    auto* files = in<QTreeWidget>(dialog, "promotionFiles");
    QCOMPARE(files->topLevelItemCount(), 2);
    QCOMPARE(files->topLevelItem(0)->text(0), QStringLiteral("A"));
    QCOMPARE(files->topLevelItem(0)->text(1), QStringLiteral("notes/hello.txt"));
    QCOMPARE(files->topLevelItem(1)->text(0), QStringLiteral("M"));
    QCOMPARE(files->topLevelItem(1)->text(2), QStringLiteral("+2 −1"));
    files->setCurrentItem(files->topLevelItem(1));
    const QString diff = in<DiffView>(dialog, "promotionDiff")->text();
    QVERIFY2(diff.contains(QStringLiteral("+threshold: 25")) && diff.contains(QStringLiteral("-threshold: 10")), qPrintable(diff));
    QCOMPARE(in<QLabel>(dialog, "promotionRisk")->text(), QStringLiteral("Low risk"));
    QVERIFY(in<QLabel>(dialog, "promotionImpact")->text().contains(QStringLiteral("2 files")));
    QVERIFY(!in<QGroupBox>(dialog, "promotionConflictBox")->isVisible());
    QVERIFY(in<QTreeWidget>(dialog, "promotionChecks")->topLevelItemCount() >= 1);
    auto* promote = in<QPushButton>(dialog, "promotionPromote");
    QVERIFY(promote->isEnabled()); // low risk: the approval is optional
    screenshot(QStringLiteral("30-promotion-clean.png"), dialog);

    QTest::mouseClick(promote, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(in<QLabel>(dialog, "promotionStatus")->text().startsWith(QStringLiteral("Promoted")), 30000);
    QVERIFY(!promote->isEnabled());
    const QString main = workspaceOf(QStringLiteral("main"));
    QFile hello(main + QStringLiteral("/notes/hello.txt"));
    QVERIFY(hello.open(QIODevice::ReadOnly));
    QCOMPARE(hello.readAll(), QByteArray("hello from the sandbox\n"));
    const auto checkpoints = checkpointsOf(QStringLiteral("main"));
    QVERIFY(!checkpoints.empty());
    QCOMPARE(QString::fromStdString(checkpoints.front().kind), QStringLiteral("promote"));
    QVERIFY(in<QLabel>(dialog, "promotionStatus")->text().contains(QString::fromStdString(checkpoints.front().id).left(10)));
    QTest::mouseClick(in<QPushButton>(dialog, "promotionClose"), Qt::LeftButton);
    QTRY_VERIFY(!QApplication::activeModalWidget());

    // The browser read the store again: main's newest checkpoint is the promotion.
    QVERIFY(browser()->selectSandbox(QStringLiteral("main")));
    auto* table = child<QTableView>("checkpointTable");
    QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() > 0
                                 && table->model()->index(0, CheckpointListModel::KindColumn).data().toString()
                                        == QStringLiteral("promote"),
                             20000);
}

void TestPromotionDialog::exportWritesAFolder()
{
    const QString workspace = makeSandbox(QStringLiteral("exported"));
    writeFile(workspace + QStringLiteral("/report.csv"), "a,b\n1,2\n");
    auto* dialog = openDialog(QStringLiteral("exported"));
    QVERIFY(dialog);
    waitForPreview(dialog);
    const QString folder = m_dir.path() + QStringLiteral("/export-out");
    PromotionDialog::setNextPath(folder);
    QTest::mouseClick(in<QPushButton>(dialog, "promotionExport"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(in<QLabel>(dialog, "promotionStatus")->text().startsWith(QStringLiteral("Exported")), 30000);
    QVERIFY(QFileInfo::exists(folder + QStringLiteral("/files/report.csv")));
    QVERIFY(QFileInfo::exists(folder + QStringLiteral("/manifest.json")));

    const QString patch = m_dir.path() + QStringLiteral("/exported.patch");
    PromotionDialog::setNextPath(patch);
    QTest::mouseClick(in<QPushButton>(dialog, "promotionPatch"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(in<QLabel>(dialog, "promotionStatus")->text().startsWith(QStringLiteral("Patch written")), 30000);
    QFile file(patch);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("diff --git a/report.csv b/report.csv"));
    // Neither applied anything.
    QVERIFY(!QFileInfo::exists(workspaceOf(QStringLiteral("main")) + QStringLiteral("/report.csv")));
    dialog->reject();
    QTRY_VERIFY(!QApplication::activeModalWidget());
}

void TestPromotionDialog::conflictBlocksUntilASideIsTaken()
{
    const QString workspace = makeSandbox(QStringLiteral("conflicting"));
    writeFile(workspace + QStringLiteral("/README.txt"), "The sandbox's README.\n");
    // Meanwhile main changes the same file (the preview checkpoints that unsaved work first).
    writeFile(workspaceOf(QStringLiteral("main")) + QStringLiteral("/README.txt"), "Production's own README.\n");

    auto* dialog = openDialog(QStringLiteral("conflicting"));
    QVERIFY(dialog);
    waitForPreview(dialog);
    auto* conflicts = in<QTreeWidget>(dialog, "promotionConflicts");
    QCOMPARE(conflicts->topLevelItemCount(), 1);
    QCOMPARE(conflicts->topLevelItem(0)->text(0), QStringLiteral("README.txt"));
    QCOMPARE(conflicts->topLevelItem(0)->text(1), QStringLiteral("both modified"));
    QVERIFY(!conflicts->topLevelItem(0)->text(2).isEmpty());
    QVERIFY(in<QGroupBox>(dialog, "promotionConflictBox")->isVisible());
    QVERIFY(in<QLabel>(dialog, "promotionConflictHelp")->text().contains(QStringLiteral("Preview again")));
    QVERIFY(in<QLabel>(dialog, "promotionStatus")->text().contains(QStringLiteral("conflict")));
    QVERIFY(!in<QPushButton>(dialog, "promotionPromote")->isEnabled());
    // The conflict's two versions are shown: the target's against the source's.
    const QString conflictDiff = in<DiffView>(dialog, "promotionDiff")->text();
    QVERIFY2(conflictDiff.contains(QStringLiteral("--- target main: README.txt"))
                 && conflictDiff.contains(QStringLiteral("-Production's own README."))
                 && conflictDiff.contains(QStringLiteral("+The sandbox's README.")),
             qPrintable(conflictDiff));
    screenshot(QStringLiteral("31-promotion-conflict.png"), dialog);

    // Take the sandbox's side: the engine merges again and nothing blocks.
    auto* resolution = qobject_cast<QComboBox*>(conflicts->itemWidget(conflicts->topLevelItem(0), 3));
    QVERIFY(resolution);
    resolution->setCurrentIndex(1);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->jobs()->isBusy() && dialog->report() && dialog->report()->resolved.size() == 1,
                             30000);
    QCOMPARE(dialog->report()->conflicts.size(), std::size_t{0});
    QCOMPARE(dialog->report()->resolved.size(), std::size_t{1});
    QVERIFY(in<QPushButton>(dialog, "promotionPromote")->isEnabled());
    dialog->reject();
    QTRY_VERIFY(!QApplication::activeModalWidget());
}

void TestPromotionDialog::highRiskNeedsAnApproval()
{
    const QString workspace = makeSandbox(QStringLiteral("risky"));
    for (int i = 0; i < 55; ++i) // more than 50 files changed: high by the default thresholds
        writeFile(workspace + QStringLiteral("/data/part-%1.csv").arg(i, 2, 10, QLatin1Char('0')), QByteArray("id,value\n1,") + QByteArray::number(i) + "\n");

    auto* dialog = openDialog(QStringLiteral("risky"));
    QVERIFY(dialog);
    waitForPreview(dialog);
    QCOMPARE(in<QLabel>(dialog, "promotionRisk")->text(), QStringLiteral("High risk"));
    QVERIFY(in<QLabel>(dialog, "promotionRiskReasons")->text().contains(QStringLiteral("50")));
    auto* promote = in<QPushButton>(dialog, "promotionPromote");
    auto* by = in<QLineEdit>(dialog, "promotionApprovalBy");
    auto* note = in<QLineEdit>(dialog, "promotionApprovalNote");
    QVERIFY(!promote->isEnabled());
    QVERIFY(in<QLabel>(dialog, "promotionApprovalHint")->text().contains(QStringLiteral("required")));
    screenshot(QStringLiteral("32-promotion-high-risk.png"), dialog);
    QTest::keyClicks(by, QStringLiteral("Dana Reviewer"));
    QVERIFY(!promote->isEnabled());
    QTest::keyClicks(note, QStringLiteral("   "));
    QVERIFY(!promote->isEnabled()); // blank is no note
    note->clear();
    QTest::keyClicks(note, QStringLiteral("new partitions checked against last week"));
    QVERIFY(promote->isEnabled());
    QTest::mouseClick(promote, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(in<QLabel>(dialog, "promotionStatus")->text().startsWith(QStringLiteral("Promoted")), 30000);

    auto store = sb::Store::open(storePath());
    QVERIFY(store);
    sb::AuditFilter filter;
    filter.operation = "approve";
    auto approvals = sb::listAudit(*store, filter);
    QVERIFY(approvals);
    QCOMPARE(approvals->size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(approvals->front().actor), QStringLiteral("Dana Reviewer"));
    const auto details = nlohmann::json::parse(approvals->front().details);
    QCOMPARE(QString::fromStdString(details.at("note").get<std::string>()), QStringLiteral("new partitions checked against last week"));
    QCOMPARE(QString::fromStdString(details.at("risk").get<std::string>()), QStringLiteral("high"));
    dialog->reject();
    QTRY_VERIFY(!QApplication::activeModalWidget());
}

void TestPromotionDialog::previewCanBeCancelled()
{
    const QString workspace = makeSandbox(QStringLiteral("cancelled"));
    writeFile(workspace + QStringLiteral("/later.txt"), "not now\n");
    auto* dialog = openDialog(QStringLiteral("cancelled"));
    QVERIFY(dialog);
    // The preview started with the dialog; Cancel at once.
    auto* cancel = in<QPushButton>(dialog, "promotionCancelJob");
    QVERIFY(dialog->jobs()->isBusy());
    QVERIFY(cancel->isVisible() && cancel->isEnabled());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->jobs()->isBusy(), 30000);
    QVERIFY(in<QLabel>(dialog, "promotionStatus")->text().contains(QStringLiteral("cancelled")));
    QVERIFY(!dialog->report());
    QVERIFY(!in<QPushButton>(dialog, "promotionPromote")->isEnabled());
    QVERIFY(!cancel->isVisible());
    // And again, to the end.
    QTest::mouseClick(in<QPushButton>(dialog, "promotionPreviewAgain"), Qt::LeftButton);
    waitForPreview(dialog);
    QCOMPARE(in<QTreeWidget>(dialog, "promotionFiles")->topLevelItemCount(), 1);
    dialog->reject();
    QTRY_VERIFY(!QApplication::activeModalWidget());
}

// The dialog's preview is what `sandbench promote SANDBOX --dry-run --json` reports on the same store, rule-set
// check included, and both let it through.
void TestPromotionDialog::previewEqualsTheCommandLinesDryRun()
{
    const QString workspace = makeSandbox(QStringLiteral("compared"));
    writeFile(workspace + QStringLiteral("/notes/compared.txt"), "one\ntwo\n");
    writeFile(workspace + QStringLiteral("/rules/fraud.yaml"),
              "name: fraud\nversion: 1\nstrategy: first_match\ndefault: {decision: allow, score: 0}\n"
              "fields: {amount: double}\nrules:\n  - id: big\n    when: amount > 100.0\n    decision: block\n"
              "    score: 80\n");
    auto* dialog = openDialog(QStringLiteral("compared"));
    QVERIFY(dialog);
    waitForPreview(dialog);
    const nlohmann::json window = sb::promotionToJson(*dialog->report());

    QProcess cli;
    cli.start(QStringLiteral(SANDBENCH_CLI),
              {QStringLiteral("promote"), QStringLiteral("compared"), QStringLiteral("--dry-run"), QStringLiteral("--json"),
               QStringLiteral("--store"), QString::fromStdString(storePath().string())});
    QVERIFY(cli.waitForFinished(120000));
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QCOMPARE(cli.exitCode(), 0);
    const auto parsed = nlohmann::json::parse(cli.readAllStandardOutput().toStdString(), nullptr, false);
    QVERIFY(!parsed.is_discarded());
    QCOMPARE(parsed.value("status", std::string()), std::string("preview"));
    bool ruleSetChecked = false;
    for (const auto& check : parsed["compatibility"])
        ruleSetChecked = ruleSetChecked || (check.value("check", std::string()) == "rules" && check.value("ok", false));
    QVERIFY2(ruleSetChecked, parsed["compatibility"].dump().c_str());
    QVERIFY2(parsed == window, (parsed.dump(1) + "\n---\n" + window.dump(1)).c_str());
    dialog->reject();
    QTRY_VERIFY(!QApplication::activeModalWidget());
}

// The user's case: a rule set changed, a new one, and a binary file. Not low risk, the approval required; the
// decisions the changed rule set flips on the sandbox's dataset shown, equal to `sandbench rules impact` for the
// same files; the dialog opens on a text file; a binary file is a panel, not an empty diff; both diff layouts
// show the right lines; the dialog fits a 1366×768 screen.
void TestPromotionDialog::ruleSetsAndABinaryAreReviewed()
{
    const QString demo = QStringLiteral(SANDBENCH_DEMO_DIR);
    auto readAll = [](const QString& path) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(path));
        return file.readAll();
    };
    sb::DatasetImport import;
    import.file = QString(demo + QStringLiteral("/transactions.csv")).toStdString();
    import.name = "demo-tx";
    auto imported = sb::importDatasetFile(import, [this] { return sb::Store::open(storePath()); });
    QVERIFY2(imported, imported ? "" : imported.error().message.c_str());
    writeFile(workspaceOf(QStringLiteral("main")) + QStringLiteral("/rules/card.yaml"),
              readAll(demo + QStringLiteral("/rules/current.yaml")));
    const QString workspace = makeSandbox(QStringLiteral("rule-review"), {"demo-tx"});
    writeFile(workspace + QStringLiteral("/rules/card.yaml"), readAll(demo + QStringLiteral("/rules/variant_a.yaml")));
    writeFile(workspace + QStringLiteral("/rules/extra.yaml"), readAll(demo + QStringLiteral("/rules/variant_b.yaml")));
    QByteArray blob(300, '\0');
    for (int i = 0; i < blob.size(); ++i)
        blob[i] = static_cast<char>((i * 37) & 0xff);
    writeFile(workspace + QStringLiteral("/assets/model.bin"), blob);

    // What the command line counts for the same two files on the same records.
    QProcess cli;
    cli.start(QStringLiteral(SANDBENCH_CLI),
              {QStringLiteral("rules"), QStringLiteral("impact"), QStringLiteral("--baseline"),
               demo + QStringLiteral("/rules/current.yaml"), QStringLiteral("--candidate"),
               demo + QStringLiteral("/rules/variant_a.yaml"), QStringLiteral("--data"),
               demo + QStringLiteral("/transactions.csv"), QStringLiteral("--json")});
    QVERIFY(cli.waitForFinished(120000));
    QCOMPARE(cli.exitCode(), 0);
    const auto impact = nlohmann::json::parse(cli.readAllStandardOutput().toStdString(), nullptr, false);
    QVERIFY(!impact.is_discarded());
    const auto affected = impact.at("affected").get<std::uint64_t>();
    const auto total = impact.at("total").get<std::uint64_t>();
    QVERIFY(affected > 0);

    QSettings().setValue(QStringLiteral("promotion/diffMode"), QStringLiteral("unified"));
    auto* dialog = openDialog(QStringLiteral("rule-review"));
    QVERIFY(dialog);
    waitForPreview(dialog);
    const auto& report = *dialog->report();

    // Not low risk, and the approval is required.
    QVERIFY2(report.risk != sb::RiskLevel::Low, qPrintable(in<QLabel>(dialog, "promotionRiskReasons")->text()));
    QVERIFY(in<QLabel>(dialog, "promotionRisk")->text() != QStringLiteral("Low risk"));
    const QString reasons = in<QLabel>(dialog, "promotionRiskReasons")->text();
    QVERIFY2(reasons.contains(QStringLiteral("binary file assets/model.bin")), qPrintable(reasons));
    QVERIFY2(reasons.contains(QStringLiteral("rule set rules/extra.yaml is new")), qPrintable(reasons));
    QVERIFY(!reasons.contains(QStringLiteral("No risk rule applies")));
    QVERIFY(report.approvalRequired);
    QVERIFY(in<QGroupBox>(dialog, "promotionApprovalBox")->title().contains(QStringLiteral("required")));
    QVERIFY(!in<QPushButton>(dialog, "promotionPromote")->isEnabled());

    // The flips, as the command line counts them.
    QCOMPARE(report.decisionImpacts.size(), std::size_t{1});
    QCOMPARE(report.decisionImpacts[0].changed, affected);
    QCOMPARE(report.decisionImpacts[0].records, total);
    const QString ruleImpact = in<QLabel>(dialog, "promotionRuleImpact")->text();
    QVERIFY(in<QLabel>(dialog, "promotionRuleImpact")->isVisible());
    QVERIFY2(ruleImpact.contains(QStringLiteral("%1 of %2").arg(affected).arg(total)), qPrintable(ruleImpact));
    QVERIFY2(ruleImpact.contains(QStringLiteral("rules/extra.yaml")), qPrintable(ruleImpact)); // new: no figure

    // It opens on the first text file, not on the binary one listed first.
    auto* files = in<QTreeWidget>(dialog, "promotionFiles");
    QCOMPARE(files->topLevelItem(0)->text(1), QStringLiteral("assets/model.bin"));
    QVERIFY(files->currentItem());
    QCOMPARE(files->currentItem()->text(1), QStringLiteral("rules/card.yaml"));
    auto* pane = in<DiffPane>(dialog, "promotionDiffPane");
    QVERIFY(!pane->showsNotice());

    // Unified: the removed line and the line that replaces it.
    QCOMPARE(pane->mode(), DiffPane::Mode::Unified);
    const QString unified = in<DiffView>(dialog, "promotionDiff")->text();
    QVERIFY2(unified.contains(QStringLiteral("\n-version: 7\n")) && unified.contains(QStringLiteral("\n+version: 8-a\n")),
             qPrintable(unified));
    QVERIFY(in<DiffView>(dialog, "promotionDiff")->isVisible());
    screenshot(QStringLiteral("33-promotion-rules-unified.png"), dialog);

    // Side by side, by the toolbar button: old left, new right, each with its own line numbers, on one row.
    QTest::mouseClick(in<QToolButton>(dialog, "diffSideBySide"), Qt::LeftButton);
    QCOMPARE(pane->mode(), DiffPane::Mode::SideBySide);
    QVERIFY(pane->sideBySideView()->isVisible());
    QCOMPARE(QSettings().value(QStringLiteral("promotion/diffMode")).toString(), QStringLiteral("side-by-side"));
    const QStringList left = pane->sideBySideView()->leftText().split(QLatin1Char('\n'));
    const QStringList right = pane->sideBySideView()->rightText().split(QLatin1Char('\n'));
    QCOMPARE(left.size(), right.size());
    const qsizetype row = left.indexOf(QStringLiteral("version: 7"));
    QVERIFY2(row >= 0, qPrintable(pane->sideBySideView()->leftText()));
    QCOMPARE(right[row], QStringLiteral("version: 8-a"));
    QCOMPARE(pane->sideBySideView()->leftNumber(static_cast<int>(row)), QStringLiteral("4"));
    QCOMPARE(pane->sideBySideView()->rightNumber(static_cast<int>(row)), QStringLiteral("6"));
    // An added line has a filler, without a number, on the left.
    const qsizetype added = right.indexOf(QStringLiteral("  - id: new_account_foreign_card"));
    QVERIFY(added >= 0);
    QCOMPARE(left[added], QString());
    QVERIFY(pane->sideBySideView()->leftNumber(static_cast<int>(added)).isEmpty());
    QVERIFY(!pane->sideBySideView()->rightNumber(static_cast<int>(added)).isEmpty());
    // The two sides scroll together.
    auto* leftBar = pane->sideBySideView()->leftEditor()->verticalScrollBar();
    auto* rightBar = pane->sideBySideView()->rightEditor()->verticalScrollBar();
    if (leftBar->maximum() > 0) {
        leftBar->setValue(leftBar->maximum());
        QCOMPARE(rightBar->value(), leftBar->value());
        leftBar->setValue(0);
    }

    // Fits a 1366×768 screen (what a panel leaves of it), and never opens larger than its screen.
    const QSize minimum = dialog->minimumSize().expandedTo(dialog->minimumSizeHint());
    QVERIFY2(minimum.width() <= 1366 && minimum.height() <= 740,
             qPrintable(QStringLiteral("%1×%2").arg(minimum.width()).arg(minimum.height())));
    if (QScreen* screen = dialog->screen()) {
        QVERIFY(dialog->width() <= screen->availableGeometry().width());
        QVERIFY(dialog->height() <= screen->availableGeometry().height());
    }
    dialog->resize(1366, 768);
    screenshot(QStringLiteral("34-promotion-rules-1366x768.png"), dialog);
    dialog->resize(1440, 900);
    screenshot(QStringLiteral("35-promotion-rules-1440x900.png"), dialog);

    // The binary file: a panel with its size and checksum.
    files->setCurrentItem(files->topLevelItem(0));
    QVERIFY(pane->showsNotice());
    QVERIFY(pane->notice()->isVisible());
    const QString notice = pane->notice()->text();
    const QString sha = QString::fromLatin1(QCryptographicHash::hash(blob, QCryptographicHash::Sha256).toHex());
    QVERIFY2(notice.contains(QStringLiteral("300 bytes")) && notice.contains(sha)
                 && notice.contains(QStringLiteral("cannot be shown as text")),
             qPrintable(notice));
    dialog->resize(1366, 768);
    screenshot(QStringLiteral("36-promotion-binary-1366x768.png"), dialog);

    // The layout is remembered: the next review opens side by side.
    dialog->reject();
    QTRY_VERIFY(!QApplication::activeModalWidget());
    auto* again = openDialog(QStringLiteral("rule-review"));
    QVERIFY(again);
    waitForPreview(again);
    QCOMPARE(in<DiffPane>(again, "promotionDiffPane")->mode(), DiffPane::Mode::SideBySide);
    again->reject();
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QSettings().remove(QStringLiteral("promotion/diffMode"));
}

// The side-by-side arithmetic, without drawing: a removed run and the added run after it pair row by row, the
// longer side's rest gets fillers, each side counts its own lines from the hunk header, and a changed row
// marks the part between the common prefix and suffix.
void TestPromotionDialog::sideBySideRowsPairLinesAndNumberEachSide()
{
    using Kind = DiffRow::Kind;
    const DiffLayout layout = DiffLayout::fromUnified(QStringLiteral("--- a/f\n+++ b/f\n@@ -3,4 +3,5 @@\n same\n"
                                                                     "-limit: 10\n-gone\n+limit: 25\n+new one\n"
                                                                     "+new two\n tail\n\\ No newline at end of file\n"));
    QCOMPARE(layout.header, QStringList({QStringLiteral("--- a/f"), QStringLiteral("+++ b/f")}));
    QCOMPARE(layout.rows.size(), std::size_t{6});
    QCOMPARE(layout.rows[0].kind, Kind::Hunk);
    QCOMPARE(layout.rows[1].kind, Kind::Context);
    QCOMPARE(layout.rows[1].leftNumber, 3);
    QCOMPARE(layout.rows[1].rightNumber, 3);
    const DiffRow& changed = layout.rows[2];
    QCOMPARE(changed.kind, Kind::Changed);
    QCOMPARE(changed.left, QStringLiteral("limit: 10"));
    QCOMPARE(changed.right, QStringLiteral("limit: 25"));
    QCOMPARE(changed.leftNumber, 4);
    QCOMPARE(changed.rightNumber, 4);
    QCOMPARE(changed.leftSpanStart, 7); // "limit: " is common, so is nothing after the digits
    QCOMPARE(changed.leftSpanLength, 2);
    QCOMPARE(changed.rightSpanLength, 2);
    QCOMPARE(layout.rows[3].kind, Kind::Changed);
    QCOMPARE(layout.rows[3].leftNumber, 5);
    QCOMPARE(layout.rows[4].kind, Kind::Added); // the added run is longer: a filler on the left
    QCOMPARE(layout.rows[4].leftNumber, 0);
    QCOMPARE(layout.rows[4].rightNumber, 6);
    QCOMPARE(layout.rows[5].kind, Kind::Context);
    QCOMPARE(layout.rows[5].leftNumber, 6);
    QCOMPARE(layout.rows[5].rightNumber, 7);

    // An added file: the left has no line at all.
    const DiffLayout added = DiffLayout::fromUnified(QStringLiteral("@@ -0,0 +1,2 @@\n+one\n+two\n"));
    QCOMPARE(added.rows.size(), std::size_t{3});
    QCOMPARE(added.rows[1].kind, Kind::Added);
    QCOMPARE(added.rows[1].rightNumber, 1);
    QCOMPARE(added.rows[2].rightNumber, 2);
    QCOMPARE(added.rows[2].leftNumber, 0);
    // Text that is no diff (a note) gives no rows.
    QVERIFY(DiffLayout::fromUnified(QStringLiteral("Only the permissions of a.sh changed.")).empty());
}

void TestPromotionDialog::cleanupTestCase()
{
    m_window.reset();
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestPromotionDialog>(argc, argv);
}

#include "test_promotion_dialog.moc"
