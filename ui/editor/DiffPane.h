#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QStackedWidget;
class QToolButton;

namespace sb::ui {

class DiffView;
class SideBySideDiffView;

// A diff with a choice of layout, as code review tools offer it: unified (DiffView) or side by side
// (SideBySideDiffView), switched by two toolbar buttons; the choice is kept in QSettings under
// `settingsKey`. What is not a diff of text (a binary file, a note) is a notice panel in both layouts.
class DiffPane : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Unified, SideBySide };

    DiffPane(const QString& settingsKey, QWidget* parent = nullptr);

    // A unified diff (sb::unifiedDiff). Text with no hunk is shown as a notice.
    void showDiff(const QString& unified);
    // A panel instead of a diff: a bold title and a text.
    void showNotice(const QString& title, const QString& text);

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);
    bool showsNotice() const;

    DiffView* unifiedView() const { return m_unified; }
    SideBySideDiffView* sideBySideView() const { return m_sides; }
    QLabel* notice() const { return m_notice; }

private:
    void showCurrent();

    QString m_settingsKey;
    Mode m_mode = Mode::Unified;
    bool m_noticeShown = false;
    QToolButton* m_unifiedButton = nullptr;
    QToolButton* m_sideBySideButton = nullptr;
    QStackedWidget* m_stack = nullptr;
    DiffView* m_unified = nullptr;
    SideBySideDiffView* m_sides = nullptr;
    QLabel* m_notice = nullptr;
};

} // namespace sb::ui
