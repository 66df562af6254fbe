#pragma once

// The main() of every test that drives real windows: offscreen unless the person running it chose a
// platform, window state and recent files in a throwaway settings folder (never the user's).

#include <QApplication>
#include <QByteArray>
#include <QTemporaryDir>
#include <QTest>

namespace sb::guitest {

template <typename TestObject>
int runWindowTest(int argc, char* argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QTemporaryDir configDir;
    qputenv("XDG_CONFIG_HOME", configDir.path().toUtf8());
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Sandbench"));
    QApplication::setApplicationName(QStringLiteral("sandbench-gui-test"));
    TestObject test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace sb::guitest
