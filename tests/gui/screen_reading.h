#pragma once

// The screen a window test runs on, and what of a window a person could not read on it. ctest runs a test registered
// with SCREENS once per screen of tests/gui/screens (the offscreen platform showing it, SANDBENCH_TEST_SCREEN naming
// it); the test maximises its window on the screen and checks, at each state it shows: toolbars without a "»", windows
// inside the screen, widgets not cut by their parents or squeezed below their minimum, labels and key table columns
// shown whole, icons drawn from pixmaps with the screen's pixels (not an upscaled smaller one). Each reader returns
// what a person could not read, empty when all reads well; VERIFY_READABLE fails the test function on it. Shared by
// the GUI tests that run once per screen.

#include <QAbstractButton>
#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QEvent>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QPixmap>
#include <QScreen>
#include <QSize>
#include <QStringList>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTableView>
#include <QTest>
#include <QToolBar>
#include <QWidget>

#include <initializer_list>

// Fails the test function, listing the problems, unless `problems` (a QStringList) is empty. The layouts are settled
// first: what a person reads is the screen once the event loop has laid out the last change (a label's new text taking
// a second line, say), not the geometry of the moment the change was made.
#define VERIFY_READABLE(problems)                                                                                      \
    do {                                                                                                               \
        sb::guitest::settleLayouts();                                                                                  \
        const QStringList readingProblems = (problems);                                                                \
        QVERIFY2(readingProblems.isEmpty(), qPrintable(readingProblems.join(QStringLiteral("; "))));                   \
    } while (false)

