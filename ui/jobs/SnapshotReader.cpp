#include "ui/jobs/SnapshotReader.h"

#include "ui/models/Conversions.h"

#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace sb::ui {

SnapshotReader::SnapshotReader(QObject* parent) : QObject(parent), m_watcher(new QFutureWatcher<SnapshotRead>(this))
{
    m_pool.setMaxThreadCount(1);
    connect(m_watcher, &QFutureWatcher<SnapshotRead>::finished, this, &SnapshotReader::onFinished);
}

SnapshotReader::~SnapshotReader()
{
    m_watcher->disconnect(this);
    m_pool.waitForDone();
}

void SnapshotReader::setStore(std::optional<sb::StoreLocation> store)
{
    m_store = std::move(store);
    m_again = false;
}

void SnapshotReader::read()
{
    if (!m_store)
        return;
    if (m_reading) {
        m_again = true;
        return;
    }
    m_reading = true;
    m_watcher->setFuture(QtConcurrent::run(&m_pool, [store = *m_store] {
        SnapshotRead read;
        auto snapshot = loadStoreSnapshot(store);
        if (snapshot)
            read.snapshot = std::move(*snapshot);
        else
            read.error = toQString(snapshot.error().message);
        return read;
    }));
}

void SnapshotReader::onFinished()
{
    m_reading = false;
    const auto future = m_watcher->future();
    // No store any more (it was unset while the read ran): what was read is of no use.
    if (future.resultCount() > 0 && m_store) {
        const SnapshotRead read = future.result();
        if (read.snapshot)
            emit snapshotRead(*read.snapshot);
        else
            emit failed(read.error);
    }
    if (std::exchange(m_again, false))
        this->read();
}

} // namespace sb::ui
