#include "models/SandboxListModel.h"

#include "models/Conversions.h"
#include "util/printable.h"
#include "util/time_text.h"

#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QRegularExpression>

namespace sb::ui {

SandboxListModel::SandboxListModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SandboxListModel::setSandboxes(std::vector<sb::SandboxInfo> sandboxes, std::int64_t nowMs)
{
    beginResetModel();
    m_sandboxes = std::move(sandboxes);
    m_nowMs = nowMs;
    endResetModel();
}

const sb::SandboxInfo* SandboxListModel::sandboxAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_sandboxes.size())
        return nullptr;
    return &m_sandboxes[static_cast<std::size_t>(row)];
}

int SandboxListModel::rowOf(const QString& name) const
{
    const std::string wanted = toStdString(name);
    for (std::size_t i = 0; i < m_sandboxes.size(); ++i) {
        if (m_sandboxes[i].name == wanted)
            return static_cast<int>(i);
    }
    return -1;
}

int SandboxListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_sandboxes.size());
}

int SandboxListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SandboxListModel::shortenIds(const QString& text)
{
    static const QRegularExpression id(QStringLiteral("\\b([0-9a-f]{%1})[0-9a-f]{%2}\\b")
                                           .arg(kShortIdLength)
                                           .arg(64 - kShortIdLength));
    QString out = text;
    out.replace(id, QStringLiteral("\\1"));
    return out;
}

QString SandboxListModel::expiryText(const sb::SandboxInfo& sandbox, std::int64_t nowMs)
{
    if (!sandbox.expiresAtMs)
        return tr("never");
    if (sandbox.expired(nowMs))
        return tr("expired");
    return tr("in %1").arg(toQString(sb::formatDurationShort(*sandbox.expiresAtMs - nowMs)));
}

QVariant SandboxListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& sandbox = m_sandboxes[static_cast<std::size_t>(index.row())];
    const bool expired = sandbox.expired(m_nowMs);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return toQString(sandbox.name);
        case CheckpointsColumn: return QVariant::fromValue<qint64>(sandbox.checkpoints);
        case CreatedColumn:
            return QDateTime::fromMSecsSinceEpoch(sandbox.createdAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
        case ExpiresColumn: return expiryText(sandbox, m_nowMs);
        case OriginColumn:
            return sandbox.origin.empty() ? tr("(production)") : shortenIds(toQString(sb::printable(sandbox.origin, 200)));
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == OriginColumn)
            return toQString(sb::printable(sandbox.origin, 400));
        if (index.column() == ExpiresColumn && sandbox.expiresAtMs)
            return QDateTime::fromMSecsSinceEpoch(*sandbox.expiresAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        return tr("%1\nworkspace: %2\nhead: %3\nowner: %4")
            .arg(toQString(sandbox.name), toQString(sandbox.workspace.string()),
                 toQString(sandbox.head).left(kShortIdLength), toQString(sandbox.owner));
    case Qt::ForegroundRole:
        if (index.column() == ExpiresColumn && expired)
            return QColor(0xc0, 0x39, 0x2b);
        if (index.column() == OriginColumn || index.column() == CreatedColumn)
            return QColor(0x5f, 0x66, 0x6d);
        return {};
    case Qt::FontRole:
        if (index.column() == NameColumn && sandbox.name == sb::SandboxEngine::kMain) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == CheckpointsColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case NameRole: return toQString(sandbox.name);
    case ExpiredRole: return expired;
    default: return {};
    }
}

QVariant SandboxListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Sandbox");
    case CheckpointsColumn: return tr("Checkpoints");
    case CreatedColumn: return tr("Created");
    case ExpiresColumn: return tr("Expires");
    case OriginColumn: return tr("Origin");
    }
    return {};
}

} // namespace sb::ui
