#pragma once

#include "ui/models/CheckpointGraph.h"
#include "sandboxes/sandbox_engine.h"

#include <QAbstractTableModel>

#include <vector>

namespace sb::ui {

// One sandbox's checkpoints, newest first, with the lane graph of their parent links (drawn by
// GraphDelegate in the graph column).
class CheckpointListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        GraphColumn,
        IdColumn,
        LabelColumn,
        KindColumn,
        AuthorColumn,
        TimeColumn,
        FilesColumn,
        SizeColumn,
        ColumnCount
    };
    enum Role { IdRole = Qt::UserRole + 1, HeadRole };

    explicit CheckpointListModel(QObject* parent);

    // `head` is the checkpoint the sandbox's workspace stands on.
    void setCheckpoints(std::vector<sb::CheckpointInfo> checkpoints, const std::string& head);
    const sb::CheckpointInfo* checkpointAt(int row) const;
    const GraphRow* graphRowAt(int row) const;
    int rowOf(const QString& id) const;
    int maxLanes() const { return m_maxLanes; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<sb::CheckpointInfo> m_checkpoints;
    std::vector<GraphRow> m_graph;
    std::string m_head;
    int m_maxLanes = 1;
};

} // namespace sb::ui
