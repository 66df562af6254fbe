#pragma once

#include "cluster/job_status.h"

#include <QFutureWatcher>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <vector>

namespace sb::ui {

// What a look at the cluster gave: the user's configuration (cluster/config.h) and the jobs of its Slurm spool
// (cluster/job_status.h), or why there are none.
struct ClusterJobsListing {
    enum class State {
        NotConfigured, // no configuration file, or one without a slurm section
        ConfigError,   // the configuration cannot be read: `error`
        SpoolError,    // the spool cannot be listed: `error`
        Listed,
    };
    State state = State::NotConfigured;
    QString configFile; // where the configuration is read from (or would be)
    QString spool;
    QString error;
    std::vector<sb::cluster::JobStatus> jobs; // the newest first
    qint64 listedMs = 0;                      // when, in milliseconds since the epoch
};

// Reads the cluster configuration and lists its spool, which may be on a slow network file system, on a
// worker thread, one listing at a time: list() while one is under way lists once more after it (a periodic
// caller that would rather skip asks isListing() first). Cancels and removals run on the same thread, in turn
// with the listings, and each is followed by a listing that shows what it did.
class ClusterJobsReader : public QObject {
    Q_OBJECT
public:
    explicit ClusterJobsReader(QObject* parent);
    ~ClusterJobsReader() override; // waits for the work under way

    void list();
    bool isListing() const { return m_listing; }
    // Asks the command of the job in `folder` to cancel its jobs (cluster::requestCancel).
    void requestCancel(const QString& folder);
    // Removes the folder of a job whose command has ended (cluster::removeJobFolder).
    void removeJob(const QString& folder);
    // Cancels and removals under way.
    int pendingActions() const { return m_actions; }

    // The listing, made on the calling thread (the worker's body; tests call it directly).
    static ClusterJobsListing read();

signals:
    void listed(const sb::ui::ClusterJobsListing& listing);
    // A cancel or removal ended; `error` is empty when it was done.
    void cancelDone(const QString& folder, const QString& error);
    void removeDone(const QString& folder, const QString& error);

private:
    void onListed();

    QThreadPool m_pool;
    QFutureWatcher<ClusterJobsListing>* m_watcher = nullptr;
    bool m_listing = false;
    bool m_again = false; // asked while listing: list once more
    int m_actions = 0;
};

} // namespace sb::ui

Q_DECLARE_METATYPE(sb::ui::ClusterJobsListing)
