// The real workbench window as a user whose system speaks Simplified Chinese meets it: the locale comes from
// the environment (LANGUAGE, LC_ALL) and the translators are loaded as sandbench-gui loads them. The test walks
// every dock, every tab, the menus, the tool bar, the table headers and the charts, on first start and again
// after the demo, then the dialogs of the main actions, and fails listing each visible text that is still
// English. Screenshots at 1440×900 show the CJK text drawn.
#include "gui_test_main.h"
#include "cluster/job_status.h"
#include "cluster/spool.h"
#include "ui/cluster/ClusterJobsModel.h"
#include "ui/cluster/ClusterJobsPanel.h"
#include "ui/mainwindow/MainWindow.h"

#include <Qsci/qsciscintilla.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSet>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>
#include <QTextEdit>
#include <QToolBar>
#include <QTranslator>
#include <QValueAxis>

#include <memory>

#include <pwd.h>
#include <unistd.h>

using namespace sb::ui;

namespace {

// Words that stay as they are in every language: the product's name, formats, standards and the names of keys,
// and the values the command line, its JSON and the audit log share with the window (outcomes, isolation levels,
// the main sandbox). Anything else of three or more ASCII letters is taken for untranslated English.
const QSet<QString>& untranslatedWords()
{
    static const QSet<QString> words = {
        // product, formats, standards, programs
        QStringLiteral("sandbench"), QStringLiteral("cel"), QStringLiteral("mcp"), QStringLiteral("json"),
        QStringLiteral("jsonl"), QStringLiteral("csv"), QStringLiteral("yaml"), QStringLiteral("png"),
        QStringLiteral("html"), QStringLiteral("sqlite"), QStringLiteral("python"), QStringLiteral("shell"),
        QStringLiteral("cpu"), QStringLiteral("rss"), QStringLiteral("stdout"), QStringLiteral("stderr"),
        QStringLiteral("git"), QStringLiteral("doctor"), QStringLiteral("slurm"),
        // keys of shortcuts
        QStringLiteral("ctrl"), QStringLiteral("shift"), QStringLiteral("alt"), QStringLiteral("return"),
        QStringLiteral("esc"), QStringLiteral("enter"),
        // the shared vocabulary of runs and sandboxes
        QStringLiteral("main"), QStringLiteral("process"), QStringLiteral("container"), QStringLiteral("strict"),
        QStringLiteral("blocked"), QStringLiteral("timeout"), QStringLiteral("crashed"), QStringLiteral("error"),
        // the policy presets' names (resources/policies: agent, python-snippet, …)
        QStringLiteral("agent"),
        // the isolation layers (sandbench doctor's names) and the units Qt writes for sizes
        QStringLiteral("rlimits"), QStringLiteral("seccomp"), QStringLiteral("landlock"),
        QStringLiteral("unprivileged"), QStringLiteral("kib"), QStringLiteral("mib"), QStringLiteral("gib"),
        // the user who runs the test: the audit log's actor
        QString::fromLocal8Bit(getpwuid(getuid()) ? getpwuid(getuid())->pw_name : "").toLower()};
    return words;
}

// The English words of a text shown to the user: ASCII words of three letters or more that are not in the list
// above, after taking out markup, accelerators, "JSON Lines" (a format's name), signal names, paths, file names
// and globs.
QStringList englishWords(QString text)
{
    if (Qt::mightBeRichText(text))
        text = QTextDocumentFragment::fromHtml(text).toPlainText();
    text.remove(QLatin1Char('&'));
    text.remove(QStringLiteral("JSON Lines"));
    // Paths, file names and globs, and identifiers joined by '-' or '_' (demo-rules, memory_limit, no_new_privs).
    static const QRegularExpression dataLike(
        QStringLiteral(R"(\S*[/\\]\S*|\S+\.[A-Za-z0-9]+\b|\S*\*\S*|\b\w+(?:[-_]\w+)+\b)"));
    text.remove(dataLike);
    // Command-line options (--backend) are the same in every language.
    static const QRegularExpression option(QStringLiteral(R"((?<!\S)--?[A-Za-z][\w-]*)"));
    text.remove(option);
    // Signal names (SIGSEGV) are the same in every language.
    static const QRegularExpression signalName(QStringLiteral(R"(\bSIG[A-Z0-9]+\b)"));
    text.remove(signalName);
    static const QRegularExpression word(QStringLiteral(R"((?<![A-Za-z0-9_])[A-Za-z][A-Za-z_]{2,}(?![A-Za-z0-9_]))"));
    QStringList found;
    for (auto it = word.globalMatch(text); it.hasNext();) {
        const QString w = it.next().captured();
        if (!untranslatedWords().contains(w.toLower()))
            found << w;
    }
    return found;
}

// Combo boxes that list what the store holds (the audit log's actors and actions): only their first item, the
// "all" entry, is the window's own text.
const QSet<QString> kDataCombos = {QStringLiteral("auditActorFilter"), QStringLiteral("auditOperationFilter")};

// Charts whose categories and legend are values the store holds and the command line's JSON shares (agent step
// verdicts, blocked event kinds, what was blocked): data, as the outcome chart's outcome names are. Their titles
// are the window's words.
const QSet<QString> kDataCategoryCharts = {QStringLiteral("verdictChart"), QStringLiteral("blockedKindChart"),
                                           QStringLiteral("blockedTargetChart")};

QString describe(const QObject* object)
{
    const QString name = object->objectName();
    return QString::fromLatin1(object->metaObject()->className())
           + (name.isEmpty() ? QString() : QLatin1Char('#') + name);
}

} // namespace

