// The Dashboard's cluster jobs in the real window: SANDBENCH_CONFIG names a configuration whose Slurm spool holds
// job folders made as the commands make them — one whose command is this test (alive), one that failed, one whose
// command (a child process) ended without a word (gone), one whose status is corrupt (unreadable). The panel lists
// them off the GUI thread while the Dashboard shows, Cancel leaves the cancel file the command reads, Remove deletes
// an ended job's folder after asking; without a configuration, or with one in error, one line says what to do.
// Screenshots at 1440×900 and 1366×768 go to the build tree.
#include "gui_test_main.h"

#include "cluster/job_status.h"
#include "cluster/spool.h"
#include "ui/cluster/ClusterJobsModel.h"
#include "ui/cluster/ClusterJobsPanel.h"
#include "ui/help/HelpWindows.h"
#include "ui/mainwindow/LivePanes.h"
#include "ui/mainwindow/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <filesystem>
#include <memory>
#include <optional>

#include <sys/wait.h>
#include <unistd.h>

using namespace sb::ui;
namespace cluster = sb::cluster;
namespace fs = std::filesystem;

namespace {

cluster::StageProgress progress(std::size_t tasks, std::size_t done, std::size_t queued, std::size_t running,
                                std::size_t retried, std::uint64_t records, std::vector<std::string> jobs)
{
    cluster::StageProgress p;
    p.tasks = tasks;
    p.done = done;
    p.queued = queued;
    p.running = running;
    p.retried = retried;
    p.recordsDone = records;
    p.jobs = std::move(jobs);
    return p;
}

bool writeText(const QString& path, const QByteArray& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

QString qpath(const fs::path& path)
{
    return QString::fromStdString(path.string());
}

} // namespace

class TestClusterJobs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theDashboardListsTheSpoolsJobs();
    void screenshots_data();
    void screenshots();
    void cancelAsksTheCommandToCancel();
    void removeDeletesAnEndedJobsFolderAfterAsking();
    void theSpoolIsListedOnlyWhileThePanelShows();
    void withoutAConfigurationOneLineSaysHow();
    void aConfigurationOrSpoolInErrorSaysWhy();
    void cleanupTestCase();

private:
    ClusterJobsPanel* panel() const { return m_window->clusterJobs(); }
    ClusterJobsModel* model() const { return panel()->model(); }
    QDockWidget* dock() const { return sb::guitest::requireChild<QDockWidget>(*m_window, "clusterJobsDock"); }
    int rowOf(const fs::path& folder) const { return model()->rowOf(qpath(folder)); }
    QString cell(const fs::path& folder, int column) const
    {
        return model()->index(rowOf(folder), column).data().toString();
    }
    QToolButton* button(const fs::path& folder, const char* name) const;
    // The Dashboard with the cluster jobs in front.
    void showPanel();
    // Another workspace, with no listing under way: the configuration may change.
    void leavePanel();
    // Points SANDBENCH_CONFIG at `text` (a null text: no file), the panel hidden meanwhile, and shows the panel
    // again once it has listed.
    void configure(const QByteArray& text);
    QMessageBox* modal(const char* name) const;
    void screenshot(const QString& name, QWidget* widget = nullptr);

    QTemporaryDir m_dir;
    QString m_config;
    fs::path m_spool;
    std::optional<cluster::JobFolder> m_liveFolder;
    std::unique_ptr<cluster::JobStatusWriter> m_live;
    fs::path m_failed, m_gone, m_unreadable;
    std::unique_ptr<MainWindow> m_window;
};

QToolButton* TestClusterJobs::button(const fs::path& folder, const char* name) const
{
    const int row = rowOf(folder);
    if (row < 0)
        return nullptr;
    QWidget* buttons = panel()->view()->indexWidget(model()->index(row, ClusterJobsModel::ActionsColumn));
    return buttons ? buttons->findChild<QToolButton*>(QString::fromLatin1(name)) : nullptr;
}

