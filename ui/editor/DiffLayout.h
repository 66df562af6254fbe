#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace sb::ui {

// A unified diff laid out side by side: the old version on the left, the new one on the right, one row per
// line of the taller side, so that a line and what replaced it share a row. Plain arithmetic, no widgets
// (SideBySideDiffView draws it), so it is tested without drawing.
struct DiffRow {
    enum class Kind {
        Context, // the same on both sides
        Changed, // removed on the left, added on the right, paired in order
        Removed, // only the left has a line; the right is a filler
        Added,   // only the right has a line; the left is a filler
        Hunk,    // a "@@ -a,b +c,d @@" header, on both sides
    };
    Kind kind = Kind::Context;
    int leftNumber = 0;  // 1-based line of the old version; 0: none (a filler or a hunk header)
    int rightNumber = 0; // of the new version
    QString left;
    QString right;
    // Changed rows: the part of each side between their common prefix and common suffix.
    int leftSpanStart = 0;
    int leftSpanLength = 0;
    int rightSpanStart = 0;
    int rightSpanLength = 0;
};

struct DiffLayout {
    QStringList header;        // the lines before the first hunk (diff --git, ---, +++, modes)
    std::vector<DiffRow> rows;

    bool empty() const { return rows.empty(); }
    // The rows of a unified diff (as sb::unifiedDiff writes it). Text with no hunk gives no rows.
    static DiffLayout fromUnified(const QString& unified);
};

} // namespace sb::ui
