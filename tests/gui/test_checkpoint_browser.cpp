// Drives the checkpoint browser in the real window: New sandbox, a checkpoint of a file written into the
// workspace, the diff against the live workspace and between two checkpoints, Restore (and the file on
// disk), Fork, Destroy, Sweep, Cancel, the demo's sandboxes, and a clear error. Dialogs are real and
// window-modal; the test fills and clicks them as a person would. Screenshots go to the build tree.
#include "gui_test_main.h"
#include "ui/checkpoints/CheckpointBrowser.h"
#include "ui/editor/DiffView.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/CheckpointListModel.h"
#include "ui/models/DiffFileModel.h"
#include "ui/models/SandboxListModel.h"
#include "store/store.h"
#include "rules/dataset_store.h"
#include "rules/demo_data.h"
#include "sandboxes/sandbox_engine.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDesktopServices>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QProcess>
#include <QPushButton>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <fstream>
#include <memory>

using namespace sb::ui;

// Stands in for the desktop's file manager: QDesktopServices hands it file: URLs.
class UrlCatcher : public QObject {
    Q_OBJECT
public:
    QList<QUrl> urls;
public slots:
    void open(const QUrl& url) { urls << url; }
};

class TestCheckpointBrowser : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void startsWithMainAndAHint();
    void newSandboxFromMain();
    void checkpointThenDiffAgainstWorkspace();
    void twoCheckpointsDiffAgainstEachOther();
    void restoreRewritesTheWorkspace();
    void forkMakesANewSandbox();
    void destroyAsksThenRemoves();
    void existingNameIsAClearError();
    void importAFolderWithAnExcludeGlob();
    void tooLargeFileAndOpenFolder();
    void checkpointCanBeCancelledAndGuiStaysResponsive();
    void sweepDestroysExpiredSandboxes();
    void demoSandboxesFillTheBrowser();
    void sweepAtStartReportsWhatWent();
    void labelActionLabelsAndClears();
    void newSandboxWithAQuotaAndAnIdleTimeout();
    void settingsChangeTheQuotaAndIdleTimeout();
    void sweepAtStartArchivesIdleSandboxesAndUseRevives();
    void sandboxWithAPolicyAndASampleIsTheCommandLines();
    void cleanupTestCase();

private:
    template <typename T>
    T* child(const char* name) const
    {
        return sb::guitest::requireChild<T>(*m_window, name);
    }
    template <typename T>
    T* modal(const char* name) const
    {
        T* found = nullptr;
        // Dialogs open window-modal, without a nested event loop: wait for one to show.
        for (int i = 0; i < 100 && !found; ++i) {
            if (auto* widget = qobject_cast<T*>(QApplication::activeModalWidget());
                widget && widget->objectName() == QString::fromLatin1(name))
                found = widget;
            else
                QTest::qWait(50);
        }
        if (!found)
            qWarning("no modal %s", name);
        return found;
    }
    CheckpointBrowser* browser() const { return m_window->checkpointBrowser(); }
    QTableView* sandboxes() const { return child<QTableView>("sandboxTable"); }
    QTableView* checkpoints() const { return child<QTableView>("checkpointTable"); }
    QTableView* files() const { return child<QTableView>("diffFileTable"); }
    QStringList sandboxNames() const;
    QString workspaceOf(const QString& sandbox) const;
    QString checkpointLabel(int row) const;
    void waitIdle();
    void clickRow(QTableView* view, int row, Qt::KeyboardModifiers modifiers = {});
    void trigger(const char* action);
    void writeFile(const QString& path, const QByteArray& bytes);
    QByteArray readFile(const QString& path);
    void screenshot(const QString& name, QWidget* widget = nullptr);

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    QString m_firstCheckpoint; // "first rules" in the sandbox trial
};

QStringList TestCheckpointBrowser::sandboxNames() const
{
    QStringList names;
    const auto* model = sandboxes()->model();
    for (int row = 0; row < model->rowCount(); ++row)
        names << model->index(row, SandboxListModel::NameColumn).data().toString();
    return names;
}

QString TestCheckpointBrowser::workspaceOf(const QString& sandbox) const
{
    const auto* model = qobject_cast<const SandboxListModel*>(sandboxes()->model());
    const auto* info = model->sandboxAt(model->rowOf(sandbox));
    return info ? QString::fromStdString(info->workspace.string()) : QString();
}

QString TestCheckpointBrowser::checkpointLabel(int row) const
{
    return checkpoints()->model()->index(row, CheckpointListModel::LabelColumn).data().toString();
}

void TestCheckpointBrowser::waitIdle()
{
    QTRY_VERIFY_WITH_TIMEOUT(!browser()->jobs()->isBusy() && !browser()->jobs()->isLoading()
                                 && !browser()->jobs()->isDiffing(),
                             60000);
}

void TestCheckpointBrowser::clickRow(QTableView* view, int row, Qt::KeyboardModifiers modifiers)
{
    const QModelIndex index = view->model()->index(row, 2);
    view->scrollTo(index);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, modifiers, view->visualRect(index).center());
}

void TestCheckpointBrowser::trigger(const char* action)
{
    auto* found = child<QAction>(action);
    QVERIFY2(found->isEnabled(), action);
    found->trigger();
}

void TestCheckpointBrowser::writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

QByteArray TestCheckpointBrowser::readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

