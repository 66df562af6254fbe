#pragma once

#include "agents/json.h"

#include <QAbstractItemModel>

#include <vector>

namespace sb::ui {

// A JSON value as a tree to fold: objects and arrays are branches (their size shown), scalars leaves with their
// JSON text. A value of more than kMaxNodes nodes is cut, the cut said in a last leaf.
class JsonTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { KeyColumn, ValueColumn, ColumnCount };
    static constexpr int kMaxNodes = 20000;

    explicit JsonTreeModel(QObject* parent);

    void setJson(const sb::agents::Json& value);
    void clear();
    // Nodes held (the root's children and all below), for tests.
    int nodeCount() const { return static_cast<int>(m_nodes.size()) - 1; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Node {
        QString key;
        QString value;
        QString full; // the whole value, for the tooltip, when the shown one is cut
        int parent = -1;
        int row = 0;
        std::vector<int> children;
    };
    int add(int parent, QString key, const sb::agents::Json& value);

    std::vector<Node> m_nodes; // m_nodes[0]: the invisible root
};

} // namespace sb::ui