namespace sb::guitest {

// Delivers the layout requests the last changes posted, and those that laying out posts in turn (a child's new
// height asks its parent's layout again), so widget geometry is what the screen will show.
inline void settleLayouts()
{
    for (int round = 0; round < 4; ++round)
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
}

// The screens of tests/gui/screens: logical size and pixels per point.
struct TestScreen {
    const char* name;
    QSize size;
    qreal ratio;
};

inline constexpr TestScreen kScreens[] = {
    {"1366x768", {1366, 768}, 1.0},
    {"1440x900", {1440, 900}, 1.0},
    {"1440x900@2x", {1440, 900}, 2.0},
};

// The screen SANDBENCH_TEST_SCREEN names; nullptr when it names none (a run outside ctest, say), which a test fails
// on: it would not test what it names.
inline const TestScreen* testScreen()
{
    const QString wanted = qEnvironmentVariable("SANDBENCH_TEST_SCREEN");
    for (const TestScreen& candidate : kScreens)
        if (wanted == QLatin1String(candidate.name))
            return &candidate;
    return nullptr;
}

// "NAME-SCREEN.png": a screenshot's file name on the test's screen.
inline QString screenshotName(const QString& name)
{
    return QStringLiteral("%1-%2.png").arg(name, qEnvironmentVariable("SANDBENCH_TEST_SCREEN"));
}

// The primary screen is the one SANDBENCH_TEST_SCREEN names: its size and its pixels per point.
inline void verifyTestScreen()
{
    const TestScreen* screen = testScreen();
    QVERIFY2(screen, qPrintable(QStringLiteral("SANDBENCH_TEST_SCREEN names no known screen: '%1'")
                                    .arg(qEnvironmentVariable("SANDBENCH_TEST_SCREEN"))));
    QScreen* primary = QApplication::primaryScreen();
    QCOMPARE(primary->geometry().size(), screen->size);
    QCOMPARE(primary->devicePixelRatio(), screen->ratio);
}

// What of `window` lies off the screen it is on (its available part), frame and all, or would at its smallest size.
inline QStringList offScreen(const QWidget* window)
{
    QStringList problems;
    const QRect available = window->screen()->availableGeometry();
    const QRect frame = window->frameGeometry();
    if (!available.contains(frame))
        problems << QStringLiteral("%1 at %2,%3 %4×%5 on a screen of %6×%7")
                        .arg(window->objectName())
                        .arg(frame.x())
                        .arg(frame.y())
                        .arg(frame.width())
                        .arg(frame.height())
                        .arg(available.width())
                        .arg(available.height());
    const QSize smallest = window->minimumSizeHint();
    if (smallest.width() > available.width() || smallest.height() > available.height())
        problems
            << QStringLiteral("%1 needs %2×%3").arg(window->objectName()).arg(smallest.width()).arg(smallest.height());
    return problems;
}

// Shows `window` maximised on the primary screen: its frame fills the screen's available part. Checks it fits there
// and draws at the screen's pixels (a screenshot of the high-DPI screen has twice the pixels of the window).
inline void showOnTestScreen(QWidget* window)
{
    QScreen* primary = QApplication::primaryScreen();
    window->showMaximized();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    QTRY_COMPARE(window->frameGeometry(), primary->availableGeometry());
    VERIFY_READABLE(offScreen(window));
    QCOMPARE(window->grab().devicePixelRatio(), primary->devicePixelRatio());
}

// The actions of `toolBar` behind the "»" of an overflowing bar, not on it.
inline QStringList toolBarOverflow(const QToolBar* toolBar)
{
    QStringList problems;
    for (QAction* action : toolBar->actions()) {
        if (action->isSeparator() || !action->isVisible())
            continue;
        QWidget* button = toolBar->widgetForAction(action);
        if (!button || !button->isVisible())
            problems << QStringLiteral("%1: '%2' is behind »").arg(toolBar->objectName(), action->text());
    }
    return problems;
}

// What keeps `widget` from showing whole: hidden, cut by a parent's edge, or squeezed below its smallest size.
inline QStringList widgetCut(const QWidget* widget)
{
    const QString name = widget->objectName();
    if (!widget->isVisible())
        return {QStringLiteral("%1 hidden").arg(name)};
    const QSize smallest = widget->minimumSizeHint();
    if (smallest.isValid() && (widget->width() < smallest.width() || widget->height() < smallest.height()))
        return {QStringLiteral("%1 squeezed to %2×%3 of %4×%5")
                    .arg(name)
                    .arg(widget->width())
                    .arg(widget->height())
                    .arg(smallest.width())
                    .arg(smallest.height())};
    for (const QWidget* parent = widget->parentWidget(); parent; parent = parent->parentWidget()) {
        const QRect inParent(widget->mapTo(parent, QPoint(0, 0)), widget->size());
        if (!parent->rect().contains(inParent))
            return {QStringLiteral("%1 cut by %2").arg(name, parent->objectName())};
        if (parent->isWindow())
            break;
    }
    return {};
}

// What keeps a label from showing its whole text: the widget not whole, or narrower (one line) or shorter
// (wrapped) than its text needs.
inline QStringList labelCut(const QLabel* label)
{
    QStringList problems = widgetCut(label);
    const int needed = label->wordWrap() ? label->heightForWidth(label->width()) : label->sizeHint().height();
    if (label->height() < needed)
        problems << QStringLiteral("%1: %2 px tall of the %3 '%4' needs")
                        .arg(label->objectName())
                        .arg(label->height())
                        .arg(needed)
                        .arg(label->text());
    if (!label->wordWrap() && label->width() < label->sizeHint().width())
        problems << QStringLiteral("%1: %2 px wide of the %3 '%4' needs")
                        .arg(label->objectName())
                        .arg(label->width())
                        .arg(label->sizeHint().width())
                        .arg(label->text());
    return problems;
}

// The part of `widget` its parents show (not scrolled away or cut by an edge), in global coordinates.
inline QRect shownRect(const QWidget* widget)
{
    QRect shown(widget->mapToGlobal(QPoint(0, 0)), widget->size());
    for (const QWidget* parent = widget->parentWidget(); parent; parent = parent->parentWidget()) {
        shown &= QRect(parent->mapToGlobal(QPoint(0, 0)), parent->size());
        if (parent->isWindow())
            break;
    }
    return shown;
}

// Whether `cover` (a callout over the window, say) lies over what `part` shows.
inline QStringList covered(const QWidget* part, const QWidget* cover)
{
    if (!cover->isVisible() || !shownRect(cover).intersects(shownRect(part)))
        return {};
    return {QStringLiteral("%1 covers %2").arg(cover->objectName(), part->objectName())};
}

// What of `columns` of `view` a person could not read: a column scrolled or laid past the viewport's edge, a header
// narrower than its title, a cell narrower than its text (the view elides it).
inline QStringList columnsCut(QTableView* view, std::initializer_list<int> columns)
{
    QStringList problems;
    const QString name = view->objectName();
    const QHeaderView* header = view->horizontalHeader();
    QAbstractItemModel* model = view->model();
    QStyle* style = view->style();
    const int headerMargin = style->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const int grid = view->showGrid() ? 1 : 0;
    QStyleOptionViewItem option;
    option.initFrom(view->viewport());
    option.font = view->font();
    option.fontMetrics = view->fontMetrics();
    option.widget = view;
    const int smallIcon = style->pixelMetric(QStyle::PM_SmallIconSize, nullptr, view);
    option.decorationSize = view->iconSize().isValid() ? view->iconSize() : QSize(smallIcon, smallIcon);
    for (const int column : columns) {
        const QString title = model->headerData(column, Qt::Horizontal).toString();
        if (view->isColumnHidden(column)) {
            problems << QStringLiteral("%1: '%2' hidden").arg(name, title);
            continue;
        }
        const int left = header->sectionViewportPosition(column);
        const int width = header->sectionSize(column);
        if (left < 0 || left + width > view->viewport()->width())
            problems << QStringLiteral("%1: '%2' at %3..%4 of a %5 px view")
                            .arg(name, title)
                            .arg(left)
                            .arg(left + width)
                            .arg(view->viewport()->width());
        const int titleWidth = header->fontMetrics().horizontalAdvance(title) + 2 * headerMargin;
        if (titleWidth > width)
            problems << QStringLiteral("%1: title '%2' needs %3 px of %4").arg(name, title).arg(titleWidth).arg(width);
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, column);
            const int needed = view->itemDelegateForIndex(index)->sizeHint(option, index).width();
            if (needed > width - grid)
                problems << QStringLiteral("%1: '%2' of row %3 needs %4 px of %5")
                                .arg(name, index.data().toString())
                                .arg(row)
                                .arg(needed)
                                .arg(width - grid);
        }
    }
    return problems;
}

