#include "ui/models/DiffFileModel.h"

#include "ui/models/Conversions.h"
#include "ui/style/ChangeStyle.h"
#include "util/printable.h"

#include <QColor>

namespace sb::ui {

DiffFileModel::DiffFileModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

DiffFileModel::LineCounts DiffFileModel::countLines(const std::string& unified)
{
    LineCounts counts;
    std::size_t start = 0;
    while (start < unified.size()) {
        std::size_t end = unified.find('\n', start);
        if (end == std::string::npos)
            end = unified.size();
        const std::string_view line(unified.data() + start, end - start);
        if (line.starts_with("+++ ") || line.starts_with("--- ")) {
            // the header
        } else if (line.starts_with('+')) {
            ++counts.added;
        } else if (line.starts_with('-')) {
            ++counts.removed;
        }
        start = end + 1;
    }
    return counts;
}

void DiffFileModel::setFiles(std::vector<sb::FileDiff> files)
{
    beginResetModel();
    m_files = std::move(files);
    m_counts.clear();
    m_counts.reserve(m_files.size());
    for (const auto& file : m_files)
        m_counts.push_back(countLines(file.unified));
    endResetModel();
}

const sb::FileDiff* DiffFileModel::fileAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_files.size())
        return nullptr;
    return &m_files[static_cast<std::size_t>(row)];
}

int DiffFileModel::rowOf(const QString& path) const
{
    const std::string wanted = toStdString(path);
    for (std::size_t i = 0; i < m_files.size(); ++i) {
        if (m_files[i].change.path == wanted)
            return static_cast<int>(i);
    }
    return -1;
}

int DiffFileModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_files.size());
}

int DiffFileModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiffFileModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& file = m_files[static_cast<std::size_t>(index.row())];
    const auto& counts = m_counts[static_cast<std::size_t>(index.row())];
    const sb::ChangeKind kind = file.change.kind;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StatusColumn: return changeLetter(kind);
        case PathColumn: return toQString(sb::printable(file.change.path, 400));
        case LinesColumn:
            if (file.binary)
                return tr("binary");
            if (file.tooLarge)
                return tr("too large");
            if (counts.added == 0 && counts.removed == 0)
                return QString();
            return QStringLiteral("+%1 −%2").arg(counts.added).arg(counts.removed);
        }
        return {};
    case Qt::DecorationRole:
        if (index.column() == StatusColumn)
            return changeIcon(kind);
        return {};
    case Qt::ForegroundRole:
        if (index.column() == StatusColumn || index.column() == PathColumn)
            return changeColor(kind);
        return QColor(0x5f, 0x66, 0x6d);
    case Qt::ToolTipRole: {
        switch (kind) {
        case sb::ChangeKind::Added: return tr("Added: %1").arg(toQString(sb::printable(file.change.path)));
        case sb::ChangeKind::Removed: return tr("Removed: %1").arg(toQString(sb::printable(file.change.path)));
        case sb::ChangeKind::Modified: return tr("Modified: %1").arg(toQString(sb::printable(file.change.path)));
        }
        return {};
    }
    case Qt::TextAlignmentRole:
        if (index.column() == LinesColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case PathRole: return toQString(file.change.path);
    default: return {};
    }
}

QVariant DiffFileModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StatusColumn: return QString();
    case PathColumn: return tr("Changed path");
    case LinesColumn: return tr("Lines");
    }
    return {};
}

} // namespace sb::ui