void TestCheckpointBrowser::screenshot(const QString& name, QWidget* widget)
{
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    QVERIFY((widget ? widget : m_window.get())->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

void TestCheckpointBrowser::initTestCase()
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
    trigger("actionCheckpoints");
    QTRY_VERIFY(child<QDockWidget>("checkpointDock")->isVisible());
    QTRY_VERIFY(browser()->isVisible());
}

void TestCheckpointBrowser::startsWithMainAndAHint()
{
    // The sweep at start ran (off the GUI thread) and found nothing; main exists from the first look.
    QTRY_COMPARE_WITH_TIMEOUT(sandboxNames(), QStringList{QStringLiteral("main")}, 20000);
    waitIdle();
    QTRY_VERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("no expired sandboxes")));
    QCOMPARE(browser()->currentSandbox(), QStringLiteral("main"));
    QTRY_COMPARE(checkpoints()->model()->rowCount(), 1);
    QVERIFY2(browser()->shownDiffText().contains(QStringLiteral("New sandbox")), qPrintable(browser()->shownDiffText()));
    QVERIFY(!child<QAction>("actionDestroySandbox")->isEnabled()); // main cannot be destroyed
    QVERIFY(!child<QAction>("actionRestoreCheckpoint")->isEnabled());
}

void TestCheckpointBrowser::newSandboxFromMain()
{
    trigger("actionNewSandbox");
    auto* dialog = modal<QDialog>("newSandboxDialog");
    QVERIFY(dialog);
    auto* create = dialog->findChild<QPushButton*>(QStringLiteral("newSandboxCreate"));
    QVERIFY(!create->isEnabled()); // no name yet
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("newSandboxName"));
    QTest::keyClicks(name, QStringLiteral("bad name"));
    QVERIFY(!create->isEnabled());
    name->clear();
    QTest::keyClicks(name, QStringLiteral("trial"));
    QVERIFY(create->isEnabled());
    auto* expiry = dialog->findChild<QComboBox*>(QStringLiteral("newSandboxExpiry"));
    expiry->setCurrentText(QStringLiteral("7d"));
    QVERIFY(create->isEnabled());
    screenshot(QStringLiteral("10-new-sandbox-dialog.png"), dialog);
    QTest::mouseClick(create, Qt::LeftButton);

    QTRY_VERIFY_WITH_TIMEOUT(sandboxNames().contains(QStringLiteral("trial")), 20000);
    QTRY_COMPARE(browser()->currentSandbox(), QStringLiteral("trial"));
    QTRY_COMPARE(checkpoints()->model()->rowCount(), 1);
    waitIdle();
    const int row = qobject_cast<const SandboxListModel*>(sandboxes()->model())->rowOf(QStringLiteral("trial"));
    const QString expires = sandboxes()->model()->index(row, SandboxListModel::ExpiresColumn).data().toString();
    QVERIFY2(expires.startsWith(QStringLiteral("in ")), qPrintable(expires));
    QCOMPARE(sandboxes()->model()->index(row, SandboxListModel::OriginColumn).data().toString(), QStringLiteral("main"));
    QVERIFY(QFileInfo(workspaceOf(QStringLiteral("trial"))).isDir());
    QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("trial")));
}

