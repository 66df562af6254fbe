// Find and replace in the editors, autosave and recovery of unsaved snippets, files dropped on the window, the
// settings dialog and the theme, on the real window. QStandardPaths' test mode and a test organization keep the
// recovery file and the settings away from the user's.

#include "gui_test_main.h"
#include "isolation/policy.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/FindBar.h"
#include "ui/mainwindow/Autosave.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/rules/RuleSetEditor.h"
#include "ui/rules/RulesWorkspace.h"
#include "ui/settings/AppSettings.h"
#include "ui/settings/SettingsDialog.h"
#include "ui/style/Theme.h"

#include <Qsci/qscilexer.h>

#include <QAbstractBarSeries>
#include <QAction>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFrame>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPalette>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <memory>

using namespace sb::ui;

namespace {

const QString kFindSample = QStringLiteral("alpha beta Alpha\nalphabet alpha\n");

bool writeFile(const QString& path, const QByteArray& content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

void saveScreenshot(QWidget* widget, const QString& name)
{
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    QVERIFY(widget->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

// Where the selection starts, as line and index.
std::pair<int, int> selectionStart(CodeEditor* editor)
{
    int fromLine = -1, fromIndex = -1, toLine = -1, toIndex = -1;
    editor->getSelection(&fromLine, &fromIndex, &toLine, &toIndex);
    return {fromLine, fromIndex};
}

// Drops `files` on `target` as a file manager does: the drag enters, then the drop.
bool drop(QWidget* target, const QStringList& files)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& file : files)
        urls.append(QUrl::fromLocalFile(file));
    mime.setUrls(urls);
    const QPoint at(target->width() / 2, target->height() / 2);
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent dropped(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &dropped);
    return dropped.isAccepted();
}

} // namespace

class TestSettingsEditing : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void cleanup();

    void findNextAndPreviousWrap();
    void findOptionsNarrowTheMatches();
    void regexReplaceAllIsOneUndoStep();
    void invalidPatternIsSaid();
    void escapeClosesTheFindBar();
    void findBarScreenshot();
    void ruleSetEditorsHaveTheirFindBar();
    void autosaveWritesAndTheNextWindowRestores();
    void discardedRecoveryIsRemoved();
    void windowsOpenAtOnceKeepTheirOwnRecovery();
    void recoveryLockedByADeadProcessIsOffered();
    void dropOpensASnippet();
    void dropOfAnUnknownFileSaysSo();
    void dropRoutesRuleSetsAndPolicies();
    void settingsChangeTheEditorFontLive();
    void settingsPersistThemePolicyAndLanguage();
    void invalidPolicyIsRefused();
    void darkThemeChangesThePalette();

private:
    std::unique_ptr<MainWindow> makeWindow();
    // Opens Edit ▸ Settings; the dialog it shows.
    SettingsDialog* openSettings();

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

void TestSettingsEditing::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("SandbenchTest"));
    QVERIFY(m_dir.isValid());
    QSettings().clear();
    QDir(Autosave::recoveryFolder()).removeRecursively();
}

void TestSettingsEditing::cleanupTestCase()
{
    QDir(Autosave::recoveryFolder()).removeRecursively();
    QSettings().clear();
    applyTheme(Theme::System);
}

void TestSettingsEditing::init()
{
    m_window = makeWindow();
    QVERIFY(m_window);
}

void TestSettingsEditing::cleanup()
{
    // A window that goes without a close, as in a crash: what it left for recovery is each test's own business.
    m_window.reset();
    QDir(Autosave::recoveryFolder()).removeRecursively();
}

std::unique_ptr<MainWindow> TestSettingsEditing::makeWindow()
{
    auto window = std::make_unique<MainWindow>(QString(m_dir.path() + QStringLiteral("/store.db")).toStdString());
    window->resize(1366, 768);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return nullptr;
    if (const auto error = window->openStore())
        qWarning("store: %s", qPrintable(*error));
    QApplication::setActiveWindow(window.get());
    if (!QTest::qWaitForWindowActive(window.get()))
        return nullptr;
    return window;
}

