#pragma once
// What a file dropped on the window is, by what it holds as much as by its name: where it opens.

#include <QList>
#include <QString>

class QMimeData;

namespace sb::ui {

enum class DroppedFile {
    Snippet, // .py, .sh: the snippet editor
    RuleSet, // .yaml, .yml that is not a policy: a tab of the rules workspace
    Policy,  // a policy file (it loads as one): offered as the default policy of runs
    Dataset, // .csv, .jsonl, .ndjson: the rules workspace's dataset
    Unknown,
};

DroppedFile droppedFileKind(const QString& path);
// The local files `mime` carries (a drag from a file manager); empty when it carries none.
QStringList droppedFiles(const QMimeData* mime);

} // namespace sb::ui
