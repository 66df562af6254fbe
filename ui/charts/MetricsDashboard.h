#pragma once

#include "ui/models/ActivityChartData.h"
#include "ui/models/MetricsChartData.h"
#include "store/metrics.h"

#include <QWidget>

#include <vector>

class QBarCategoryAxis;
class QBarSet;
class QChart;
class QChartView;
class QComboBox;
class QDateTimeAxis;
class QGridLayout;
class QLabel;
class QToolButton;
class QValueAxis;

namespace sb::ui {

class ActivityCharts;

// Counters, runs by outcome, the duration histogram and runs over time of the store, over a time range the
// person picks (remembered between sessions). A click on an outcome bar, a duration bar or a point of the
// timeline selects those runs: the other charts and the counters narrow to them, filterChanged tells the
// window (which filters the run history), and a click on the same bar again or on the filter button clears it.
// Fed with MetricsSnapshot values; all arithmetic is in MetricsChartData.
class MetricsDashboard : public QWidget {
    Q_OBJECT
public:
    explicit MetricsDashboard(QWidget* parent = nullptr);

    // `runs`: every run of the store (store/run_points.h); without them, the snapshot's all-time figures.
    void setSnapshot(const sb::MetricsSnapshot& snapshot, std::vector<sb::RunPoint> runs = {});
    const MetricsChartData& data() const { return m_data; }
    // Blocked events, agent steps and promotions, shown over the same span of time (ActivityCharts).
    void setActivity(DashboardActivity activity);
    ActivityCharts* activityCharts() const { return m_activityCharts; }

    TimeRange timeRange() const { return m_range; }
    void setTimeRange(TimeRange range);
    const RunFilter& filter() const { return m_filter; }
    void setFilter(const RunFilter& filter);

    // What a click on each chart does (the charts' clicked signals call these).
    void clickOutcome(sb::Outcome outcome);
    void clickDurationBin(int bin); // index into data().histogram
    void clickTimelinePoint(sb::Outcome outcome, int bucket);

    QChartView* outcomeChart() const { return m_outcomeView; }
    QChartView* durationChart() const { return m_durationView; }
    QChartView* timelineChart() const { return m_timelineView; }

    QSize sizeHint() const override;

signals:
    void filterChanged(const sb::ui::RunFilter& filter);

private:
    QLabel* addCounter(QGridLayout* grid, int row, int column, const QString& caption, const QString& objectName);
    QChartView* makeChartView(QChart* chart, const QString& objectName, const QString& fileStem);
    void buildOutcomeChart();
    void buildDurationChart();
    void buildTimelineChart();
    // Recomputes the figures from the snapshot, the range and the filter, and shows them.
    void refresh();
    void showCounters();
    void showOutcomes();
    void showDurations();
    void showTimeline();

    sb::MetricsSnapshot m_snapshot;
    std::vector<sb::RunPoint> m_runs;
    MetricsChartData m_data;
    TimeRange m_range = TimeRange::All;
    RunFilter m_filter;
    DashboardActivity m_activity;

    QComboBox* m_rangeCombo = nullptr;
    QToolButton* m_filterButton = nullptr;
    QLabel* m_total = nullptr;
    QLabel* m_okRate = nullptr;
    QLabel* m_blocked = nullptr;
    QLabel* m_timeouts = nullptr;
    QLabel* m_p50 = nullptr;
    QLabel* m_p95 = nullptr;
    QLabel* m_p99 = nullptr;
    QLabel* m_errors = nullptr;

    QChartView* m_outcomeView = nullptr;
    QChartView* m_durationView = nullptr;
    QChartView* m_timelineView = nullptr;
    ActivityCharts* m_activityCharts = nullptr;
    std::vector<QBarSet*> m_outcomeSets; // one per outcome, in sb::kAllOutcomes order
    QValueAxis* m_outcomeAxis = nullptr;
    QBarSet* m_durationSet = nullptr;
    QBarCategoryAxis* m_durationCategories = nullptr;
    QValueAxis* m_durationAxis = nullptr;
    QDateTimeAxis* m_timeAxis = nullptr;
    QValueAxis* m_timeCountAxis = nullptr;
};

} // namespace sb::ui
