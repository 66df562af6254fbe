#include "ui/editor/DiffLayout.h"

#include <QRegularExpression>

#include <algorithm>

namespace sb::ui {

namespace {

// Where two versions of a line differ: between their common prefix and their common suffix.
void markSpans(DiffRow& row)
{
    const QString& a = row.left;
    const QString& b = row.right;
    const int shorter = static_cast<int>(std::min(a.size(), b.size()));
    int prefix = 0;
    while (prefix < shorter && a[prefix] == b[prefix])
        ++prefix;
    int suffix = 0;
    while (suffix < shorter - prefix && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    row.leftSpanStart = prefix;
    row.leftSpanLength = static_cast<int>(a.size()) - prefix - suffix;
    row.rightSpanStart = prefix;
    row.rightSpanLength = static_cast<int>(b.size()) - prefix - suffix;
}

} // namespace

DiffLayout DiffLayout::fromUnified(const QString& unified)
{
    static const QRegularExpression hunkHeader(QStringLiteral(R"(^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@)"));
    DiffLayout out;
    QStringList lines = unified.split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast();
    int left = 0;
    int right = 0;
    bool inHunk = false;
    QStringList removed;
    QStringList added;
    // A run of removed lines and the added lines after it become rows, paired in order.
    auto flush = [&] {
        const qsizetype pairs = std::max(removed.size(), added.size());
        for (qsizetype i = 0; i < pairs; ++i) {
            DiffRow row;
            const bool hasLeft = i < removed.size();
            const bool hasRight = i < added.size();
            row.kind = hasLeft && hasRight ? DiffRow::Kind::Changed : hasLeft ? DiffRow::Kind::Removed : DiffRow::Kind::Added;
            if (hasLeft) {
                row.left = removed[i];
                row.leftNumber = ++left;
            }
            if (hasRight) {
                row.right = added[i];
                row.rightNumber = ++right;
            }
            if (row.kind == DiffRow::Kind::Changed)
                markSpans(row);
            out.rows.push_back(std::move(row));
        }
        removed.clear();
        added.clear();
    };
    for (const QString& line : lines) {
        const auto match = hunkHeader.match(line);
        if (match.hasMatch()) {
            flush();
            inHunk = true;
            left = match.captured(1).toInt() - 1;
            right = match.captured(2).toInt() - 1;
            // "@@ -0,0 +1,3 @@": an added file starts at line 1 of the right, the left has none.
            left = std::max(left, 0);
            right = std::max(right, 0);
            DiffRow row;
            row.kind = DiffRow::Kind::Hunk;
            row.left = row.right = line;
            out.rows.push_back(std::move(row));
            continue;
        }
        if (!inHunk) {
            out.header << line;
            continue;
        }
        if (line.startsWith(QLatin1Char('\\')))
            continue; // "\ No newline at end of file"
        if (line.startsWith(QLatin1Char('-'))) {
            if (!added.isEmpty())
                flush();
            removed << line.mid(1);
        } else if (line.startsWith(QLatin1Char('+'))) {
            added << line.mid(1);
        } else {
            flush();
            DiffRow row;
            row.kind = DiffRow::Kind::Context;
            row.left = row.right = line.mid(1);
            row.leftNumber = ++left;
            row.rightNumber = ++right;
            out.rows.push_back(std::move(row));
        }
    }
    flush();
    return out;
}

} // namespace sb::ui
