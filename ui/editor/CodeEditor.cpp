#include "ui/editor/CodeEditor.h"

#include <Qsci/qscilexerbash.h>
#include <Qsci/qscilexerpython.h>

#include <QApplication>
#include <QFontDatabase>
#include <QFontMetrics>

namespace sb::ui {

namespace {

constexpr int kLineNumberMargin = 0;
constexpr int kMarkerMargin = 1;

// The font a person chose in the settings; the family empty: none chosen.
QFont& chosenFont()
{
    static QFont font{QString()};
    return font;
}

QFont editorFont()
{
    if (!chosenFont().family().isEmpty())
        return chosenFont();
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::Monospace);
    font.setPointSizeF(std::max(font.pointSizeF(), 10.0));
    return font;
}

// The light scheme turned dark, hue kept: text lighter, paper darker.
QColor darkText(const QColor& light)
{
    float h = 0, s = 0, l = 0, a = 0;
    light.getHslF(&h, &s, &l, &a);
    return QColor::fromHslF(h, s, 0.92f - 0.6f * l, a);
}

QColor darkPaper(const QColor& light)
{
    float h = 0, s = 0, l = 0, a = 0;
    light.getHslF(&h, &s, &l, &a);
    return QColor::fromHslF(h, s * 0.5f, 0.13f + (1.0f - l) * 0.6f, a);
}

// A light palette in the spirit of common IDE themes: few colours, each with a meaning.
const QColor kKeyword(0x00, 0x33, 0xb3);
const QColor kComment(0x8c, 0x8c, 0x8c);
const QColor kString(0x06, 0x7d, 0x17);
const QColor kNumber(0x17, 0x50, 0xeb);
const QColor kDefinition(0x00, 0x62, 0x7a);
const QColor kDecorator(0x9e, 0x88, 0x0d);
const QColor kVariable(0x87, 0x10, 0x94);

} // namespace

CodeEditor::CodeEditor(QWidget* parent)
    : QsciScintilla(parent)
    , m_pythonLexer(new QsciLexerPython(this))
    , m_bashLexer(new QsciLexerBash(this))
{
    setUtf8(true);
    setEolMode(EolUnix);
    setFont(editorFont());

    // Margins: line numbers, then a narrow one for error markers.
    setMarginType(kLineNumberMargin, NumberMargin);
    setMarginLineNumbers(kLineNumberMargin, true);
    setMarginType(kMarkerMargin, SymbolMargin);
    setMarginWidth(kMarkerMargin, 14);
    setMarginsBackgroundColor(QColor(0xf5, 0xf6, 0xf7));
    setMarginsForegroundColor(QColor(0x9a, 0xa0, 0xa6));
    setMarginsFont(editorFont());
    connect(this, &QsciScintilla::linesChanged, this, &CodeEditor::updateLineNumberWidth);
    updateLineNumberWidth();

    setCaretLineVisible(true);
    setCaretLineBackgroundColor(QColor(0xf3, 0xf7, 0xfd));
    setCaretWidth(2);
    setBraceMatching(SloppyBraceMatch);
    setMatchedBraceBackgroundColor(QColor(0xd6, 0xe9, 0xff));
    setMatchedBraceForegroundColor(QColor(0x00, 0x33, 0xb3));
    setUnmatchedBraceForegroundColor(QColor(0xc0, 0x39, 0x2b));

    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setTabWidth(4);
    setTabIndents(true);
    setBackspaceUnindents(true);
    setIndentationGuides(true);
    setIndentationGuidesForegroundColor(QColor(0xe0, 0xe0, 0xe0));
    setWhitespaceVisibility(WsInvisible);
    setWrapMode(WrapNone);
    setScrollWidthTracking(true);
    setScrollWidth(1);

    m_errorMarker = markerDefine(QsciScintilla::RightTriangle);
    setMarkerBackgroundColor(QColor(0xc0, 0x39, 0x2b), m_errorMarker);
    setMarkerForegroundColor(QColor(0xc0, 0x39, 0x2b), m_errorMarker);
    m_blockedMarker = markerDefine(QsciScintilla::Circle);
    setMarkerBackgroundColor(QColor(0x8e, 0x44, 0xad), m_blockedMarker);
    setMarkerForegroundColor(QColor(0x8e, 0x44, 0xad), m_blockedMarker);
    setMarginMarkerMask(kMarkerMargin, (1 << m_errorMarker) | (1 << m_blockedMarker));
    setMarginMarkerMask(kLineNumberMargin, 0);
    m_errorIndicator = indicatorDefine(SquiggleIndicator);
    setIndicatorForegroundColor(QColor(0xc0, 0x39, 0x2b), m_errorIndicator);
    m_blockedIndicator = indicatorDefine(DotsIndicator);
    setIndicatorForegroundColor(QColor(0x8e, 0x44, 0xad), m_blockedIndicator);

    applyStyle(m_pythonLexer);
    applyStyle(m_bashLexer);
    setLanguage(sb::Language::Python);

    followPalette();

    // Text edits move lines around; a stale mark would point at the wrong place.
    connect(this, &QsciScintilla::textChanged, this, [this] {
        if (!m_errorMessages.isEmpty() || !m_blockedMessages.isEmpty())
            clearErrorMarks();
    });
}

