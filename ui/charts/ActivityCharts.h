#pragma once

#include "ui/models/ActivityChartData.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QGridLayout;
class QLabel;
class QTableWidget;

namespace sb::ui {

// The dashboard's charts of what was refused and decided, over the span of time the dashboard shows: blocked
// events by kind, the most blocked targets (modules, syscalls, hosts, paths, tools), agent steps by verdict,
// and a table of the recent promotions. Fed with DashboardActivity values; counting is in core.
class ActivityCharts : public QWidget {
    Q_OBJECT
public:
    explicit ActivityCharts(QWidget* parent = nullptr);

    // Shows what of `activity` falls in [fromMs, untilMs) (untilMs 0: no end).
    void setActivity(const DashboardActivity& activity, std::int64_t fromMs, std::int64_t untilMs);
    const ActivityChartData& data() const { return m_data; }

    QChartView* blockedKindChart() const { return m_kindView; }
    QChartView* blockedTargetChart() const { return m_targetView; }
    QChartView* verdictChart() const { return m_verdictView; }
    QTableWidget* promotionTable() const { return m_promotions; }
    // The promotions shown, as CSV (a header, then a row each); "Save as CSV…" in the table's context menu.
    QString promotionsCsv() const;
    // Two columns of charts when the dashboard is wide (a workspace of its own), one in a narrow dock.
    bool twoColumns() const { return m_twoColumns; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrange(bool twoColumns);
    QChartView* makeView(QChart* chart, const QString& objectName, const QString& fileStem);
    void showKinds();
    void showTargets();
    void showVerdicts();
    void showPromotions();

    ActivityChartData m_data;
    QChartView* m_kindView = nullptr;
    QChartView* m_targetView = nullptr;
    QChartView* m_verdictView = nullptr;
    QTableWidget* m_promotions = nullptr;
    QLabel* m_promotionsEmpty = nullptr;
    QWidget* m_promotionsBox = nullptr;
    QGridLayout* m_grid = nullptr;
    bool m_twoColumns = false;
};

} // namespace sb::ui
