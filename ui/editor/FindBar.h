#pragma once
// The inline find bar under an editor (as in Qt Creator or VS Code): find next and previous, match case, whole
// words, regular expressions, replace, replace all as one undo step, the number of matches; Esc closes it.
// It works on any QsciScintilla, so every editor of the workbench can have one.

#include <Qsci/qsciscintilla.h>

#include <QPointer>
#include <QRegularExpression>
#include <QWidget>

#include <utility>
#include <vector>

class QLabel;
class QLineEdit;
class QToolButton;

namespace sb::ui {

class FindBar : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(QsciScintilla* editor, QWidget* parent = nullptr);

    // The editor searched (a workspace with tabs of editors follows its current tab); null: none, the bar hides.
    void setEditor(QsciScintilla* editor);
    QsciScintilla* editor() const { return m_editor; }

    // Shows the bar with the find field focused, the editor's selection (one line) as the text to find.
    void showFind();
    // As showFind, with the replace row.
    void showReplace();

    void setFindText(const QString& text);
    void setReplaceText(const QString& text);
    void setMatchCase(bool on);
    void setWholeWords(bool on);
    void setRegularExpression(bool on);

    // Select the next (previous) match after (before) the selection, wrapping at the end; false: no match.
    bool findNext();
    bool findPrevious();
    // Replaces the selected match and selects the next one; false when the selection is not a match.
    bool replaceCurrent();
    // Replaces every match in one undo step; returns how many were replaced.
    int replaceAll();
    int matchCount() const { return static_cast<int>(m_matches.size()); }
    // The pattern's error, empty when the pattern is valid.
    QString patternError() const { return m_patternError; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    using Match = std::pair<qsizetype, qsizetype>; // start and length, in characters of the editor's text
    // The options and the text to find as one expression; invalid when the regular expression is.
    QRegularExpression expression() const;
    // Finds every match again, marks them in the editor and updates the count.
    void refresh();
    // Whether there is an editor to search; its matches brought up to date with its text when there is.
    bool upToDate();
    void showCount();
    void highlight();
    void clearMarks();
    void select(const Match& match);
    // The selection, in characters of the editor's text.
    Match selection() const;
    qsizetype toCharacters(int bytePosition) const;
    int toBytes(qsizetype characterPosition) const;

    QPointer<QsciScintilla> m_editor; // a tab's editor may go while the bar stays
    QMetaObject::Connection m_editorChanged;
    QLineEdit* m_find = nullptr;
    QLineEdit* m_replace = nullptr;
    QWidget* m_replaceRow = nullptr;
    QToolButton* m_case = nullptr;
    QToolButton* m_words = nullptr;
    QToolButton* m_regex = nullptr;
    QLabel* m_count = nullptr;
    int m_indicator = -1; // the editor's indicator for the matches
    QString m_text; // the editor's text the matches were found in
    std::vector<Match> m_matches;
    QString m_patternError;
    bool m_replacingAll = false;
};

} // namespace sb::ui