SettingsDialog* TestSettingsEditing::openSettings()
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // a dialog closed before
    m_window->findChild<QAction*>(QStringLiteral("actionSettings"))->trigger();
    for (auto* dialog : m_window->findChildren<SettingsDialog*>()) {
        if (dialog->isVisible())
            return dialog;
    }
    return nullptr;
}

void TestSettingsEditing::findNextAndPreviousWrap()
{
    CodeEditor* editor = m_window->editor();
    editor->setText(kFindSample);
    editor->setCursorPosition(0, 0);
    m_window->findChild<QAction*>(QStringLiteral("actionFind"))->trigger();
    FindBar* bar = m_window->findBar();
    QVERIFY(bar->isVisible());
    bar->setFindText(QStringLiteral("alpha"));
    bar->setMatchCase(true);
    bar->setWholeWords(true);
    QCOMPARE(bar->matchCount(), 2);

    QVERIFY(bar->findNext());
    QCOMPARE(selectionStart(editor), std::make_pair(0, 0));
    QVERIFY(bar->findNext());
    QCOMPARE(selectionStart(editor), std::make_pair(1, 9));
    QCOMPARE(bar->findChild<QLabel*>(QStringLiteral("findCount"))->text(), QStringLiteral("2 of 2"));
    QVERIFY(bar->findNext()); // wraps to the first
    QCOMPARE(selectionStart(editor), std::make_pair(0, 0));
    QVERIFY(bar->findPrevious()); // wraps to the last
    QCOMPARE(selectionStart(editor), std::make_pair(1, 9));
    // F3 and Shift+F3 as the Edit menu lists them.
    m_window->findChild<QAction*>(QStringLiteral("actionFindNext"))->trigger();
    QCOMPARE(selectionStart(editor), std::make_pair(0, 0));
    editor->setFocus();
    QTest::keyClick(editor, Qt::Key_F3);
    QCOMPARE(selectionStart(editor), std::make_pair(1, 9));
    QTest::keyClick(editor, Qt::Key_F3, Qt::ShiftModifier);
    QCOMPARE(selectionStart(editor), std::make_pair(0, 0));
}

void TestSettingsEditing::findOptionsNarrowTheMatches()
{
    m_window->editor()->setText(kFindSample);
    FindBar* bar = m_window->findBar();
    bar->showFind();
    bar->setFindText(QStringLiteral("alpha"));
    QCOMPARE(bar->matchCount(), 4); // alpha, Alpha, alpha(bet), alpha
    bar->setMatchCase(true);
    QCOMPARE(bar->matchCount(), 3);
    bar->setWholeWords(true);
    QCOMPARE(bar->matchCount(), 2);
    bar->setMatchCase(false);
    QCOMPARE(bar->matchCount(), 3);
    bar->setFindText(QStringLiteral("gamma"));
    QCOMPARE(bar->matchCount(), 0);
    QVERIFY(!bar->findNext());
    QCOMPARE(bar->findChild<QLabel*>(QStringLiteral("findCount"))->text(), QStringLiteral("No matches"));
}

void TestSettingsEditing::regexReplaceAllIsOneUndoStep()
{
    CodeEditor* editor = m_window->editor();
    editor->setText(kFindSample);
    m_window->findChild<QAction*>(QStringLiteral("actionReplace"))->trigger();
    FindBar* bar = m_window->findBar();
    QVERIFY(bar->findChild<QLineEdit*>(QStringLiteral("replaceText"))->isVisible());
    bar->setMatchCase(false);
    bar->setWholeWords(false);
    bar->setRegularExpression(true);
    bar->setFindText(QStringLiteral("al(p)ha\\w*"));
    QCOMPARE(bar->matchCount(), 4);
    bar->setReplaceText(QStringLiteral("X\\1"));
    QCOMPARE(bar->replaceAll(), 4);
    QCOMPARE(editor->text(), QStringLiteral("Xp beta Xp\nXp Xp\n"));
    QCOMPARE(bar->matchCount(), 0);
    editor->undo();
    QCOMPARE(editor->text(), kFindSample);

    // Replace: the selected match, then on to the next.
    bar->setRegularExpression(false);
    bar->setMatchCase(true);
    bar->setFindText(QStringLiteral("beta"));
    bar->setReplaceText(QStringLiteral("gamma"));
    editor->setCursorPosition(0, 0);
    QVERIFY(!bar->replaceCurrent()); // nothing selected yet: selects the match first
    QCOMPARE(editor->selectedText(), QStringLiteral("beta"));
    QVERIFY(bar->replaceCurrent());
    QCOMPARE(editor->text(), QStringLiteral("alpha gamma Alpha\nalphabet alpha\n"));
}

