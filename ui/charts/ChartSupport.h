#pragma once
// What every chart of the workbench shares: its look, exact values in tooltips on hover, and exporting a chart as
// a PNG image or its figures as CSV from the chart's context menu.

#include <QString>
#include <QStringList>

class QAbstractBarSeries;
class QBarSet;
class QChart;
class QChartView;
class QXYSeries;

namespace sb::ui {

// A chart in the workbench's look (a bold title, no legend, no animation: values change with every run), in the
// colours of the application's palette.
QChart* makeChart(const QString& title);

// Gives `chart` Qt Charts' light or dark theme as the application's palette is light or dark: background, title,
// legend, axes and the labels drawn outside bars. The series' own colours, the title's font and the chart's
// margins stay. Nothing happens when the chart has the theme already.
void applyPaletteTheme(QChart* chart);
// Keeps the chart `view` shows (whichever it is then) in the palette's theme when the palette changes, as a theme
// chosen in Settings changes it.
void followPalette(QChartView* view);

// The tooltip of each bar of `set`, by index; shown on hover once the set's series has showBarToolTips.
void setBarToolTips(QBarSet* set, const QStringList& tips);
QString barToolTip(const QBarSet* set, int index);
void showBarToolTips(QAbstractBarSeries* series);
// The same for the points of a line or scatter series (by point index); the tooltip of the nearest point shows.
void setPointToolTips(QXYSeries* series, const QStringList& tips);
QString pointToolTip(const QXYSeries* series, int index);
void showPointToolTips(QXYSeries* series);

// The chart's figures as CSV: for bar series a row per category and a column per set, for line series a row
// per point (times as ISO 8601 on a time axis). Labels are plain text (an axis's rich text unescaped).
QString chartCsv(const QChart* chart);
bool saveChartCsv(const QChart* chart, const QString& path);
bool saveChartPng(QChartView* view, const QString& path);
// "Save chart as PNG…" and "Save data as CSV…" in the view's context menu; `fileStem` names the suggested files.
void addChartExportActions(QChartView* view, const QString& fileStem);

} // namespace sb::ui
