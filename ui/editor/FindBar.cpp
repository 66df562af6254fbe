#include "ui/editor/FindBar.h"

#include <Qsci/qsciscintilla.h>

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace sb::ui {

namespace {

QToolButton* optionButton(const QString& text, const QString& toolTip, const QString& name, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setObjectName(name);
    button->setText(text);
    button->setToolTip(toolTip);
    button->setCheckable(true);
    button->setAutoRaise(true);
    return button;
}

QToolButton* actionButton(const QString& text, const QString& toolTip, const QString& name, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setObjectName(name);
    button->setText(text);
    button->setToolTip(toolTip);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace

FindBar::FindBar(QsciScintilla* editor, QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("findBar"));
    m_find = new QLineEdit(this);
    m_find->setObjectName(QStringLiteral("findText"));
    m_find->setPlaceholderText(tr("Find"));
    m_find->setClearButtonEnabled(true);
    m_find->setAccessibleName(tr("Text to find"));
    auto* previous = actionButton(tr("▲"), tr("Find the previous match (Shift+F3, Shift+Enter)"),
                                  QStringLiteral("findPrevious"), this);
    auto* next = actionButton(tr("▼"), tr("Find the next match (F3, Enter)"), QStringLiteral("findNext"), this);
    m_case = optionButton(tr("Aa"), tr("Match case"), QStringLiteral("findMatchCase"), this);
    m_words = optionButton(tr("W"), tr("Whole words only"), QStringLiteral("findWholeWords"), this);
    m_regex = optionButton(tr(".*"), tr("Regular expression (replace with \\1 for a captured group)"),
                           QStringLiteral("findRegex"), this);
    // The symbols say nothing to a screen reader: each button is named in words.
    previous->setAccessibleName(tr("Previous match"));
    next->setAccessibleName(tr("Next match"));
    m_case->setAccessibleName(tr("Match case"));
    m_words->setAccessibleName(tr("Whole words only"));
    m_regex->setAccessibleName(tr("Regular expression"));
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("findCount"));
    m_count->setMinimumWidth(m_count->fontMetrics().horizontalAdvance(tr("No matches")) + 8);
    auto* close = actionButton(tr("✕"), tr("Close the find bar (Esc)"), QStringLiteral("findClose"), this);
    close->setAutoRaise(true);
    close->setAccessibleName(tr("Close the find bar"));

    m_replace = new QLineEdit(this);
    m_replace->setObjectName(QStringLiteral("replaceText"));
    m_replace->setPlaceholderText(tr("Replace with"));
    m_replace->setAccessibleName(tr("Replacement text"));
    auto* replace = actionButton(tr("Replace"), tr("Replace the selected match and find the next"),
                                 QStringLiteral("replaceButton"), this);
    auto* replaceAllButton = actionButton(tr("Replace All"), tr("Replace every match (one undo step)"),
                                          QStringLiteral("replaceAllButton"), this);

    auto* findRow = new QHBoxLayout;
    findRow->setContentsMargins(0, 0, 0, 0);
    findRow->addWidget(m_find, 1);
    for (QWidget* w : std::initializer_list<QWidget*>{previous, next, m_case, m_words, m_regex, m_count, close})
        findRow->addWidget(w);
    m_replaceRow = new QWidget(this);
    auto* replaceRow = new QHBoxLayout(m_replaceRow);
    replaceRow->setContentsMargins(0, 0, 0, 0);
    replaceRow->addWidget(m_replace, 1);
    replaceRow->addWidget(replace);
    replaceRow->addWidget(replaceAllButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addLayout(findRow);
    layout->addWidget(m_replaceRow);

    connect(m_find, &QLineEdit::textChanged, this, &FindBar::refresh);
    for (auto* option : {m_case, m_words, m_regex})
        connect(option, &QToolButton::toggled, this, &FindBar::refresh);
    connect(previous, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(replace, &QToolButton::clicked, this, &FindBar::replaceCurrent);
    connect(replaceAllButton, &QToolButton::clicked, this, &FindBar::replaceAll);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    m_find->installEventFilter(this);
    m_replace->installEventFilter(this);
    hide();
    setEditor(editor);
}

void FindBar::setEditor(QsciScintilla* editor)
{
    if (editor == m_editor)
        return;
    if (m_editor) {
        clearMarks();
        disconnect(m_editorChanged);
    }
    m_editor = editor;
    m_text.clear();
    m_matches.clear();
    if (!m_editor) {
        hide();
        return;
    }
    // One indicator per editor, kept on it: several bars (or one bar over time) share it.
    const char* key = "sbFindIndicator";
    if (!m_editor->property(key).isValid()) {
        const int indicator = m_editor->indicatorDefine(QsciScintilla::StraightBoxIndicator);
        m_editor->setIndicatorForegroundColor(QColor(0xf5, 0xa6, 0x23, 0x90), indicator);
        m_editor->setIndicatorDrawUnder(true, indicator);
        m_editor->setProperty(key, indicator);
    }
    m_indicator = m_editor->property(key).toInt();
    m_editorChanged = connect(m_editor.data(), &QsciScintilla::textChanged, this, [this] {
        if (isVisible() && !m_replacingAll)
            refresh();
    });
    if (isVisible())
        refresh();
}

void FindBar::showFind()
{
    if (!m_editor)
        return;
    if (m_editor->hasSelectedText()) {
        const QString selected = m_editor->selectedText();
        if (!selected.contains(QLatin1Char('\n')))
            m_find->setText(m_regex->isChecked() ? QRegularExpression::escape(selected) : selected);
    }
    m_replaceRow->hide();
    show();
    m_find->setFocus();
    m_find->selectAll();
    refresh();
}

void FindBar::showReplace()
{
    showFind();
    m_replaceRow->show();
}

void FindBar::setFindText(const QString& text)
{
    m_find->setText(text);
}

void FindBar::setReplaceText(const QString& text)
{
    m_replace->setText(text);
}

void FindBar::setMatchCase(bool on)
{
    m_case->setChecked(on);
}

void FindBar::setWholeWords(bool on)
{
    m_words->setChecked(on);
}

void FindBar::setRegularExpression(bool on)
{
    m_regex->setChecked(on);
}

QRegularExpression FindBar::expression() const
{
    QString pattern = m_regex->isChecked() ? m_find->text() : QRegularExpression::escape(m_find->text());
    if (m_words->isChecked())
        pattern = QStringLiteral("\\b(?:%1)\\b").arg(pattern);
    QRegularExpression::PatternOptions options = QRegularExpression::UseUnicodePropertiesOption;
    if (!m_case->isChecked())
        options |= QRegularExpression::CaseInsensitiveOption;
    if (m_regex->isChecked())
        options |= QRegularExpression::MultilineOption;
    return QRegularExpression(pattern, options);
}

void FindBar::refresh()
{
    if (!m_editor)
        return;
    m_text = m_editor->text();
    m_matches.clear();
    m_patternError.clear();
    if (!m_find->text().isEmpty()) {
        const QRegularExpression re = expression();
        if (!re.isValid()) {
            m_patternError = re.errorString();
        } else {
            for (auto it = re.globalMatch(m_text); it.hasNext();) {
                const auto match = it.next();
                if (match.capturedLength() > 0) // an empty match selects nothing and replaces nothing
                    m_matches.emplace_back(match.capturedStart(), match.capturedLength());
            }
        }
    }
    highlight();
    showCount();
}

void FindBar::showCount()
{
    QString style;
    if (!m_patternError.isEmpty()) {
        m_count->setText(tr("Invalid pattern"));
        m_count->setToolTip(m_patternError);
        style = QStringLiteral("color: #c0392b;");
    } else if (m_find->text().isEmpty()) {
        m_count->clear();
        m_count->setToolTip({});
    } else if (m_matches.empty()) {
        m_count->setText(tr("No matches"));
        m_count->setToolTip({});
        style = QStringLiteral("color: #c0392b;");
    } else {
        const Match current = selection();
        const auto at = std::find(m_matches.begin(), m_matches.end(), current);
        m_count->setText(at == m_matches.end()
                             ? tr("%n match(es)", nullptr, matchCount())
                             : tr("%1 of %2").arg(at - m_matches.begin() + 1).arg(matchCount()));
        m_count->setToolTip({});
    }
    m_count->setStyleSheet(style);
    m_find->setStyleSheet(m_matches.empty() && !m_find->text().isEmpty()
                              ? QStringLiteral("QLineEdit { background: #fdecea; color: #1f2328; }")
                              : QString());
}

void FindBar::clearMarks()
{
    m_editor->SendScintilla(QsciScintilla::SCI_SETINDICATORCURRENT, static_cast<unsigned long>(m_indicator));
    m_editor->SendScintilla(QsciScintilla::SCI_INDICATORCLEARRANGE, 0ul,
                            m_editor->SendScintilla(QsciScintilla::SCI_GETLENGTH));
}

void FindBar::highlight()
{
    if (!m_editor)
        return;
    clearMarks();
    if (!isVisible())
        return;
    for (const auto& [start, length] : m_matches) {
        const int from = toBytes(start);
        m_editor->SendScintilla(QsciScintilla::SCI_INDICATORFILLRANGE, static_cast<unsigned long>(from),
                                static_cast<long>(toBytes(start + length) - from));
    }
}

qsizetype FindBar::toCharacters(int bytePosition) const
{
    return QString::fromUtf8(m_text.toUtf8().left(bytePosition)).size();
}

int FindBar::toBytes(qsizetype characterPosition) const
{
    return static_cast<int>(QStringView(m_text).left(characterPosition).toUtf8().size());
}

FindBar::Match FindBar::selection() const
{
    const auto start = static_cast<int>(m_editor->SendScintilla(QsciScintilla::SCI_GETSELECTIONSTART));
    const auto end = static_cast<int>(m_editor->SendScintilla(QsciScintilla::SCI_GETSELECTIONEND));
    const qsizetype from = toCharacters(start);
    return {from, toCharacters(end) - from};
}

void FindBar::select(const Match& match)
{
    const int from = toBytes(match.first);
    const int to = toBytes(match.first + match.second);
    m_editor->SendScintilla(QsciScintilla::SCI_SETSEL, static_cast<unsigned long>(from), static_cast<long>(to));
    m_editor->SendScintilla(QsciScintilla::SCI_SCROLLCARET);
    showCount();
}

bool FindBar::upToDate()
{
    if (!m_editor)
        return false;
    if (m_text != m_editor->text())
        refresh();
    return true;
}

bool FindBar::findNext()
{
    if (!upToDate() || m_matches.empty())
        return false;
    const Match current = selection();
    const qsizetype after = current.first + current.second;
    const auto next = std::find_if(m_matches.begin(), m_matches.end(), [&](const Match& m) {
        return m.first >= after && m != current;
    });
    select(next == m_matches.end() ? m_matches.front() : *next); // wraps around at the end
    return true;
}

bool FindBar::findPrevious()
{
    if (!upToDate() || m_matches.empty())
        return false;
    const Match current = selection();
    const auto previous = std::find_if(m_matches.rbegin(), m_matches.rend(), [&](const Match& m) {
        return m.first + m.second <= current.first && m != current;
    });
    select(previous == m_matches.rend() ? m_matches.back() : *previous); // wraps around at the start
    return true;
}

bool FindBar::replaceCurrent()
{
    if (!upToDate())
        return false;
    const Match current = selection();
    if (std::find(m_matches.begin(), m_matches.end(), current) == m_matches.end()) {
        findNext(); // nothing selected to replace: go to the next match first
        return false;
    }
    const QString matched = m_text.mid(current.first, current.second);
    const QString replacement = m_regex->isChecked() ? QString(matched).replace(expression(), m_replace->text())
                                                     : m_replace->text();
    m_editor->replaceSelectedText(replacement);
    refresh();
    findNext();
    return true;
}

int FindBar::replaceAll()
{
    if (!m_editor)
        return 0;
    refresh();
    if (m_matches.empty())
        return 0;
    const QRegularExpression re = expression();
    const bool regex = m_regex->isChecked();
    // From the last match to the first, so the positions before each replacement stay as found (and so does
    // m_text before them: the matches are not looked for again until the end).
    const std::vector<Match> matches = m_matches;
    m_replacingAll = true;
    m_editor->beginUndoAction();
    for (auto it = matches.rbegin(); it != matches.rend(); ++it) {
        const QString matched = m_text.mid(it->first, it->second);
        select(*it);
        m_editor->replaceSelectedText(regex ? QString(matched).replace(re, m_replace->text()) : m_replace->text());
    }
    m_editor->endUndoAction();
    m_replacingAll = false;
    const int replaced = static_cast<int>(matches.size());
    refresh();
    m_count->setText(tr("%n replaced", nullptr, replaced));
    return replaced;
}

void FindBar::hideEvent(QHideEvent* event)
{
    highlight(); // hidden: the marks go
    QWidget::hideEvent(event);
}

bool FindBar::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        // Esc closes the bar rather than reaching the window's shortcut (which cancels a run).
        if (key->key() == Qt::Key_Escape) {
            if (event->type() == QEvent::KeyPress) {
                hide();
                if (m_editor)
                    m_editor->setFocus();
            }
            event->accept();
            return true;
        }
        if (event->type() == QEvent::KeyPress && (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)) {
            if (watched == m_replace)
                replaceCurrent();
            else if (key->modifiers() & Qt::ShiftModifier)
                findPrevious();
            else
                findNext();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace sb::ui
