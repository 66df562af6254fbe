#include "ui/checkpoints/GraphDelegate.h"

#include "ui/models/CheckpointListModel.h"
#include "ui/models/Conversions.h"
#include "ui/style/ChangeStyle.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace sb::ui {

GraphDelegate::GraphDelegate(QObject* parent)
    : QStyledItemDelegate(parent)
{
}

QColor GraphDelegate::laneColor(int lane)
{
    static const QColor colors[] = {QColor(0x1f, 0x6f, 0xeb), QColor(0x8e, 0x44, 0xad), QColor(0x2e, 0x9d, 0x5b),
                                    QColor(0xd9, 0x7b, 0x08), QColor(0x21, 0x8c, 0xb0), QColor(0xc0, 0x39, 0x2b)};
    return colors[static_cast<std::size_t>(lane) % std::size(colors)];
}

void GraphDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem panel(option);
    initStyleOption(&panel, index);
    panel.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &panel, painter, widget);

    const auto* model = qobject_cast<const CheckpointListModel*>(index.model());
    const GraphRow* row = model ? model->graphRowAt(index.row()) : nullptr;
    const sb::CheckpointInfo* checkpoint = model ? model->checkpointAt(index.row()) : nullptr;
    if (!row || !checkpoint)
        return;

    const QRect& rect = option.rect;
    const qreal top = rect.top();
    const qreal bottom = rect.bottom() + 1;
    const qreal middle = rect.top() + rect.height() / 2.0;
    auto x = [&](int lane) { return static_cast<qreal>(rect.left() + m_geometry.laneCenter(lane)); };

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setClipRect(rect);
    auto pen = [](const QColor& color) { return QPen(color, 2, Qt::SolidLine, Qt::RoundCap); };
    // A line from one lane at one height to another at another, bending like a git graph's.
    auto link = [&](int fromLane, qreal fromY, int toLane, qreal toY, const QColor& color) {
        painter->setPen(pen(color));
        if (fromLane == toLane) {
            painter->drawLine(QPointF(x(fromLane), fromY), QPointF(x(toLane), toY));
            return;
        }
        QPainterPath path(QPointF(x(fromLane), fromY));
        const qreal bend = (toY - fromY) / 2;
        path.cubicTo(QPointF(x(fromLane), fromY + bend), QPointF(x(toLane), toY - bend), QPointF(x(toLane), toY));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(path);
    };
    for (int lane : row->through)
        link(lane, top, lane, bottom, laneColor(lane));
    for (int lane : row->fromAbove)
        link(lane, top, row->lane, middle, laneColor(lane));
    for (int lane : row->toBelow)
        link(row->lane, middle, lane, bottom, laneColor(lane));
    if (row->outsideParent) {
        // A parent in another sandbox: a short dashed stub.
        QPen dashed(QColor(0x8c, 0x95, 0x9f), 1.5, Qt::DashLine);
        painter->setPen(dashed);
        painter->drawLine(QPointF(x(row->lane), middle), QPointF(x(row->lane), bottom));
    }

    const qreal radius = 5;
    const QColor color = checkpointKindColor(toQString(checkpoint->kind));
    const bool head = index.data(CheckpointListModel::HeadRole).toBool();
    painter->setPen(QPen(head ? QColor(0x1f, 0x23, 0x28) : color.darker(130), head ? 2.5 : 1.5));
    painter->setBrush(head ? QColor(Qt::white) : color);
    painter->drawEllipse(QPointF(x(row->lane), middle), radius, radius);
    if (head) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawEllipse(QPointF(x(row->lane), middle), radius - 2.5, radius - 2.5);
    }
    painter->restore();
}

QSize GraphDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const auto* model = qobject_cast<const CheckpointListModel*>(index.model());
    const int lanes = model ? model->maxLanes() : 1;
    return {m_geometry.width(lanes), QStyledItemDelegate::sizeHint(option, index).height()};
}

} // namespace sb::ui
