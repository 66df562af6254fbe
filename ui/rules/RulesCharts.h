#pragma once
// The figures of an evaluation or a comparison in Qt Charts: decisions per rule set (stacked bars), impact
// rate per variant, hits per rule, and precision/recall of "flagged" when the data has labels.

#include "ui/jobs/RulesJobs.h"

#include <QWidget>

#include <memory>
#include <vector>

class QChartView;

namespace sb::ui {

class RulesCharts : public QWidget {
    Q_OBJECT
public:
    explicit RulesCharts(QWidget* parent = nullptr);

    void setResult(const std::shared_ptr<const RulesResult>& result);
    // The charts that show something, for reports.
    std::vector<QChartView*> visibleCharts() const;
    QChartView* distributionChart() const { return m_distribution; }

private:
    // One chart each, from a result with at least one rule set; a chart that has nothing to show hides.
    void showDistribution(const RulesResult& result, const QStringList& names);
    void showImpact(const RulesResult& result, const QStringList& names);
    void showHits(const RulesResult& result);
    void showScores(const RulesResult& result);
    void showLabels(const RulesResult& result, const QStringList& names);

    QChartView* m_distribution = nullptr;
    QChartView* m_impact = nullptr;
    QChartView* m_hits = nullptr;
    QChartView* m_labels = nullptr;
    QChartView* m_scores = nullptr;
};

} // namespace sb::ui
