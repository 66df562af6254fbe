#include "ui/editor/SideBySideDiffView.h"

#include "ui/editor/CodeEditor.h"

#include <QFontDatabase>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QScrollBar>
#include <QSplitter>

namespace sb::ui {

namespace {

constexpr int kNumberMargin = 2;
constexpr int kNumberStyle = 33; // STYLE_LINENUMBER: the margin's own colours

const QColor kRemovedLine(0xff, 0xeb, 0xe9);
const QColor kAddedLine(0xe6, 0xff, 0xec);
const QColor kRemovedSpan(0xff, 0xb3, 0xad);
const QColor kAddedSpan(0x9c, 0xe6, 0xae);
const QColor kFiller(0xf0, 0xf1, 0xf3);
const QColor kHunk(0xdd, 0xf4, 0xff);

} // namespace

// One side: read-only, no lexer (the tint is the diff's), its line numbers in a text margin so that fillers
// have none.
class DiffSideEditor : public CodeEditor {
public:
    enum Marker { RemovedMarker, AddedMarker, FillerMarker, HunkMarker };

    explicit DiffSideEditor(QWidget* parent)
        : CodeEditor(parent)
    {
        setLexer(nullptr);
        restoreChrome();
        setLineNumbersShown(false);
        setMarginType(kNumberMargin, TextMarginRightJustified);
        setReadOnly(true);
        setCaretLineVisible(false);
        setIndentationGuides(false);
        setBraceMatching(NoBraceMatch);
        const QColor colours[] = {kRemovedLine, kAddedLine, kFiller, kHunk};
        for (int marker = RemovedMarker; marker <= HunkMarker; ++marker) {
            m_markers[marker] = markerDefine(QsciScintilla::Background);
            setMarkerBackgroundColor(colours[marker], m_markers[marker]);
        }
        m_spanIndicator = indicatorDefine(FullBoxIndicator);
        setIndicatorDrawUnder(true, m_spanIndicator);
    }

    void showLines(const QStringList& lines, const QStringList& numbers, const std::vector<int>& markers, bool left)
    {
        markerDeleteAll();
        setText(lines.join(QLatin1Char('\n')));
        m_numbers = numbers;
        clearMarginText();
        int widest = 3;
        for (int line = 0; line < numbers.size(); ++line) {
            if (!numbers[line].isEmpty())
                setMarginText(line, numbers[line], kNumberStyle);
            widest = std::max(widest, static_cast<int>(numbers[line].size()));
            if (markers[static_cast<std::size_t>(line)] >= 0)
                markerAdd(line, m_markers[markers[static_cast<std::size_t>(line)]]);
        }
        const QFontMetrics metrics(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        setMarginWidth(kNumberMargin, metrics.horizontalAdvance(QString(widest, QLatin1Char('9'))) + 16);
        setIndicatorForegroundColor(left ? kRemovedSpan : kAddedSpan, m_spanIndicator);
        setCursorPosition(0, 0);
    }

    void markSpan(int line, int start, int length)
    {
        if (length > 0)
            fillIndicatorRange(line, start, line, start + length, m_spanIndicator);
    }

    QString number(int line) const { return line >= 0 && line < m_numbers.size() ? m_numbers[line] : QString(); }

private:
    int m_markers[HunkMarker + 1] = {};
    int m_spanIndicator = 0;
    QStringList m_numbers;
};

SideBySideDiffView::SideBySideDiffView(QWidget* parent)
    : QWidget(parent)
    , m_left(new DiffSideEditor(this))
    , m_right(new DiffSideEditor(this))
{
    m_left->setObjectName(QStringLiteral("diffLeft"));
    m_right->setObjectName(QStringLiteral("diffRight"));
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("diffSides"));
    split->addWidget(m_left);
    split->addWidget(m_right);
    split->setChildrenCollapsible(false);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    // The sides scroll together: both have the same number of lines.
    auto follow = [](QScrollBar* from, QScrollBar* to) {
        connect(from, &QScrollBar::valueChanged, to, [to](int value) {
            if (to->value() != value)
                to->setValue(value);
        });
    };
    follow(m_left->verticalScrollBar(), m_right->verticalScrollBar());
    follow(m_right->verticalScrollBar(), m_left->verticalScrollBar());
    follow(m_left->horizontalScrollBar(), m_right->horizontalScrollBar());
    follow(m_right->horizontalScrollBar(), m_left->horizontalScrollBar());
}

void SideBySideDiffView::showLayout(const DiffLayout& layout)
{
    m_layout = layout;
    QStringList left;
    QStringList right;
    QStringList leftNumbers;
    QStringList rightNumbers;
    std::vector<int> leftMarkers;
    std::vector<int> rightMarkers;
    using Kind = DiffRow::Kind;
    auto number = [](int n) { return n > 0 ? QString::number(n) : QString(); };
    for (const auto& row : layout.rows) {
        left << row.left;
        right << row.right;
        leftNumbers << number(row.leftNumber);
        rightNumbers << number(row.rightNumber);
        switch (row.kind) {
        case Kind::Context:
            leftMarkers.push_back(-1);
            rightMarkers.push_back(-1);
            break;
        case Kind::Changed:
            leftMarkers.push_back(DiffSideEditor::RemovedMarker);
            rightMarkers.push_back(DiffSideEditor::AddedMarker);
            break;
        case Kind::Removed:
            leftMarkers.push_back(DiffSideEditor::RemovedMarker);
            rightMarkers.push_back(DiffSideEditor::FillerMarker);
            break;
        case Kind::Added:
            leftMarkers.push_back(DiffSideEditor::FillerMarker);
            rightMarkers.push_back(DiffSideEditor::AddedMarker);
            break;
        case Kind::Hunk:
            leftMarkers.push_back(DiffSideEditor::HunkMarker);
            rightMarkers.push_back(DiffSideEditor::HunkMarker);
            break;
        }
    }
    m_left->showLines(left, leftNumbers, leftMarkers, true);
    m_right->showLines(right, rightNumbers, rightMarkers, false);
    for (std::size_t i = 0; i < layout.rows.size(); ++i) {
        const auto& row = layout.rows[i];
        if (row.kind != Kind::Changed)
            continue;
        m_left->markSpan(static_cast<int>(i), row.leftSpanStart, row.leftSpanLength);
        m_right->markSpan(static_cast<int>(i), row.rightSpanStart, row.rightSpanLength);
    }
}

CodeEditor* SideBySideDiffView::leftEditor() const
{
    return m_left;
}

CodeEditor* SideBySideDiffView::rightEditor() const
{
    return m_right;
}

QString SideBySideDiffView::leftText() const
{
    return m_left->text();
}

QString SideBySideDiffView::rightText() const
{
    return m_right->text();
}

QString SideBySideDiffView::leftNumber(int row) const
{
    return m_left->number(row);
}

QString SideBySideDiffView::rightNumber(int row) const
{
    return m_right->number(row);
}

} // namespace sb::ui
