#pragma once

#include "sandboxes/sandbox_engine.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sb::ui {

// The sandboxes of the store, one row each (main first, as the engine lists them).
class SandboxListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        CheckpointsColumn,
        CreatedColumn,
        ExpiresColumn,
        StateColumn,
        UsageColumn,
        OriginColumn,
        ColumnCount
    };
    enum Role { NameRole = Qt::UserRole + 1, ExpiredRole, ArchivedRole };

    explicit SandboxListModel(QObject* parent);

    // `nowMs` decides what has expired and how long the rest have left; `usage`: each live workspace's bytes
    // by sandbox name (as measured when they were read; missing: not known).
    void setSandboxes(std::vector<sb::SandboxInfo> sandboxes, std::int64_t nowMs,
                      std::map<std::string, std::uint64_t> usage = {});
    std::optional<std::uint64_t> usageOf(const std::string& name) const;
    const sb::SandboxInfo* sandboxAt(int row) const;
    int rowOf(const QString& name) const;
    const std::vector<sb::SandboxInfo>& sandboxes() const { return m_sandboxes; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "checkpoint 3f2a…(64 hex)" reads as "checkpoint 3f2a9c01b7": ids in texts are cut to a prefix.
    static QString shortenIds(const QString& text);
    static QString expiryText(const sb::SandboxInfo& sandbox, std::int64_t nowMs);
    // "active" or "archived", with the idle time and timeout: "active, idle 2h of 1d".
    static QString stateText(const sb::SandboxInfo& sandbox, std::int64_t nowMs);
    // "1.2 MiB of 2.0 GiB", or the usage alone without a quota ("?" when not known).
    static QString usageText(const sb::SandboxInfo& sandbox, std::optional<std::uint64_t> usage);
    // The governance of a sandbox for its details line: state and idle time, usage and quota, policy,
    // dataset references.
    static QString detailsText(const sb::SandboxInfo& sandbox, std::optional<std::uint64_t> usage, std::int64_t nowMs);

private:
    std::vector<sb::SandboxInfo> m_sandboxes;
    std::map<std::string, std::uint64_t> m_usage;
    std::int64_t m_nowMs = 0;
};

// Ids in the browser: the first ten hex digits, like git's short hashes.
inline constexpr int kShortIdLength = 10;

} // namespace sb::ui