void TestCheckpointBrowser::checkpointThenDiffAgainstWorkspace()
{
    const QString workspace = workspaceOf(QStringLiteral("trial"));
    writeFile(workspace + QStringLiteral("/rules/limits.yaml"), "threshold: 10\nscore: 40\ndecision: review\n");

    trigger("actionCreateCheckpoint");
    auto* dialog = modal<QDialog>("checkpointDialog");
    QVERIFY(dialog);
    QTest::keyClicks(dialog->findChild<QLineEdit*>(QStringLiteral("checkpointLabel")), QStringLiteral("first rules"));
    QTest::keyClicks(dialog->findChild<QLineEdit*>(QStringLiteral("checkpointMessage")), QStringLiteral("a starting point"));
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("checkpointCreate")), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(checkpoints()->model()->rowCount(), 2, 20000);
    QCOMPARE(checkpointLabel(0), QStringLiteral("first rules"));
    QCOMPARE(checkpoints()->model()->index(0, CheckpointListModel::KindColumn).data().toString(), QStringLiteral("checkpoint"));
    QVERIFY(checkpoints()->model()->index(0, 0).data(CheckpointListModel::HeadRole).toBool());
    m_firstCheckpoint = checkpoints()->model()->index(0, 0).data(CheckpointListModel::IdRole).toString();
    waitIdle();

    // Change the workspace behind the browser's back, as a run or an agent would.
    writeFile(workspace + QStringLiteral("/rules/limits.yaml"), "threshold: 20\nscore: 40\ndecision: review\n");
    QByteArray binary(600, 'x');
    binary[5] = '\0';
    writeFile(workspace + QStringLiteral("/model.bin"), binary);

    clickRow(checkpoints(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(files()->model()->rowCount(), 2, 20000);
    const auto* fileModel = qobject_cast<const DiffFileModel*>(files()->model());
    const int rules = fileModel->rowOf(QStringLiteral("rules/limits.yaml"));
    const int model = fileModel->rowOf(QStringLiteral("model.bin"));
    QVERIFY(rules >= 0 && model >= 0);
    QCOMPARE(fileModel->index(rules, DiffFileModel::StatusColumn).data().toString(), QStringLiteral("M"));
    QCOMPARE(fileModel->index(model, DiffFileModel::StatusColumn).data().toString(), QStringLiteral("A"));
    QCOMPARE(fileModel->index(rules, DiffFileModel::LinesColumn).data().toString(), QStringLiteral("+1 −1"));
    QVERIFY(child<QLabel>("diffSummary")->text().contains(QStringLiteral("live workspace")));

    clickRow(files(), rules);
    QTRY_VERIFY(child<DiffView>("diffView")->isVisible());
    const QString text = browser()->shownDiffText();
    QVERIFY2(text.contains(QStringLiteral("-threshold: 10")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("+threshold: 20")), qPrintable(text));
    QVERIFY(child<DiffView>("diffView")->isReadOnly());
    screenshot(QStringLiteral("11-checkpoints-diff.png"));
    screenshot(QStringLiteral("12-checkpoints-dock.png"), child<QDockWidget>("checkpointDock"));

    clickRow(files(), model);
    QTRY_VERIFY(child<QLabel>("diffMessage")->isVisible());
    QVERIFY2(browser()->shownDiffText().contains(QStringLiteral("Binary file added")), qPrintable(browser()->shownDiffText()));
    QCOMPARE(fileModel->index(model, DiffFileModel::LinesColumn).data().toString(), QStringLiteral("binary"));
}

void TestCheckpointBrowser::twoCheckpointsDiffAgainstEachOther()
{
    // Ctrl-click the sandbox's first checkpoint too: the diff is between the two, oldest first.
    clickRow(checkpoints(), 1, Qt::ControlModifier);
    QTRY_COMPARE(checkpoints()->selectionModel()->selectedRows().size(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!child<QLabel>("diffSummary")->text().contains(QStringLiteral("live workspace"))
                                 && files()->model()->rowCount() == 1,
                             20000);
    QCOMPARE(files()->model()->index(0, DiffFileModel::PathColumn).data().toString(), QStringLiteral("rules/limits.yaml"));
    QCOMPARE(files()->model()->index(0, DiffFileModel::StatusColumn).data().toString(), QStringLiteral("A"));
    QTRY_VERIFY(browser()->shownDiffText().contains(QStringLiteral("+threshold: 10")));
    QVERIFY(!child<QAction>("actionRestoreCheckpoint")->isEnabled()); // restore one, not two

    // A reload that began before a click (another process changed the store, say) ends after it: the click stands.
    // The click comes between the reload's two reads: the sandboxes read (the selection then taken to restore),
    // the sandbox's checkpoints not yet.
    clickRow(checkpoints(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>("diffSummary")->text().contains(QStringLiteral("live workspace")), 20000);
    waitIdle();
    bool clicked = false;
    QMetaObject::Connection clickBetween;
    clickBetween = connect(browser()->jobs(), &CheckpointJobRunner::sandboxesLoaded, this, [&] {
        disconnect(clickBetween);
        QVERIFY(browser()->jobs()->isLoading()); // the checkpoints' read is under way
        clickRow(checkpoints(), 1, Qt::ControlModifier);
        clicked = true;
    });
    browser()->reload();
    QTRY_VERIFY_WITH_TIMEOUT(clicked, 20000);
    waitIdle();
    QCOMPARE(checkpoints()->selectionModel()->selectedRows().size(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(!child<QLabel>("diffSummary")->text().contains(QStringLiteral("live workspace"))
                                 && files()->model()->rowCount() == 1,
                             20000);
}

void TestCheckpointBrowser::restoreRewritesTheWorkspace()
{
    const QString workspace = workspaceOf(QStringLiteral("trial"));
    clickRow(checkpoints(), 0);
    QTRY_COMPARE(checkpoints()->selectionModel()->selectedRows().size(), 1);
    waitIdle();
    trigger("actionRestoreCheckpoint");
    auto* box = modal<QMessageBox>("confirmRestoreBox");
    QVERIFY(box);
    QVERIFY2(box->informativeText().contains(QStringLiteral("checkpointed first")), qPrintable(box->informativeText()));
    screenshot(QStringLiteral("15-restore-confirmation.png"), box);
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);

    QTRY_COMPARE_WITH_TIMEOUT(readFile(workspace + QStringLiteral("/rules/limits.yaml")),
                              QByteArray("threshold: 10\nscore: 40\ndecision: review\n"), 20000);
    QVERIFY(!QFile::exists(workspace + QStringLiteral("/model.bin")));
    // Nothing lost: the unsaved change became an auto checkpoint, the restore one of its own.
    QTRY_COMPARE_WITH_TIMEOUT(checkpoints()->model()->rowCount(), 4, 20000);
    QCOMPARE(checkpoints()->model()->index(0, CheckpointListModel::KindColumn).data().toString(), QStringLiteral("restore"));
    QCOMPARE(checkpoints()->model()->index(1, CheckpointListModel::KindColumn).data().toString(), QStringLiteral("auto"));
    QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("restored")));
    // The restored checkpoint stays selected and now equals the workspace.
    waitIdle();
    QTRY_VERIFY(browser()->shownDiffText().contains(QStringLiteral("No differences")));
}

void TestCheckpointBrowser::forkMakesANewSandbox()
{
    const int row = qobject_cast<const CheckpointListModel*>(checkpoints()->model())->rowOf(m_firstCheckpoint);
    QVERIFY(row >= 0);
    clickRow(checkpoints(), row);
    waitIdle();
    trigger("actionForkCheckpoint");
    auto* dialog = modal<QDialog>("forkDialog");
    QVERIFY(dialog);
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("forkName"));
    QCOMPARE(name->text(), QStringLiteral("trial-fork"));
    name->clear();
    QTest::keyClicks(name, QStringLiteral("trial-b"));
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("forkCreate")), Qt::LeftButton);

    QTRY_VERIFY_WITH_TIMEOUT(sandboxNames().contains(QStringLiteral("trial-b")), 20000);
    QTRY_COMPARE(browser()->currentSandbox(), QStringLiteral("trial-b"));
    QTRY_COMPARE(checkpoints()->model()->rowCount(), 1);
    QCOMPARE(checkpoints()->model()->index(0, CheckpointListModel::KindColumn).data().toString(), QStringLiteral("fork"));
    QCOMPARE(readFile(workspaceOf(QStringLiteral("trial-b")) + QStringLiteral("/rules/limits.yaml")),
             QByteArray("threshold: 10\nscore: 40\ndecision: review\n"));
    waitIdle();
}

