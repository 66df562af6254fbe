#include "ui/charts/ChartSupport.h"
#include "ui/style/Theme.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QAction>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QCursor>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QEvent>
#include <QFileDialog>
#include <QLegend>
#include <QMessageBox>
#include <QSaveFile>
#include <QTextDocumentFragment>
#include <QToolTip>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace sb::ui {

namespace {

constexpr const char* kToolTipsProperty = "sbToolTips";

// lupdate files the tr() calls of free functions in sb::ui under the context "sb::ui"; this looks them up there.
QString tr(const char* text)
{
    return QCoreApplication::translate("sb::ui", text);
}

QString csvField(QString text)
{
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n'))) {
        text.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        return QLatin1Char('"') + text + QLatin1Char('"');
    }
    return text;
}

QString plain(const QString& richText)
{
    return QTextDocumentFragment::fromHtml(richText).toPlainText().simplified();
}

template <typename Axis>
Axis* attachedAxis(QAbstractSeries* series)
{
    for (QAbstractAxis* axis : series->attachedAxes()) {
        if (auto* a = qobject_cast<Axis*>(axis))
            return a;
    }
    return nullptr;
}

// Reapplies the palette's theme to the chart its view shows when the application's palette changes.
class PaletteFollower : public QObject {
public:
    explicit PaletteFollower(QChartView* view)
        : QObject(view)
        , m_view(view)
    {
        view->installEventFilter(this);
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == m_view && m_view->chart()
            && (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange))
            applyPaletteTheme(m_view->chart());
        return QObject::eventFilter(watched, event);
    }

private:
    QChartView* m_view;
};

QChart::ChartTheme paletteTheme()
{
    return paletteIsDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight;
}

} // namespace

void applyPaletteTheme(QChart* chart)
{
    const QChart::ChartTheme wanted = paletteTheme();
    if (chart->theme() == wanted)
        return;
    // A theme repaints every series in its own colours and resets the fonts: what the chart chose is kept.
    struct KeptSet {
        QBarSet* set;
        QBrush brush;
        QPen pen;
        QBrush label;
        bool outside;
    };
    struct KeptLine {
        QXYSeries* series;
        QPen pen;
        QBrush brush;
    };
    std::vector<KeptSet> sets;
    std::vector<KeptLine> lines;
    for (QAbstractSeries* series : chart->series()) {
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
            const bool outside = bars->isLabelsVisible() && bars->labelsPosition() == QAbstractBarSeries::LabelsOutsideEnd;
            for (QBarSet* set : bars->barSets())
                sets.push_back({set, set->brush(), set->pen(), set->labelBrush(), outside});
        } else if (auto* xy = qobject_cast<QXYSeries*>(series)) {
            lines.push_back({xy, xy->pen(), xy->brush()});
        }
    }
    const QFont titleFont = chart->titleFont();
    const QFont legendFont = chart->legend()->font();
    const QMargins margins = chart->margins();
    const qreal roundness = chart->backgroundRoundness();
    chart->setTheme(wanted);
    chart->setTitleFont(titleFont);
    chart->legend()->setFont(legendFont);
    chart->setMargins(margins);
    chart->setBackgroundRoundness(roundness);
    const QBrush themeLabels = chart->axes().isEmpty() ? QBrush(chart->titleBrush()) : chart->axes().front()->labelsBrush();
    for (const KeptSet& kept : sets) {
        kept.set->setBrush(kept.brush);
        kept.set->setPen(kept.pen);
        // A label outside its bar is read against the chart's background: it takes the theme's colour.
        kept.set->setLabelBrush(kept.outside ? themeLabels : kept.label);
    }
    for (const KeptLine& kept : lines) {
        kept.series->setPen(kept.pen);
        kept.series->setBrush(kept.brush);
    }
}

void followPalette(QChartView* view)
{
    new PaletteFollower(view);
    if (view->chart())
        applyPaletteTheme(view->chart());
}

QChart* makeChart(const QString& title)
{
    auto* chart = new QChart;
    applyPaletteTheme(chart); // first: a theme resets the fonts set below
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.05);
    chart->setTitleFont(titleFont);
    chart->legend()->hide();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(6);
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

void setBarToolTips(QBarSet* set, const QStringList& tips)
{
    set->setProperty(kToolTipsProperty, tips);
}

QString barToolTip(const QBarSet* set, int index)
{
    const QStringList tips = set->property(kToolTipsProperty).toStringList();
    return index >= 0 && index < tips.size() ? tips[index] : QString();
}

