#pragma once

#include "ui/models/CheckpointGraph.h"

#include <QStyledItemDelegate>

namespace sb::ui {

// Paints the lane graph of CheckpointListModel's graph column: lines to parents and children, one dot per
// checkpoint in the colour of its kind, a ring around the sandbox's head.
class GraphDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit GraphDelegate(QObject* parent);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    const GraphGeometry& geometry() const { return m_geometry; }
    static QColor laneColor(int lane);

private:
    GraphGeometry m_geometry;
};

} // namespace sb::ui
