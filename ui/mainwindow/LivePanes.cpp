#include "ui/mainwindow/LivePanes.h"

#include <QDockWidget>
#include <QTimer>
#include <QWidget>

#include <algorithm>

namespace sb::ui {

LivePanes::LivePanes(QObject* parent) : QObject(parent), m_retry(new QTimer(this))
{
    m_retry->setSingleShot(true);
    m_retry->setInterval(kRetryMs);
    connect(m_retry, &QTimer::timeout, this, &LivePanes::catchUp);
}

namespace {

// The dock widget `widget` is in, if any.
QDockWidget* dockOf(const QWidget* widget)
{
    for (QWidget* parent = widget->parentWidget(); parent; parent = parent->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(parent))
            return dock;
    }
    return nullptr;
}

} // namespace

void LivePanes::add(Pane pane)
{
    m_entries.push_back(Entry{std::move(pane)});
}

bool LivePanes::shows(const QWidget* widget)
{
    if (!widget->isVisible())
        return false;
    const QDockWidget* dock = dockOf(widget);
    if (!dock || dock->isFloating())
        return true;
    // As QMainWindow decides a docked widget's visibilityChanged: behind another tab, it is moved out of the window.
    const QRect geometry = dock->geometry();
    return geometry.right() >= 0 && geometry.bottom() >= 0;
}

bool LivePanes::settled() const
{
    return std::none_of(m_entries.begin(), m_entries.end(), [](const Entry& entry) {
        return entry.pane.busy() || (entry.stale && shows(entry.pane));
    });
}

void LivePanes::storeChanged()
{
    for (auto& entry : m_entries)
        entry.stale = true;
    catchUp();
}

int LivePanes::readCount(const QString& name) const
{
    const auto it = std::find_if(m_entries.begin(), m_entries.end(),
                                 [&name](const Entry& entry) { return entry.pane.name == name; });
    return it == m_entries.end() ? 0 : it->reads;
}

bool LivePanes::shows(const Pane& pane)
{
    return std::any_of(pane.widgets.begin(), pane.widgets.end(),
                       [](const QWidget* widget) { return shows(widget); });
}

void LivePanes::catchUp()
{
    bool waiting = false;
    for (auto& entry : m_entries) {
        if (!entry.stale)
            continue;
        if (!shows(entry.pane) || entry.pane.busy()) {
            waiting = true; // until it shows, or its read ends
            continue;
        }
        entry.stale = false;
        ++entry.reads;
        entry.pane.read();
    }
    if (waiting && !m_retry->isActive())
        m_retry->start();
}

} // namespace sb::ui
