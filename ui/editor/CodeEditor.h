#pragma once

#include "isolation/policy.h"

#include <Qsci/qsciscintilla.h>

#include <QHash>
#include <QSet>
#include <QString>

#include <utility>

class QsciLexerBash;
class QsciLexerPython;

namespace sb::ui {

// The one QScintilla subclass: every editor policy (font, margins, current line, braces, indentation,
// lexers per language, error marks) lives here so all editors of the workbench look and behave alike.
class CodeEditor : public QsciScintilla {
    Q_OBJECT
public:
    explicit CodeEditor(QWidget* parent = nullptr);

    // The font of every editor (the family empty: the system's fixed-width font), applied at once to the
    // editors that exist, with each style's bold and italic kept.
    static void setSharedFont(const QFont& font);
    static QFont sharedFont();

    void setLanguage(sb::Language language);
    sb::Language language() const { return m_language; }
    // The lexer, in the colours of the palette: a dark palette gets the light scheme turned dark.
    void setLexer(QsciLexer* lexer = nullptr) override;
    // Whether the editor shows its dark scheme (the palette's base is dark).
    bool isDark() const { return m_dark; }

    // Marks a 0-based line as erroneous: a margin marker, a squiggle under the text and a tooltip-ready
    // message. Marks stay until clearErrorMarks() or until the text changes under them.
    void markErrorLine(int line, const QString& message);
    // Marks a 0-based line whose effect the sandbox blocked (an import): its own marker and underline, in
    // the colour of blocked events. Cleared with the error marks.
    void markBlockedLine(int line, const QString& message);
    void clearErrorMarks();
    QList<int> errorLines() const;
    QList<int> blockedLines() const;
    QString errorMessage(int line) const;

protected:
    // For specialised editors (DiffView): the shared font and colours on a lexer, and the margin and caret
    // colours that setLexer() resets to the lexer's.
    void applyStyle(QsciLexer* lexer);
    void restoreChrome();
    void setLineNumbersShown(bool shown);
    void changeEvent(QEvent* event) override;

private:
    void updateLineNumberWidth();
    void applySharedFont();
    // Follows the palette: the lexers' colours and the chrome, light or dark.
    void followPalette();
    void recolour(QsciLexer* lexer);

    sb::Language m_language = sb::Language::Python;
    QsciLexerPython* m_pythonLexer = nullptr;
    QsciLexerBash* m_bashLexer = nullptr;
    bool m_lineNumbers = true;
    int m_errorMarker = 0;
    int m_errorIndicator = 0;
    int m_blockedMarker = 0;
    int m_blockedIndicator = 0;
    QHash<int, QString> m_errorMessages;
    QHash<int, QString> m_blockedMessages;
    bool m_dark = false;
    // The light colours (text, paper) of each style of a lexer shown dark, by style (-1: the defaults), to go
    // back to.
    QHash<QsciLexer*, QHash<int, std::pair<QColor, QColor>>> m_lightColours;
};

} // namespace sb::ui
