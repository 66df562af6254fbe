#include "ui/models/Traceback.h"

#include <QRegularExpression>

namespace sb::ui {

std::optional<int> errorLineFromStderr(const QString& stderrText)
{
    // Python: `  File "/tmp/…/snippet.py", line 3, in <module>`; library frames live in other files
    // (absolute paths under /usr), so the last frame not under /usr is the snippet's.
    static const QRegularExpression pythonFrame(QStringLiteral(R"re(File "([^"]+)", line (\d+))re"));
    // sh/bash: `snippet.sh: 2: foo: not found` or `snippet.sh: line 2: foo: command not found`.
    static const QRegularExpression shellError(QStringLiteral(R"re(^[^:\n]+: (?:line )?(\d+): )re"),
                                               QRegularExpression::MultilineOption);

    std::optional<int> line;
    auto frames = pythonFrame.globalMatch(stderrText);
    while (frames.hasNext()) {
        const auto match = frames.next();
        if (match.captured(1).startsWith(QStringLiteral("/usr/")))
            continue;
        line = match.captured(2).toInt() - 1;
    }
    if (line)
        return line;
    const auto shellMatch = shellError.match(stderrText);
    if (shellMatch.hasMatch())
        return shellMatch.captured(1).toInt() - 1;
    return std::nullopt;
}

} // namespace sb::ui