void TestCheckpointBrowser::destroyAsksThenRemoves()
{
    QCOMPARE(browser()->currentSandbox(), QStringLiteral("trial-b"));
    const QString workspace = workspaceOf(QStringLiteral("trial-b"));

    // Cancel first: nothing happens.
    trigger("actionDestroySandbox");
    auto* box = modal<QMessageBox>("confirmDestroyBox");
    QVERIFY(box);
    QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
    QTest::qWait(300);
    QVERIFY(!browser()->jobs()->isBusy());
    QVERIFY(sandboxNames().contains(QStringLiteral("trial-b")));

    trigger("actionDestroySandbox");
    box = modal<QMessageBox>("confirmDestroyBox");
    QVERIFY(box);
    QVERIFY(box->informativeText().contains(QStringLiteral("cannot be undone")));
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!sandboxNames().contains(QStringLiteral("trial-b")), 20000);
    QTRY_COMPARE(browser()->currentSandbox(), QStringLiteral("main"));
    QVERIFY(!QFileInfo::exists(workspace));
    QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("destroyed")));
    waitIdle();
}

void TestCheckpointBrowser::existingNameIsAClearError()
{
    trigger("actionNewSandbox");
    auto* dialog = modal<QDialog>("newSandboxDialog");
    QVERIFY(dialog);
    QTest::keyClicks(dialog->findChild<QLineEdit*>(QStringLiteral("newSandboxName")), QStringLiteral("trial"));
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("newSandboxCreate")), Qt::LeftButton);
    auto* box = modal<QMessageBox>("checkpointErrorBox");
    QVERIFY(box);
    QVERIFY2(box->informativeText().contains(QStringLiteral("exists already")), qPrintable(box->informativeText()));
    QTest::mouseClick(box->button(QMessageBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!QApplication::activeModalWidget());
    waitIdle();
}

void TestCheckpointBrowser::importAFolderWithAnExcludeGlob()
{
    const QString source = m_dir.path() + QStringLiteral("/to-import");
    writeFile(source + QStringLiteral("/rules/a.yaml"), "rule: a\n");
    writeFile(source + QStringLiteral("/debug.log"), "noise\n");

    trigger("actionNewSandbox");
    auto* dialog = modal<QDialog>("newSandboxDialog");
    QVERIFY(dialog);
    QTest::keyClicks(dialog->findChild<QLineEdit*>(QStringLiteral("newSandboxName")), QStringLiteral("imported"));
    auto* from = dialog->findChild<QComboBox*>(QStringLiteral("newSandboxFrom"));
    from->setCurrentIndex(from->findData(QStringLiteral("import")));
    auto* create = dialog->findChild<QPushButton*>(QStringLiteral("newSandboxCreate"));
    QVERIFY(!create->isEnabled()); // no folder yet
    auto* folder = dialog->findChild<QLineEdit*>(QStringLiteral("newSandboxImport"));
    QVERIFY(folder->isEnabled());
    QTest::keyClicks(folder, source);
    QTest::keyClicks(dialog->findChild<QLineEdit*>(QStringLiteral("newSandboxExcludes")), QStringLiteral("*.log"));
    QVERIFY(create->isEnabled());
    QTest::mouseClick(create, Qt::LeftButton);

    QTRY_VERIFY_WITH_TIMEOUT(sandboxNames().contains(QStringLiteral("imported")), 20000);
    QTRY_COMPARE(browser()->currentSandbox(), QStringLiteral("imported"));
    const QString workspace = workspaceOf(QStringLiteral("imported"));
    QCOMPARE(readFile(workspace + QStringLiteral("/rules/a.yaml")), QByteArray("rule: a\n"));
    QVERIFY(!QFile::exists(workspace + QStringLiteral("/debug.log")));
    QTRY_COMPARE(checkpoints()->model()->rowCount(), 1);
    QCOMPARE(checkpoints()->model()->index(0, CheckpointListModel::KindColumn).data().toString(), QStringLiteral("import"));
    waitIdle();
}