void CodeEditor::setSharedFont(const QFont& font)
{
    chosenFont() = font;
    for (QWidget* widget : QApplication::allWidgets()) {
        if (auto* editor = qobject_cast<CodeEditor*>(widget))
            editor->applySharedFont();
    }
}

QFont CodeEditor::sharedFont()
{
    return editorFont();
}

void CodeEditor::applySharedFont()
{
    const QFont font = editorFont();
    setFont(font);
    QList<QsciLexer*> lexers{m_pythonLexer, m_bashLexer};
    if (lexer() && !lexers.contains(lexer()))
        lexers.append(lexer());
    for (QsciLexer* l : lexers) {
        l->setDefaultFont(font);
        // Style numbers run up to 127 (QsciScintillaBase::STYLE_MAX); a style without a description is unused.
        for (int style = 0; style < 128; ++style) {
            if (l->description(style).isEmpty())
                continue;
            QFont styled = font;
            styled.setBold(l->font(style).bold());
            styled.setItalic(l->font(style).italic());
            l->setFont(styled, style);
        }
    }
    restoreChrome();
}

void CodeEditor::applyStyle(QsciLexer* lexer)
{
    const QFont font = editorFont();
    QFont bold = font;
    bold.setBold(true);
    QFont italic = font;
    italic.setItalic(true);

    lexer->setDefaultFont(font);
    lexer->setFont(font, -1);
    lexer->setDefaultPaper(Qt::white);
    lexer->setPaper(Qt::white, -1);
    lexer->setDefaultColor(QColor(0x1f, 0x23, 0x28));
    lexer->setColor(QColor(0x1f, 0x23, 0x28), -1);

    if (auto* python = qobject_cast<QsciLexerPython*>(lexer)) {
        python->setIndentationWarning(QsciLexerPython::Inconsistent);
        python->setColor(kKeyword, QsciLexerPython::Keyword);
        python->setFont(bold, QsciLexerPython::Keyword);
        for (int style : {QsciLexerPython::Comment, QsciLexerPython::CommentBlock}) {
            python->setColor(kComment, style);
            python->setFont(italic, style);
        }
        for (int style : {QsciLexerPython::DoubleQuotedString, QsciLexerPython::SingleQuotedString,
                          QsciLexerPython::TripleSingleQuotedString, QsciLexerPython::TripleDoubleQuotedString,
                          QsciLexerPython::DoubleQuotedFString, QsciLexerPython::SingleQuotedFString,
                          QsciLexerPython::TripleSingleQuotedFString, QsciLexerPython::TripleDoubleQuotedFString,
                          QsciLexerPython::UnclosedString})
            python->setColor(kString, style);
        python->setColor(kNumber, QsciLexerPython::Number);
        python->setColor(kDefinition, QsciLexerPython::ClassName);
        python->setColor(kDefinition, QsciLexerPython::FunctionMethodName);
        python->setFont(bold, QsciLexerPython::ClassName);
        python->setFont(bold, QsciLexerPython::FunctionMethodName);
        python->setColor(kDecorator, QsciLexerPython::Decorator);
    } else if (auto* bash = qobject_cast<QsciLexerBash*>(lexer)) {
        bash->setColor(kKeyword, QsciLexerBash::Keyword);
        bash->setFont(bold, QsciLexerBash::Keyword);
        bash->setColor(kComment, QsciLexerBash::Comment);
        bash->setFont(italic, QsciLexerBash::Comment);
        for (int style : {QsciLexerBash::DoubleQuotedString, QsciLexerBash::SingleQuotedString,
                          QsciLexerBash::SingleQuotedHereDocument, QsciLexerBash::HereDocumentDelimiter})
            bash->setColor(kString, style);
        bash->setColor(kNumber, QsciLexerBash::Number);
        bash->setColor(kVariable, QsciLexerBash::Scalar);
        bash->setColor(kVariable, QsciLexerBash::ParameterExpansion);
        bash->setColor(kDecorator, QsciLexerBash::Backticks);
        bash->setColor(QColor(0xc0, 0x39, 0x2b), QsciLexerBash::Error);
    }
}

