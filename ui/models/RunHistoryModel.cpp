#include "ui/models/RunHistoryModel.h"

#include "ui/models/Conversions.h"
#include "ui/style/OutcomeStyle.h"

#include <QDateTime>
#include <QLocale>

#include <algorithm>
#include <iterator>

namespace sb::ui {

RunHistoryModel::RunHistoryModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void RunHistoryModel::setRuns(std::vector<sb::StoredRun> runs)
{
    // The usual new snapshot: the runs shown, with newer ones on top and the oldest past the limit gone. Rows are
    // then inserted and removed, not reset, so that a view keeps its selection and scroll position.
    std::size_t added = runs.size();
    if (!m_runs.empty()) {
        const std::int64_t newestShown = m_runs.front().id;
        added = static_cast<std::size_t>(
            std::find_if(runs.begin(), runs.end(), [newestShown](const auto& run) { return run.id == newestShown; })
            - runs.begin());
    }
    const std::size_t kept = runs.size() - added;
    const bool follows = !m_runs.empty() && added < runs.size() && kept <= m_runs.size()
                         && std::equal(runs.begin() + static_cast<std::ptrdiff_t>(added), runs.end(), m_runs.begin(),
                                       [](const auto& a, const auto& b) { return a.id == b.id; });
    if (!follows) {
        beginResetModel();
        m_runs = std::move(runs);
        endResetModel();
        return;
    }
    if (kept < m_runs.size()) {
        beginRemoveRows({}, static_cast<int>(kept), static_cast<int>(m_runs.size()) - 1);
        m_runs.resize(kept);
        endRemoveRows();
    }
    if (added > 0) {
        beginInsertRows({}, 0, static_cast<int>(added) - 1);
        m_runs.insert(m_runs.begin(), std::make_move_iterator(runs.begin()),
                      std::make_move_iterator(runs.begin() + static_cast<std::ptrdiff_t>(added)));
        endInsertRows();
    }
    // The runs kept are read again too (a policy that could not be read before, say).
    std::move(runs.begin() + static_cast<std::ptrdiff_t>(added), runs.end(),
              m_runs.begin() + static_cast<std::ptrdiff_t>(added));
    if (kept > 0)
        emit dataChanged(index(static_cast<int>(added), 0),
                         index(static_cast<int>(m_runs.size()) - 1, ColumnCount - 1));
}

const sb::StoredRun* RunHistoryModel::runAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_runs.size())
        return nullptr;
    return &m_runs[static_cast<std::size_t>(row)];
}

int RunHistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunHistoryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RunHistoryModel::detailOf(const sb::RunResult& result)
{
    if (!result.blocked.empty()) {
        const auto& event = result.blocked.front();
        return toQString(event.kind) + QStringLiteral(": ") + toQString(event.detail);
    }
    if (!result.message.empty())
        return messageText(result.message);
    if (result.outcome == sb::Outcome::Error && result.exitCode > 0)
        return tr("exit code %1").arg(result.exitCode);
    return {};
}

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& run = m_runs[static_cast<std::size_t>(index.row())];
    const auto& result = run.result;

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return QLocale().toString(QDateTime::fromMSecsSinceEpoch(result.startedAtMs), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case LabelColumn:
            return run.request.label.empty() ? tr("snippet") : toQString(run.request.label);
        case SandboxColumn:
            return toQString(run.sandbox); // empty: a fresh private folder
        case LanguageColumn:
            return toQString(sb::toString(run.request.language));
        case OutcomeColumn:
            return outcomeName(result.outcome);
        case DurationColumn:
            return QLocale().toString(result.durationMs, 'f', 1);
        case DetailColumn:
            return detailOf(result);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        switch (index.column()) {
        case DetailColumn:
            return detailOf(result);
        case LabelColumn:
            return toQString(run.request.source);
        case SandboxColumn:
            return run.sandbox.empty() ? tr("Ran in a fresh private folder, in no sandbox")
                                       : tr("Ran in sandbox %1's workspace").arg(toQString(run.sandbox));
        default:
            return {};
        }
    case Qt::ForegroundRole:
        if (index.column() == OutcomeColumn)
            return outcomeColor(result.outcome).darker(115);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == DurationColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case OutcomeRole:
        return outcomeName(result.outcome);
    case SourceRole:
        return toQString(run.request.source);
    case LanguageRole:
        return static_cast<int>(run.request.language);
    case RunIdRole:
        return toQString(result.runId);
    default:
        return {};
    }
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn: return tr("Time");
    case LabelColumn: return tr("Label");
    case SandboxColumn: return tr("Sandbox");
    case LanguageColumn: return tr("Language");
    case OutcomeColumn: return tr("Outcome");
    case DurationColumn: return tr("ms");
    case DetailColumn: return tr("Detail");
    default: return {};
    }
}

RunHistoryFilter::RunHistoryFilter(QObject* parent)
    : QSortFilterProxyModel(parent)
{
}

void RunHistoryFilter::setRunFilter(const RunFilter& filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    invalidateRowsFilter();
}

const sb::StoredRun* RunHistoryFilter::runAt(int row) const
{
    const auto* source = qobject_cast<const RunHistoryModel*>(sourceModel());
    const QModelIndex mapped = mapToSource(index(row, 0));
    return source && mapped.isValid() ? source->runAt(mapped.row()) : nullptr;
}

bool RunHistoryFilter::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    const auto* source = qobject_cast<const RunHistoryModel*>(sourceModel());
    const auto* run = source ? source->runAt(sourceRow) : nullptr;
    return run && m_filter.accepts(run->result.outcome, run->result.durationMs, run->result.startedAtMs);
}

} // namespace sb::ui