class TestGuiZhCn : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void theTranslationIsLoadedForTheSystemLocale();
    void everyDockSpeaksChinese();
    void theMenusSpeakChinese();
    void theToolBarSpeaksChinese();
    void afterTheDemoEveryDockStillSpeaksChinese();
    void theDialogsSpeakChinese_data();
    void theDialogsSpeakChinese();
    void theClusterJobsSpeakChinese();
    void cleanupTestCase();

private:
    void check(const QObject* where, const QString& what, const QString& text);
    void checkVisibleTexts(QWidget* root);
    void checkWidget(QWidget* widget);
    void checkMenu(const QMenu* menu);
    void walkDocks(const QString& prefix);
    void screenshot(const QString& name);
    void reportFindings();

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    QStringList m_findings;
    QSet<QString> m_seen;
};

void TestGuiZhCn::check(const QObject* where, const QString& what, const QString& text)
{
    const QStringList words = englishWords(text);
    if (words.isEmpty())
        return;
    const QString finding = QStringLiteral("%1 %2: \"%3\" (English: %4)")
                                .arg(describe(where), what, text.simplified().left(160), words.join(QLatin1Char(' ')));
    if (m_seen.contains(finding))
        return;
    m_seen.insert(finding);
    m_findings << finding;
}

void TestGuiZhCn::checkWidget(QWidget* widget)
{
    check(widget, QStringLiteral("tooltip"), widget->toolTip());
    if (auto* label = qobject_cast<QLabel*>(widget))
        check(label, QStringLiteral("text"), label->text());
    else if (auto* button = qobject_cast<QAbstractButton*>(widget))
        check(button, QStringLiteral("text"), button->text());
    else if (auto* line = qobject_cast<QLineEdit*>(widget))
        check(line, QStringLiteral("placeholder"), line->placeholderText());
    else if (auto* plain = qobject_cast<QPlainTextEdit*>(widget))
        check(plain, QStringLiteral("placeholder"), plain->placeholderText()); // its text is a run's output
    else if (auto* rich = qobject_cast<QTextEdit*>(widget))
        check(rich, QStringLiteral("placeholder"), rich->placeholderText());
    else if (auto* group = qobject_cast<QGroupBox*>(widget))
        check(group, QStringLiteral("title"), group->title());
    else if (auto* combo = qobject_cast<QComboBox*>(widget)) {
        if (!combo->isEditable())
            for (int i = 0; i < (kDataCombos.contains(combo->objectName()) ? 1 : combo->count()); ++i)
                check(combo, QStringLiteral("item"), combo->itemText(i));
        else if (combo->lineEdit())
            check(combo, QStringLiteral("placeholder"), combo->lineEdit()->placeholderText());
    } else if (auto* tabs = qobject_cast<QTabBar*>(widget)) {
        for (int i = 0; i < tabs->count(); ++i) {
            check(tabs, QStringLiteral("tab"), tabs->tabText(i));
            check(tabs, QStringLiteral("tab tooltip"), tabs->tabToolTip(i));
        }
    } else if (auto* dock = qobject_cast<QDockWidget*>(widget))
        check(dock, QStringLiteral("title"), dock->windowTitle());
    else if (auto* view = qobject_cast<QAbstractItemView*>(widget)) {
        // The cells are data; the headers are the window's words.
        if (const auto* model = view->model())
            for (int column = 0; column < model->columnCount(); ++column)
                check(view, QStringLiteral("header"), model->headerData(column, Qt::Horizontal).toString());
    } else if (auto* chartView = qobject_cast<QChartView*>(widget)) {
        const QChart* chart = chartView->chart();
        check(chartView, QStringLiteral("chart title"), chart->title());
        const bool dataCategories = kDataCategoryCharts.contains(chartView->objectName());
        for (QAbstractAxis* axis : chart->axes()) {
            check(chartView, QStringLiteral("axis title"), axis->titleText());
            if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis); categories && !dataCategories)
                for (const QString& category : categories->categories())
                    check(chartView, QStringLiteral("axis label"), category);
        }
        if (!dataCategories)
            for (const QLegendMarker* marker : chart->legend()->markers())
                check(chartView, QStringLiteral("legend"), marker->label());
    }
}