void CodeEditor::setLanguage(sb::Language language)
{
    m_language = language;
    setLexer(language == sb::Language::Python ? static_cast<QsciLexer*>(m_pythonLexer)
                                              : static_cast<QsciLexer*>(m_bashLexer));
    restoreChrome();
}

void CodeEditor::restoreChrome()
{
    // setLexer() resets the margin and brace colours to the lexer's; restore ours.
    const auto paper = [this](const QColor& light) { return m_dark ? darkPaper(light) : light; };
    const auto ink = [this](const QColor& light) { return m_dark ? darkText(light) : light; };
    setMarginsBackgroundColor(paper(QColor(0xf5, 0xf6, 0xf7)));
    setMarginsForegroundColor(ink(QColor(0x9a, 0xa0, 0xa6)));
    setMarginsFont(editorFont());
    setMatchedBraceBackgroundColor(paper(QColor(0xd6, 0xe9, 0xff)));
    setMatchedBraceForegroundColor(ink(QColor(0x00, 0x33, 0xb3)));
    setCaretLineBackgroundColor(paper(QColor(0xf3, 0xf7, 0xfd)));
    setCaretForegroundColor(ink(QColor(0x1f, 0x23, 0x28)));
    setIndentationGuidesForegroundColor(ink(QColor(0xe0, 0xe0, 0xe0)));
    if (m_dark)
        setSelectionBackgroundColor(QColor(0x26, 0x4f, 0x78));
    else
        resetSelectionBackgroundColor();
    updateLineNumberWidth();
}

void CodeEditor::setLexer(QsciLexer* lexer)
{
    recolour(lexer);
    QsciScintilla::setLexer(lexer);
}

void CodeEditor::changeEvent(QEvent* event)
{
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        followPalette();
}

void CodeEditor::followPalette()
{
    m_dark = palette().color(QPalette::Base).lightness() < 128;
    recolour(m_pythonLexer);
    recolour(m_bashLexer);
    recolour(lexer());
    restoreChrome();
}

