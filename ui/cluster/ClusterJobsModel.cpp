#include "ui/cluster/ClusterJobsModel.h"

#include "ui/models/Conversions.h"
#include "ui/style/OutcomeStyle.h"

#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QLocale>
#include <QStringList>

#include <algorithm>

namespace sb::ui {

namespace {

QString folderOf(const sb::cluster::JobStatus& job)
{
    return toQString(job.folder.string());
}

QString joinedJobs(const sb::cluster::JobStatus& job)
{
    QStringList ids;
    for (const auto& id : job.progress.jobs)
        ids << toQString(id);
    return ids.join(QStringLiteral(", "));
}

QString whereText(const sb::cluster::JobStatus& job)
{
    if (job.user.empty() && job.host.empty())
        return {};
    return toQString(job.user) + QLatin1Char('@') + toQString(job.host);
}

} // namespace

ClusterJobsModel::ClusterJobsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ClusterJobsModel::setJobs(std::vector<sb::cluster::JobStatus> jobs, qint64 nowMs)
{
    m_nowMs = nowMs;
    // A cancel asked of a job no longer listed is done with.
    std::erase_if(m_marks, [&jobs](const auto& mark) {
        return std::none_of(jobs.begin(), jobs.end(),
                            [&mark](const sb::cluster::JobStatus& job) { return folderOf(job) == mark.first; });
    });
    const bool sameRows = std::equal(jobs.begin(), jobs.end(), m_jobs.begin(), m_jobs.end(),
                                     [](const auto& a, const auto& b) { return a.folder == b.folder; });
    if (!sameRows) {
        beginResetModel();
        m_jobs = std::move(jobs);
        endResetModel();
        return;
    }
    m_jobs = std::move(jobs);
    if (!m_jobs.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void ClusterJobsModel::markCancelling(const QString& folder)
{
    m_marks[folder] = Mark::Cancelling;
    if (const int row = rowOf(folder); row >= 0)
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void ClusterJobsModel::markRemoving(const QString& folder)
{
    m_marks[folder] = Mark::Removing;
    if (const int row = rowOf(folder); row >= 0)
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void ClusterJobsModel::clearMark(const QString& folder)
{
    if (m_marks.erase(folder) == 0)
        return;
    if (const int row = rowOf(folder); row >= 0)
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

const sb::cluster::JobStatus* ClusterJobsModel::job(int row) const
{
    return row >= 0 && row < rowCount() ? &m_jobs[static_cast<std::size_t>(row)] : nullptr;
}

ClusterJobState ClusterJobsModel::state(int row) const
{
    const auto* status = job(row);
    if (!status)
        return ClusterJobState::Gone;
    const ClusterJobState listed = stateOf(*status);
    const auto mark = m_marks.find(folderOf(*status));
    if (mark == m_marks.end())
        return listed;
    if (mark->second == Mark::Removing)
        return ClusterJobState::Removing;
    return listed == ClusterJobState::Running ? ClusterJobState::Cancelling : listed;
}

int ClusterJobsModel::rowOf(const QString& folder) const
{
    for (std::size_t i = 0; i < m_jobs.size(); ++i) {
        if (folderOf(m_jobs[i]) == folder)
            return static_cast<int>(i);
    }
    return -1;
}

int ClusterJobsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_jobs.size());
}

int ClusterJobsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClusterJobsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TitleColumn: return tr("Command");
    case KindColumn: return tr("Kind");
    case PhaseColumn: return tr("Phase");
    case ProgressColumn: return tr("Tasks done");
    case RecordsColumn: return tr("Records");
    case JobsColumn: return tr("Slurm jobs");
    case WhereColumn: return tr("User@host");
    case StartedColumn: return tr("Started");
    case StateColumn: return tr("State");
    case ActionsColumn: return QString();
    default: return {};
    }
}

QVariant ClusterJobsModel::data(const QModelIndex& index, int role) const
{
    const auto* status = index.isValid() ? job(index.row()) : nullptr;
    if (!status || index.column() >= ColumnCount)
        return {};
    const ClusterJobState jobState = state(index.row());
    switch (role) {
    case Qt::DisplayRole: return display(*status, jobState, index.column());
    case Qt::ToolTipRole: return toolTip(*status, jobState, index.column());
    case FolderRole: return folderOf(*status);
    case StateRole: return static_cast<int>(jobState);
    case ProgressRole:
        if (status->progress.tasks == 0)
            return {};
        return static_cast<double>(status->progress.done) / static_cast<double>(status->progress.tasks);
    case Qt::TextAlignmentRole:
        if (index.column() == RecordsColumn)
            return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ForegroundRole:
        if (index.column() != StateColumn)
            return {};
        if (jobState == ClusterJobState::Failed || jobState == ClusterJobState::Unreadable)
            return outcomeColor(sb::Outcome::Crashed);
        if (jobState == ClusterJobState::Gone)
            return QColor(Qt::gray);
        return {};
    case Qt::FontRole:
        if (index.column() == StateColumn
            && (jobState == ClusterJobState::Cancelling || jobState == ClusterJobState::Removing)) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    default: return {};
    }
}

QVariant ClusterJobsModel::display(const sb::cluster::JobStatus& job, ClusterJobState state, int column) const
{
    switch (column) {
    case TitleColumn:
        // An unreadable status says nothing of what was asked: the folder's name tells the job apart.
        return job.title.empty() ? toQString(job.folder.filename().string()) : toQString(job.title);
    case KindColumn: return kindText(job.kind);
    case PhaseColumn: return phaseText(job.phase);
    case ProgressColumn: return job.progress.tasks == 0 ? QString() : progressText(job.progress);
    case RecordsColumn:
        return job.progress.recordsDone == 0 ? QString()
                                             : QLocale().toString(static_cast<qulonglong>(job.progress.recordsDone));
    case JobsColumn: return joinedJobs(job);
    case WhereColumn: return whereText(job);
    case StartedColumn: return job.startedMs == 0 ? QString() : relativeTimeText(job.startedMs, m_nowMs);
    case StateColumn: return stateText(state, job);
    default: return {};
    }
}

QVariant ClusterJobsModel::toolTip(const sb::cluster::JobStatus& job, ClusterJobState state, int column) const
{
    switch (column) {
    case TitleColumn: return tr("%1\nFolder: %2").arg(display(job, state, column).toString(), folderOf(job));
    case ProgressColumn: return job.progress.tasks == 0 ? QString() : progressDetails(job.progress);
    case JobsColumn: return joinedJobs(job);
    case WhereColumn:
        if (job.pid == 0)
            return {};
        return tr("Process %1 on %2; its status was last written %3")
            .arg(job.pid)
            .arg(toQString(job.host), relativeTimeText(job.updatedMs, m_nowMs));
    case StartedColumn:
        return job.startedMs == 0
                   ? QString()
                   : QLocale().toString(QDateTime::fromMSecsSinceEpoch(job.startedMs), QLocale::LongFormat);
    case StateColumn:
        if (state == ClusterJobState::Gone)
            return tr("Its command ended without a word (killed, or its machine went down), so no one follows its "
                      "Slurm jobs: Remove cancels whatever Slurm still has of them, then deletes the folder.");
        return stateText(state, job);
    default: return {};
    }
}

ClusterJobState ClusterJobsModel::stateOf(const sb::cluster::JobStatus& job)
{
    switch (sb::cluster::jobState(job)) {
    case sb::cluster::JobState::Running: return ClusterJobState::Running;
    case sb::cluster::JobState::Cancelling: return ClusterJobState::Cancelling;
    case sb::cluster::JobState::Failed: return ClusterJobState::Failed;
    case sb::cluster::JobState::Gone: return ClusterJobState::Gone;
    case sb::cluster::JobState::Unreadable: return ClusterJobState::Unreadable;
    }
    return ClusterJobState::Unreadable;
}

QString ClusterJobsModel::stateText(ClusterJobState state, const sb::cluster::JobStatus& job)
{
    switch (state) {
    case ClusterJobState::Running: return tr("running");
    case ClusterJobState::Cancelling: return tr("cancelling…");
    case ClusterJobState::Removing: return tr("removing…");
    case ClusterJobState::Failed: return tr("failed: %1").arg(toQString(job.error));
    case ClusterJobState::Gone: return tr("gone");
    case ClusterJobState::Unreadable: return tr("unreadable: %1").arg(toQString(job.error));
    }
    return {};
}

QString ClusterJobsModel::phaseText(const std::string& phase)
{
    if (phase == "submitting")
        return tr("submitting");
    if (phase == "splitting")
        return tr("splitting");
    if (phase == "scanning")
        return tr("scanning");
    if (phase == "evaluating")
        return tr("evaluating");
    if (phase == "merging")
        return tr("merging");
    if (phase == "running")
        return tr("running");
    if (phase == "failed")
        return tr("failed");
    if (phase == "unreadable")
        return tr("unreadable");
    return toQString(phase); // a phase of a newer Sandbench
}

QString ClusterJobsModel::kindText(const std::string& kind)
{
    if (kind == "rules")
        return tr("rules");
    if (kind == "batch")
        return tr("batch");
    if (kind == "agent")
        return tr("agent");
    return toQString(kind);
}

QString ClusterJobsModel::progressText(const sb::cluster::StageProgress& progress)
{
    return tr("%1 / %2").arg(progress.done).arg(progress.tasks);
}

QString ClusterJobsModel::progressDetails(const sb::cluster::StageProgress& progress)
{
    QString text = tr("%1 of %2 tasks done, %3 queued, %4 running")
                       .arg(progress.done)
                       .arg(progress.tasks)
                       .arg(progress.queued)
                       .arg(progress.running);
    if (progress.retried > 0)
        text += tr(", %1 retried").arg(progress.retried);
    return text;
}

QString ClusterJobsModel::relativeTimeText(qint64 thenMs, qint64 nowMs)
{
    const qint64 seconds = std::max<qint64>(0, (nowMs - thenMs) / 1000);
    if (seconds < 60)
        return tr("%1 s ago").arg(seconds);
    if (seconds < 3600)
        return tr("%1 min ago").arg(seconds / 60);
    if (seconds < 24 * 3600)
        return tr("%1 h %2 min ago").arg(seconds / 3600).arg(seconds % 3600 / 60);
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(thenMs), QLocale::ShortFormat);
}

} // namespace sb::ui
