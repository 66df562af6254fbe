#pragma once

#include "isolation/outcome.h"

#include <QColor>
#include <QString>

namespace sb::ui {

// One colour per outcome, shared by the badge, the history table and the charts.
QColor outcomeColor(sb::Outcome outcome);
// A text colour that reads well on outcomeColor().
QColor outcomeTextColor(sb::Outcome outcome);
// The outcome's contract name ("ok", "memory_limit"…). It is vocabulary shared with the CLI and the
// store, so it is shown as is rather than translated.
QString outcomeName(sb::Outcome outcome);

} // namespace sb::ui