// Every widget of root that a user could see now, and inside each tab widget every page in turn.
void TestGuiZhCn::checkVisibleTexts(QWidget* root)
{
    QApplication::processEvents();
    const auto widgets = root->findChildren<QWidget*>();
    for (QWidget* widget : widgets) {
        if (!widget->isVisibleTo(root->window()))
            continue;
        if (auto* editor = qobject_cast<QsciScintilla*>(widget)) {
            // A user's code is data; the welcome snippet's first comment line speaks to the user.
            if (editor->text(0).startsWith(QLatin1Char('#')))
                check(editor, QStringLiteral("first line"), editor->text(0));
            continue;
        }
        checkWidget(widget);
    }
    for (QTabWidget* tabs : root->findChildren<QTabWidget*>()) {
        if (!tabs->isVisibleTo(root->window()))
            continue;
        const int shown = tabs->currentIndex();
        for (int i = 0; i < tabs->count(); ++i) {
            if (i == shown || !tabs->isTabEnabled(i))
                continue;
            tabs->setCurrentIndex(i);
            checkVisibleTexts(tabs->widget(i));
        }
        tabs->setCurrentIndex(shown);
    }
    // The pages of a stack (a diff and its empty state, a workspace of a mode bar), each in turn; a tab
    // widget's own stack is walked above.
    for (QStackedWidget* stack : root->findChildren<QStackedWidget*>()) {
        if (!stack->isVisibleTo(root->window()) || qobject_cast<QTabWidget*>(stack->parentWidget()))
            continue;
        const int shown = stack->currentIndex();
        for (int i = 0; i < stack->count(); ++i) {
            if (i == shown)
                continue;
            stack->setCurrentIndex(i);
            checkVisibleTexts(stack->widget(i));
        }
        stack->setCurrentIndex(shown);
    }
}

void TestGuiZhCn::checkMenu(const QMenu* menu)
{
    check(menu, QStringLiteral("title"), menu->title());
    for (const QAction* action : menu->actions()) {
        if (action->isSeparator())
            continue;
        check(action, QStringLiteral("menu item"), action->text());
        check(action, QStringLiteral("status tip"), action->statusTip());
        if (action->menu())
            checkMenu(action->menu());
    }
}

