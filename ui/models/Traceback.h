#pragma once

#include <QString>

#include <optional>

namespace sb::ui {

// The 0-based line of the snippet where a Python traceback (or a shell error) points, if any.
// Python names the snippet file in its frames; the innermost frame of that file wins.
std::optional<int> errorLineFromStderr(const QString& stderrText);

} // namespace sb::ui