void CodeEditor::recolour(QsciLexer* lexer)
{
    if (!lexer || m_lightColours.contains(lexer) == m_dark)
        return;
    // Style numbers run up to 127 (QsciScintillaBase::STYLE_MAX); a style without a description is unused.
    if (m_dark) {
        auto& light = m_lightColours[lexer];
        light.insert(-1, {lexer->defaultColor(), lexer->defaultPaper()});
        for (int style = 0; style < 128; ++style) {
            if (!lexer->description(style).isEmpty())
                light.insert(style, {lexer->color(style), lexer->paper(style)});
        }
        lexer->setDefaultColor(darkText(lexer->defaultColor()));
        lexer->setDefaultPaper(darkPaper(lexer->defaultPaper()));
        for (auto it = light.cbegin(); it != light.cend(); ++it) {
            if (it.key() < 0)
                continue;
            lexer->setColor(darkText(it.value().first), it.key());
            lexer->setPaper(darkPaper(it.value().second), it.key());
        }
        return;
    }
    const auto light = m_lightColours.take(lexer);
    for (auto it = light.cbegin(); it != light.cend(); ++it) {
        if (it.key() < 0) {
            lexer->setDefaultColor(it.value().first);
            lexer->setDefaultPaper(it.value().second);
        } else {
            lexer->setColor(it.value().first, it.key());
            lexer->setPaper(it.value().second, it.key());
        }
    }
}

void CodeEditor::setLineNumbersShown(bool shown)
{
    m_lineNumbers = shown;
    setMarginWidth(kMarkerMargin, shown ? 14 : 0);
    updateLineNumberWidth();
}

void CodeEditor::updateLineNumberWidth()
{
    if (!m_lineNumbers) {
        setMarginWidth(kLineNumberMargin, 0);
        return;
    }
    const int digits = std::max(3, static_cast<int>(QString::number(lines()).size()));
    const QFontMetrics metrics(editorFont());
    setMarginWidth(kLineNumberMargin, metrics.horizontalAdvance(QString(digits, QLatin1Char('9'))) + 16);
}

void CodeEditor::markErrorLine(int line, const QString& message)
{
    if (line < 0 || line >= lines())
        return;
    markerAdd(line, m_errorMarker);
    const int length = text(line).trimmed().isEmpty() ? 0 : static_cast<int>(text(line).size());
    int indent = indentation(line);
    fillIndicatorRange(line, std::min(indent, length), line, std::max(length, 1), m_errorIndicator);
    m_errorMessages.insert(line, message);
}

void CodeEditor::markBlockedLine(int line, const QString& message)
{
    if (line < 0 || line >= lines())
        return;
    markerAdd(line, m_blockedMarker);
    const int length = text(line).trimmed().isEmpty() ? 0 : static_cast<int>(text(line).size());
    fillIndicatorRange(line, std::min(indentation(line), length), line, std::max(length, 1), m_blockedIndicator);
    m_blockedMessages.insert(line, message);
    // The reason under the line, where the eye already is (a margin marker alone says nothing).
    setAnnotationDisplay(AnnotationIndented);
    annotate(line, QStringLiteral("⊘ ") + message, STYLE_DEFAULT);
}

void CodeEditor::clearErrorMarks()
{
    markerDeleteAll(m_errorMarker);
    markerDeleteAll(m_blockedMarker);
    const int last = std::max(0, lines() - 1);
    clearIndicatorRange(0, 0, last, static_cast<int>(text(last).size()), m_errorIndicator);
    clearIndicatorRange(0, 0, last, static_cast<int>(text(last).size()), m_blockedIndicator);
    if (!m_blockedMessages.isEmpty())
        clearAnnotations();
    m_errorMessages.clear();
    m_blockedMessages.clear();
}

QList<int> CodeEditor::blockedLines() const
{
    QList<int> result = m_blockedMessages.keys();
    std::sort(result.begin(), result.end());
    return result;
}

QList<int> CodeEditor::errorLines() const
{
    QList<int> result = m_errorMessages.keys();
    std::sort(result.begin(), result.end());
    return result;
}

QString CodeEditor::errorMessage(int line) const
{
    return m_errorMessages.value(line, m_blockedMessages.value(line));
}

} // namespace sb::ui
