#include "ui/rules/RulesCharts.h"

#include "ui/models/Conversions.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <map>

namespace sb::ui {

namespace {

QChart* newChart(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    return chart;
}

QColor decisionColor(const QString& decision, int index)
{
    if (decision == QLatin1String("allow") || decision == QLatin1String("approve"))
        return QColor(0x2e, 0x9e, 0x5b);
    if (decision == QLatin1String("review"))
        return QColor(0xe6, 0xa1, 0x17);
    if (decision == QLatin1String("block") || decision == QLatin1String("deny"))
        return QColor(0xc0, 0x39, 0x2b);
    static const QColor others[] = {QColor(0x3d, 0x7e, 0xd8), QColor(0x8e, 0x44, 0xad), QColor(0x16, 0xa0, 0x85)};
    return others[index % 3];
}

void attachAxes(QChart* chart, QAbstractSeries* series, const QStringList& categories, bool horizontal,
                double max, const QString& format)
{
    chart->addSeries(series);
    auto* cats = new QBarCategoryAxis;
    cats->append(categories);
    QFont small = cats->labelsFont();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1.0)); // rule ids and variant names are long
    cats->setLabelsFont(small);
    auto* values = new QValueAxis;
    values->setRange(0, max > 0 ? max : 1);
    values->setLabelFormat(format);
    values->applyNiceNumbers();
    chart->addAxis(cats, horizontal ? Qt::AlignLeft : Qt::AlignBottom);
    chart->addAxis(values, horizontal ? Qt::AlignBottom : Qt::AlignLeft);
    series->attachAxis(cats);
    series->attachAxis(values);
}

QChartView* newView(QWidget* parent, const QString& objectName)
{
    auto* view = new QChartView(parent);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(200, 180);
    return view;
}

} // namespace

RulesCharts::RulesCharts(QWidget* parent)
    : QWidget(parent)
    , m_distribution(newView(this, QStringLiteral("distributionChart")))
    , m_impact(newView(this, QStringLiteral("impactChart")))
    , m_hits(newView(this, QStringLiteral("ruleHitsChart")))
    , m_labels(newView(this, QStringLiteral("labelsChart")))
    , m_scores(newView(this, QStringLiteral("scoresChart")))
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(m_distribution, 0, 0);
    grid->addWidget(m_impact, 0, 1);
    grid->addWidget(m_labels, 1, 0);
    grid->addWidget(m_scores, 1, 1);
    grid->addWidget(m_hits, 2, 0, 1, 2); // rule ids need the width
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    grid->setRowStretch(2, 1);
    for (QChartView* view : {m_distribution, m_impact, m_hits, m_labels, m_scores})
        view->setMinimumHeight(260); // the charts page scrolls rather than squeezing them
    m_hits->setMinimumHeight(340);
    setResult(nullptr);
}

std::vector<QChartView*> RulesCharts::visibleCharts() const
{
    std::vector<QChartView*> out;
    for (QChartView* view : {m_distribution, m_impact, m_hits, m_labels, m_scores}) {
        if (view->isVisible() || !view->isHidden())
            out.push_back(view);
    }
    return out;
}

void RulesCharts::setResult(const std::shared_ptr<const RulesResult>& result)
{
    // QChartView::setChart does not delete the chart it had.
    for (QChartView* view : {m_distribution, m_impact, m_hits, m_labels, m_scores}) {
        QChart* old = view->chart();
        view->setChart(newChart(QString()));
        delete old;
    }
    if (!result || result->ruleSets.empty()) {
        m_distribution->chart()->setTitle(tr("Evaluate or compare to see decisions here"));
        m_impact->setHidden(true);
        m_hits->setHidden(true);
        m_labels->setHidden(true);
        m_scores->setHidden(true);
        return;
    }
    QStringList names;
    for (const auto& rs : result->ruleSets)
        names << rs->name;

    showDistribution(*result, names);
    showImpact(*result, names);
    showHits(*result);
    showScores(*result);
    showLabels(*result, names);
}

// Decisions per rule set, stacked: every decision any of them makes.
void RulesCharts::showDistribution(const RulesResult& result, const QStringList& names)
{
    QChart* chart = m_distribution->chart();
    chart->setTitle(tr("Decisions per rule set"));
    std::vector<QString> decisions;
    for (const auto& rs : result.ruleSets) {
        for (const auto& d : rs->compiled->decisions) {
            const QString name = toQString(d);
            if (std::find(decisions.begin(), decisions.end(), name) == decisions.end())
                decisions.push_back(name);
        }
    }
    auto* series = new QStackedBarSeries;
    for (std::size_t k = 0; k < decisions.size(); ++k) {
        auto* set = new QBarSet(decisions[k]);
        set->setColor(decisionColor(decisions[k], static_cast<int>(k)));
        for (const auto& rs : result.ruleSets) {
            const int d = rs->compiled->findDecision(toStdString(decisions[k]));
            *set << (d >= 0 ? static_cast<double>(rs->evaluation.decisionCounts[static_cast<std::size_t>(d)]) : 0.0);
        }
        series->append(set);
    }
    attachAxes(chart, series, names, false, static_cast<double>(result.dataset->data.rowCount()),
               QStringLiteral("%d"));
}

