#pragma once

#include "workspace/sandbox_engine.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <vector>

namespace sb::ui {

// The sandboxes of the store, one row each (main first, as the engine lists them).
class SandboxListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, CheckpointsColumn, CreatedColumn, ExpiresColumn, OriginColumn, ColumnCount };
    enum Role { NameRole = Qt::UserRole + 1, ExpiredRole };

    explicit SandboxListModel(QObject* parent);

    // `nowMs` decides what has expired and how long the rest have left.
    void setSandboxes(std::vector<sb::SandboxInfo> sandboxes, std::int64_t nowMs);
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

private:
    std::vector<sb::SandboxInfo> m_sandboxes;
    std::int64_t m_nowMs = 0;
};

// Ids in the browser: the first ten hex digits, like git's short hashes.
inline constexpr int kShortIdLength = 10;

} // namespace sb::ui
