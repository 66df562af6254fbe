#include "ui/mainwindow/WorkspaceModes.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QSettings>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <optional>

namespace sb::ui {

namespace {

// The version of the panels' arrangement saveState() records, raised whenever the window's panels change: a
// state of another version (other panels, or the layout before workspaces) is not restored.
constexpr int kStateVersion = 3;

const QString kCurrentKey = QStringLiteral("workspaces/current");

} // namespace

WorkspaceModes::WorkspaceModes(QMainWindow* window, QWidget* central)
    : QObject(window)
    , m_window(window)
    , m_central(central)
    , m_group(new QActionGroup(this))
{
    m_group->setExclusive(true);
    window->installEventFilter(this);
}

QString WorkspaceModes::modeKey(Mode mode)
{
    switch (mode) {
    case Mode::Snippets: return QStringLiteral("snippets");
    case Mode::Rules: return QStringLiteral("rules");
    case Mode::Agents: return QStringLiteral("agents");
    case Mode::Checkpoints: return QStringLiteral("checkpoints");
    case Mode::Audit: return QStringLiteral("audit");
    case Mode::Dashboard: return QStringLiteral("dashboard");
    }
    return {};
}

void WorkspaceModes::addMode(Mode mode, QAction* action, Layout layout)
{
    action->setCheckable(true);
    m_group->addAction(action);
    m_actions[mode] = action;
    m_layouts[mode] = std::move(layout);
    connect(action, &QAction::triggered, this, [this, mode] { switchTo(mode); });
}

QToolBar* WorkspaceModes::createBar()
{
    auto* bar = new QToolBar(tr("Workspaces"), m_window);
    bar->setObjectName(QStringLiteral("workspaceBar"));
    bar->setMovable(false);
    bar->setFloatable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextUnderIcon);
    bar->setIconSize(QSize(22, 22));
    for (const auto& [mode, action] : m_actions)
        bar->addAction(action);
    // Every button as wide as the widest: a column of equal tiles.
    int widest = 0;
    for (const auto& [mode, action] : m_actions) {
        if (QWidget* button = bar->widgetForAction(action))
            widest = std::max(widest, button->sizeHint().width());
    }
    for (const auto& [mode, action] : m_actions) {
        if (QWidget* button = bar->widgetForAction(action))
            button->setMinimumWidth(widest);
    }
    m_window->addToolBar(Qt::LeftToolBarArea, bar);
    return bar;
}

bool WorkspaceModes::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::Resize && m_started)
        QTimer::singleShot(0, this, &WorkspaceModes::fill);
    return QObject::eventFilter(watched, event);
}

void WorkspaceModes::fillSoon()
{
    fill();
    // Docks just moved settle their sizes on the next turn of the event loop.
    QTimer::singleShot(0, this, &WorkspaceModes::fill);
}

void WorkspaceModes::fill()
{
    // QMainWindow gives the width its central widget would have to nothing when that is hidden: the
    // workspace's own panels take it.
    const Layout& layout = m_layouts[m_current];
    if (layout.central)
        return;
    for (auto* dock : layout.main) {
        if (dock->isVisible() && !dock->isFloating()
            && m_window->dockWidgetArea(dock) == Qt::RightDockWidgetArea) {
            m_window->resizeDocks({dock}, {m_window->width()}, Qt::Horizontal);
            return;
        }
    }
}

void WorkspaceModes::switchTo(Mode mode)
{
    if (m_started && mode == m_current) {
        m_actions[mode]->setChecked(true);
        return;
    }
    if (m_started)
        m_states[m_current] = m_window->saveState(kStateVersion);
    m_started = true;
    m_current = mode;
    apply(mode);
    emit modeChanged(mode);
}

void WorkspaceModes::resetCurrent()
{
    m_states.erase(m_current);
    applyLayout(m_layouts[m_current]);
}

void WorkspaceModes::apply(Mode mode)
{
    if (auto action = m_actions.find(mode); action != m_actions.end())
        action->second->setChecked(true);
    const Layout& layout = m_layouts[mode];
    const auto state = m_states.find(mode);
    if (state == m_states.end() || !m_window->restoreState(state->second, kStateVersion)) {
        applyLayout(layout);
        return;
    }
    m_central->setVisible(layout.central);
    fillSoon();
    // A workspace whose every panel the person closed would be an empty window: it starts over instead.
    if (!layout.central) {
        const auto docks = m_window->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly);
        if (std::none_of(docks.begin(), docks.end(), [](const QDockWidget* dock) { return dock->isVisibleTo(dock->parentWidget()); }))
            applyLayout(layout);
    }
}

void WorkspaceModes::applyLayout(const Layout& layout)
{
    for (auto* dock : m_window->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (!layout.main.contains(dock) && dock != layout.below && !layout.belowTabs.contains(dock))
            dock->hide();
    }
    m_central->setVisible(layout.central);
    QDockWidget* first = nullptr;
    for (auto* dock : layout.main) {
        dock->setFloating(false);
        if (!first) {
            m_window->addDockWidget(Qt::RightDockWidgetArea, dock);
            first = dock;
        } else {
            m_window->tabifyDockWidget(first, dock);
        }
        dock->show();
    }
    if (QDockWidget* below = layout.below) {
        below->setFloating(false);
        if (layout.central || !first)
            m_window->addDockWidget(Qt::BottomDockWidgetArea, below);
        else
            m_window->splitDockWidget(first, below, Qt::Vertical);
        below->show();
        for (auto* tab : layout.belowTabs) {
            tab->setFloating(false);
            m_window->tabifyDockWidget(below, tab);
            tab->show();
        }
        below->raise();
        // Below the editor, two sevenths of the height; below a workspace's panels, two fifths.
        const int height = m_window->height();
        if (first)
            m_window->resizeDocks({first, below}, {height * 3 / 5, height * 2 / 5}, Qt::Vertical);
        else
            m_window->resizeDocks({below}, {height * 2 / 7}, Qt::Vertical);
    }
    if (first)
        first->raise();
    fillSoon();
}

void WorkspaceModes::save(QSettings& settings)
{
    m_states[m_current] = m_window->saveState(kStateVersion);
    settings.setValue(kCurrentKey, modeKey(m_current));
    for (const auto& [mode, state] : m_states)
        settings.setValue(QStringLiteral("workspaces/") + modeKey(mode), state);
}

void WorkspaceModes::restore(const QSettings& settings)
{
    m_states.clear();
    std::optional<Mode> shown;
    const QString current = settings.value(kCurrentKey).toString();
    for (const auto& [mode, layout] : m_layouts) {
        const QByteArray state = settings.value(QStringLiteral("workspaces/") + modeKey(mode)).toByteArray();
        if (!state.isEmpty())
            m_states[mode] = state;
        if (modeKey(mode) == current)
            shown = mode;
    }
    m_started = false;
    switchTo(shown.value_or(Mode::Snippets));
}

} // namespace sb::ui
