#pragma once

#include "agents/session_store.h"

#include <QAbstractTableModel>

#include <vector>

namespace sb::ui {

// The agent sessions of the store, newest first: when, kind, command, status, steps, cost and id, from each
// snapshot a background job reads (the same sessions again are updated in place).
class SessionListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StartedColumn, KindColumn, CommandColumn, StatusColumn, StepsColumn, CostColumn, IdColumn, ColumnCount };
    enum Role { SessionIdRole = Qt::UserRole + 1 };

    explicit SessionListModel(QObject* parent);

    void setSessions(std::vector<sb::agents::SessionInfo> sessions);
    const sb::agents::SessionInfo* sessionAt(int row) const;
    int rowOf(const QString& sessionId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<sb::agents::SessionInfo> m_sessions;
};

} // namespace sb::ui
