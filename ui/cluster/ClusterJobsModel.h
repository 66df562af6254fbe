#pragma once

#include "cluster/job_status.h"

#include <QAbstractTableModel>
#include <QString>

#include <map>
#include <vector>

namespace sb::ui {

// Where a cluster job stands, as the window tells it: core's JobState (cluster/job_status.h), and Removing,
// which only this window knows.
enum class ClusterJobState {
    Running,    // its command runs
    Cancelling, // asked to cancel (the cancel file is there, or this window just asked): until its folder goes
    Removing,   // this window is removing its folder
    Failed,     // its command failed and kept the folder with its logs
    Gone,       // its command ended without a word (killed)
    Unreadable, // its status cannot be read
};

// The jobs of the cluster spool (ClusterJobsReader's listing), one row each, the newest first, with what the
// window asked of them since. Each listing updates the rows in place when the same jobs are listed, else resets.
class ClusterJobsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TitleColumn,    // what was asked: the command line
        KindColumn,     // rules, batch, agent
        PhaseColumn,    // the command's phase
        ProgressColumn, // tasks done of all (a bar: ProgressRole)
        RecordsColumn,  // records done, when any
        JobsColumn,     // Slurm's job ids
        WhereColumn,    // user@host
        StartedColumn,  // how long ago
        StateColumn,    // running, cancelling…, failed: error, gone
        ActionsColumn,  // the row's buttons (the view's)
        ColumnCount
    };
    enum Role {
        FolderRole = Qt::UserRole + 1, // QString
        StateRole,                     // int (ClusterJobState)
        ProgressRole,                  // double in [0, 1]; invalid when the stage has no tasks yet
    };

    explicit ClusterJobsModel(QObject* parent);

    // A new listing, taken at `nowMs` (milliseconds since the epoch; the relative times count from it).
    void setJobs(std::vector<sb::cluster::JobStatus> jobs, qint64 nowMs);
    // What this window asked of the job in `folder`, shown until a listing no longer has it (cancel) or until
    // cleared (a removal that failed).
    void markCancelling(const QString& folder);
    void markRemoving(const QString& folder);
    void clearMark(const QString& folder);

    const sb::cluster::JobStatus* job(int row) const;
    ClusterJobState state(int row) const;
    int rowOf(const QString& folder) const; // -1 when not listed

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The texts of a job, in the user's language.
    static ClusterJobState stateOf(const sb::cluster::JobStatus& job);
    static QString stateText(ClusterJobState state, const sb::cluster::JobStatus& job);
    static QString phaseText(const std::string& phase);
    static QString kindText(const std::string& kind);
    static QString progressText(const sb::cluster::StageProgress& progress);    // "12 / 40"
    static QString progressDetails(const sb::cluster::StageProgress& progress); // queued, running, retried
    static QString relativeTimeText(qint64 thenMs, qint64 nowMs);               // "3 min ago"

private:
    enum class Mark { Cancelling, Removing };
    QVariant display(const sb::cluster::JobStatus& job, ClusterJobState state, int column) const;
    QVariant toolTip(const sb::cluster::JobStatus& job, ClusterJobState state, int column) const;

    std::vector<sb::cluster::JobStatus> m_jobs;
    std::map<QString, Mark> m_marks; // by folder
    qint64 m_nowMs = 0;
};

} // namespace sb::ui