void TestCheckpointBrowser::tooLargeFileAndOpenFolder()
{
    QVERIFY(browser()->selectSandbox(QStringLiteral("trial")));
    QTRY_COMPARE(browser()->currentSandbox(), QStringLiteral("trial"));
    waitIdle();
    const QString workspace = workspaceOf(QStringLiteral("trial"));

    // Open folder hands the workspace to the desktop (here: a stand-in registered for file: URLs).
    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
    trigger("actionOpenWorkspace");
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    QCOMPARE(catcher.urls, QList<QUrl>{QUrl::fromLocalFile(workspace)});

    // A text file above the diff's limit (8 MiB) is listed, but not line-diffed.
    writeFile(workspace + QStringLiteral("/big.csv"), QByteArray("id,amount,decision\n").repeated(500'000));
    clickRow(checkpoints(), 0);
    const auto* fileModel = qobject_cast<const DiffFileModel*>(files()->model());
    QTRY_VERIFY_WITH_TIMEOUT(fileModel->rowOf(QStringLiteral("big.csv")) >= 0, 20000);
    const int row = fileModel->rowOf(QStringLiteral("big.csv"));
    QCOMPARE(fileModel->index(row, DiffFileModel::LinesColumn).data().toString(), QStringLiteral("too large"));
    clickRow(files(), row);
    QTRY_VERIFY(browser()->shownDiffText().contains(QStringLiteral("Too large")));
    QVERIFY(QFile::remove(workspace + QStringLiteral("/big.csv")));
    waitIdle();
}

void TestCheckpointBrowser::checkpointCanBeCancelledAndGuiStaysResponsive()
{
    QVERIFY(browser()->selectSandbox(QStringLiteral("trial")));
    QTRY_COMPARE(browser()->currentSandbox(), QStringLiteral("trial"));
    waitIdle();
    const int before = checkpoints()->model()->rowCount();
    // Enough new files that the walk takes a while: each must be read, hashed and stored.
    const QString workspace = workspaceOf(QStringLiteral("trial"));
    const QByteArray block = QByteArray("some bytes of a generated file\n").repeated(200);
    for (int i = 0; i < 4000; ++i)
        writeFile(workspace + QStringLiteral("/bulk/%1/file%2.txt").arg(i % 40).arg(i), block + QByteArray::number(i));

    int ticks = 0;
    QTimer timer;
    timer.setInterval(10);
    connect(&timer, &QTimer::timeout, this, [&ticks] { ++ticks; });
    timer.start();
    QElapsedTimer clock;
    clock.start();
    trigger("actionCreateCheckpoint");
    auto* dialog = modal<QDialog>("checkpointDialog");
    QVERIFY(dialog);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("checkpointCreate")), Qt::LeftButton);
    QVERIFY(browser()->jobs()->isBusy());
    QVERIFY(child<QProgressBar>("checkpointProgress")->isVisible());
    QVERIFY(!child<QAction>("actionCreateCheckpoint")->isEnabled());
    // Cancel at once: the worker sees it at its first progress report, however fast the machine.
    auto* cancel = child<QToolButton>("checkpointCancel");
    QVERIFY(cancel->isVisible() && cancel->isEnabled());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!browser()->jobs()->isBusy(), 30000);
    const auto elapsed = clock.elapsed();
    timer.stop();
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("Cancelled")),
             qPrintable(m_window->statusBar()->currentMessage()));
    QTest::qWait(300);
    waitIdle();
    QCOMPARE(checkpoints()->model()->rowCount(), before);
    // A blocked GUI thread would deliver a handful of ticks; 10 ms ticks give about elapsed/10.
    if (elapsed >= 300)
        QVERIFY2(ticks >= static_cast<int>(elapsed / 10 / 4),
                 qPrintable(QStringLiteral("%1 ticks in %2 ms").arg(ticks).arg(elapsed)));
    QVERIFY(QDir(workspace + QStringLiteral("/bulk")).removeRecursively());
}

void TestCheckpointBrowser::sweepDestroysExpiredSandboxes()
{
    trigger("actionNewSandbox");
    auto* dialog = modal<QDialog>("newSandboxDialog");
    QVERIFY(dialog);
    QTest::keyClicks(dialog->findChild<QLineEdit*>(QStringLiteral("newSandboxName")), QStringLiteral("short-lived"));
    dialog->findChild<QComboBox*>(QStringLiteral("newSandboxExpiry"))->setCurrentText(QStringLiteral("1s"));
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("newSandboxCreate")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(sandboxNames().contains(QStringLiteral("short-lived")), 20000);
    waitIdle();
    QTest::qWait(1200);
    child<QAction>("actionRefreshCheckpoints")->trigger();
    const auto* model = qobject_cast<const SandboxListModel*>(sandboxes()->model());
    QTRY_VERIFY(model->index(model->rowOf(QStringLiteral("short-lived")), SandboxListModel::ExpiresColumn).data().toString()
                == QStringLiteral("expired"));
    trigger("actionSweepSandboxes");
    QTRY_VERIFY_WITH_TIMEOUT(!sandboxNames().contains(QStringLiteral("short-lived")), 20000);
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("short-lived")),
             qPrintable(m_window->statusBar()->currentMessage()));
    QVERIFY(sandboxNames().contains(QStringLiteral("trial"))); // not expired: kept
    waitIdle();
}