void TestSettingsEditing::invalidPatternIsSaid()
{
    m_window->editor()->setText(kFindSample);
    FindBar* bar = m_window->findBar();
    bar->showFind();
    bar->setRegularExpression(true);
    bar->setFindText(QStringLiteral("(alpha"));
    QCOMPARE(bar->matchCount(), 0);
    QVERIFY(!bar->patternError().isEmpty());
    QCOMPARE(bar->findChild<QLabel*>(QStringLiteral("findCount"))->text(), QStringLiteral("Invalid pattern"));
    bar->setRegularExpression(false); // literally, the parenthesis is no error
    QVERIFY(bar->patternError().isEmpty());
    QCOMPARE(bar->matchCount(), 0);
}

void TestSettingsEditing::escapeClosesTheFindBar()
{
    m_window->findChild<QAction*>(QStringLiteral("actionFind"))->trigger();
    FindBar* bar = m_window->findBar();
    QVERIFY(bar->isVisible());
    auto* field = bar->findChild<QLineEdit*>(QStringLiteral("findText"));
    QTRY_VERIFY(field->hasFocus());
    QTest::keyClick(field, Qt::Key_Escape);
    QVERIFY(!bar->isVisible());
    QVERIFY(m_window->editor()->hasFocus());
}

void TestSettingsEditing::findBarScreenshot()
{
    CodeEditor* editor = m_window->editor();
    editor->setText(QStringLiteral("def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n"
                                   "    return a\n\nprint([fib(n) for n in range(10)])\n"));
    m_window->findChild<QAction*>(QStringLiteral("actionReplace"))->trigger();
    FindBar* bar = m_window->findBar();
    bar->setFindText(QStringLiteral("fib"));
    bar->setReplaceText(QStringLiteral("fibonacci"));
    QVERIFY(bar->findNext());
    QCOMPARE(bar->matchCount(), 2);
    saveScreenshot(m_window.get(), QStringLiteral("find-bar.png"));
}

void TestSettingsEditing::ruleSetEditorsHaveTheirFindBar()
{
    RulesWorkspace* rules = m_window->rulesWorkspace();
    rules->openDemo();
    m_window->showRules();
    QVERIFY(rules->ruleSetCount() >= 2);
    auto* tabs = rules->findChild<QTabWidget*>(QStringLiteral("ruleSetTabs"));
    tabs->setCurrentIndex(0);
    rules->editor(0)->setFocus();
    QTRY_VERIFY(rules->editor(0)->hasFocus());
    m_window->findChild<QAction*>(QStringLiteral("actionFind"))->trigger();
    FindBar* bar = rules->findBar();
    QVERIFY(bar->isVisible());
    QVERIFY(!m_window->findBar()->isVisible());
    QCOMPARE(bar->editor(), static_cast<QsciScintilla*>(rules->editor(0)));
    bar->setFindText(QStringLiteral("amount"));
    const int inBaseline = bar->matchCount();
    QCOMPARE(inBaseline, static_cast<int>(rules->editor(0)->text().count(QStringLiteral("amount"),
                                                                         Qt::CaseInsensitive)));
    QVERIFY(inBaseline > 0);
    QVERIFY(bar->findNext());
    QCOMPARE(rules->editor(0)->selectedText().toLower(), QStringLiteral("amount"));
    // The bar follows the current tab.
    tabs->setCurrentIndex(1);
    QCOMPARE(bar->editor(), static_cast<QsciScintilla*>(rules->editor(1)));
    QCOMPARE(bar->matchCount(), static_cast<int>(rules->editor(1)->text().count(QStringLiteral("amount"),
                                                                                Qt::CaseInsensitive)));
}

