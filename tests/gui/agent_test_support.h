#pragma once

// What the agent workspace's GUI tests share: the built command line run against the test's store, screenshots in
// the build tree, and popup menus and modal dialogs answered from the event loop (they block whoever opens them).
// Each test defines SANDBENCH_CLI and SANDBENCH_SCREENSHOT_DIR (tests/gui/CMakeLists.txt).

#include <nlohmann/json.hpp>

#include <filesystem>
#include <system_error>

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>
#include <QTimer>
#include <QWidget>

namespace sb::guitest {

// `sandbench ARGUMENTS --store STORE`, with XDG_DATA_HOME set to `dataHome` when one is given (where the store's
// audit keys are); its standard output. A failure is printed; the caller checks what it needs of the output.
inline QString runCli(const QString& store, const QStringList& arguments, const QString& dataHome = {},
                      int timeoutMs = 240000)
{
    QProcess process;
    if (!dataHome.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), dataHome);
        process.setProcessEnvironment(env);
    }
    process.start(QStringLiteral(SANDBENCH_CLI), arguments + QStringList{QStringLiteral("--store"), store});
    if (!process.waitForFinished(timeoutMs) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        qWarning("sandbench %s failed: %s\n%s", qPrintable(arguments.join(QLatin1Char(' '))),
                 process.readAllStandardOutput().constData(), process.readAllStandardError().constData());
    return QString::fromUtf8(process.readAllStandardOutput());
}

// A copy of examples/agents in `dir`/examples, which the sandbox can read as another user may (the checkout may be
// in a folder only its owner enters): `dir` searchable by all, the copy readable by all. Empty when it failed.
inline QString copyAgentExamples(const QString& dir)
{
    QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ExeGroup
                                   | QFile::ExeOther);
    const std::filesystem::path examples = std::filesystem::path(dir.toStdString()) / "examples";
    std::error_code error;
    std::filesystem::copy(std::filesystem::path(SANDBENCH_EXAMPLES_DIR) / "agents", examples,
                          std::filesystem::copy_options::recursive, error);
    const QString path = QString::fromStdString(examples.string());
    if (error || QProcess::execute(QStringLiteral("chmod"), {QStringLiteral("-R"), QStringLiteral("a+rX"), path}) != 0)
        return {};
    return path;
}

// runCli's output as JSON; discarded (is_discarded()) when it is not JSON, which is printed.
inline nlohmann::json runCliJson(const QString& store, const QStringList& arguments, const QString& dataHome = {})
{
    const QString text = runCli(store, arguments, dataHome);
    nlohmann::json parsed = nlohmann::json::parse(text.toStdString(), nullptr, false);
    if (parsed.is_discarded())
        qWarning("not JSON: %s", qPrintable(text));
    return parsed;
}

// Saves what `widget` shows as NAME in the build tree's screenshot folder, and says where.
inline bool saveScreenshot(QWidget* widget, const QString& name)
{
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    if (!widget->grab().save(path))
        return false;
    qInfo("screenshot: %s", qPrintable(path));
    return true;
}

// Runs `act` on the widget `find` returns once it shows (a popup menu, a modal dialog), looking every 20 ms from
// `context`'s event loop, at most `triesLeft` times.
template <typename Find, typename Act>
void whenShown(QObject* context, Find find, Act act, int triesLeft = 200)
{
    QTimer::singleShot(20, context, [context, find, act, triesLeft] {
        if (auto* widget = find())
            act(widget);
        else if (triesLeft > 0)
            whenShown(context, find, act, triesLeft - 1);
    });
}

// Opens `view`'s context menu on `index`, as a right click does, and triggers its action named `action`.
inline void chooseFromContextMenu(QObject* context, QAbstractItemView* view, const QModelIndex& index,
                                  const char* action)
{
    whenShown(
        context, [] { return qobject_cast<QMenu*>(QApplication::activePopupWidget()); },
        [action](QMenu* menu) {
            auto* chosen = menu->findChild<QAction*>(QString::fromLatin1(action));
            QVERIFY2(chosen && chosen->isEnabled(), action);
            menu->close();
            chosen->trigger();
        });
    const QRect cell = view->visualRect(index);
    QContextMenuEvent event(QContextMenuEvent::Mouse, cell.center(), view->viewport()->mapToGlobal(cell.center()));
    QApplication::sendEvent(view->viewport(), &event);
}

} // namespace sb::guitest
