#include "ui/agents/SessionListModel.h"

#include "ui/models/Conversions.h"

#include <QDateTime>
#include <QLocale>

#include <algorithm>

namespace sb::ui {

SessionListModel::SessionListModel(QObject* parent) : QAbstractTableModel(parent) {}

void SessionListModel::setSessions(std::vector<sb::agents::SessionInfo> sessions)
{
    // The same sessions again (a refresh): their rows change in place, so the view keeps its selection and scroll.
    const bool sameRows = sessions.size() == m_sessions.size()
                          && std::equal(sessions.begin(), sessions.end(), m_sessions.begin(),
                                        [](const auto& a, const auto& b) { return a.id == b.id; });
    if (!sameRows) {
        beginResetModel();
        m_sessions = std::move(sessions);
        endResetModel();
        return;
    }
    m_sessions = std::move(sessions);
    if (!m_sessions.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

const sb::agents::SessionInfo* SessionListModel::sessionAt(int row) const
{
    return row >= 0 && row < rowCount() ? &m_sessions[static_cast<std::size_t>(row)] : nullptr;
}

int SessionListModel::rowOf(const QString& sessionId) const
{
    for (std::size_t row = 0; row < m_sessions.size(); ++row) {
        if (toQString(m_sessions[row].id) == sessionId)
            return static_cast<int>(row);
    }
    return -1;
}

int SessionListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_sessions.size());
}

int SessionListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SessionListModel::data(const QModelIndex& index, int role) const
{
    const auto* session = sessionAt(index.row());
    if (!session)
        return {};
    if (role == SessionIdRole)
        return toQString(session->id);
    if (role == Qt::TextAlignmentRole && (index.column() == StepsColumn || index.column() == CostColumn))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && (index.column() == StatusColumn || index.column() == CommandColumn)) {
        QStringList command;
        for (const auto& argument : session->command)
            command << toQString(argument);
        return index.column() == CommandColumn ? command.join(QLatin1Char(' ')) : toQString(session->message);
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case StartedColumn:
        return QLocale().toString(QDateTime::fromMSecsSinceEpoch(session->startedAtMs), QLocale::ShortFormat);
    case KindColumn:
        return toQString(sb::agents::toString(session->kind));
    case CommandColumn: {
        QStringList command;
        for (const auto& argument : session->command)
            command << toQString(argument);
        return command.join(QLatin1Char(' '));
    }
    case StatusColumn:
        return toQString(sb::agents::toString(session->status));
    case StepsColumn:
        return QVariant::fromValue(static_cast<qlonglong>(session->steps));
    case CostColumn:
        return QString::number(session->cost, 'g', 4);
    case IdColumn:
        return toQString(session->id).left(8);
    default:
        return {};
    }
}

QVariant SessionListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StartedColumn: return tr("Started");
    case KindColumn: return tr("Kind");
    case CommandColumn: return tr("Command");
    case StatusColumn: return tr("Status");
    case StepsColumn: return tr("Steps");
    case CostColumn: return tr("Cost");
    case IdColumn: return tr("Id");
    default: return {};
    }
}

} // namespace sb::ui