namespace {

// What a recovery file holds: its text, or a null string when it cannot be read.
QString recoveredText(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("text")).toString();
}

void typeOver(CodeEditor* editor, const QString& text)
{
    editor->selectAll();
    editor->replaceSelectedText(text);
}

} // namespace

void TestSettingsEditing::autosaveWritesAndTheNextWindowRestores()
{
    const QString recovery = m_window->autosave()->recoveryPath();
    QVERIFY(recovery.startsWith(Autosave::recoveryFolder() + QStringLiteral("/snippet-")));
    QVERIFY(!QFile::exists(recovery));
    const QString text = QStringLiteral("echo 'unsaved work'\n");
    CodeEditor* editor = m_window->editor();
    m_window->findChild<QComboBox*>(QStringLiteral("languageCombo"))->setCurrentIndex(1); // Shell
    typeOver(editor, text);
    QVERIFY(editor->isModified());
    // Written within Autosave::kDelayMs of the edit.
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(recovery), 20000);
    QCOMPARE(recoveredText(recovery), text);

    // The window goes without a close (a crash); the next one offers what it left.
    m_window.reset();
    QVERIFY(QFile::exists(recovery));
    m_window = makeWindow();
    QVERIFY(m_window);
    QCOMPARE(m_window->autosave()->claimedPath(), recovery);
    auto* bar = m_window->findChild<RecoveryBar*>(QStringLiteral("recoveryBar"));
    QVERIFY(bar->isVisible());
    QVERIFY(m_window->editor()->text() != text);
    saveScreenshot(m_window.get(), QStringLiteral("recovery-offer.png"));
    QTest::mouseClick(bar->findChild<QPushButton*>(QStringLiteral("recoveryRestore")), Qt::LeftButton);
    QVERIFY(!bar->isVisible());
    QCOMPARE(m_window->editor()->text(), text);
    QVERIFY(m_window->editor()->language() == sb::Language::Shell);
    QVERIFY(m_window->editor()->isModified());
    // Still unsaved: in this window's own recovery file now, the crashed window's gone.
    const QString own = m_window->autosave()->recoveryPath();
    QVERIFY(own != recovery);
    QCOMPARE(recoveredText(own), text);
    QVERIFY(!QFile::exists(recovery));

    // Saved: nothing is left to recover.
    const QString saved = m_dir.path() + QStringLiteral("/restored.sh");
    QVERIFY(m_window->saveFile(saved));
    QVERIFY(!QFile::exists(own));
}

void TestSettingsEditing::discardedRecoveryIsRemoved()
{
    const QString recovery = m_window->autosave()->recoveryPath();
    m_window->editor()->append(QStringLiteral("# left unsaved\n"));
    QVERIFY(m_window->autosave()->writeNow());
    QVERIFY(QFile::exists(recovery));
    m_window.reset();
    m_window = makeWindow();
    QVERIFY(m_window);
    auto* bar = m_window->findChild<RecoveryBar*>(QStringLiteral("recoveryBar"));
    QVERIFY(bar->isVisible());
    QTest::mouseClick(bar->findChild<QPushButton*>(QStringLiteral("recoveryDiscard")), Qt::LeftButton);
    QVERIFY(!bar->isVisible());
    QVERIFY(!QFile::exists(recovery));
    QVERIFY(m_window->autosave()->claimedPath().isEmpty());
    QVERIFY(!m_window->editor()->text().contains(QStringLiteral("# left unsaved")));
}