void TestGuiZhCn::screenshot(const QString& name)
{
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    QVERIFY(m_window->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

void TestGuiZhCn::reportFindings()
{
    const QStringList findings = std::exchange(m_findings, {});
    QVERIFY2(findings.isEmpty(), qPrintable(QStringLiteral("\n%1 untranslated text(s):\n").arg(findings.size())
                                            + findings.join(QLatin1Char('\n'))));
}

void TestGuiZhCn::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_window = std::make_unique<MainWindow>(QString(m_dir.path() + QStringLiteral("/store.db")).toStdString());
    m_window->resize(1440, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    const auto error = m_window->openStore();
    QVERIFY2(!error, error ? qPrintable(*error) : "");
}

void TestGuiZhCn::theTranslationIsLoadedForTheSystemLocale()
{
    QCOMPARE(QLocale().name(), QStringLiteral("zh_CN"));
    // A word of the window that only the translation can give.
    QCOMPARE(m_window->menuBar()->actions().constFirst()->text(), QStringLiteral("文件(&F)"));
}

// Raises every dock in turn and checks what it shows, with a screenshot of each.
void TestGuiZhCn::walkDocks(const QString& prefix)
{
    const auto docks = m_window->findChildren<QDockWidget*>();
    checkVisibleTexts(m_window.get());
    screenshot(prefix + QStringLiteral("-00-window.png"));
    int n = 0;
    for (QDockWidget* dock : docks) {
        if (dock->isHidden())
            dock->show();
        dock->raise();
        QTest::qWait(50); // a raised dock lays its page out on the next turns of the event loop
        checkVisibleTexts(m_window.get());
        ++n;
        screenshot(QStringLiteral("%1-%2-%3.png")
                       .arg(prefix)
                       .arg(n, 2, 10, QLatin1Char('0'))
                       .arg(dock->objectName().isEmpty() ? QStringLiteral("dock") : dock->objectName()));
    }
}

void TestGuiZhCn::everyDockSpeaksChinese()
{
    walkDocks(QStringLiteral("zh_CN"));
    reportFindings();
}

void TestGuiZhCn::theMenusSpeakChinese()
{
    for (const QAction* action : m_window->menuBar()->actions()) {
        if (action->menu())
            checkMenu(action->menu());
    }
    reportFindings();
}

void TestGuiZhCn::theToolBarSpeaksChinese()
{
    for (const QToolBar* bar : m_window->findChildren<QToolBar*>()) {
        check(bar, QStringLiteral("title"), bar->windowTitle());
        for (const QAction* action : bar->actions()) {
            check(action, QStringLiteral("tool"), action->text());
            check(action, QStringLiteral("tool tip"), action->toolTip());
        }
    }
    reportFindings();
}

// The screens full: the demo's runs, its sandboxes and checkpoints, its agent session, the audit entries.
void TestGuiZhCn::afterTheDemoEveryDockStillSpeaksChinese()
{
    auto* demo = m_window->findChild<QAction*>(QStringLiteral("actionDemo"));
    QVERIFY(demo && demo->isEnabled());
    demo->trigger();
    QVERIFY(m_window->jobs()->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->jobs()->isRunning(), 180000);
    walkDocks(QStringLiteral("zh_CN-demo"));
    reportFindings();
}

void TestGuiZhCn::theDialogsSpeakChinese_data()
{
    QTest::addColumn<QString>("action");
    QTest::newRow("new sandbox") << QStringLiteral("actionNewSandbox");
    QTest::newRow("sandbox settings") << QStringLiteral("actionSandboxSettings");
    QTest::newRow("checkpoint") << QStringLiteral("actionCreateCheckpoint");
    QTest::newRow("promotion") << QStringLiteral("actionPromoteSandbox");
    QTest::newRow("launch agent") << QStringLiteral("actionLaunchAgent");
}

// The dialogs of the main screens' actions, on the demo's sandbox the checkpoint browser selects.
void TestGuiZhCn::theDialogsSpeakChinese()
{
    QFETCH(QString, action);
    auto* trigger = m_window->findChild<QAction*>(action);
    QVERIFY2(trigger, qPrintable(action));
    QTRY_VERIFY_WITH_TIMEOUT(trigger->isEnabled(), 20000);
    const auto before = QApplication::topLevelWidgets();
    trigger->trigger();
    QDialog* dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = [&before]() -> QDialog* {
                                 for (QWidget* top : QApplication::topLevelWidgets())
                                     if (auto* d = qobject_cast<QDialog*>(top);
                                         d && d->isVisible() && !before.contains(d))
                                         return d;
                                 return nullptr;
                             }()) != nullptr,
                             5000);
    QTest::qWait(500); // a dialog that previews (the promotion) fills itself from a background job
    checkVisibleTexts(dialog);
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR "/zh_CN-dialog-") + action + QStringLiteral(".png");
    QVERIFY(dialog->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
    dialog->reject();
    QTRY_VERIFY(!dialog->isVisible());
    reportFindings();
}