// Impact rate per variant; hidden when there are no variants.
void RulesCharts::showImpact(const RulesResult& result, const QStringList& names)
{
    m_impact->setHidden(result.impacts.empty());
    if (result.impacts.empty())
        return;
    QChart* chart = m_impact->chart();
    chart->setTitle(tr("Impact rate per variant (%)"));
    chart->legend()->hide();
    auto* set = new QBarSet(tr("Impact rate"));
    set->setColor(QColor(0x3d, 0x7e, 0xd8));
    double max = 0;
    for (const auto& impact : result.impacts) {
        *set << impact.impactRate * 100.0;
        max = std::max(max, impact.impactRate * 100.0);
    }
    set->setLabelColor(Qt::black);
    auto* series = new QBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value %"));
    series->setLabelsPrecision(3);
    attachAxes(chart, series, names.mid(1), false, max * 1.2, QStringLiteral("%.1f"));
}

// Hits per rule, for each rule set (grouped by rule id).
void RulesCharts::showHits(const RulesResult& result)
{
    m_hits->setHidden(false);
    QChart* chart = m_hits->chart();
    // The rules with the most hits in any rule set: a chart of sixty bars says nothing.
    constexpr int kShown = 10;
    std::map<QString, std::int64_t> most;
    for (const auto& rs : result.ruleSets) {
        for (std::size_t k = 0; k < rs->compiled->rules.size(); ++k) {
            auto& m = most[toQString(rs->compiled->rule(k).id)];
            m = std::max(m, rs->evaluation.rules[k].hits);
        }
    }
    std::vector<std::pair<std::int64_t, QString>> ranked;
    for (const auto& [id, hits] : most)
        ranked.emplace_back(-hits, id);
    std::sort(ranked.begin(), ranked.end());
    QStringList ids;
    for (const auto& [hits, id] : ranked) {
        if (ids.size() == kShown)
            break;
        ids.prepend(id); // the horizontal axis lists bottom-up: the most hits on top
    }
    chart->setTitle(ranked.size() > static_cast<std::size_t>(kShown)
                        ? tr("Hits per rule (the %1 with the most of %2)").arg(kShown).arg(ranked.size())
                        : tr("Hits per rule"));
    auto* series = new QHorizontalBarSeries;
    double max = 0;
    for (const auto& rs : result.ruleSets) {
        auto* set = new QBarSet(rs->name);
        std::map<QString, double> hits;
        for (std::size_t k = 0; k < rs->compiled->rules.size(); ++k)
            hits[toQString(rs->compiled->rule(k).id)] = static_cast<double>(rs->evaluation.rules[k].hits);
        for (const QString& id : ids) {
            const double h = hits.count(id) ? hits[id] : 0.0;
            *set << h;
            max = std::max(max, h);
        }
        series->append(set);
    }
    if (result.ruleSets.size() == 1)
        chart->legend()->hide();
    attachAxes(chart, series, ids, true, max * 1.1, QStringLiteral("%d"));
}

// Scores of the records a rule decided, per rule set.
void RulesCharts::showScores(const RulesResult& result)
{
    m_scores->setHidden(false);
    QChart* chart = m_scores->chart();
    chart->setTitle(tr("Scores of records a rule decided (by tens)"));
    QStringList bins;
    for (int b = 0; b < 10; ++b)
        bins << QString::number(b * 10); // the bin's lower bound: 0 is [0, 10), 90 is [90, 100]
    auto* series = new QBarSeries;
    double max = 0;
    for (const auto& rs : result.ruleSets) {
        auto* set = new QBarSet(rs->name);
        for (const auto n : rs->scoreBins) {
            *set << static_cast<double>(n);
            max = std::max(max, static_cast<double>(n));
        }
        series->append(set);
    }
    if (result.ruleSets.size() == 1)
        chart->legend()->hide();
    attachAxes(chart, series, bins, false, max * 1.1, QStringLiteral("%d"));
}

// Precision and recall of "flagged" (anything but the default decision) per rule set; hidden without labels.
void RulesCharts::showLabels(const RulesResult& result, const QStringList& names)
{
    m_labels->setHidden(!result.baselineSummary);
    if (!result.baselineSummary)
        return;
    QChart* chart = m_labels->chart();
    chart->setTitle(tr("Flagged vs. label '%1' (%)").arg(result.labelColumn));
    auto* precision = new QBarSet(tr("Precision"));
    auto* recall = new QBarSet(tr("Recall"));
    precision->setColor(QColor(0x3d, 0x7e, 0xd8));
    recall->setColor(QColor(0x8e, 0x44, 0xad));
    auto add = [&](const sb::rules::VariantSummary& s) {
        *precision << (s.flagged && s.flagged->precision ? *s.flagged->precision * 100.0 : 0.0);
        *recall << (s.flagged && s.flagged->recall ? *s.flagged->recall * 100.0 : 0.0);
    };
    add(*result.baselineSummary);
    for (const auto& s : result.summaries)
        add(s);
    auto* series = new QBarSeries;
    series->append(precision);
    series->append(recall);
    precision->setLabelColor(Qt::black);
    recall->setLabelColor(Qt::black);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(3);
    attachAxes(chart, series, names, false, 100.0, QStringLiteral("%d"));
    if (auto axes = chart->axes(Qt::Vertical); !axes.isEmpty()) {
        auto* percent = static_cast<QValueAxis*>(axes.front());
        percent->setRange(0, 105); // room for a label on a bar near 100
        percent->setTickCount(8);
        percent->setLabelFormat(QStringLiteral("%d"));
    }
}

} // namespace sb::ui