// Two windows open at once each back up into a file of their own, and neither offers the other's while both live.
// When one crashes, the next window offers its text (never the living one's), and a window started beside that
// one offers nothing: the orphan is claimed. A window closed without answering gives the orphan back.
void TestSettingsEditing::windowsOpenAtOnceKeepTheirOwnRecovery()
{
    const QString firstText = QStringLiteral("print('first window')\n");
    const QString secondText = QStringLiteral("print('second window')\n");
    typeOver(m_window->editor(), firstText);
    QVERIFY(m_window->autosave()->writeNow());
    auto second = makeWindow();
    QVERIFY(second);
    QVERIFY(!second->findChild<RecoveryBar*>(QStringLiteral("recoveryBar"))->isVisible());
    QVERIFY(second->autosave()->claimedPath().isEmpty());
    typeOver(second->editor(), secondText);
    QVERIFY(second->autosave()->writeNow());
    const QString firstFile = m_window->autosave()->recoveryPath();
    const QString secondFile = second->autosave()->recoveryPath();
    QVERIFY(firstFile != secondFile);
    QCOMPARE(recoveredText(firstFile), firstText);
    QCOMPARE(recoveredText(secondFile), secondText);

    // The first crashes.
    m_window.reset();
    auto third = makeWindow();
    QVERIFY(third);
    QCOMPARE(third->autosave()->claimedPath(), firstFile);
    auto* bar = third->findChild<RecoveryBar*>(QStringLiteral("recoveryBar"));
    QVERIFY(bar->isVisible());
    auto fourth = makeWindow();
    QVERIFY(fourth);
    QVERIFY(fourth->autosave()->claimedPath().isEmpty());
    QVERIFY(!fourth->findChild<RecoveryBar*>(QStringLiteral("recoveryBar"))->isVisible());
    QCOMPARE(recoveredText(secondFile), secondText); // the living window's file is untouched

    // The third closes without an answer: the orphan stays, and the fourth's next sibling may claim it.
    QVERIFY(third->close());
    third.reset();
    QCOMPARE(recoveredText(firstFile), firstText);
    m_window = makeWindow();
    QVERIFY(m_window);
    QCOMPARE(m_window->autosave()->claimedPath(), firstFile);
    QTest::mouseClick(m_window->findChild<RecoveryBar*>(QStringLiteral("recoveryBar"))
                          ->findChild<QPushButton*>(QStringLiteral("recoveryRestore")),
                      Qt::LeftButton);
    QCOMPARE(m_window->editor()->text(), firstText);
    QVERIFY(!QFile::exists(firstFile));

    // Clean closes remove their own files (the editors' texts discarded on purpose).
    for (auto* window : {second.get(), fourth.get()}) {
        window->editor()->setModified(false);
        QVERIFY(window->close());
    }
    QVERIFY(!QFile::exists(secondFile));
    m_window->editor()->setModified(false);
}

// A window killed outright leaves its lock behind; the lock's process is gone, so its file is an orphan.
void TestSettingsEditing::recoveryLockedByADeadProcessIsOffered()
{
    m_window.reset();
    const QString folder = Autosave::recoveryFolder();
    QVERIFY(QDir().mkpath(folder));
    const QString killed = folder + QStringLiteral("/snippet-killed.json");
    QVERIFY(writeFile(killed, R"({"text": "print('killed')\n", "path": "", "language": "python"})"));
    // QLockFile's own format: the owner's pid (none is that high: Linux's pid_max is below 2^22), its name, the
    // host (empty: this one).
    QVERIFY(writeFile(folder + QStringLiteral("/snippet-killed.lock"), "4194304\nsandbench-gui\n\n"));
    m_window = makeWindow();
    QVERIFY(m_window);
    QCOMPARE(m_window->autosave()->claimedPath(), killed);
    QVERIFY(m_window->findChild<RecoveryBar*>(QStringLiteral("recoveryBar"))->isVisible());
    QTest::mouseClick(m_window->findChild<RecoveryBar*>(QStringLiteral("recoveryBar"))
                          ->findChild<QPushButton*>(QStringLiteral("recoveryDiscard")),
                      Qt::LeftButton);
    QVERIFY(!QFile::exists(killed));
}