// The Dashboard's cluster jobs over a spool with a running and a failed job: its headers, buttons and states.
void TestGuiZhCn::theClusterJobsSpeakChinese()
{
    auto* panel = m_window->clusterJobs();
    auto* dock = m_window->findChild<QDockWidget*>(QStringLiteral("clusterJobsDock"));
    QVERIFY(dock);
    // The configuration changes while no listing reads it (the walk above showed every dock).
    dock->hide();
    QTRY_VERIFY(!panel->isVisible() && !panel->reader()->isListing());
    const QString spool = m_dir.filePath(QStringLiteral("spool"));
    QVERIFY(QDir().mkpath(spool));
    const QString config = m_dir.filePath(QStringLiteral("cluster.yaml"));
    {
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("slurm:\n  spool: " + spool.toUtf8() + "\n");
    }
    qputenv("SANDBENCH_CONFIG", config.toUtf8());
    auto running = sb::cluster::JobFolder::create(spool.toStdString(), "rules");
    auto failed = sb::cluster::JobFolder::create(spool.toStdString(), "batch");
    QVERIFY(running && failed);
    sb::cluster::StageProgress progress;
    progress.tasks = 8;
    progress.done = 3;
    progress.jobs = {"77"};
    sb::cluster::JobStatusWriter live(running->path(), "rules", "sandbench rules impact --backend slurm");
    live.update("evaluating", progress);
    sb::cluster::JobStatusWriter(failed->path(), "batch", "sandbench batch cases/ --backend slurm").fail("OUT_OF_MEMORY");

    m_window->showDashboard();
    dock->show();
    dock->raise();
    QTRY_COMPARE(panel->model()->rowCount(), 2);
    QTest::qWait(100);
    checkVisibleTexts(m_window.get());
    // The cells the window words: phases, kinds, states, times.
    const auto* model = panel->model();
    for (int row = 0; row < model->rowCount(); ++row)
        for (int column : {ClusterJobsModel::KindColumn, ClusterJobsModel::PhaseColumn, ClusterJobsModel::StartedColumn,
                           ClusterJobsModel::StateColumn})
            check(panel->view(), QStringLiteral("cell"), model->index(row, column).data().toString());
    QCOMPARE(model->index(model->rowOf(QString::fromStdString(running->path().string())), ClusterJobsModel::StateColumn)
                 .data()
                 .toString(),
             QStringLiteral("运行中"));
    screenshot(QStringLiteral("zh_CN-cluster-jobs.png"));
    dock->hide();
    QTRY_VERIFY(!panel->reader()->isListing());
    qunsetenv("SANDBENCH_CONFIG");
    reportFindings();
}

void TestGuiZhCn::cleanupTestCase()
{
    m_window.reset();
}

// As app/gui/main.cpp loads them: Qt's own strings, then Sandbench's, embedded under :/i18n.
struct Translators {
    QTranslator qt;
    QTranslator sandbench;
};

int main(int argc, char* argv[])
{
    // The language a user's system names, read by Qt as sandbench-gui reads it (QLocale's default, the system's).
    qputenv("LANGUAGE", "zh_CN");
    qputenv("LC_ALL", "zh_CN.UTF-8");
    return sb::guitest::runWindowTest<TestGuiZhCn>(argc, argv, [] {
        auto translators = std::make_unique<Translators>();
        if (translators->qt.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(&translators->qt);
        if (!translators->sandbench.load(QLocale(), QStringLiteral("sandbench"), QStringLiteral("_"),
                                         QStringLiteral(":/i18n"))) {
            qCritical("no Sandbench translation for %s under :/i18n", qPrintable(QLocale().name()));
            translators.reset();
        } else {
            QCoreApplication::installTranslator(&translators->sandbench);
        }
        return translators;
    });
}

#include "test_gui_zh_cn.moc"