void TestCheckpointBrowser::demoSandboxesFillTheBrowser()
{
    browser()->seedDemo();
    QTRY_VERIFY_WITH_TIMEOUT(sandboxNames().contains(QStringLiteral("demo-rules"))
                                 && sandboxNames().contains(QStringLiteral("demo-rules-strict")),
                             30000);
    waitIdle();
    QVERIFY(browser()->selectSandbox(QStringLiteral("demo-rules")));
    QTRY_COMPARE(checkpoints()->model()->rowCount(), 4);
    QCOMPARE(checkpointLabel(0), QStringLiteral("more data"));
    // The live workspace holds an unsaved change: the newest checkpoint shows it.
    clickRow(checkpoints(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(files()->model()->rowCount() == 1, 20000);
    QTRY_VERIFY(browser()->shownDiffText().contains(QStringLiteral("+    score: 95")));
    // Two checkpoints: baseline → more data, with every kind of change.
    clickRow(checkpoints(), 2, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(files()->model()->rowCount() == 5, 20000);
    const auto* fileModel = qobject_cast<const DiffFileModel*>(files()->model());
    clickRow(files(), fileModel->rowOf(QStringLiteral("rules/card-risk.yaml")));
    QTRY_VERIFY(browser()->shownDiffText().contains(QStringLiteral("+  - id: velocity")));
    waitIdle();
    screenshot(QStringLiteral("13-checkpoints-demo.png"));
    screenshot(QStringLiteral("14-checkpoints-demo-dock.png"), child<QDockWidget>("checkpointDock"));

    // Running the demo again starts the demo sandboxes afresh.
    browser()->seedDemo();
    QTRY_VERIFY_WITH_TIMEOUT(!browser()->jobs()->isBusy(), 30000);
    waitIdle();
    QVERIFY(sandboxNames().contains(QStringLiteral("demo-rules-strict")));
}

void TestCheckpointBrowser::sweepAtStartReportsWhatWent()
{
    // A store with a sandbox that expired while no window was open.
    const std::string path = QString(m_dir.path() + QStringLiteral("/expired.db")).toStdString();
    {
        auto store = sb::Store::open(path);
        QVERIFY(store);
        auto engine = sb::SandboxEngine::open(*store);
        QVERIFY(engine);
        sb::CreateSandboxRequest request;
        request.name = "yesterdays-experiment";
        request.expiresInMs = 1;
        QVERIFY((*engine)->createSandbox(request));
    }
    QTest::qWait(20);
    MainWindow window(path);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(!window.openStore());
    QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QStringLiteral("yesterdays-experiment")), 20000);
    QVERIFY(window.statusBar()->currentMessage().startsWith(QStringLiteral("At start:")));
    auto* table = window.findChild<QTableView*>(QStringLiteral("sandboxTable"));
    QTRY_COMPARE(table->model()->rowCount(), 1); // main alone
    QTRY_VERIFY(!window.checkpointBrowser()->jobs()->isBusy() && !window.checkpointBrowser()->jobs()->isLoading());
}

void TestCheckpointBrowser::labelActionLabelsAndClears()
{
    QVERIFY(browser()->selectSandbox(QStringLiteral("trial")));
    QTRY_COMPARE(browser()->currentSandbox(), QStringLiteral("trial"));
    waitIdle();
    const auto* model = qobject_cast<const CheckpointListModel*>(checkpoints()->model());
    const int row = model->rowOf(m_firstCheckpoint);
    QVERIFY(row >= 0);
    QCOMPARE(checkpointLabel(row), QStringLiteral("first rules"));
    clickRow(checkpoints(), row);
    waitIdle();
    // On the toolbar and in the checkpoint's context menu.
    QVERIFY(checkpoints()->actions().contains(browser()->labelAction()));
    QCOMPARE(checkpoints()->contextMenuPolicy(), Qt::ActionsContextMenu);
    QVERIFY(child<QToolBar>("checkpointActionsBar")->actions().contains(browser()->labelAction()));

    trigger("actionLabelCheckpoint");
    auto* dialog = modal<QDialog>("labelDialog");
    QVERIFY(dialog);
    auto* text = dialog->findChild<QLineEdit*>(QStringLiteral("labelText"));
    QCOMPARE(text->text(), QStringLiteral("first rules")); // the label it has, to edit
    text->clear();
    QTest::keyClicks(text, QStringLiteral("release candidate 1"));
    screenshot(QStringLiteral("16-label-dialog.png"), dialog);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("labelApply")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(m_firstCheckpoint) >= 0
                                 && checkpointLabel(model->rowOf(m_firstCheckpoint))
                                        == QStringLiteral("release candidate 1"),
                             20000);
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("release candidate 1")),
             qPrintable(m_window->statusBar()->currentMessage()));
    waitIdle();
    // The same checkpoint, still selected: a label never changes the id.
    QCOMPARE(browser()->currentSandbox(), QStringLiteral("trial"));
    QCOMPARE(checkpoints()->selectionModel()->selectedRows().size(), 1);
    QCOMPARE(checkpoints()->selectionModel()->selectedRows().constFirst().data(CheckpointListModel::IdRole).toString(),
             m_firstCheckpoint);
    screenshot(QStringLiteral("17-checkpoint-labelled.png"));

    // An empty label clears it.
    trigger("actionLabelCheckpoint");
    dialog = modal<QDialog>("labelDialog");
    QVERIFY(dialog);
    dialog->findChild<QLineEdit*>(QStringLiteral("labelText"))->clear();
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("labelApply")), Qt::LeftButton);
    // (The label column then shows the checkpoint's message, greyed: the label itself is gone.)
    QTRY_VERIFY_WITH_TIMEOUT(model->checkpointAt(model->rowOf(m_firstCheckpoint))
                                 && model->checkpointAt(model->rowOf(m_firstCheckpoint))->label.empty(),
                             20000);
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("label cleared")),
             qPrintable(m_window->statusBar()->currentMessage()));
    waitIdle();
    // The details line tells the sandbox's governance.
    const QString details = child<QLabel>("sandboxDetails")->text();
    QVERIFY2(details.contains(QStringLiteral("active")) && details.contains(QStringLiteral("usage")),
             qPrintable(details));
}

