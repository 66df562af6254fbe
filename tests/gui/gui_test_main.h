#pragma once

// The main() of every test that drives real windows: offscreen unless the person running it chose a
// platform, window state, recent files and recovered snippets in throwaway folders (never the user's).

#include <QApplication>
#include <QByteArray>
#include <QTemporaryDir>
#include <QTest>

namespace sb::guitest {

// The child of `parent` named `name`; the test ends at once when there is none (a renamed widget, say).
template <typename T>
T* requireChild(const QObject& parent, const char* name)
{
    auto* found = parent.findChild<T*>(QString::fromLatin1(name));
    if (!found)
        qFatal("no child named %s", name);
    return found;
}

// `setup` runs once the application exists, before the test object is made; what it returns lives as long as
// the test (translators to install, say). It returns null to fail the run.
template <typename TestObject, typename Setup>
int runWindowTest(int argc, char* argv[], Setup&& setup)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QTemporaryDir configDir;
    qputenv("XDG_CONFIG_HOME", configDir.path().toUtf8());
    // The recovery of unsaved snippets (AppDataLocation) in a throwaway folder too.
    QTemporaryDir dataDir;
    qputenv("XDG_DATA_HOME", dataDir.path().toUtf8());
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Sandbench"));
    QApplication::setApplicationName(QStringLiteral("sandbench-gui-test"));
    const auto kept = setup();
    if (!kept)
        return 1;
    TestObject test;
    return QTest::qExec(&test, argc, argv);
}

template <typename TestObject>
int runWindowTest(int argc, char* argv[])
{
    return runWindowTest<TestObject>(argc, argv, [] { return true; });
}

} // namespace sb::guitest