// The buttons under `root` whose icon is drawn from a pixmap with fewer pixels than the screen's (Qt scales it up:
// blurred). An icon with no pixmap large enough is drawn smaller, at its own pixels, on a screen of one pixel per
// point; on a high-DPI screen it is scaled up. Qt's own buttons (qt_*: a dock's float and close buttons, which
// Fusion draws from 10-pixel images) are not the application's to choose and are left out, as is `leftOut` (a part
// read on its own) and what it holds.
inline QStringList blurredIcons(const QWidget* root, const QWidget* leftOut = nullptr)
{
    QStringList problems;
    for (const QAbstractButton* button : root->findChildren<QAbstractButton*>()) {
        if (!button->isVisible() || button->icon().isNull() || button->objectName().startsWith(QLatin1String("qt_")))
            continue;
        if (leftOut && (leftOut == button || leftOut->isAncestorOf(button)))
            continue;
        const qreal ratio = button->devicePixelRatioF();
        const QPixmap drawn = button->icon().pixmap(button->iconSize(), ratio);
        if (drawn.devicePixelRatio() < ratio)
            problems << QStringLiteral("%1 '%2': %3 px for %4 pt at %5×")
                            .arg(button->objectName(), button->text())
                            .arg(drawn.width())
                            .arg(button->iconSize().width())
                            .arg(ratio);
    }
    return problems;
}

} // namespace sb::guitest
