#include "ui/style/Theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>

namespace sb::ui {

namespace {

// What the platform gave before any theme was applied: "system" goes back to it.
struct PlatformLook {
    QString style;
    QPalette palette;
};

const PlatformLook& platformLook()
{
    static const PlatformLook look{QApplication::style()->name(), QApplication::palette()};
    return look;
}

QPalette darkPalette()
{
    const QColor window(0x2b, 0x2d, 0x30);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xdf, 0xe1, 0xe5);
    const QColor disabled(0x7f, 0x84, 0x8e);
    const QColor highlight(0x35, 0x74, 0xf0);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x41));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x39, 0x3b, 0x40));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x68));
    p.setColor(QPalette::Light, QColor(0x4e, 0x51, 0x57));
    p.setColor(QPalette::Midlight, QColor(0x43, 0x45, 0x4a));
    p.setColor(QPalette::Mid, QColor(0x32, 0x34, 0x38));
    p.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1e));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x58, 0x9d, 0xf6));
    p.setColor(QPalette::LinkVisited, QColor(0xa3, 0x7a, 0xe0));
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x4e, 0x51, 0x57));
    return p;
}

} // namespace

void applyTheme(Theme theme)
{
    const PlatformLook& look = platformLook();
    switch (theme) {
    case Theme::System:
        QApplication::setStyle(look.style);
        QApplication::setPalette(look.palette);
        return;
    case Theme::Light:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(QApplication::style()->standardPalette());
        return;
    case Theme::Dark:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(darkPalette());
        return;
    }
}

bool paletteIsDark()
{
    const QPalette p = QApplication::palette();
    return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

} // namespace sb::ui