void showBarToolTips(QAbstractBarSeries* series)
{
    QObject::connect(series, &QAbstractBarSeries::hovered, series, [](bool on, int index, QBarSet* set) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        if (const QString tip = barToolTip(set, index); !tip.isEmpty())
            QToolTip::showText(QCursor::pos(), tip);
    });
}

void setPointToolTips(QXYSeries* series, const QStringList& tips)
{
    series->setProperty(kToolTipsProperty, tips);
}

QString pointToolTip(const QXYSeries* series, int index)
{
    const QStringList tips = series->property(kToolTipsProperty).toStringList();
    return index >= 0 && index < tips.size() ? tips[index] : QString();
}

void showPointToolTips(QXYSeries* series)
{
    QObject::connect(series, &QXYSeries::hovered, series, [series](const QPointF& at, bool on) {
        if (!on || series->count() == 0) {
            QToolTip::hideText();
            return;
        }
        int nearest = 0;
        double best = std::numeric_limits<double>::infinity();
        for (int i = 0; i < series->count(); ++i) {
            const double d = std::abs(series->at(i).x() - at.x());
            if (d < best) {
                best = d;
                nearest = i;
            }
        }
        if (const QString tip = pointToolTip(series, nearest); !tip.isEmpty())
            QToolTip::showText(QCursor::pos(), tip);
    });
}

QString chartCsv(const QChart* chart)
{
    QStringList blocks;
    for (QAbstractSeries* series : chart->series()) {
        QStringList lines;
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
            auto* axis = attachedAxis<QBarCategoryAxis>(bars);
            QStringList header{csvField(axis && !axis->titleText().isEmpty() ? plain(axis->titleText())
                                                                              : tr("category"))};
            for (const QBarSet* set : bars->barSets())
                header << csvField(plain(set->label()));
            lines << header.join(QLatin1Char(','));
            const QStringList categories = axis ? axis->categories() : QStringList();
            int rows = 0;
            for (const QBarSet* set : bars->barSets())
                rows = std::max(rows, static_cast<int>(set->count()));
            for (int i = 0; i < rows; ++i) {
                QStringList row{csvField(i < categories.size() ? plain(categories[i]) : QString::number(i))};
                for (const QBarSet* set : bars->barSets())
                    row << (i < set->count() ? QString::number(set->at(i), 'g', 12) : QString());
                lines << row.join(QLatin1Char(','));
            }
        } else if (auto* xy = qobject_cast<QXYSeries*>(series)) {
            const bool time = attachedAxis<QDateTimeAxis>(xy) != nullptr;
            lines << QStringLiteral("%1,%2,%3").arg(tr("series"), time ? tr("time") : tr("x"), tr("value"));
            for (const QPointF& p : xy->points()) {
                const QString x = time ? QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(p.x()))
                                             .toString(Qt::ISODate)
                                       : QString::number(p.x(), 'g', 12);
                lines << QStringLiteral("%1,%2,%3").arg(csvField(plain(xy->name())), x, QString::number(p.y(), 'g', 12));
            }
        }
        if (!lines.isEmpty())
            blocks << lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
    }
    return blocks.join(QLatin1Char('\n'));
}

bool saveChartCsv(const QChart* chart, const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(chartCsv(chart).toUtf8());
    return file.commit();
}

bool saveChartPng(QChartView* view, const QString& path)
{
    return view->grab().save(path, "PNG");
}

void addChartExportActions(QChartView* view, const QString& fileStem)
{
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* png = new QAction(tr("Save chart as PNG…"), view);
    png->setObjectName(QStringLiteral("actionChartPng"));
    QObject::connect(png, &QAction::triggered, view, [view, fileStem] {
        const QString path = QFileDialog::getSaveFileName(view, tr("Save chart"), fileStem + QStringLiteral(".png"),
                                                          tr("PNG images (*.png)"));
        if (!path.isEmpty() && !saveChartPng(view, path))
            QMessageBox::warning(view, tr("Save chart"), tr("Cannot write %1").arg(path));
    });
    auto* csv = new QAction(tr("Save data as CSV…"), view);
    csv->setObjectName(QStringLiteral("actionChartCsv"));
    QObject::connect(csv, &QAction::triggered, view, [view, fileStem] {
        const QString path = QFileDialog::getSaveFileName(view, tr("Save chart data"), fileStem + QStringLiteral(".csv"),
                                                          tr("CSV (*.csv)"));
        if (!path.isEmpty() && !saveChartCsv(view->chart(), path))
            QMessageBox::warning(view, tr("Save chart data"), tr("Cannot write %1").arg(path));
    });
    view->addAction(png);
    view->addAction(csv);
}

} // namespace sb::ui
