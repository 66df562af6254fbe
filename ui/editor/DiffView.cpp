#include "ui/editor/DiffView.h"

#include <Qsci/qscilexerdiff.h>

namespace sb::ui {

DiffView::DiffView(QWidget* parent)
    : CodeEditor(parent)
    , m_diffLexer(new QsciLexerDiff(this))
{
    applyStyle(m_diffLexer);
    QFont bold = m_diffLexer->defaultFont();
    bold.setBold(true);
    struct LineStyle {
        int style;
        QColor text;
        QColor paper;
    };
    const LineStyle styles[] = {
        {QsciLexerDiff::LineAdded, QColor(0x11, 0x63, 0x29), QColor(0xe6, 0xff, 0xec)},
        {QsciLexerDiff::LineRemoved, QColor(0x82, 0x07, 0x1e), QColor(0xff, 0xeb, 0xe9)},
        {QsciLexerDiff::LineChanged, QColor(0x7d, 0x4e, 0x00), QColor(0xff, 0xf8, 0xc5)},
        {QsciLexerDiff::Position, QColor(0x05, 0x50, 0xae), QColor(0xdd, 0xf4, 0xff)},
        {QsciLexerDiff::Header, QColor(0x1f, 0x23, 0x28), QColor(0xf6, 0xf8, 0xfa)},
        {QsciLexerDiff::Command, QColor(0x1f, 0x23, 0x28), QColor(0xf6, 0xf8, 0xfa)},
        {QsciLexerDiff::Comment, QColor(0x5f, 0x66, 0x6d), Qt::white},
    };
    for (const auto& s : styles) {
        m_diffLexer->setColor(s.text, s.style);
        m_diffLexer->setPaper(s.paper, s.style);
        m_diffLexer->setEolFill(true, s.style); // the colour runs to the window's edge, as in git GUIs
    }
    m_diffLexer->setFont(bold, QsciLexerDiff::Header);
    m_diffLexer->setFont(bold, QsciLexerDiff::Command);
    setLexer(m_diffLexer);
    restoreChrome();

    setReadOnly(true);
    setCaretLineVisible(false);
    setIndentationGuides(false);
    setBraceMatching(NoBraceMatch);
    setLineNumbersShown(false);
    setMarginWidth(2, 0);
}

void DiffView::showDiff(const QString& unified)
{
    setText(unified);
    setCursorPosition(0, 0);
}

} // namespace sb::ui