void TestCheckpointBrowser::newSandboxWithAQuotaAndAnIdleTimeout()
{
    trigger("actionNewSandbox");
    auto* dialog = modal<QDialog>("newSandboxDialog");
    QVERIFY(dialog);
    QTest::keyClicks(dialog->findChild<QLineEdit*>(QStringLiteral("newSandboxName")), QStringLiteral("bounded"));
    auto* quota = dialog->findChild<QLineEdit*>(QStringLiteral("newSandboxQuota"));
    auto* create = dialog->findChild<QPushButton*>(QStringLiteral("newSandboxCreate"));
    QTest::keyClicks(quota, QStringLiteral("5X"));
    QVERIFY(!create->isEnabled()); // the reason is under the fields
    quota->clear();
    QTest::keyClicks(quota, QStringLiteral("1M"));
    dialog->findChild<QComboBox*>(QStringLiteral("newSandboxIdle"))->setCurrentText(QStringLiteral("7d"));
    QVERIFY(create->isEnabled());
    screenshot(QStringLiteral("19-new-sandbox-quota.png"), dialog);
    QTest::mouseClick(create, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(sandboxNames().contains(QStringLiteral("bounded")), 20000);
    QTRY_COMPARE(browser()->currentSandbox(), QStringLiteral("bounded"));
    waitIdle();
    const auto* model = qobject_cast<const SandboxListModel*>(sandboxes()->model());
    const auto* info = model->sandboxAt(model->rowOf(QStringLiteral("bounded")));
    QVERIFY(info);
    QCOMPARE(info->quotaBytes, std::optional<std::uint64_t>(1 << 20));
    QCOMPARE(info->idleTimeoutMs, std::optional<std::int64_t>(7LL * 86'400'000));
    QVERIFY(model->index(model->rowOf(QStringLiteral("bounded")), SandboxListModel::UsageColumn)
                .data()
                .toString()
                .endsWith(QStringLiteral("of 1.0 MiB")));
    const QString details = child<QLabel>("sandboxDetails")->text();
    QVERIFY2(details.contains(QStringLiteral("active, idle ")) && details.contains(QStringLiteral(" of 7d")),
             qPrintable(details));
}

// The quota and idle timeout of an existing sandbox: shown as they are, changed off the GUI thread.
void TestCheckpointBrowser::settingsChangeTheQuotaAndIdleTimeout()
{
    QVERIFY(browser()->selectSandbox(QStringLiteral("bounded")));
    QTRY_COMPARE(browser()->currentSandbox(), QStringLiteral("bounded"));
    waitIdle();
    QVERIFY(child<QToolBar>("checkpointToolBar")->actions().contains(browser()->settingsAction()));
    trigger("actionSandboxSettings");
    auto* dialog = modal<QDialog>("sandboxSettingsDialog");
    QVERIFY(dialog);
    auto* quota = dialog->findChild<QLineEdit*>(QStringLiteral("settingsQuota"));
    auto* idle = dialog->findChild<QComboBox*>(QStringLiteral("settingsIdle"));
    auto* apply = dialog->findChild<QPushButton*>(QStringLiteral("settingsApply"));
    QCOMPARE(quota->text(), QStringLiteral("1M"));
    QCOMPARE(idle->currentText(), QStringLiteral("7d"));
    QVERIFY(!apply->isEnabled()); // nothing changed yet
    quota->clear();
    QTest::keyClicks(quota, QStringLiteral("2 bananas"));
    QVERIFY(!apply->isEnabled());
    QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("settingsProblem"))->isHidden());
    quota->clear();
    QTest::keyClicks(quota, QStringLiteral("2G"));
    idle->setCurrentIndex(0); // never
    QVERIFY(apply->isEnabled());
    screenshot(QStringLiteral("20-sandbox-settings.png"), dialog);
    QTest::mouseClick(apply, Qt::LeftButton);
    const auto* model = qobject_cast<const SandboxListModel*>(sandboxes()->model());
    QTRY_VERIFY_WITH_TIMEOUT(model->sandboxAt(model->rowOf(QStringLiteral("bounded")))
                                 && model->sandboxAt(model->rowOf(QStringLiteral("bounded")))->quotaBytes
                                        == std::optional<std::uint64_t>(2ULL << 30),
                             20000);
    QCOMPARE(model->sandboxAt(model->rowOf(QStringLiteral("bounded")))->idleTimeoutMs, std::nullopt);
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("settings applied")),
             qPrintable(m_window->statusBar()->currentMessage()));
    waitIdle();

    // main has no idle timeout to set.
    QVERIFY(browser()->selectSandbox(QStringLiteral("main")));
    QTRY_COMPARE(browser()->currentSandbox(), QStringLiteral("main"));
    waitIdle();
    trigger("actionSandboxSettings");
    dialog = modal<QDialog>("sandboxSettingsDialog");
    QVERIFY(dialog);
    QVERIFY(!dialog->findChild<QComboBox*>(QStringLiteral("settingsIdle"))->isEnabled());
    dialog->reject();
    waitIdle();
}

void TestCheckpointBrowser::sweepAtStartArchivesIdleSandboxesAndUseRevives()
{
    // A sandbox left idle past its timeout, with unsaved work, while no window was open.
    const std::string path = QString(m_dir.path() + QStringLiteral("/idle.db")).toStdString();
    QString workspace;
    {
        auto store = sb::Store::open(path);
        QVERIFY(store);
        auto engine = sb::SandboxEngine::open(*store);
        QVERIFY(engine);
        sb::CreateSandboxRequest request;
        request.name = "dormant";
        request.idleTimeoutMs = 1;
        request.quotaBytes = 1 << 20;
        request.policy = "preset:agent";
        auto made = (*engine)->createSandbox(request);
        QVERIFY(made);
        workspace = QString::fromStdString(made->sandbox.workspace.string());
    }
    writeFile(workspace + QStringLiteral("/notes.txt"), "unsaved\n");
    QTest::qWait(20);
    MainWindow window(path);
    window.resize(1440, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(!window.openStore());
    QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QStringLiteral("archived")), 20000);
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("dormant")),
             qPrintable(window.statusBar()->currentMessage()));
    auto* browserHere = window.checkpointBrowser();
    QTRY_VERIFY(!browserHere->jobs()->isBusy() && !browserHere->jobs()->isLoading());
    QVERIFY(!QFileInfo::exists(workspace));
    window.findChild<QAction*>(QStringLiteral("actionCheckpoints"))->trigger();
    QTRY_VERIFY(browserHere->selectSandbox(QStringLiteral("dormant")));
    QTRY_COMPARE(browserHere->currentSandbox(), QStringLiteral("dormant"));
    auto* table = window.findChild<QTableView*>(QStringLiteral("sandboxTable"));
    const auto* model = qobject_cast<const SandboxListModel*>(table->model());
    const int row = model->rowOf(QStringLiteral("dormant"));
    QCOMPARE(model->index(row, SandboxListModel::StateColumn).data().toString(), QStringLiteral("archived"));
    QVERIFY(model->index(row, SandboxListModel::UsageColumn).data().toString().contains(QStringLiteral("of 1.0 MiB")));
    auto* details = window.findChild<QLabel*>(QStringLiteral("sandboxDetails"));
    QTRY_VERIFY(details->text().contains(QStringLiteral("archived")));
    QVERIFY2(details->text().contains(QStringLiteral("preset agent")), qPrintable(details->text()));
    QTRY_VERIFY(!browserHere->jobs()->isBusy() && !browserHere->jobs()->isLoading() && !browserHere->jobs()->isDiffing());
    screenshot(QStringLiteral("18-archived-sandbox.png"), &window);

    // Open folder uses it: revived, its unsaved work back, then handed to the file manager.
    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
    window.findChild<QAction*>(QStringLiteral("actionOpenWorkspace"))->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(catcher.urls.size(), 1, 20000);
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    QCOMPARE(catcher.urls.constFirst().toLocalFile(), workspace);
    QCOMPARE(readFile(workspace + QStringLiteral("/notes.txt")), QByteArray("unsaved\n"));
    QTRY_COMPARE(model->index(model->rowOf(QStringLiteral("dormant")), SandboxListModel::StateColumn).data().toString(),
                 QStringLiteral("active"));
    QTRY_VERIFY(!browserHere->jobs()->isBusy() && !browserHere->jobs()->isLoading() && !browserHere->jobs()->isDiffing());
}

