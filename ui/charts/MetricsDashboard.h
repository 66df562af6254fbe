#pragma once

#include "ui/models/MetricsChartData.h"
#include "store/metrics.h"

#include <QWidget>

#include <vector>

class QBarCategoryAxis;
class QBarSet;
class QChart;
class QChartView;
class QGridLayout;
class QLabel;
class QValueAxis;

namespace sb::ui {

// Counters, runs by outcome and the duration histogram of the store. Fed with MetricsSnapshot values;
// all arithmetic is in MetricsChartData.
class MetricsDashboard : public QWidget {
    Q_OBJECT
public:
    explicit MetricsDashboard(QWidget* parent = nullptr);

    void setSnapshot(const sb::MetricsSnapshot& snapshot);
    const MetricsChartData& data() const { return m_data; }

    QSize sizeHint() const override;

private:
    QLabel* addCounter(QGridLayout* grid, int row, int column, const QString& caption, const QString& objectName);
    QChartView* makeChartView(QChart* chart, const QString& objectName);

    MetricsChartData m_data;
    QLabel* m_total = nullptr;
    QLabel* m_okRate = nullptr;
    QLabel* m_blocked = nullptr;
    QLabel* m_timeouts = nullptr;
    QLabel* m_p50 = nullptr;
    QLabel* m_p95 = nullptr;
    QLabel* m_p99 = nullptr;
    QLabel* m_errors = nullptr;

    std::vector<QBarSet*> m_outcomeSets; // one per outcome, in sb::kAllOutcomes order
    QValueAxis* m_outcomeAxis = nullptr;
    QBarSet* m_durationSet = nullptr;
    QBarCategoryAxis* m_durationCategories = nullptr;
    QValueAxis* m_durationAxis = nullptr;
};

} // namespace sb::ui
