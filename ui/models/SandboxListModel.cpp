#include "ui/models/SandboxListModel.h"

#include "ui/models/Conversions.h"
#include "util/printable.h"
#include "util/time_text.h"

#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QRegularExpression>
#include <QStringList>

namespace sb::ui {

SandboxListModel::SandboxListModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SandboxListModel::setSandboxes(std::vector<sb::SandboxInfo> sandboxes, std::int64_t nowMs,
                                    std::map<std::string, std::uint64_t> usage)
{
    beginResetModel();
    m_sandboxes = std::move(sandboxes);
    m_usage = std::move(usage);
    m_nowMs = nowMs;
    endResetModel();
}

std::optional<std::uint64_t> SandboxListModel::usageOf(const std::string& name) const
{
    const auto found = m_usage.find(name);
    return found == m_usage.end() ? std::nullopt : std::optional<std::uint64_t>(found->second);
}

QString SandboxListModel::stateText(const sb::SandboxInfo& sandbox, std::int64_t nowMs)
{
    const QString state = sandbox.archived ? tr("archived") : tr("active");
    const QString idle = toQString(sb::formatDurationShort(sandbox.idleMs(nowMs)));
    if (sandbox.idleTimeoutMs)
        return tr("%1, idle %2 of %3").arg(state, idle, toQString(sb::formatDurationShort(*sandbox.idleTimeoutMs)));
    return tr("%1, idle %2").arg(state, idle);
}

QString SandboxListModel::usageText(const sb::SandboxInfo& sandbox, std::optional<std::uint64_t> usage)
{
    const QString used = usage ? byteSizeText(*usage) : QStringLiteral("?");
    if (!sandbox.quotaBytes)
        return used;
    return tr("%1 of %2").arg(used, byteSizeText(*sandbox.quotaBytes));
}

QString SandboxListModel::detailsText(const sb::SandboxInfo& sandbox, std::optional<std::uint64_t> usage,
                                      std::int64_t nowMs)
{
    QStringList datasets;
    for (const auto& d : sandbox.datasets) {
        if (d.sampled)
            datasets << tr("%1 (sample %2 of it: %3)")
                            .arg(toQString(d.name), QString::number(d.sample), toQString(d.snapshot));
        else if (d.snapshot != d.name)
            datasets << tr("%1 (%2)").arg(toQString(d.name), toQString(d.snapshot));
        else
            datasets << toQString(d.name);
    }
    QString policy = toQString(sandbox.policy);
    if (policy.startsWith(QLatin1String("preset:")))
        policy = tr("preset %1").arg(policy.mid(7));
    return tr("%1 · %2 · usage %3 · policy %4 · datasets %5")
        .arg(toQString(sandbox.name), stateText(sandbox, nowMs), usageText(sandbox, usage),
             policy.isEmpty() ? tr("default") : policy,
             datasets.isEmpty() ? tr("none") : datasets.join(QStringLiteral(", ")));
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
        case StateColumn: return sandbox.archived ? tr("archived") : tr("active");
        case UsageColumn: return usageText(sandbox, usageOf(sandbox.name));
        case OriginColumn:
            return sandbox.origin.empty() ? tr("(production)") : shortenIds(toQString(sb::printable(sandbox.origin, 200)));
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == OriginColumn)
            return toQString(sb::printable(sandbox.origin, 400));
        if (index.column() == StateColumn)
            return sandbox.archived ? tr("%1\nIts workspace folder is removed until its next use, which writes its "
                                         "head checkpoint back.")
                                          .arg(stateText(sandbox, m_nowMs))
                                    : stateText(sandbox, m_nowMs);
        if (index.column() == ExpiresColumn && sandbox.expiresAtMs)
            return QDateTime::fromMSecsSinceEpoch(*sandbox.expiresAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        return tr("%1\nworkspace: %2\nhead: %3\nowner: %4")
            .arg(toQString(sandbox.name), toQString(sandbox.workspace.string()),
                 toQString(sandbox.head).left(kShortIdLength), toQString(sandbox.owner));
    case Qt::ForegroundRole:
        if (index.column() == ExpiresColumn && expired)
            return QColor(0xc0, 0x39, 0x2b);
        if (index.column() == OriginColumn || index.column() == CreatedColumn
            || (index.column() == StateColumn && sandbox.archived))
            return QColor(0x5f, 0x66, 0x6d);
        if (index.column() == UsageColumn && sandbox.quotaBytes) {
            const auto used = usageOf(sandbox.name);
            if (used && *used > *sandbox.quotaBytes)
                return QColor(0xc0, 0x39, 0x2b);
        }
        return {};
    case Qt::FontRole:
        if (index.column() == NameColumn && sandbox.name == sb::SandboxEngine::kMain) {
            QFont font;
            font.setBold(true);
            return font;
        }
        if (sandbox.archived && (index.column() == NameColumn || index.column() == StateColumn)) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == CheckpointsColumn || index.column() == UsageColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case NameRole: return toQString(sandbox.name);
    case ExpiredRole: return expired;
    case ArchivedRole: return sandbox.archived;
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
    case StateColumn: return tr("State");
    case UsageColumn: return tr("Usage");
    case OriginColumn: return tr("Origin");
    }
    return {};
}

} // namespace sb::ui
