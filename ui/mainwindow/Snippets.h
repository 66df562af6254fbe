#pragma once

#include <QCoreApplication>
#include <QString>

namespace sb::ui {

// Shown in the editor when the store has no runs yet, so the first start is never an empty window. Its
// comments speak to the user, in the user's language; the code and the commented-out import are Python.
inline QString welcomeSnippet()
{
    return QCoreApplication::translate("sb::ui::Snippets",
                                       "# Welcome to Sandbench: this snippet runs in an OS sandbox.\n"
                                       "# Press Ctrl+Return to run it, or try the Demo to see every outcome.\n")
           + QStringLiteral("\n"
                            "def fib(n):\n"
                            "    a, b = 0, 1\n"
                            "    for _ in range(n):\n"
                            "        a, b = b, a + b\n"
                            "    return a\n"
                            "\n"
                            "print([fib(i) for i in range(15)])\n"
                            "\n")
           + QCoreApplication::translate("sb::ui::Snippets",
                                         "# The policy refuses risky modules; uncomment to see a blocked run:\n")
           + QStringLiteral("# import socket\n");
}

} // namespace sb::ui