// The window makes a sandbox with a policy argument and a sampled dataset as `sandbench sandbox create` does:
// the same policy reference, the same sampled records; and a name taken is refused with the same message.
void TestCheckpointBrowser::sandboxWithAPolicyAndASampleIsTheCommandLines()
{
    waitIdle();
    const std::filesystem::path storePath = QString(m_dir.path() + QStringLiteral("/store.db")).toStdString();
    const std::filesystem::path csv = QString(m_dir.path() + QStringLiteral("/tx.csv")).toStdString();
    {
        std::ofstream out(csv);
        sb::rules::writeDemoTransactions(out, 500, 3);
    }
    {
        auto store = sb::Store::open(storePath);
        QVERIFY(store);
        auto imported = sb::rules::importDataset(*store, csv, "tx", sb::rules::ReadOptions{});
        QVERIFY2(imported, imported ? "" : imported.error().message.c_str());
    }
    sb::SandboxCreation creation;
    creation.request.name = "sampled";
    creation.policy = "untrusted-strict";
    creation.datasets = {"tx"};
    creation.sample = 0.5;
    creation.seed = 7;
    QList<TaskOutcome> finished;
    const auto connection = connect(browser()->jobs(), &CheckpointJobRunner::taskFinished, this,
                                    [&finished](const TaskOutcome& outcome) { finished << outcome; });
    QVERIFY(browser()->jobs()->createSandbox(creation));
    QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 30000);
    QVERIFY2(finished.at(0).error.isEmpty(), qPrintable(finished.at(0).error));
    waitIdle();

    auto runCli = [&](const QStringList& args, QByteArray* err = nullptr) {
        QProcess cli;
        cli.start(QStringLiteral(SANDBENCH_CLI), args + QStringList{QStringLiteral("--store"),
                                                                     QString::fromStdString(storePath.string())});
        cli.waitForFinished(120000);
        if (err)
            *err = cli.readAllStandardError();
        return std::make_pair(cli.exitCode(), cli.readAllStandardOutput());
    };
    const auto [status, out] = runCli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("cli-sampled"),
                                       QStringLiteral("--policy"), QStringLiteral("untrusted-strict"),
                                       QStringLiteral("--dataset"), QStringLiteral("tx"), QStringLiteral("--sample"),
                                       QStringLiteral("0.5"), QStringLiteral("--seed"), QStringLiteral("7"),
                                       QStringLiteral("--json")});
    QCOMPARE(status, 0);
    const QJsonObject cli = QJsonDocument::fromJson(out).object();
    const QJsonObject cliRef = cli[QStringLiteral("datasets")].toArray().at(0).toObject();
    QCOMPARE(cliRef[QStringLiteral("snapshot")].toString(), QStringLiteral("cli-sampled.tx"));

    auto store = sb::Store::open(storePath);
    QVERIFY(store);
    auto engine = sb::SandboxEngine::open(*store);
    QVERIFY(engine);
    auto window = (*engine)->sandbox("sampled");
    QVERIFY(window);
    QCOMPARE(QString::fromStdString(window->policy), cli[QStringLiteral("policy")].toString());
    QCOMPARE(window->datasets.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(window->datasets[0].snapshot), QStringLiteral("sampled.tx"));
    QCOMPARE(QString::fromStdString(window->datasets[0].sha256), cliRef[QStringLiteral("sha256")].toString());
    QCOMPARE(window->datasets[0].sampled, cliRef[QStringLiteral("sampled")].toBool());

    // A name taken: the window's message is the command line's.
    QByteArray err;
    const auto refused = runCli({QStringLiteral("sandbox"), QStringLiteral("create"), QStringLiteral("sampled")}, &err);
    QCOMPARE(refused.first, 1);
    QVERIFY(browser()->jobs()->createSandbox(creation));
    QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 2, 30000);
    disconnect(connection);
    QCOMPARE(QStringLiteral("sandbench: ") + finished.at(1).error + QLatin1Char('\n'), QString::fromUtf8(err));
    auto* box = modal<QMessageBox>("checkpointErrorBox");
    QVERIFY(box);
    QTest::mouseClick(box->button(QMessageBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!QApplication::activeModalWidget());
    waitIdle();
}

void TestCheckpointBrowser::cleanupTestCase()
{
    m_window.reset();
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestCheckpointBrowser>(argc, argv);
}

#include "test_checkpoint_browser.moc"
