#include "ui/style/ChangeStyle.h"

#include <QFont>
#include <QPainter>
#include <QPixmap>

namespace sb::ui {

QString changeLetter(sb::ChangeKind kind)
{
    switch (kind) {
    case sb::ChangeKind::Added: return QStringLiteral("A");
    case sb::ChangeKind::Removed: return QStringLiteral("D");
    case sb::ChangeKind::Modified: return QStringLiteral("M");
    }
    return QStringLiteral("?");
}

QColor changeColor(sb::ChangeKind kind)
{
    switch (kind) {
    case sb::ChangeKind::Added: return QColor(0x1e, 0x7d, 0x32);    // green
    case sb::ChangeKind::Removed: return QColor(0xc0, 0x39, 0x2b);  // red
    case sb::ChangeKind::Modified: return QColor(0xb2, 0x6a, 0x00); // amber
    }
    return QColor(0x4d, 0x55, 0x5e);
}

QIcon changeIcon(sb::ChangeKind kind)
{
    QIcon icon;
    for (int size : {16, 24, 32}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(changeColor(kind));
        const qreal inset = size / 16.0;
        painter.drawRoundedRect(QRectF(inset, inset, size - 2 * inset, size - 2 * inset), size / 5.0, size / 5.0);
        QFont font;
        font.setBold(true);
        font.setPixelSize(size * 11 / 16);
        painter.setFont(font);
        painter.setPen(Qt::white);
        painter.drawText(QRectF(0, 0, size, size), Qt::AlignCenter, changeLetter(kind));
        icon.addPixmap(pixmap);
    }
    return icon;
}

QColor checkpointKindColor(const QString& kind)
{
    if (kind == QLatin1String("checkpoint"))
        return QColor(0x1f, 0x6f, 0xeb); // blue: made by a person
    if (kind == QLatin1String("auto"))
        return QColor(0x8c, 0x95, 0x9f); // grey: saved by Sandbench before something
    if (kind == QLatin1String("restore"))
        return QColor(0xd9, 0x7b, 0x08); // orange
    if (kind == QLatin1String("fork"))
        return QColor(0x8e, 0x44, 0xad); // purple
    if (kind == QLatin1String("promote"))
        return QColor(0xc0, 0x39, 0x2b); // red: reached its target
    return QColor(0x2e, 0x9d, 0x5b);     // green: create, import
}

} // namespace sb::ui
