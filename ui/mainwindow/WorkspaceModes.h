#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>

#include <map>

class QAction;
class QActionGroup;
class QDockWidget;
class QMainWindow;
class QSettings;
class QToolBar;
class QWidget;

namespace sb::ui {

// The window's workspaces, one per kind of work (Eclipse's perspectives, Qt Creator's modes): each shows its
// own panels using the whole window, and remembers how the person arranged them. A panel (a dock) may be
// shown in any workspace; what each workspace shows and where is kept per workspace, across sessions.
class WorkspaceModes : public QObject {
    Q_OBJECT
public:
    enum class Mode { Snippets, Rules, Agents, Checkpoints, Audit, Dashboard };

    // What a workspace shows the first time, and after Reset: the editor with its output in the centre or
    // not, the panels that fill the window (`main`, tabbed), and one panel below them (or null) with others
    // tabbed behind it (`belowTabs`).
    struct Layout {
        bool central = false;
        QList<QDockWidget*> main;
        QDockWidget* below = nullptr;
        QList<QDockWidget*> belowTabs;
    };

    // `central`: the window's central widget (the snippet editor and its output).
    WorkspaceModes(QMainWindow* window, QWidget* central);

    // Adds a workspace, chosen by the checkable `action` (made exclusive with the others).
    void addMode(Mode mode, QAction* action, Layout layout);
    // The vertical bar of the workspaces' actions, at the window's left edge.
    QToolBar* createBar();

    Mode current() const { return m_current; }
    // Shows `mode`'s panels as it last had them (or its layout). The workspace left keeps its arrangement.
    void switchTo(Mode mode);
    // The current workspace as its Layout gives it.
    void resetCurrent();

    // The arrangement of every workspace, and which is shown, in `settings` (keys under "workspaces/").
    void save(QSettings& settings);
    // Reads what save() wrote and shows the workspace that was current; a missing or stale entry (another
    // version of the window's panels) gives that workspace its layout.
    void restore(const QSettings& settings);

    static QString modeKey(Mode mode);

signals:
    void modeChanged(sb::ui::WorkspaceModes::Mode mode);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // A workspace without the editor: its panels take the whole width.
    void fill();
    void fillSoon();
    void apply(Mode mode);
    void applyLayout(const Layout& layout);

    QMainWindow* m_window;
    QWidget* m_central;
    QActionGroup* m_group;
    std::map<Mode, QAction*> m_actions;
    std::map<Mode, Layout> m_layouts;
    std::map<Mode, QByteArray> m_states; // saveState() of each workspace as last left
    Mode m_current = Mode::Snippets;
    bool m_started = false;
};

} // namespace sb::ui