void TestSettingsEditing::dropOpensASnippet()
{
    const QString python = m_dir.path() + QStringLiteral("/dropped.py");
    QVERIFY(writeFile(python, "print('dropped')\n"));
    m_window->editor()->setModified(false);
    QVERIFY(drop(m_window.get(), {python}));
    QCOMPARE(m_window->editor()->text(), QStringLiteral("print('dropped')\n"));
    QVERIFY(m_window->windowTitle().contains(QStringLiteral("dropped.py")));
    QVERIFY(m_window->editor()->language() == sb::Language::Python);

    // On the editor too: the file opens, its path does not go into the text.
    const QString shell = m_dir.path() + QStringLiteral("/dropped.sh");
    QVERIFY(writeFile(shell, "echo dropped\n"));
    QVERIFY(drop(m_window->editor()->viewport(), {shell}));
    QCOMPARE(m_window->editor()->text(), QStringLiteral("echo dropped\n"));
    QVERIFY(m_window->editor()->language() == sb::Language::Shell);
}

void TestSettingsEditing::dropOfAnUnknownFileSaysSo()
{
    const QString notes = m_dir.path() + QStringLiteral("/notes.txt");
    QVERIFY(writeFile(notes, "not a snippet\n"));
    const QString before = m_window->editor()->text();
    QVERIFY(drop(m_window.get(), {notes}));
    auto* box = m_window->findChild<QMessageBox*>(QStringLiteral("dropErrorBox"));
    QVERIFY(box);
    QVERIFY(box->text().contains(QStringLiteral("notes.txt")));
    QCOMPARE(m_window->editor()->text(), before);
    box->close();
}

void TestSettingsEditing::dropRoutesRuleSetsAndPolicies()
{
    // A rule set opens in a tab of the rules workspace.
    QFile demo(QStringLiteral(":/demo/rules/current.yaml"));
    QVERIFY(demo.open(QIODevice::ReadOnly));
    const QString ruleSet = m_dir.path() + QStringLiteral("/card-fraud.yaml");
    QVERIFY(writeFile(ruleSet, demo.readAll()));
    RulesWorkspace* rules = m_window->rulesWorkspace();
    const int before = rules->ruleSetCount();
    QVERIFY(drop(m_window.get(), {ruleSet}));
    QCOMPARE(rules->ruleSetCount(), before + 1);
    QVERIFY(rules->currentEditor()->text().contains(QStringLiteral("card-fraud")));

    // A policy is offered as the default policy of runs; Yes keeps it.
    const auto preset = sb::builtinPresetText("python-snippet");
    QVERIFY(preset);
    const QString policy = m_dir.path() + QStringLiteral("/my-policy.yaml");
    QVERIFY(writeFile(policy, QByteArray(preset->data(), static_cast<qsizetype>(preset->size()))));
    QVERIFY(drop(m_window.get(), {policy}));
    QCOMPARE(rules->ruleSetCount(), before + 1); // not taken for a rule set
    auto* box = m_window->findChild<QMessageBox*>(QStringLiteral("dropPolicyBox"));
    QVERIFY(box);
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    QCOMPARE(AppSettings::load().defaultPolicy, policy);
    AppSettings().save();
}

void TestSettingsEditing::settingsChangeTheEditorFontLive()
{
    auto* dialog = openSettings();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    CodeEditor* editor = m_window->editor();
    const int before = editor->lexer()->font(0).pointSize();
    auto* size = dialog->findChild<QSpinBox*>(QStringLiteral("settingsFontSize"));
    size->setValue(before + 6);
    QCOMPARE(editor->lexer()->font(0).pointSize(), before + 6);
    saveScreenshot(dialog, QStringLiteral("settings-dialog.png"));
    // Cancel takes it back.
    dialog->reject();
    QCOMPARE(editor->lexer()->font(0).pointSize(), before);
    QVERIFY(!QSettings().contains(QStringLiteral("settings/editorFont"))
            || QSettings().value(QStringLiteral("settings/editorFont")).toString().isEmpty());

    // OK keeps it, for the editors of a window made later too.
    dialog = openSettings();
    QVERIFY(dialog);
    dialog->findChild<QSpinBox*>(QStringLiteral("settingsFontSize"))->setValue(before + 2);
    dialog->accept();
    QCOMPARE(AppSettings::load().editorFont.pointSize(), before + 2);
    QCOMPARE(CodeEditor().lexer()->font(0).pointSize(), before + 2);
    // Back to the default for the other tests.
    AppSettings settings = AppSettings::load();
    settings.editorFont = QFont(QString());
    settings.save();
    CodeEditor::setSharedFont(QFont(QString()));
    QCOMPARE(editor->lexer()->font(0).pointSize(), before);
}