void TestClusterJobs::showPanel()
{
    m_window->showDashboard();
    dock()->raise();
    QTRY_VERIFY(LivePanes::shows(panel()));
}

void TestClusterJobs::leavePanel()
{
    m_window->showSnippets();
    QTRY_VERIFY(!panel()->isVisible());
    QTRY_VERIFY(!panel()->reader()->isListing() && panel()->reader()->pendingActions() == 0);
}

void TestClusterJobs::configure(const QByteArray& text)
{
    leavePanel();
    if (text.isNull())
        QFile::remove(m_config);
    else
        QVERIFY(writeText(m_config, text));
    const int listings = panel()->listingCount();
    showPanel();
    QTRY_VERIFY(panel()->listingCount() > listings);
}

QMessageBox* TestClusterJobs::modal(const char* name) const
{
    // Dialogs open window-modal, without a nested event loop: wait for one to show.
    for (int i = 0; i < 100; ++i) {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            box && box->objectName() == QString::fromLatin1(name))
            return box;
        QTest::qWait(50);
    }
    qWarning("no modal %s", name);
    return nullptr;
}

void TestClusterJobs::screenshot(const QString& name, QWidget* widget)
{
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    QVERIFY((widget ? widget : m_window.get())->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

void TestClusterJobs::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_spool = m_dir.filePath(QStringLiteral("spool")).toStdString();
    fs::create_directory(m_spool);
    m_config = m_dir.filePath(QStringLiteral("config.yaml"));
    QVERIFY(writeText(m_config, "slurm:\n  spool: " + QByteArray::fromStdString(m_spool.string()) + "\n"));
    qputenv("SANDBENCH_CONFIG", m_config.toUtf8());

    // Gone: a command that wrote its status and ended without a word (a child, forked before any thread), before
    // Slurm took its jobs (removing a gone job with jobs first cancels them: tests/cli/test_cli_slurm.cpp).
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        auto folder = cluster::JobFolder::create(m_spool, "rules");
        if (!folder)
            ::_exit(1);
        folder->keep();
        cluster::JobStatusWriter writer(folder->path(), "rules",
                                        "sandbench rules impact --baseline current.yaml --candidate variant_b.yaml "
                                        "--data 2023.csv --backend slurm");
        writer.update("splitting", cluster::StageProgress{});
        ::_exit(0);
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    auto listed = cluster::listJobs(m_spool);
    QVERIFY(listed && listed->size() == 1);
    m_gone = listed->front().folder;
    QTest::qSleep(10); // each job started at another millisecond: the list's order is theirs

    // Failed: its folder kept with its logs.
    {
        auto folder = cluster::JobFolder::create(m_spool, "batch");
        QVERIFY(folder);
        folder->keep();
        m_failed = folder->path();
        cluster::JobStatusWriter writer(m_failed, "batch", "sandbench batch cases/ --policy agent --backend slurm");
        writer.update("running", progress(24, 17, 0, 6, 2, 0, {"5120"}));
        writer.fail("Slurm job 5120_9 (task 10 of 24) failed on node c07: OUT_OF_MEMORY, exit code 0:125");
    }

    QTest::qSleep(10);

    // Unreadable: a status cut short.
    m_unreadable = m_spool / "rules-5d1e0c2a";
    fs::create_directory(m_unreadable);
    QVERIFY(writeText(qpath(m_unreadable / "status.json"), "{\"version\": 1, \"kind\": 3"));

    // Alive: this process is its command.
    auto live = cluster::JobFolder::create(m_spool, "rules");
    QVERIFY(live);
    m_liveFolder.emplace(std::move(*live));
    m_live = std::make_unique<cluster::JobStatusWriter>(
        m_liveFolder->path(), "rules",
        "sandbench rules impact --baseline current.yaml --candidate variant_a.yaml --data 2024.csv --backend slurm");
    m_live->update("evaluating", progress(40, 26, 6, 8, 1, 812'345'678, {"4242", "4243"}));

    m_window = std::make_unique<MainWindow>(m_dir.filePath(QStringLiteral("store.db")).toStdString());
    m_window->resize(1440, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    const auto error = m_window->openStore();
    QVERIFY2(!error, error ? qPrintable(*error) : "");
}

void TestClusterJobs::theDashboardListsTheSpoolsJobs()
{
    // A tab beside the run history, in the Dashboard only.
    QVERIFY(!dock()->isVisible());
    m_window->showDashboard();
    QVERIFY(dock()->isVisible());
    QVERIFY(!dock()->isFloating());
    auto* history = sb::guitest::requireChild<QDockWidget>(*m_window, "historyDock");
    QVERIFY(m_window->tabifiedDockWidgets(dock()).contains(history));
    QVERIFY(!LivePanes::shows(panel())); // the history in front
    QVERIFY(dock()->geometry().isValid());
    // Behind the history's tab the panel still lists (slowly), and the tab's title counts the jobs.
    QTRY_COMPARE_WITH_TIMEOUT(model()->rowCount(), 4, 10000);
    QCOMPARE(dock()->windowTitle(), QStringLiteral("Cluster jobs (4)"));
    showPanel();
    QVERIFY(panel()->view()->isVisible());
    QVERIFY(!panel()->message()->isVisible());

    // Newest first: the live job, then the failed one, then the gone one; the unreadable one (no start) last.
    QCOMPARE(rowOf(m_liveFolder->path()), 0);
    QCOMPARE(rowOf(m_failed), 1);
    QCOMPARE(rowOf(m_gone), 2);
    QCOMPARE(rowOf(m_unreadable), 3);

    const fs::path live = m_liveFolder->path();
    QCOMPARE(cell(live, ClusterJobsModel::TitleColumn),
             QStringLiteral("sandbench rules impact --baseline current.yaml --candidate variant_a.yaml --data "
                            "2024.csv --backend slurm"));
    QCOMPARE(cell(live, ClusterJobsModel::KindColumn), QStringLiteral("rules"));
    QCOMPARE(cell(live, ClusterJobsModel::PhaseColumn), QStringLiteral("evaluating"));
    QCOMPARE(cell(live, ClusterJobsModel::ProgressColumn), QStringLiteral("26 / 40"));
    QCOMPARE(model()->index(rowOf(live), ClusterJobsModel::ProgressColumn).data(ClusterJobsModel::ProgressRole),
             QVariant(0.65));
    QCOMPARE(model()->index(rowOf(live), ClusterJobsModel::ProgressColumn).data(Qt::ToolTipRole).toString(),
             QStringLiteral("26 of 40 tasks done, 6 queued, 8 running, 1 retried"));
    QCOMPARE(cell(live, ClusterJobsModel::RecordsColumn), QLocale().toString(812'345'678));
    QCOMPARE(cell(live, ClusterJobsModel::JobsColumn), QStringLiteral("4242, 4243"));
    const auto status = cluster::readJobStatus(live);
    QVERIFY(status);
    QCOMPARE(cell(live, ClusterJobsModel::WhereColumn), QString::fromStdString(status->user + "@" + status->host));
    QVERIFY(cell(live, ClusterJobsModel::StartedColumn).endsWith(QStringLiteral("s ago")));
    QCOMPARE(cell(live, ClusterJobsModel::StateColumn), QStringLiteral("running"));

    QCOMPARE(cell(m_failed, ClusterJobsModel::KindColumn), QStringLiteral("batch"));
    QCOMPARE(cell(m_failed, ClusterJobsModel::PhaseColumn), QStringLiteral("failed"));
    QCOMPARE(cell(m_failed, ClusterJobsModel::ProgressColumn), QStringLiteral("17 / 24"));
    QCOMPARE(cell(m_failed, ClusterJobsModel::RecordsColumn), QString());
    QCOMPARE(
        cell(m_failed, ClusterJobsModel::StateColumn),
        QStringLiteral("failed: Slurm job 5120_9 (task 10 of 24) failed on node c07: OUT_OF_MEMORY, exit code 0:125"));
    QCOMPARE(cell(m_gone, ClusterJobsModel::PhaseColumn), QStringLiteral("splitting"));
    QCOMPARE(model()->state(rowOf(m_gone)), ClusterJobState::Gone);
    QCOMPARE(cell(m_unreadable, ClusterJobsModel::TitleColumn), QStringLiteral("rules-5d1e0c2a"));
    QCOMPARE(cell(m_unreadable, ClusterJobsModel::PhaseColumn), QStringLiteral("unreadable"));
    QVERIFY(cell(m_unreadable, ClusterJobsModel::StateColumn).contains(QStringLiteral("status.json")));

    // Each row offers what its state allows, and nothing else.
    for (const auto& [folder, cancel, ended] :
         {std::tuple{live, true, false}, std::tuple{m_failed, false, true}, std::tuple{m_gone, false, true},
          std::tuple{m_unreadable, false, true}}) {
        QVERIFY(button(folder, "clusterJobCancel"));
        QCOMPARE(button(folder, "clusterJobCancel")->isVisible(), cancel);
        QCOMPARE(button(folder, "clusterJobRemove")->isVisible(), ended);
        QCOMPARE(button(folder, "clusterJobOpenFolder")->isVisible(), ended);
        // A screen reader hears which job each button acts on.
        const QString job = QString::fromStdString(folder.filename().string());
        QCOMPARE(button(folder, "clusterJobCancel")->accessibleName(), QStringLiteral("Cancel job ") + job);
        QCOMPARE(button(folder, "clusterJobRemove")->accessibleName(), QStringLiteral("Remove job ") + job);
        QCOMPARE(button(folder, "clusterJobOpenFolder")->accessibleName(),
                 QStringLiteral("Open the folder of job ") + job);
    }
    // The buttons fit their column and their row.
    const QRect cellRect =
        panel()->view()->visualRect(model()->index(rowOf(m_failed), ClusterJobsModel::ActionsColumn));
    for (const char* name : {"clusterJobRemove", "clusterJobOpenFolder"}) {
        const QToolButton* b = button(m_failed, name);
        const QRect inView(b->mapTo(panel()->view()->viewport(), QPoint(0, 0)), b->size());
        QVERIFY2(cellRect.contains(inView), name);
    }
}

void TestClusterJobs::screenshots_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1440x900") << QSize(1440, 900);
    QTest::newRow("1366x768") << QSize(1366, 768);
}

void TestClusterJobs::screenshots()
{
    QFETCH(QSize, size);
    m_window->resize(size);
    showPanel();
    QTRY_COMPARE(model()->rowCount(), 4);
    panel()->view()->setCurrentIndex(model()->index(rowOf(m_failed), 0));
    QTest::qWait(300); // the docks settle their sizes
    const QString suffix = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
    screenshot(QStringLiteral("cluster-jobs-dashboard-%1.png").arg(suffix));
    screenshot(QStringLiteral("cluster-jobs-panel-%1.png").arg(suffix), dock());
    // Every column header reads whole.
    const auto* header = panel()->view()->horizontalHeader();
    for (int column = 0; column < ClusterJobsModel::ActionsColumn; ++column) {
        const QString title = model()->headerData(column, Qt::Horizontal).toString();
        QVERIFY2(header->sectionSize(column) >= header->fontMetrics().horizontalAdvance(title) + 8, qPrintable(title));
    }
    m_window->resize(1440, 900);
}

void TestClusterJobs::cancelAsksTheCommandToCancel()
{
    showPanel();
    const fs::path live = m_liveFolder->path();
    QToolButton* cancel = button(live, "clusterJobCancel");
    QVERIFY(cancel && cancel->isVisible());
    // Asked, and not confirmed: the command goes on.
    QTest::mouseClick(cancel, Qt::LeftButton);
    QMessageBox* box = modal("confirmCancelJobBox");
    QVERIFY(box);
    QCOMPARE(box->defaultButton(), box->button(QMessageBox::No));
    screenshot(QStringLiteral("cluster-jobs-confirm-cancel.png"), box);
    QTest::mouseClick(box->button(QMessageBox::No), Qt::LeftButton);
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QTest::qWait(300);
    QVERIFY(!cluster::cancelRequested(live));
    QCOMPARE(cell(live, ClusterJobsModel::StateColumn), QStringLiteral("running"));
    // Confirmed: at once, the row says so; then the cancel file is there for the command to read.
    QTest::mouseClick(cancel, Qt::LeftButton);
    box = modal("confirmCancelJobBox");
    QVERIFY(box);
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    QCOMPARE(cell(live, ClusterJobsModel::StateColumn), QStringLiteral("cancelling…"));
    QTRY_VERIFY(cluster::cancelRequested(live));
    QTRY_VERIFY(!button(live, "clusterJobCancel")->isVisible());
    QVERIFY(!button(live, "clusterJobRemove")->isVisible()); // its command still runs
    // Listed again, it is still cancelling (the file says so now), until the command removes its folder.
    const int listings = panel()->listingCount();
    QTRY_VERIFY(panel()->listingCount() > listings + 1);
    QCOMPARE(cell(live, ClusterJobsModel::StateColumn), QStringLiteral("cancelling…"));
    screenshot(QStringLiteral("cluster-jobs-cancelling.png"), dock());
    m_live.reset();
    m_liveFolder.reset(); // the command cancelled its jobs and removes its folder
    QTRY_COMPARE(model()->rowCount(), 3);
    QCOMPARE(dock()->windowTitle(), QStringLiteral("Cluster jobs (3)"));
}

void TestClusterJobs::removeDeletesAnEndedJobsFolderAfterAsking()
{
    showPanel();
    // Asked, and not confirmed: the folder stays.
    QTest::mouseClick(button(m_failed, "clusterJobRemove"), Qt::LeftButton);
    QMessageBox* box = modal("confirmRemoveJobBox");
    QVERIFY(box);
    QVERIFY(box->text().contains(QStringLiteral("sandbench batch cases/")));
    QVERIFY(box->informativeText().contains(qpath(m_failed)));
    QCOMPARE(box->defaultButton(), box->button(QMessageBox::Cancel));
    QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
    QTRY_VERIFY(!QApplication::activeModalWidget());
    QTest::qWait(1500);
    QVERIFY(fs::exists(m_failed));
    QVERIFY(rowOf(m_failed) >= 0);

    // Confirmed: the folder and its row go.
    QTest::mouseClick(button(m_failed, "clusterJobRemove"), Qt::LeftButton);
    box = modal("confirmRemoveJobBox");
    QVERIFY(box);
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    QTRY_VERIFY(!fs::exists(m_failed));
    QTRY_COMPARE(rowOf(m_failed), -1);

    // So do an unreadable job's and a gone one's.
    for (const fs::path& folder : {m_unreadable, m_gone}) {
        QTRY_VERIFY(button(folder, "clusterJobRemove"));
        QTest::mouseClick(button(folder, "clusterJobRemove"), Qt::LeftButton);
        box = modal("confirmRemoveJobBox");
        QVERIFY(box);
        QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
        QTRY_VERIFY(!fs::exists(folder));
    }
    QTRY_COMPARE(model()->rowCount(), 0);
    QCOMPARE(dock()->windowTitle(), QStringLiteral("Cluster jobs"));
    // An empty spool says what shows there.
    QTRY_VERIFY(panel()->message()->isVisible());
    QVERIFY(!panel()->view()->isVisible());
    QVERIFY(panel()->message()->text().contains(QStringLiteral("No jobs in the cluster spool")));
}

void TestClusterJobs::theSpoolIsListedOnlyWhileThePanelShows()
{
    // Shown: about once a second.
    showPanel();
    int listings = panel()->listingCount();
    QTest::qWait(3300);
    QVERIFY2(panel()->listingCount() - listings >= 2, qPrintable(QString::number(panel()->listingCount() - listings)));
    // In another workspace: not at all.
    leavePanel();
    listings = panel()->listingCount();
    QTest::qWait(2500);
    QCOMPARE(panel()->listingCount(), listings);
    // Behind the history's tab: now and then.
    m_window->showDashboard();
    sb::guitest::requireChild<QDockWidget>(*m_window, "historyDock")->raise();
    QTRY_VERIFY(!LivePanes::shows(panel()));
    QTRY_VERIFY(!panel()->reader()->isListing());
    listings = panel()->listingCount();
    QTest::qWait(3200);
    QVERIFY(panel()->listingCount() - listings <= 1);
    // In front again: at once.
    listings = panel()->listingCount();
    dock()->raise();
    QTRY_VERIFY_WITH_TIMEOUT(panel()->listingCount() > listings, 1500);
}

void TestClusterJobs::withoutAConfigurationOneLineSaysHow()
{
    configure(QByteArray()); // no file
    QLabel* message = panel()->message();
    QVERIFY(message->isVisible());
    QVERIFY(!panel()->view()->isVisible());
    QVERIFY2(message->text().contains(QStringLiteral("No Slurm cluster is configured")), qPrintable(message->text()));
    QVERIFY(message->text().contains(m_config));
    QVERIFY(message->text().contains(QStringLiteral("docs/SCALING.md")));
    // No dead controls: nothing but the line.
    for (const auto* widget : panel()->findChildren<QToolButton*>())
        QVERIFY(!widget->isVisible());
    QCOMPARE(dock()->windowTitle(), QStringLiteral("Cluster jobs"));
    screenshot(QStringLiteral("cluster-jobs-not-configured.png"), dock());

    // A file without a slurm section says the same.
    configure("# nothing here yet\n");
    QVERIFY(message->text().contains(QStringLiteral("No Slurm cluster is configured")));

    // The link opens the built-in documentation there.
    emit message->linkActivated(QStringLiteral("docs/SCALING.md"));
    auto* docs = m_window->findChild<DocsBrowser*>();
    QVERIFY(docs);
    QTRY_VERIFY(docs->isVisible());
    QCOMPARE(docs->currentPath(), QStringLiteral("docs/SCALING.md"));
    docs->close();
}

void TestClusterJobs::aConfigurationOrSpoolInErrorSaysWhy()
{
    QLabel* message = panel()->message();
    configure("slurm:\n  spool: relative/spool\n");
    QVERIFY(message->isVisible() && !panel()->view()->isVisible());
    QVERIFY2(message->text().contains(QStringLiteral("The cluster configuration cannot be read"))
                 && message->text().contains(QStringLiteral("absolute")),
             qPrintable(message->text()));
    screenshot(QStringLiteral("cluster-jobs-config-error.png"), dock());

    configure("slurm:\n  spool: " + QByteArray::fromStdString((m_spool / "missing").string()) + "\n");
    QVERIFY(message->isVisible() && !panel()->view()->isVisible());
    QVERIFY2(message->text().contains(QStringLiteral("The cluster spool cannot be listed"))
                 && message->text().contains(qpath(m_spool / "missing")),
             qPrintable(message->text()));
}

void TestClusterJobs::cleanupTestCase()
{
    m_window.reset();
    qunsetenv("SANDBENCH_CONFIG");
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestClusterJobs>(argc, argv);
}

#include "test_cluster_jobs.moc"
