#include "ui/agents/StepListModel.h"

#include "agents/session_export.h"
#include "ui/models/Conversions.h"
#include "util/time_text.h"

#include <QFont>

#include <algorithm>

namespace sb::ui {

StepListModel::StepListModel(QObject* parent) : QAbstractTableModel(parent) {}

QColor StepListModel::verdictColor(sb::agents::Verdict verdict)
{
    return QColor(toQString(sb::agents::verdictColor(verdict)));
}

QString StepListModel::durationText(std::int64_t startedAtMs, std::int64_t endedAtMs)
{
    if (endedAtMs == 0)
        return tr("in flight");
    const std::int64_t ms = std::max<std::int64_t>(0, endedAtMs - startedAtMs);
    return ms < 1000 ? tr("%1 ms").arg(ms) : toQString(sb::formatDurationExact(ms));
}

void StepListModel::clear()
{
    beginResetModel();
    m_steps.clear();
    m_costSoFar.clear();
    m_matches.clear();
    m_isMatch.clear();
    m_longestMs = 0;
    endResetModel();
}

void StepListModel::reserve(std::int64_t count)
{
    const auto wanted = static_cast<std::size_t>(std::clamp<std::int64_t>(count, 0, std::int64_t{1} << 24));
    m_steps.reserve(wanted);
    m_costSoFar.reserve(wanted);
    m_isMatch.reserve(wanted);
}

void StepListModel::setSteps(std::int64_t offset, std::vector<sb::agents::StepSummary> steps)
{
    const auto held = static_cast<std::int64_t>(m_steps.size());
    if (offset < 0 || offset > held || steps.empty())
        return;
    const std::int64_t replaced = std::min<std::int64_t>(held - offset, static_cast<std::int64_t>(steps.size()));
    for (std::int64_t i = 0; i < replaced; ++i)
        m_steps[static_cast<std::size_t>(offset + i)] = std::move(steps[static_cast<std::size_t>(i)]);
    const auto added = static_cast<std::int64_t>(steps.size()) - replaced;
    if (added > 0) {
        beginInsertRows({}, static_cast<int>(held), static_cast<int>(held + added - 1));
        m_steps.insert(m_steps.end(), std::make_move_iterator(steps.begin() + replaced),
                       std::make_move_iterator(steps.end()));
    }
    m_costSoFar.resize(m_steps.size());
    m_isMatch.resize(m_steps.size(), false);
    for (auto i = static_cast<std::size_t>(offset); i < m_steps.size(); ++i) {
        m_costSoFar[i] = (i == 0 ? 0 : m_costSoFar[i - 1]) + m_steps[i].cost;
        if (m_steps[i].endedAtMs != 0)
            m_longestMs = std::max(m_longestMs, m_steps[i].endedAtMs - m_steps[i].startedAtMs);
    }
    if (added > 0)
        endInsertRows();
    if (replaced > 0)
        emit dataChanged(index(static_cast<int>(offset), 0), index(static_cast<int>(offset + replaced - 1), ColumnCount - 1));
}

const sb::agents::StepSummary* StepListModel::stepAt(int row) const
{
    return row >= 0 && row < rowCount() ? &m_steps[static_cast<std::size_t>(row)] : nullptr;
}

double StepListModel::costSoFar(int row) const
{
    return row >= 0 && row < rowCount() ? m_costSoFar[static_cast<std::size_t>(row)] : 0;
}

std::int64_t StepListModel::resumeOffset() const
{
    // In-flight steps are at the end (a session records its calls one after another).
    auto row = static_cast<std::int64_t>(m_steps.size());
    while (row > 0 && m_steps[static_cast<std::size_t>(row - 1)].endedAtMs == 0)
        --row;
    return row;
}

void StepListModel::setMatches(const std::vector<std::int64_t>& stepIndexes)
{
    m_matches = stepIndexes;
    std::sort(m_matches.begin(), m_matches.end());
    m_isMatch.assign(m_steps.size(), false);
    for (const std::int64_t index : m_matches) {
        if (index >= 1 && index <= static_cast<std::int64_t>(m_isMatch.size()))
            m_isMatch[static_cast<std::size_t>(index - 1)] = true;
    }
    if (!m_steps.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::FontRole, MatchRole});
}

bool StepListModel::isMatch(int row) const
{
    return row >= 0 && row < static_cast<int>(m_isMatch.size()) && m_isMatch[static_cast<std::size_t>(row)];
}

int StepListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_steps.size());
}

int StepListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StepListModel::data(const QModelIndex& index, int role) const
{
    const auto* step = stepAt(index.row());
    if (!step)
        return {};
    switch (role) {
    case StepIndexRole:
        return QVariant::fromValue(static_cast<qlonglong>(step->index));
    case VerdictRole:
        return toQString(sb::agents::toString(step->verdict));
    case MatchRole:
        return isMatch(index.row());
    case Qt::FontRole:
        if (isMatch(index.row())) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == VerdictColumn)
            return verdictColor(step->verdict);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == IndexColumn || index.column() == DurationColumn || index.column() == CostColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == ArgumentsColumn)
            return toQString(step->arguments);
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case IndexColumn:
        return QVariant::fromValue(static_cast<qlonglong>(step->index));
    case ToolColumn:
        return toQString(step->tool);
    case ArgumentsColumn:
        return toQString(step->arguments);
    case VerdictColumn: {
        QString text = toQString(sb::agents::toString(step->verdict));
        if (step->isError)
            text += tr(" · error");
        if (step->edited)
            text += tr(" · edited");
        return text;
    }
    case DurationColumn:
        return durationText(*step);
    case CostColumn:
        return QString::number(step->cost, 'g', 4);
    default:
        return {};
    }
}

QVariant StepListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn: return tr("#");
    case ToolColumn: return tr("Tool");
    case ArgumentsColumn: return tr("Arguments");
    case VerdictColumn: return tr("Verdict");
    case DurationColumn: return tr("Duration");
    case CostColumn: return tr("Cost");
    default: return {};
    }
}

} // namespace sb::ui
