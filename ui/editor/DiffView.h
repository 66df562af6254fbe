#pragma once

#include "ui/editor/CodeEditor.h"

class QsciLexerDiff;

namespace sb::ui {

// A read-only unified diff in the workbench's editor: added lines on green, removed on red, hunk headers
// on blue, the file header bold.
class DiffView : public CodeEditor {
    Q_OBJECT
public:
    explicit DiffView(QWidget* parent = nullptr);

    void showDiff(const QString& unified);

private:
    QsciLexerDiff* m_diffLexer = nullptr;
};

} // namespace sb::ui
