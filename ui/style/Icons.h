#pragma once

#include <QIcon>

namespace sb::ui {

enum class ActionIcon { Run, Cancel, Demo, New, Open, Save, SaveAs, Quit, About, Refresh, Verify };

// A theme icon where the desktop has one, else a style icon, so toolbars are never blank.
QIcon actionIcon(ActionIcon which);

// The application icon, drawn to match resources/icons/io.github.sandbench.Sandbench.svg.
QIcon applicationIcon();

} // namespace sb::ui
