#include "ui/style/Icons.h"

#include <QApplication>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QStyle>

namespace sb::ui {

namespace {

// A bar chart (the dashboard), drawn at every size a toolbar or menu asks for at one and two pixels per point: the
// style has no icon of the kind, and its nearest ones have only 16 px.
QIcon drawnDashboardIcon()
{
    QIcon icon;
    for (int size : {16, 22, 24, 32, 44, 48, 64}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(size / 16.0, size / 16.0);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0x1f, 0x6f, 0xeb));
        painter.drawRect(QRectF(2, 8, 3, 6));
        painter.setBrush(QColor(0x2e, 0x9d, 0x5b));
        painter.drawRect(QRectF(6.5, 3, 3, 11));
        painter.setBrush(QColor(0xd9, 0x7b, 0x08));
        painter.drawRect(QRectF(11, 6, 3, 8));
        painter.setPen(QPen(QColor(0x4d, 0x55, 0x5e), 1));
        painter.drawLine(QPointF(1, 14.5), QPointF(15, 14.5));
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace

QIcon actionIcon(ActionIcon which)
{
    QStyle* style = QApplication::style();
    auto themed = [style](const char* name, QStyle::StandardPixmap fallback) {
        return QIcon::fromTheme(QString::fromLatin1(name), style->standardIcon(fallback));
    };
    switch (which) {
    case ActionIcon::Run: return themed("media-playback-start", QStyle::SP_MediaPlay);
    case ActionIcon::Cancel: return themed("process-stop", QStyle::SP_BrowserStop);
    case ActionIcon::Demo: return themed("media-seek-forward", QStyle::SP_MediaSeekForward);
    case ActionIcon::New: return themed("document-new", QStyle::SP_FileIcon);
    case ActionIcon::Open: return themed("document-open", QStyle::SP_DialogOpenButton);
    // The style's closed folder: its open folder has 16 px only, blurred on a high-DPI screen.
    case ActionIcon::OpenFolder: return themed("folder-open", QStyle::SP_DirIcon);
    case ActionIcon::Save: return themed("document-save", QStyle::SP_DialogSaveButton);
    case ActionIcon::SaveAs: return themed("document-save-as", QStyle::SP_DialogSaveButton);
    case ActionIcon::Quit: return themed("application-exit", QStyle::SP_DialogCloseButton);
    case ActionIcon::About: return themed("help-about", QStyle::SP_MessageBoxInformation);
    case ActionIcon::Refresh: return themed("view-refresh", QStyle::SP_BrowserReload);
    case ActionIcon::Verify: return themed("security-high", QStyle::SP_DialogApplyButton);
    case ActionIcon::Remove: return themed("edit-delete", QStyle::SP_TrashIcon);
    case ActionIcon::Dashboard: return QIcon::fromTheme(QStringLiteral("office-chart-bar"), drawnDashboardIcon());
    }
    return {};
}

namespace {

QPixmap drawApplicationIcon(int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(size / 128.0, size / 128.0);

    QLinearGradient background(0, 8, 0, 120);
    background.setColorAt(0, QColor(0x2f, 0x43, 0x58));
    background.setColorAt(1, QColor(0x1b, 0x27, 0x34));
    painter.setPen(Qt::NoPen);
    painter.setBrush(background);
    painter.drawRoundedRect(QRectF(8, 8, 112, 112), 24, 24);

    QPen bracket(QColor(0xe8, 0xee, 0xf4), 8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    painter.setPen(bracket);
    painter.setBrush(Qt::NoBrush);
    painter.drawPolyline(QPolygonF({QPointF(40, 34), QPointF(30, 34), QPointF(30, 94), QPointF(40, 94)}));
    painter.drawPolyline(QPolygonF({QPointF(88, 34), QPointF(98, 34), QPointF(98, 94), QPointF(88, 94)}));

    QPainterPath play;
    play.moveTo(54, 46);
    play.lineTo(80, 64);
    play.lineTo(54, 82);
    play.closeSubpath();
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0x2e, 0xcc, 0x71));
    painter.drawPath(play);
    return pixmap;
}

} // namespace

QIcon applicationIcon()
{
    QIcon icon = QIcon::fromTheme(QStringLiteral("io.github.sandbench.Sandbench"));
    if (!icon.isNull())
        return icon;
    for (int size : {16, 24, 32, 48, 64, 128, 256})
        icon.addPixmap(drawApplicationIcon(size));
    return icon;
}

} // namespace sb::ui