void TestSettingsEditing::settingsPersistThemePolicyAndLanguage()
{
    const std::vector<std::string> presets = sb::builtinPresetNames();
    QVERIFY(!presets.empty());
    const QString preset = QString::fromStdString(presets.back());
    auto* dialog = openSettings();
    QVERIFY(dialog);
    auto* policy = dialog->findChild<QComboBox*>(QStringLiteral("settingsPolicy"));
    // The presets are core's own list.
    QCOMPARE(policy->count(), static_cast<int>(presets.size()));
    policy->setEditText(preset);
    QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("settingsPolicyProblem"))->isVisible());
    auto* theme = dialog->findChild<QComboBox*>(QStringLiteral("settingsTheme"));
    theme->setCurrentIndex(theme->findData(QStringLiteral("light")));
    auto* language = dialog->findChild<QComboBox*>(QStringLiteral("settingsLanguage"));
    language->setCurrentIndex(language->findData(QStringLiteral("de")));
    const QString store = m_dir.path() + QStringLiteral("/other.db");
    dialog->findChild<QLineEdit*>(QStringLiteral("settingsStorePath"))->setText(store);
    dialog->accept();

    const QSettings s;
    QCOMPARE(s.value(QStringLiteral("settings/defaultPolicy")).toString(), preset);
    QCOMPARE(s.value(QStringLiteral("settings/theme")).toString(), QStringLiteral("light"));
    QCOMPARE(s.value(QStringLiteral("settings/language")).toString(), QStringLiteral("de"));
    QCOMPARE(s.value(QStringLiteral("settings/storePath")).toString(), store);
    const AppSettings loaded = AppSettings::load();
    QVERIFY(loaded.theme == Theme::Light);
    QCOMPARE(loaded.defaultPolicy, preset);

    AppSettings reset;
    reset.save();
    applyTheme(Theme::System);
}

void TestSettingsEditing::invalidPolicyIsRefused()
{
    const QString missing = m_dir.path() + QStringLiteral("/gone/policy.yaml");
    auto* dialog = openSettings();
    QVERIFY(dialog);
    dialog->findChild<QComboBox*>(QStringLiteral("settingsPolicy"))->setEditText(missing);
    auto* problem = dialog->findChild<QLabel*>(QStringLiteral("settingsPolicyProblem"));
    QVERIFY(problem->isVisible());
    QVERIFY(!problem->text().isEmpty());
    dialog->accept(); // refused: stays open, nothing kept
    QVERIFY(dialog->isVisible());
    QVERIFY(AppSettings::load().defaultPolicy.isEmpty());
    dialog->reject();

    // A policy file that went after it was chosen refuses the run, saying why.
    AppSettings settings;
    settings.defaultPolicy = missing;
    settings.save();
    m_window->findChild<QAction*>(QStringLiteral("actionRun"))->trigger();
    QVERIFY(!m_window->jobs()->isRunning());
    const QString status = m_window->findChild<QLabel*>(QStringLiteral("statusLabel"))->text();
    QVERIFY2(status.contains(QStringLiteral("The run was not started")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("no such policy file")), qPrintable(status));
    // The next window says so as it starts.
    m_window = makeWindow();
    QVERIFY(m_window);
    const QString message = m_window->statusBar()->currentMessage();
    QVERIFY2(message.contains(QStringLiteral("default policy")) && message.contains(missing), qPrintable(message));
    AppSettings().save();
}

