#include "ui/models/AuditLogModel.h"

#include "ui/models/Conversions.h"
#include "util/printable.h"

#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QLocale>

#include <algorithm>

namespace sb::ui {

namespace {

// Values come from the file, which anyone may have edited: never let one reorder or hide text in a cell.
QString shown(std::string_view value, std::size_t maxChars = 200)
{
    return toQString(sb::printable(value, maxChars));
}

const QColor kBrokenBackground(0xfd, 0xec, 0xea);
const QColor kBrokenText(0x8a, 0x1c, 0x12);

} // namespace

AuditLogModel::AuditLogModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void AuditLogModel::setRecords(std::vector<sb::AuditRecord> records)
{
    beginResetModel();
    m_records = std::move(records);
    endResetModel();
}

void AuditLogModel::setBrokenSeq(std::optional<std::int64_t> seq)
{
    if (seq == m_brokenSeq)
        return;
    m_brokenSeq = seq;
    if (!m_records.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                         {Qt::BackgroundRole, Qt::ForegroundRole, Qt::FontRole, Qt::ToolTipRole, BrokenRole});
}

const sb::AuditRecord* AuditLogModel::recordAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_records.size())
        return nullptr;
    return &m_records[static_cast<std::size_t>(row)];
}

int AuditLogModel::rowOfSeq(std::int64_t seq) const
{
    // Entries are in log order: a binary search finds one among many thousands at once.
    const auto it =
        std::lower_bound(m_records.begin(), m_records.end(), seq,
                         [](const sb::AuditRecord& record, std::int64_t value) { return record.seq < value; });
    if (it == m_records.end() || it->seq != seq)
        return -1;
    return static_cast<int>(it - m_records.begin());
}

int AuditLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_records.size());
}

int AuditLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool AuditLogModel::isBroken(const sb::AuditRecord& record) const
{
    return (m_brokenSeq && record.seq == *m_brokenSeq) || !record.problem.empty();
}

QVariant AuditLogModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& record = m_records[static_cast<std::size_t>(index.row())];

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeqColumn: return QLocale().toString(static_cast<qlonglong>(record.seq));
        case TimeColumn:
            return QLocale().toString(QDateTime::fromMSecsSinceEpoch(record.atMs),
                                      QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        case ActorColumn: return shown(record.actor, 64);
        case OperationColumn: return shown(record.operation, 64);
        case SubjectColumn: return shown(record.subject);
        case DetailsColumn: return toQString(sb::auditDetailsLine(record.details));
        default: return {};
        }
    case Qt::ToolTipRole: {
        QString tip;
        if (!record.problem.empty())
            tip = shown(record.problem, 400) + QLatin1Char('\n');
        else if (isBroken(record))
            tip = tr("The chain breaks at this entry.") + QLatin1Char('\n');
        if (index.column() == DetailsColumn)
            return QString(tip + shown(record.details, 2000));
        return QString(tip + tr("hash %1\nprevious %2").arg(shown(record.hash, 64), shown(record.prevHash, 64)));
    }
    case Qt::BackgroundRole: return isBroken(record) ? QVariant(kBrokenBackground) : QVariant();
    case Qt::FontRole:
        if (isBroken(record)) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ForegroundRole: return isBroken(record) ? QVariant(kBrokenText) : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() == SeqColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case SeqRole: return static_cast<qlonglong>(record.seq);
    case HashRole: return shown(record.hash, 64);
    case BrokenRole: return isBroken(record);
    default: return {};
    }
}

QVariant AuditLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SeqColumn: return tr("#");
    case TimeColumn: return tr("Time");
    case ActorColumn: return tr("Actor");
    case OperationColumn: return tr("Operation");
    case SubjectColumn: return tr("Subject");
    case DetailsColumn: return tr("Details");
    default: return {};
    }
}

} // namespace sb::ui
