#include "ui/jobs/StoreFollower.h"

#include "ui/models/Conversions.h"

#include <QTimer>

namespace sb::ui {

StoreFollower::StoreFollower(QObject* parent) : QObject(parent), m_timer(new QTimer(this))
{
    m_timer->setInterval(kPollMs);
    connect(m_timer, &QTimer::timeout, this, &StoreFollower::poll);
}

StoreFollower::~StoreFollower() = default;

std::optional<QString> StoreFollower::follow(const std::optional<std::filesystem::path>& path)
{
    stop();
    if (!path)
        return std::nullopt;
    auto changes = sb::StoreChanges::open(*path);
    if (!changes)
        return toQString(changes.error().message);
    m_changes = std::move(*changes);
    m_timer->start();
    return std::nullopt;
}

void StoreFollower::stop()
{
    m_timer->stop();
    m_changes.reset();
}

void StoreFollower::poll()
{
    if (!m_changes)
        return;
    auto polled = m_changes->poll();
    if (!polled) {
        const QString error = toQString(polled.error().message);
        stop();
        emit stopped(error);
        return;
    }
    // Busy: the store was locked just then (another process migrating or checkpointing it); the next poll asks again.
    if (*polled == sb::StoreChanges::Poll::Changed) {
        ++m_changeCount;
        emit changed();
    }
}

} // namespace sb::ui
