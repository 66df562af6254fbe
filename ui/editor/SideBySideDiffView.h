#pragma once

#include "ui/editor/DiffLayout.h"

#include <QWidget>

namespace sb::ui {

class CodeEditor;
class DiffSideEditor;

// A unified diff shown side by side: the old version on the left, the new on the right, each line beside
// what replaced it (DiffLayout), each side with its own line numbers, removed lines tinted red and added
// ones green, the changed part of a changed line marked darker, fillers grey. The two sides scroll together.
class SideBySideDiffView : public QWidget {
    Q_OBJECT
public:
    explicit SideBySideDiffView(QWidget* parent = nullptr);

    void showLayout(const DiffLayout& layout);
    const DiffLayout& layout() const { return m_layout; }

    // What each side shows, line by line (fillers as empty lines), and its line-number margin.
    QString leftText() const;
    QString rightText() const;
    QString leftNumber(int row) const;
    QString rightNumber(int row) const;
    CodeEditor* leftEditor() const;
    CodeEditor* rightEditor() const;

private:
    DiffSideEditor* m_left = nullptr;
    DiffSideEditor* m_right = nullptr;
    DiffLayout m_layout;
};

} // namespace sb::ui
