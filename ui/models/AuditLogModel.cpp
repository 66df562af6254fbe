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
const QColor kGood(0x1e, 0x7d, 0x32);
const QColor kBad(0xb0, 0x26, 0x1a);
const QColor kNeutral(0x5f, 0x66, 0x6d);

QColor outcomeColour(std::string_view outcome)
{
    if (outcome.empty() || outcome == "ok" || outcome == "completed")
        return kGood;
    if (outcome == "running")
        return kNeutral;
    return kBad;
}

// Short where the date goes without saying: today's entries by their time, this year's by day and minute.
QString timeText(std::int64_t atMs)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(atMs);
    const QDate today = QDate::currentDate();
    if (at.date() == today)
        return at.toString(QStringLiteral("HH:mm:ss"));
    if (at.date().year() == today.year())
        return at.toString(QStringLiteral("MM-dd HH:mm"));
    return at.toString(QStringLiteral("yyyy-MM-dd"));
}

} // namespace

AuditLogModel::AuditLogModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void AuditLogModel::setRows(std::vector<AuditRow> rows, bool more)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_more = more;
    m_fetching = false;
    endResetModel();
}

void AuditLogModel::appendOlder(std::vector<AuditRow> rows, bool more, qint64 beforeSeq)
{
    if (!m_fetching || oldestSeq() != beforeSeq)
        return;
    m_fetching = false;
    m_more = more;
    if (rows.empty())
        return;
    const int first = rowCount();
    beginInsertRows({}, first, first + static_cast<int>(rows.size()) - 1);
    m_rows.insert(m_rows.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
    endInsertRows();
}

void AuditLogModel::setBrokenSeq(std::optional<std::int64_t> seq)
{
    if (seq == m_brokenSeq)
        return;
    m_brokenSeq = seq;
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                         {Qt::BackgroundRole, Qt::ForegroundRole, Qt::FontRole, Qt::ToolTipRole, BrokenRole});
}

const AuditRow* AuditLogModel::rowAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_rows.size())
        return nullptr;
    return &m_rows[static_cast<std::size_t>(row)];
}

const sb::AuditRecord* AuditLogModel::recordAt(int row) const
{
    const AuditRow* found = rowAt(row);
    return found ? &found->record : nullptr;
}

int AuditLogModel::rowOfSeq(std::int64_t seq) const
{
    // Rows are newest first: a binary search finds one among many thousands at once.
    const auto it = std::lower_bound(m_rows.begin(), m_rows.end(), seq,
                                     [](const AuditRow& row, std::int64_t value) { return row.record.seq > value; });
    if (it == m_rows.end() || it->record.seq != seq)
        return -1;
    return static_cast<int>(it - m_rows.begin());
}

std::optional<std::int64_t> AuditLogModel::oldestSeq() const
{
    if (m_rows.empty())
        return std::nullopt;
    return m_rows.back().record.seq;
}

int AuditLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int AuditLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool AuditLogModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && m_more && !m_fetching && !m_rows.empty();
}

void AuditLogModel::fetchMore(const QModelIndex& parent)
{
    if (!canFetchMore(parent))
        return;
    m_fetching = true;
    emit olderWanted(*oldestSeq());
}

bool AuditLogModel::isBroken(const sb::AuditRecord& record) const
{
    return (m_brokenSeq && record.seq == *m_brokenSeq) || !record.problem.empty();
}

QString AuditLogModel::outcomeText(const sb::AuditSubject& subject)
{
    return subject.outcome.empty() ? tr("done") : shown(subject.outcome, 32);
}

QVariant AuditLogModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AuditRow& row = m_rows[static_cast<std::size_t>(index.row())];
    const sb::AuditRecord& record = row.record;

    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeqColumn: return QLocale().toString(static_cast<qlonglong>(record.seq));
        case TimeColumn: return timeText(record.atMs);
        case ActorColumn: return shown(record.actor, 64);
        case OperationColumn: return shown(record.operation, 64);
        case SubjectColumn: return toQString(row.subject.name);
        case OutcomeColumn: return outcomeText(row.subject);
        case DetailsColumn: return toQString(row.detailsLine);
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
        if (index.column() == SubjectColumn)
            return QString(tip + shown(record.subject, 200));
        if (index.column() == TimeColumn)
            return QString(tip + QDateTime::fromMSecsSinceEpoch(record.atMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")));
        return QString(tip + tr("entry %1\nhash %2").arg(record.seq).arg(shown(record.hash, 64)));
    }
    case Qt::BackgroundRole: return isBroken(record) ? QVariant(kBrokenBackground) : QVariant();
    case Qt::FontRole:
        if (isBroken(record)) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ForegroundRole:
        if (isBroken(record))
            return kBrokenText;
        if (index.column() == OutcomeColumn)
            return outcomeColour(row.subject.outcome);
        if (index.column() == SeqColumn)
            return kNeutral;
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == SeqColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case SeqRole: return static_cast<qlonglong>(record.seq);
    case HashRole: return shown(record.hash, 64);
    case BrokenRole: return isBroken(record);
    case SubjectIdRole: return toQString(row.subject.id);
    case SubjectKindRole: return static_cast<int>(row.subject.kind);
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
    case OperationColumn: return tr("Action");
    case SubjectColumn: return tr("Subject");
    case OutcomeColumn: return tr("Outcome");
    case DetailsColumn: return tr("Details");
    default: return {};
    }
}

} // namespace sb::ui
