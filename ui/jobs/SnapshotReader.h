#pragma once

#include "ui/jobs/RunJob.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <optional>

namespace sb::ui {

// What a read of the store's snapshot gave: the snapshot, or why there is none.
struct SnapshotRead {
    std::optional<StoreSnapshot> snapshot;
    QString error;
};

// Reads the history's and the dashboard's snapshot (loadStoreSnapshot) on a worker thread through its own
// connection, one read at a time: read() while one is under way reads once more after it, so a burst of asks is
// two reads at most.
class SnapshotReader : public QObject {
    Q_OBJECT
public:
    explicit SnapshotReader(QObject* parent);
    ~SnapshotReader() override; // waits for the read under way

    // Where to read; std::nullopt reads nothing.
    void setStore(std::optional<sb::StoreLocation> store);
    void read();
    bool isReading() const { return m_reading; }

signals:
    void snapshotRead(const sb::ui::StoreSnapshot& snapshot);
    void failed(const QString& error);

private:
    void onFinished();

    QThreadPool m_pool;
    QFutureWatcher<SnapshotRead>* m_watcher = nullptr;
    std::optional<sb::StoreLocation> m_store;
    bool m_reading = false;
    bool m_again = false; // asked while reading: read once more
};

} // namespace sb::ui
