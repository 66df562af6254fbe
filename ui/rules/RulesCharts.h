#pragma once
// The figures of an evaluation or a comparison in Qt Charts. A comparison leads with what changes against the
// baseline: the net change of each decision per variant and the decision changes (baseline → variant), each on
// a scale of its own so that a few changed records among thousands show; then the impact rate, the decisions
// per rule set, precision/recall of "flagged" when the data has labels, the scores and the hits per rule.
// Rule set names sit on the left of horizontal bars where they have room, the baseline is marked and grey,
// every bar has its exact figures in a tooltip, and every chart exports as PNG or CSV from its context menu.
// The charts lie in one column when two would squeeze their titles, legends and axes.

#include "ui/jobs/RulesJobs.h"

#include <QWidget>

#include <memory>
#include <vector>

class QChartView;
class QGridLayout;

namespace sb::ui {

class RulesCharts : public QWidget {
    Q_OBJECT
public:
    explicit RulesCharts(QWidget* parent = nullptr);

    void setResult(const std::shared_ptr<const RulesResult>& result);
    // The charts that show something, in the order they are laid out, for reports.
    std::vector<QChartView*> visibleCharts() const;
    QChartView* changeChart() const { return m_change; }
    QChartView* transitionsChart() const { return m_transitions; }
    QChartView* impactChart() const { return m_impact; }
    QChartView* distributionChart() const { return m_distribution; }
    QChartView* labelsChart() const { return m_labels; }
    QChartView* scoresChart() const { return m_scores; }
    QChartView* hitsChart() const { return m_hits; }
    int columns() const { return m_columns; }

    // A rule set's name as an axis shows it: at most kMaxAxisName characters (elided in the middle), unique
    // among `names`; the full name is in the legend and the tooltips.
    static constexpr int kMaxAxisName = 24;
    static QStringList axisNames(const QStringList& names);
    // The width below which the charts lie in one column.
    static constexpr int kMinChartWidth = 430;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // One chart each, from a result with at least one rule set; a chart that has nothing to show hides.
    void showChange(const RulesResult& result);
    void showTransitions(const RulesResult& result);
    void showImpact(const RulesResult& result);
    void showDistribution(const RulesResult& result);
    void showHits(const RulesResult& result);
    void showScores(const RulesResult& result);
    void showLabels(const RulesResult& result);
    std::vector<QChartView*> ordered() const;
    void arrange();

    QGridLayout* m_grid = nullptr;
    QChartView* m_change = nullptr;
    QChartView* m_transitions = nullptr;
    QChartView* m_impact = nullptr;
    QChartView* m_distribution = nullptr;
    QChartView* m_hits = nullptr;
    QChartView* m_labels = nullptr;
    QChartView* m_scores = nullptr;
    QStringList m_names;     // full names, [0] the baseline
    QStringList m_axisNames; // as the axes show them
    int m_columns = 0;
};

} // namespace sb::ui
