#pragma once

#include "checkpoints/diff.h"

#include <QColor>
#include <QIcon>
#include <QString>

namespace sb::ui {

// How a changed path is shown everywhere (diff file list, status texts): a letter as in `git status`
// (A, D, M), a colour and a small badge icon with that letter.
QString changeLetter(sb::ChangeKind kind);
QColor changeColor(sb::ChangeKind kind);
QIcon changeIcon(sb::ChangeKind kind);

// The colour of a checkpoint's node in the graph, by its kind (checkpoint, auto, restore, fork…).
QColor checkpointKindColor(const QString& kind);

} // namespace sb::ui
