#include "ui/models/CheckpointListModel.h"

#include "ui/models/Conversions.h"
#include "ui/models/SandboxListModel.h"
#include "ui/style/ChangeStyle.h"
#include "util/printable.h"

#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QLocale>

#include <algorithm>

namespace sb::ui {

CheckpointListModel::CheckpointListModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CheckpointListModel::setCheckpoints(std::vector<sb::CheckpointInfo> checkpoints, const std::string& head)
{
    beginResetModel();
    m_checkpoints = std::move(checkpoints);
    m_head = head;
    std::vector<GraphNode> nodes;
    nodes.reserve(m_checkpoints.size());
    for (const auto& checkpoint : m_checkpoints)
        nodes.push_back(GraphNode{checkpoint.id, checkpoint.parents});
    m_graph = layoutGraph(nodes);
    m_maxLanes = 1;
    for (const auto& row : m_graph)
        m_maxLanes = std::max(m_maxLanes, row.lanes);
    endResetModel();
}

const sb::CheckpointInfo* CheckpointListModel::checkpointAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_checkpoints.size())
        return nullptr;
    return &m_checkpoints[static_cast<std::size_t>(row)];
}

const GraphRow* CheckpointListModel::graphRowAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_graph.size())
        return nullptr;
    return &m_graph[static_cast<std::size_t>(row)];
}

int CheckpointListModel::rowOf(const QString& id) const
{
    const std::string wanted = toStdString(id);
    for (std::size_t i = 0; i < m_checkpoints.size(); ++i) {
        if (m_checkpoints[i].id == wanted)
            return static_cast<int>(i);
    }
    return -1;
}

int CheckpointListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_checkpoints.size());
}

int CheckpointListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CheckpointListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& checkpoint = m_checkpoints[static_cast<std::size_t>(index.row())];
    const bool head = checkpoint.id == m_head;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn: return toQString(checkpoint.id).left(kShortIdLength);
        case LabelColumn: {
            // The label when there is one, else why Sandbench made it.
            QString text = checkpoint.label.empty() ? toQString(sb::printable(checkpoint.message, 200))
                                                    : toQString(sb::printable(checkpoint.label, 200));
            if (text.isEmpty() && !checkpoint.source.empty())
                text = tr("from %1").arg(toQString(checkpoint.source).left(kShortIdLength));
            return SandboxListModel::shortenIds(text);
        }
        case KindColumn: return toQString(checkpoint.kind);
        case AuthorColumn: return toQString(sb::printable(checkpoint.author, 64));
        case TimeColumn: {
            // The year only when it is not this one (the tool tip has the whole time): checkpoints a second apart
            // stay apart, in a column that leaves the label room.
            const QDateTime at = QDateTime::fromMSecsSinceEpoch(checkpoint.createdAtMs);
            return at.toString(at.date().year() == QDate::currentDate().year() ? QStringLiteral("MM-dd HH:mm:ss")
                                                                               : QStringLiteral("yyyy-MM-dd HH:mm"));
        }
        case FilesColumn: return QVariant::fromValue<qulonglong>(checkpoint.files);
        case SizeColumn:
            return byteSizeText(checkpoint.bytes);
        }
        return {};
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << tr("Checkpoint %1").arg(toQString(checkpoint.id));
        lines << QDateTime::fromMSecsSinceEpoch(checkpoint.createdAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        if (head)
            lines << tr("The sandbox's workspace stands on this checkpoint (its head).");
        if (!checkpoint.label.empty())
            lines << tr("Label: %1").arg(toQString(sb::printable(checkpoint.label, 400)));
        if (!checkpoint.message.empty())
            lines << tr("Message: %1").arg(toQString(sb::printable(checkpoint.message, 400)));
        for (const auto& parent : checkpoint.parents)
            lines << tr("Parent: %1%2")
                         .arg(toQString(parent).left(kShortIdLength),
                              rowOf(toQString(parent)) < 0 ? tr(" (in another sandbox)") : QString());
        if (!checkpoint.source.empty())
            lines << tr("Made from: %1").arg(toQString(checkpoint.source).left(kShortIdLength));
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::ForegroundRole:
        if (index.column() == KindColumn)
            return checkpointKindColor(toQString(checkpoint.kind));
        if (index.column() == IdColumn || index.column() == TimeColumn || index.column() == AuthorColumn)
            return QColor(0x5f, 0x66, 0x6d);
        if (index.column() == LabelColumn && checkpoint.label.empty())
            return QColor(0x5f, 0x66, 0x6d);
        return {};
    case Qt::FontRole: {
        if (index.column() == LabelColumn && (!checkpoint.label.empty() || head)) {
            QFont font;
            font.setBold(!checkpoint.label.empty());
            font.setItalic(checkpoint.label.empty());
            return font;
        }
        return {};
    }
    case Qt::TextAlignmentRole:
        if (index.column() == FilesColumn || index.column() == SizeColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case IdRole: return toQString(checkpoint.id);
    case HeadRole: return head;
    default: return {};
    }
}

QVariant CheckpointListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case GraphColumn: return tr("Graph");
    case IdColumn: return tr("Id");
    case LabelColumn: return tr("Label / message");
    case KindColumn: return tr("Kind");
    case AuthorColumn: return tr("Author");
    case TimeColumn: return tr("Time");
    case FilesColumn: return tr("Files");
    case SizeColumn: return tr("Size");
    }
    return {};
}

} // namespace sb::ui
