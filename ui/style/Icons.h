#pragma once

#include <QIcon>
#include <QSize>

namespace sb::ui {

enum class ActionIcon {
    Run, Cancel, Demo, New, Open, OpenFolder, Save, SaveAs, Quit, About, Refresh, Verify, Dashboard, Remove
};

// The icon size of the toolbars whose buttons show text beside their icon: theme icons and the style's fallbacks all
// hold pixmaps of 16 and 32 px, so at 16 points they are drawn at their own pixels on a screen of one pixel per point
// and of two (a larger size would scale the style's 32 px up on a high-DPI screen, blurred).
inline constexpr QSize kToolBarIconSize(16, 16);

// A theme icon where the desktop has one, else a style icon, so toolbars are never blank.
QIcon actionIcon(ActionIcon which);

// The application icon, drawn to match resources/icons/io.github.sandbench.Sandbench.svg.
QIcon applicationIcon();

} // namespace sb::ui
