#pragma once
// The window's theme. Qt 6.4 has no way to ask the platform for a colour scheme, so light and dark are
// Fusion with a palette of their own; "system" is the style and palette the platform gave at start.

#include "ui/settings/AppSettings.h"

namespace sb::ui {

void applyTheme(Theme theme);
// Whether the application's palette is dark (its window colour darker than its text).
bool paletteIsDark();

} // namespace sb::ui
