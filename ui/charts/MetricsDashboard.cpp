#include "ui/charts/MetricsDashboard.h"

#include "ui/charts/ActivityCharts.h"
#include "ui/charts/ChartSupport.h"
#include "ui/style/OutcomeStyle.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QScrollArea>
#include <QSettings>
#include <QTimer>
#include <QToolButton>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sb::ui {

namespace {

constexpr const char* kRangeSetting = "metrics/timeRange";

void styleCountAxis(QValueAxis* axis, std::int64_t largest)
{
    const auto shape = countAxisFor(largest);
    axis->setRange(0, static_cast<qreal>(shape.max));
    axis->setTickCount(shape.tickCount);
    axis->setLabelFormat(QStringLiteral("%d"));
}

QString runs(std::int64_t n)
{
    return QCoreApplication::translate("sb::ui::MetricsDashboard", "%n run(s)", nullptr, static_cast<int>(n));
}

} // namespace

MetricsDashboard::MetricsDashboard(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("metricsDashboard"));
    setMinimumWidth(420);

    m_rangeCombo = new QComboBox(this);
    m_rangeCombo->setObjectName(QStringLiteral("metricsRange"));
    m_rangeCombo->setToolTip(tr("The runs the counters and charts count: those started in this span of time"));
    for (TimeRange range : kAllTimeRanges)
        m_rangeCombo->addItem(timeRangeName(range), static_cast<int>(range));
    m_filterButton = new QToolButton(this);
    m_filterButton->setObjectName(QStringLiteral("metricsFilter"));
    m_filterButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_filterButton->setIcon(QIcon::fromTheme(QStringLiteral("edit-clear")));
    m_filterButton->setToolTip(tr("Show every run again"));
    m_filterButton->hide();
    connect(m_filterButton, &QToolButton::clicked, this, [this] { setFilter({}); });
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    auto* rangeLabel = new QLabel(tr("Runs of:"), this);
    rangeLabel->setBuddy(m_rangeCombo);
    top->addWidget(rangeLabel);
    top->addWidget(m_rangeCombo);
    top->addStretch();
    top->addWidget(m_filterButton);

    auto* counters = new QFrame(this);
    counters->setObjectName(QStringLiteral("counters"));
    auto* grid = new QGridLayout(counters);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(6);
    m_total = addCounter(grid, 0, 0, tr("Runs"), QStringLiteral("counterTotal"));
    m_okRate = addCounter(grid, 0, 1, tr("OK rate"), QStringLiteral("counterOkRate"));
    m_blocked = addCounter(grid, 0, 2, tr("Blocked"), QStringLiteral("counterBlocked"));
    m_timeouts = addCounter(grid, 0, 3, tr("Timeouts"), QStringLiteral("counterTimeouts"));
    m_errors = addCounter(grid, 1, 0, tr("Errors"), QStringLiteral("counterErrors"));
    m_p50 = addCounter(grid, 1, 1, tr("p50"), QStringLiteral("counterP50"));
    m_p95 = addCounter(grid, 1, 2, tr("p95"), QStringLiteral("counterP95"));
    m_p99 = addCounter(grid, 1, 3, tr("p99"), QStringLiteral("counterP99"));

    buildOutcomeChart();
    buildDurationChart();
    buildTimelineChart();
    m_activityCharts = new ActivityCharts;

    // The charts scroll below the counters rather than squeezing their axes away in a short window.
    auto* charts = new QWidget;
    auto* chartsLayout = new QVBoxLayout(charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->setSpacing(8);
    chartsLayout->addWidget(m_outcomeView, 1);
    chartsLayout->addWidget(m_durationView, 1);
    chartsLayout->addWidget(m_timelineView, 1);
    chartsLayout->addWidget(m_activityCharts, 3);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("metricsChartsScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(charts);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(8);
    layout->addLayout(top);
    layout->addWidget(counters);
    layout->addWidget(scroll, 1);

    m_range = timeRangeFromKey(QSettings().value(QLatin1String(kRangeSetting), timeRangeKey(TimeRange::All)).toString());
    m_rangeCombo->setCurrentIndex(m_rangeCombo->findData(static_cast<int>(m_range)));
    connect(m_rangeCombo, &QComboBox::currentIndexChanged, this,
            [this] { setTimeRange(static_cast<TimeRange>(m_rangeCombo->currentData().toInt())); });
    // "The last hour" moves on with the clock, runs or not.
    auto* clock = new QTimer(this);
    clock->setInterval(60 * 1000);
    connect(clock, &QTimer::timeout, this, [this] {
        if (m_range != TimeRange::All)
            refresh();
    });
    clock->start();
    setSnapshot({});
}

// Both bar charts lie on their side: category names such as "memory_limit" or "1000–2500" stay readable in a
// narrow dock, and the first category reads at the top.
void MetricsDashboard::buildOutcomeChart()
{
    // Runs by outcome: a stacked series with one set per outcome, each filling only its own category, is how
    // Qt Charts gives every bar its own colour.
    auto* chart = makeChart(tr("Runs by outcome"));
    auto* series = new QHorizontalStackedBarSeries;
    const auto outcomeCount = static_cast<int>(sb::kAllOutcomes.size());
    QStringList outcomeNames;
    for (sb::Outcome outcome : sb::kAllOutcomes)
        outcomeNames.prepend(outcomeName(outcome)); // bottom-up: the first outcome at the top
    for (int i = 0; i < outcomeCount; ++i) {
        const sb::Outcome outcome = sb::kAllOutcomes[static_cast<std::size_t>(i)];
        auto* set = new QBarSet(outcomeName(outcome));
        set->setColor(outcomeColor(outcome));
        set->setBorderColor(outcomeColor(outcome).darker(110));
        set->setLabelColor(outcomeTextColor(outcome));
        for (int j = 0; j < outcomeCount; ++j)
            set->append(0);
        series->append(set);
        m_outcomeSets.push_back(set);
    }
    series->setBarWidth(0.75);
    showBarToolTips(series);
    connect(series, &QAbstractBarSeries::clicked, this, [this](int, QBarSet* set) {
        const auto it = std::find(m_outcomeSets.begin(), m_outcomeSets.end(), set);
        if (it != m_outcomeSets.end())
            clickOutcome(sb::kAllOutcomes[static_cast<std::size_t>(it - m_outcomeSets.begin())]);
    });
    chart->addSeries(series);
    auto* categories = new QBarCategoryAxis;
    categories->append(outcomeNames);
    categories->setGridLineVisible(false);
    categories->setTruncateLabels(false);
    categories->setTitleText(tr("Outcome"));
    chart->addAxis(categories, Qt::AlignLeft);
    series->attachAxis(categories);
    m_outcomeAxis = new QValueAxis;
    m_outcomeAxis->setTitleText(tr("Runs"));
    chart->addAxis(m_outcomeAxis, Qt::AlignBottom);
    series->attachAxis(m_outcomeAxis);
    m_outcomeView = makeChartView(chart, QStringLiteral("outcomeChart"), QStringLiteral("runs-by-outcome"));
    m_outcomeView->setMinimumHeight(250); // seven outcome names, one above the other
}

void MetricsDashboard::buildDurationChart()
{
    auto* chart = makeChart(tr("Run duration"));
    auto* series = new QHorizontalBarSeries;
    m_durationSet = new QBarSet(tr("runs"));
    m_durationSet->setColor(QColor(0x34, 0x6f, 0xc2));
    m_durationSet->setBorderColor(QColor(0x34, 0x6f, 0xc2).darker(110));
    m_durationSet->setSelectedColor(QColor(0x1b, 0x3f, 0x7a));
    series->append(m_durationSet);
    series->setBarWidth(0.8);
    showBarToolTips(series);
    connect(series, &QAbstractBarSeries::clicked, this, [this](int index, QBarSet*) {
        clickDurationBin(static_cast<int>(m_data.histogram.size()) - 1 - index); // the axis lists bottom-up
    });
    chart->addSeries(series);
    m_durationCategories = new QBarCategoryAxis;
    m_durationCategories->setGridLineVisible(false);
    m_durationCategories->setTruncateLabels(false);
    m_durationCategories->setTitleText(tr("Duration (ms)"));
    chart->addAxis(m_durationCategories, Qt::AlignLeft);
    series->attachAxis(m_durationCategories);
    m_durationAxis = new QValueAxis;
    m_durationAxis->setTitleText(tr("Runs"));
    chart->addAxis(m_durationAxis, Qt::AlignBottom);
    series->attachAxis(m_durationAxis);
    m_durationView = makeChartView(chart, QStringLiteral("durationChart"), QStringLiteral("run-durations"));
    m_durationView->setMinimumHeight(290); // ten bins
}

void MetricsDashboard::buildTimelineChart()
{
    auto* chart = makeChart(tr("Runs over time"));
    chart->legend()->show();
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_timeAxis = new QDateTimeAxis;
    m_timeAxis->setTitleText(tr("Time"));
    chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_timeCountAxis = new QValueAxis;
    chart->addAxis(m_timeCountAxis, Qt::AlignLeft);
    m_timelineView = makeChartView(chart, QStringLiteral("timelineChart"), QStringLiteral("runs-over-time"));
    m_timelineView->setMinimumHeight(270);
}

QSize MetricsDashboard::sizeHint() const
{
    return {520, 760};
}

QLabel* MetricsDashboard::addCounter(QGridLayout* grid, int row, int column, const QString& caption, const QString& objectName)
{
    auto* card = new QFrame;
    card->setObjectName(objectName + QStringLiteral("Card"));
    // In the palette's colours, not a style sheet's: they follow a theme changed while the window is open.
    card->setFrameShape(QFrame::StyledPanel);
    card->setAutoFillBackground(true);
    card->setBackgroundRole(QPalette::Base);
    auto* value = new QLabel(card);
    value->setObjectName(objectName);
    QFont valueFont = value->font();
    valueFont.setPointSizeF(valueFont.pointSizeF() * 1.45);
    valueFont.setBold(true);
    value->setFont(valueFont);
    value->setAlignment(Qt::AlignCenter);
    auto* label = new QLabel(caption, card);
    label->setAlignment(Qt::AlignCenter);
    label->setForegroundRole(QPalette::PlaceholderText); // secondary text, in the theme's colour
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(0);
    layout->addWidget(value);
    layout->addWidget(label);
    grid->addWidget(card, row, column);
    return value;
}

QChartView* MetricsDashboard::makeChartView(QChart* chart, const QString& objectName, const QString& fileStem)
{
    auto* view = new QChartView(chart, this);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    // No tooltip of its own: a chart's bars and points have theirs, with their figures.
    view->setWhatsThis(tr("Click a bar or point to show only those runs; right-click to save the chart"));
    addChartExportActions(view, fileStem);
    followPalette(view);
    return view;
}

void MetricsDashboard::setSnapshot(const sb::MetricsSnapshot& snapshot, std::vector<sb::RunPoint> runs)
{
    m_snapshot = snapshot;
    m_runs = std::move(runs);
    refresh();
}

void MetricsDashboard::setActivity(DashboardActivity activity)
{
    m_activity = std::move(activity);
    refresh();
}

void MetricsDashboard::setTimeRange(TimeRange range)
{
    if (range == m_range)
        return;
    m_range = range;
    QSettings().setValue(QLatin1String(kRangeSetting), timeRangeKey(range));
    const QSignalBlocker block(m_rangeCombo);
    m_rangeCombo->setCurrentIndex(m_rangeCombo->findData(static_cast<int>(range)));
    refresh();
}

void MetricsDashboard::setFilter(const RunFilter& filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    refresh();
    emit filterChanged(m_filter);
}

void MetricsDashboard::clickOutcome(sb::Outcome outcome)
{
    RunFilter f = m_filter;
    if (f.outcome == outcome)
        f.outcome.reset();
    else
        f.outcome = outcome;
    setFilter(f);
}

void MetricsDashboard::clickDurationBin(int bin)
{
    if (bin < 0 || bin >= static_cast<int>(m_data.histogram.size()))
        return;
    const auto& bar = m_data.histogram[static_cast<std::size_t>(bin)];
    RunFilter f = m_filter;
    const std::pair<double, double> span{bar.lowMs, bar.highMs};
    if (f.durationMs == span)
        f.durationMs.reset();
    else
        f.durationMs = span;
    setFilter(f);
}

void MetricsDashboard::clickTimelinePoint(sb::Outcome outcome, int bucket)
{
    const Timeline& line = m_data.timeline;
    if (bucket < 0 || bucket >= line.buckets)
        return;
    RunFilter f = m_filter;
    const std::int64_t from = line.startMs + bucket * line.bucketMs;
    const std::pair<std::int64_t, std::int64_t> window{from, from + line.bucketMs};
    if (f.startMs == window && f.outcome == outcome) {
        f.startMs.reset();
        f.outcome.reset();
    } else {
        f.startMs = window;
        f.outcome = outcome;
    }
    setFilter(f);
}

void MetricsDashboard::refresh()
{
    m_data = chartDataFrom(m_snapshot, m_runs, m_range, m_filter);
    m_filterButton->setText(tr("Only %1 ✕").arg(m_filter.describe()));
    m_filterButton->setMinimumWidth(m_filterButton->sizeHint().width());
    m_filterButton->setVisible(!m_filter.isEmpty());
    showCounters();
    showOutcomes();
    showDurations();
    showTimeline();
    // What was blocked, decided and promoted in the range, narrowed to the window of time a click selected.
    std::int64_t fromMs = std::numeric_limits<std::int64_t>::min();
    std::int64_t untilMs = 0;
    if (const std::int64_t span = timeRangeMs(m_range); span > 0)
        fromMs = QDateTime::currentMSecsSinceEpoch() - span;
    if (m_filter.startMs) {
        fromMs = std::max(fromMs, m_filter.startMs->first);
        untilMs = m_filter.startMs->second;
    }
    m_activityCharts->setActivity(m_activity, fromMs, untilMs);
}

void MetricsDashboard::showCounters()
{
    const QLocale locale;
    m_total->setText(locale.toString(m_data.total));
    m_okRate->setText(m_data.total > 0 ? locale.toString(m_data.okRate * 100, 'f', 0) + QStringLiteral(" %")
                                       : QStringLiteral("–"));
    m_blocked->setText(locale.toString(m_data.blocked));
    m_timeouts->setText(locale.toString(m_data.timeouts));
    m_errors->setText(locale.toString(m_data.errors));
    const bool any = m_data.total > 0;
    m_p50->setText(any ? formatDuration(m_data.p50Ms) : QStringLiteral("–"));
    m_p95->setText(any ? formatDuration(m_data.p95Ms) : QStringLiteral("–"));
    m_p99->setText(any ? formatDuration(m_data.p99Ms) : QStringLiteral("–"));
}

void MetricsDashboard::showOutcomes()
{
    // Set i fills only its own row, which sits at the mirrored position (the first outcome on top). The
    // outcome a filter selects keeps its colour; the others fade.
    const auto rows = static_cast<int>(m_outcomeSets.size());
    std::int64_t shown = 0;
    for (const auto& bar : m_data.outcomes)
        shown += bar.count;
    for (int i = 0; i < rows; ++i) {
        const auto& bar = m_data.outcomes[static_cast<std::size_t>(i)];
        QBarSet* set = m_outcomeSets[static_cast<std::size_t>(i)];
        set->replace(rows - 1 - i, static_cast<qreal>(bar.count));
        QColor color = outcomeColor(bar.outcome);
        if (m_filter.outcome && *m_filter.outcome != bar.outcome)
            color.setAlpha(70);
        set->setColor(color);
        QStringList tips;
        for (int j = 0; j < rows; ++j)
            tips << (j == rows - 1 - i ? tr("%1: %2 (%3 % of %4)")
                                             .arg(outcomeName(bar.outcome), runs(bar.count))
                                             .arg(QLocale().toString(bar.rate * 100, 'f', 1))
                                             .arg(QLocale().toString(shown))
                                       : QString());
        setBarToolTips(set, tips);
    }
    styleCountAxis(m_outcomeAxis, m_data.maxOutcomeCount());
}

void MetricsDashboard::showDurations()
{
    QStringList labels;
    for (const auto& bar : m_data.histogram)
        labels.prepend(bar.label.toHtmlEscaped()); // axis labels are rich text ("<10"); bottom-up: shortest on top
    if (m_durationCategories->categories() != labels) {
        m_durationCategories->clear();
        m_durationCategories->append(labels);
    }
    if (m_durationSet->count() != static_cast<int>(m_data.histogram.size())) {
        m_durationSet->remove(0, m_durationSet->count());
        for (std::size_t i = 0; i < m_data.histogram.size(); ++i)
            m_durationSet->append(0);
    }
    const auto bins = static_cast<int>(m_data.histogram.size());
    QStringList tips;
    m_durationSet->deselectAllBars();
    for (int i = 0; i < bins; ++i) {
        const auto& bar = m_data.histogram[static_cast<std::size_t>(i)];
        m_durationSet->replace(bins - 1 - i, static_cast<qreal>(bar.count));
        QStringList marks; // the percentiles that fall in this bin
        for (const auto& [name, ms] : {std::pair{"p50", m_data.p50Ms}, std::pair{"p95", m_data.p95Ms},
                                       std::pair{"p99", m_data.p99Ms}})
            if (m_data.total > 0 && bar.count > 0 && ms >= bar.lowMs && ms < bar.highMs)
                marks << QLatin1String(name);
        tips.prepend(marks.isEmpty() ? tr("%1 ms: %2").arg(bar.label, runs(bar.count))
                                     : tr("%1 ms: %2 (%3 here)").arg(bar.label, runs(bar.count), marks.join(QStringLiteral(", "))));
        if (m_filter.durationMs && m_filter.durationMs->first == bar.lowMs)
            m_durationSet->selectBar(bins - 1 - i);
    }
    setBarToolTips(m_durationSet, tips);
    styleCountAxis(m_durationAxis, m_data.maxHistogramCount());
    // The percentiles beside the histogram they summarise.
    m_durationView->chart()->setTitle(m_data.total > 0 ? tr("Run duration · p50 %1 · p95 %2 · p99 %3")
                                                             .arg(formatDuration(m_data.p50Ms),
                                                                  formatDuration(m_data.p95Ms),
                                                                  formatDuration(m_data.p99Ms))
                                                       : tr("Run duration"));
}

void MetricsDashboard::showTimeline()
{
    QChart* chart = m_timelineView->chart();
    chart->removeAllSeries();
    const Timeline& line = m_data.timeline;
    const QLocale locale;
    if (line.buckets == 0) {
        const auto now = QDateTime::currentDateTime();
        m_timeAxis->setRange(now.addSecs(-3600), now);
    } else {
        m_timeAxis->setRange(QDateTime::fromMSecsSinceEpoch(line.startMs), QDateTime::fromMSecsSinceEpoch(line.endMs()));
    }
    const QDateTime from = m_timeAxis->min();
    const QDateTime to = m_timeAxis->max();
    const qint64 spanMs = from.msecsTo(to);
    constexpr qint64 day = 24LL * 3600 * 1000;
    // Times of day when the span is a day or less (the day then in the axis title), dates beyond.
    if (spanMs <= day + 3600 * 1000) {
        m_timeAxis->setFormat(QStringLiteral("HH:mm"));
        m_timeAxis->setTitleText(from.date() == to.date()
                                     ? tr("Time (%1)").arg(locale.toString(from.date(), QLocale::ShortFormat))
                                     : tr("Time (%1 – %2)")
                                           .arg(locale.toString(from.date(), QLocale::ShortFormat),
                                                locale.toString(to.date(), QLocale::ShortFormat)));
        m_timeAxis->setTickCount(5);
    } else if (spanMs <= 8 * day) { // a week: the day and the time, so two ticks on one day differ
        m_timeAxis->setFormat(QStringLiteral("d MMM HH:mm"));
        m_timeAxis->setTitleText(tr("Time"));
        m_timeAxis->setTickCount(4);
    } else {
        m_timeAxis->setFormat(spanMs > 300 * day ? QStringLiteral("MMM yyyy") : QStringLiteral("d MMM"));
        m_timeAxis->setTitleText(tr("Date"));
        m_timeAxis->setTickCount(5);
    }
    m_timeCountAxis->setTitleText(tr("Runs per %1").arg(bucketName(line.bucketMs)));
    styleCountAxis(m_timeCountAxis, line.maxCount());
    for (const TimeSeries& ts : line.series) {
        auto* series = new QLineSeries;
        series->setName(outcomeName(ts.outcome));
        series->setColor(outcomeColor(ts.outcome));
        series->setPointsVisible(line.buckets <= 24); // forty-eight markers on a line hide it
        QPen pen = series->pen();
        pen.setWidthF(2);
        series->setPen(pen);
        QStringList tips;
        for (int b = 0; b < line.buckets; ++b) {
            const qint64 start = line.startMs + b * line.bucketMs;
            series->append(static_cast<qreal>(start + line.bucketMs / 2), static_cast<qreal>(ts.counts[static_cast<std::size_t>(b)]));
            const auto a = QDateTime::fromMSecsSinceEpoch(start);
            const auto z = QDateTime::fromMSecsSinceEpoch(start + line.bucketMs);
            tips << tr("%1 – %2: %3 %4")
                        .arg(locale.toString(a, QLocale::ShortFormat), locale.toString(z.time(), QLocale::ShortFormat),
                             runs(ts.counts[static_cast<std::size_t>(b)]), outcomeName(ts.outcome));
        }
        setPointToolTips(series, tips);
        chart->addSeries(series);
        series->attachAxis(m_timeAxis);
        series->attachAxis(m_timeCountAxis);
        showPointToolTips(series);
        const sb::Outcome outcome = ts.outcome;
        connect(series, &QXYSeries::clicked, this, [this, outcome](const QPointF& at) {
            const Timeline& l = m_data.timeline;
            if (l.bucketMs > 0)
                clickTimelinePoint(outcome, static_cast<int>(std::floor((at.x() - static_cast<double>(l.startMs))
                                                                        / static_cast<double>(l.bucketMs))));
        });
    }
    chart->legend()->setVisible(!line.series.empty());
}

} // namespace sb::ui