void TestSettingsEditing::darkThemeChangesThePalette()
{
    applyTheme(Theme::Light);
    QVERIFY(!paletteIsDark());
    QTRY_VERIFY(!m_window->editor()->isDark());
    QCOMPARE(m_window->editor()->lexer()->paper(0), QColor(Qt::white));
    const QColor light = QApplication::palette().color(QPalette::Window);
    // A chart of the dashboard, with its series' own colours.
    auto* outcomes = m_window->findChild<QChartView*>(QStringLiteral("outcomeChart"));
    QVERIFY(outcomes && outcomes->chart());
    QCOMPARE(outcomes->chart()->theme(), QChart::ChartThemeLight);
    auto* bars = qobject_cast<QAbstractBarSeries*>(outcomes->chart()->series().value(0));
    QVERIFY(bars && !bars->barSets().isEmpty());
    const QColor barColour = bars->barSets().front()->color();
    const QFont titleFont = outcomes->chart()->titleFont();
    auto* dialog = openSettings();
    QVERIFY(dialog);
    auto* theme = dialog->findChild<QComboBox*>(QStringLiteral("settingsTheme"));
    theme->setCurrentIndex(theme->findData(QStringLiteral("dark")));
    QVERIFY(paletteIsDark());
    QVERIFY(QApplication::palette().color(QPalette::Window) != light);
    QTRY_COMPARE(m_window->palette().color(QPalette::Window), QApplication::palette().color(QPalette::Window));
    // The editors follow: their paper dark, their text light.
    CodeEditor* editor = m_window->editor();
    QTRY_VERIFY(editor->isDark());
    QVERIFY(editor->lexer()->paper(0).lightness() < 64);
    QVERIFY(editor->lexer()->color(0).lightness() > 160);
    // The charts too: a dark background, light axis labels; the bars keep their colours, the title its font.
    QTRY_COMPARE(outcomes->chart()->theme(), QChart::ChartThemeDark);
    QVERIFY(outcomes->chart()->backgroundBrush().color().lightness() < 100);
    QVERIFY(!outcomes->chart()->axes().isEmpty());
    QVERIFY(outcomes->chart()->axes().front()->labelsBrush().color().lightness() > 160);
    QCOMPARE(bars->barSets().front()->color(), barColour);
    QCOMPARE(outcomes->chart()->titleFont(), titleFont);
    // And the dashboard's counters: their cards dark, their captions readable on them.
    auto* card = m_window->findChild<QFrame*>(QStringLiteral("counterTotalCard"));
    QVERIFY(card);
    const QColor cardColour = card->palette().color(card->backgroundRole());
    QVERIFY2(cardColour.lightness() < 100, qPrintable(cardColour.name()));
    QLabel* caption = nullptr;
    for (auto* label : card->findChildren<QLabel*>())
        if (label->text() == QStringLiteral("Runs"))
            caption = label;
    QVERIFY(caption);
    const QColor captionColour = caption->palette().color(caption->foregroundRole());
    QVERIFY2(captionColour.lightness() - cardColour.lightness() > 60, qPrintable(captionColour.name()));
    dialog->accept();
    QVERIFY(AppSettings::load().theme == Theme::Dark);
    m_window->findBar()->showFind();
    m_window->findBar()->setFindText(QStringLiteral("fib"));
    saveScreenshot(m_window.get(), QStringLiteral("dark-theme.png"));
    m_window->showDashboard();
    QTRY_VERIFY(outcomes->isVisible());
    saveScreenshot(m_window.get(), QStringLiteral("dark-theme-dashboard.png"));
    m_window->showSnippets();
    AppSettings().save();
    applyTheme(Theme::Light);
    QTRY_VERIFY(!editor->isDark());
    QCOMPARE(editor->lexer()->paper(0), QColor(Qt::white)); // back to the light scheme as it was
    QTRY_COMPARE(outcomes->chart()->theme(), QChart::ChartThemeLight);
    QCOMPARE(bars->barSets().front()->color(), barColour);
    applyTheme(Theme::System);
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestSettingsEditing>(argc, argv);
}

#include "test_settings_editing.moc"
