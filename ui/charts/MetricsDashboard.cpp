#include "ui/charts/MetricsDashboard.h"

#include "ui/style/OutcomeStyle.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

QChart* makeChart(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.05);
    chart->setTitleFont(titleFont);
    chart->legend()->hide();
    chart->setAnimationOptions(QChart::NoAnimation); // values change per run; no need to animate
    chart->setBackgroundRoundness(6);
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

void styleCountAxis(QValueAxis* axis, std::int64_t largest)
{
    const auto shape = countAxisFor(largest);
    axis->setRange(0, static_cast<qreal>(shape.max));
    axis->setTickCount(shape.tickCount);
    axis->setLabelFormat(QStringLiteral("%d"));
}

} // namespace

MetricsDashboard::MetricsDashboard(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("metricsDashboard"));
    setMinimumWidth(420);

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

    // Both charts lie on their side: category names such as "memory_limit" or "1000–2500" stay readable
    // in a narrow dock, and the first category reads at the top.
    // Runs by outcome: a stacked series with one set per outcome, each filling only its own category,
    // is how Qt Charts gives every bar its own colour.
    auto* outcomeChart = makeChart(tr("Runs by outcome"));
    auto* outcomeSeries = new QHorizontalStackedBarSeries;
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
        outcomeSeries->append(set);
        m_outcomeSets.push_back(set);
    }
    outcomeSeries->setBarWidth(0.75);
    outcomeChart->addSeries(outcomeSeries);
    auto* outcomeCategories = new QBarCategoryAxis;
    outcomeCategories->append(outcomeNames);
    outcomeCategories->setGridLineVisible(false);
    outcomeChart->addAxis(outcomeCategories, Qt::AlignLeft);
    outcomeSeries->attachAxis(outcomeCategories);
    m_outcomeAxis = new QValueAxis;
    outcomeChart->addAxis(m_outcomeAxis, Qt::AlignBottom);
    outcomeSeries->attachAxis(m_outcomeAxis);

    auto* durationChart = makeChart(tr("Run duration (ms)"));
    auto* durationSeries = new QHorizontalBarSeries;
    m_durationSet = new QBarSet(tr("runs"));
    m_durationSet->setColor(QColor(0x34, 0x6f, 0xc2));
    m_durationSet->setBorderColor(QColor(0x34, 0x6f, 0xc2).darker(110));
    durationSeries->append(m_durationSet);
    durationSeries->setBarWidth(0.8);
    durationChart->addSeries(durationSeries);
    m_durationCategories = new QBarCategoryAxis;
    m_durationCategories->setGridLineVisible(false);
    durationChart->addAxis(m_durationCategories, Qt::AlignLeft);
    durationSeries->attachAxis(m_durationCategories);
    m_durationAxis = new QValueAxis;
    durationChart->addAxis(m_durationAxis, Qt::AlignBottom);
    durationSeries->attachAxis(m_durationAxis);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(8);
    layout->addWidget(counters);
    layout->addWidget(makeChartView(outcomeChart, QStringLiteral("outcomeChart")), 1);
    layout->addWidget(makeChartView(durationChart, QStringLiteral("durationChart")), 1);

    setSnapshot({});
}

QSize MetricsDashboard::sizeHint() const
{
    return {520, 760};
}

QLabel* MetricsDashboard::addCounter(QGridLayout* grid, int row, int column, const QString& caption, const QString& objectName)
{
    auto* card = new QFrame;
    card->setObjectName(objectName + QStringLiteral("Card"));
    card->setStyleSheet(QStringLiteral("#%1 { background: palette(base); border: 1px solid palette(mid);"
                                       " border-radius: 6px; }")
                            .arg(card->objectName()));
    auto* value = new QLabel(card);
    value->setObjectName(objectName);
    QFont valueFont = value->font();
    valueFont.setPointSizeF(valueFont.pointSizeF() * 1.45);
    valueFont.setBold(true);
    value->setFont(valueFont);
    value->setAlignment(Qt::AlignCenter);
    auto* label = new QLabel(caption, card);
    label->setAlignment(Qt::AlignCenter);
    label->setStyleSheet(QStringLiteral("color: palette(dark);"));
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(0);
    layout->addWidget(value);
    layout->addWidget(label);
    grid->addWidget(card, row, column);
    return value;
}

QChartView* MetricsDashboard::makeChartView(QChart* chart, const QString& objectName)
{
    auto* view = new QChartView(chart, this);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    return view;
}

void MetricsDashboard::setSnapshot(const sb::MetricsSnapshot& snapshot)
{
    m_data = chartDataFrom(snapshot);
    const QLocale locale;

    m_total->setText(locale.toString(m_data.total));
    m_okRate->setText(m_data.total > 0 ? locale.toString(m_data.okRate * 100, 'f', 0) + QStringLiteral(" %")
                                       : QStringLiteral("–"));
    m_blocked->setText(locale.toString(m_data.blocked));
    m_timeouts->setText(locale.toString(m_data.timeouts));
    m_errors->setText(locale.toString(m_data.countOf(sb::Outcome::Error)));
    const bool any = m_data.total > 0;
    m_p50->setText(any ? formatDuration(m_data.p50Ms) : QStringLiteral("–"));
    m_p95->setText(any ? formatDuration(m_data.p95Ms) : QStringLiteral("–"));
    m_p99->setText(any ? formatDuration(m_data.p99Ms) : QStringLiteral("–"));

    // Set i fills only its own row, which sits at the mirrored position (the first outcome on top).
    const auto rows = static_cast<int>(m_outcomeSets.size());
    for (int i = 0; i < rows; ++i)
        m_outcomeSets[static_cast<std::size_t>(i)]->replace(rows - 1 - i, static_cast<qreal>(m_data.outcomes[static_cast<std::size_t>(i)].count));
    styleCountAxis(m_outcomeAxis, m_data.maxOutcomeCount());

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
    for (int i = 0; i < bins; ++i)
        m_durationSet->replace(bins - 1 - i, static_cast<qreal>(m_data.histogram[static_cast<std::size_t>(i)].count));
    styleCountAxis(m_durationAxis, m_data.maxHistogramCount());
}

} // namespace sb::ui
