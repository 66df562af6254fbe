#include "ui/rules/RulesCharts.h"

#include "ui/charts/ChartSupport.h"
#include "ui/models/Conversions.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLocale>
#include <QResizeEvent>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace sb::ui {

namespace {

QChart* newChart(const QString& title)
{
    auto* chart = new QChart;
    applyPaletteTheme(chart); // first: a theme resets the fonts set below
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setShowToolTips(true); // a label the legend has to shorten shows whole on hover
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

// The baseline is grey in every chart; the variants take the colours after it.
QColor ruleSetColor(std::size_t index)
{
    if (index == 0)
        return QColor(0x8a, 0x8f, 0x98);
    static const QColor variants[] = {QColor(0x3d, 0x7e, 0xd8), QColor(0xe6, 0x7e, 0x22), QColor(0x8e, 0x44, 0xad),
                                      QColor(0x16, 0xa0, 0x85), QColor(0xc0, 0x39, 0x2b)};
    return variants[(index - 1) % 5];
}

QString count(std::int64_t n)
{
    return QLocale().toString(static_cast<qlonglong>(n));
}

QString signedCount(std::int64_t n)
{
    return n > 0 ? QStringLiteral("+") + count(n) : n < 0 ? QStringLiteral("−") + count(-n) : QStringLiteral("0");
}

QString percent(double ratio, int decimals = 2)
{
    return QLocale().toString(ratio * 100.0, 'f', decimals) + QStringLiteral(" %");
}

// A bar set before it goes into a series: values and tooltips top-down (or left to right).
struct Bars {
    QString label;
    QColor color;
    std::vector<double> values;
    QStringList tips;
};

// Adds the sets to `series` and the series to `chart` with a category axis and `values` as the value axis.
// Horizontal series list their categories bottom-up: categories and values are reversed so the first reads on
// top. Category labels are rich text (escaped here) and never elided.
void addBars(QChart* chart, QAbstractBarSeries* series, QStringList categories, std::vector<Bars> sets,
             QValueAxis* values, bool horizontal, bool labels)
{
    // Side by side on their side, Qt Charts draws the first set at the bottom of each group: the sets go in
    // reversed so the first reads on top, and the legend reverses them back.
    const bool grouped = qobject_cast<QHorizontalBarSeries*>(series) != nullptr;
    if (grouped) {
        std::reverse(sets.begin(), sets.end());
        chart->legend()->setReverseMarkers(true);
    }
    for (const Bars& b : sets) {
        auto* set = new QBarSet(b.label);
        set->setColor(b.color);
        set->setBorderColor(b.color.darker(115));
        std::vector<double> v = b.values;
        QStringList tips = b.tips;
        if (horizontal) {
            std::reverse(v.begin(), v.end());
            std::reverse(tips.begin(), tips.end());
        }
        for (double x : v)
            *set << x;
        setBarToolTips(set, tips);
        series->append(set);
    }
    if (labels) {
        series->setLabelsVisible(true);
        series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    }
    showBarToolTips(series);
    chart->addSeries(series);
    if (horizontal)
        std::reverse(categories.begin(), categories.end());
    auto* cats = new QBarCategoryAxis;
    for (QString& c : categories)
        c = c.toHtmlEscaped();
    cats->append(categories);
    cats->setTruncateLabels(false);
    cats->setGridLineVisible(false);
    chart->addAxis(cats, horizontal ? Qt::AlignLeft : Qt::AlignBottom);
    chart->addAxis(values, horizontal ? Qt::AlignBottom : Qt::AlignLeft);
    series->attachAxis(cats);
    series->attachAxis(values);
}

// A value axis from 0 (or -max when symmetric) to a round bound above `max`.
QValueAxis* valueAxis(double max, const QString& title, const QString& format, bool symmetric = false)
{
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setLabelFormat(format);
    axis->setRange(symmetric ? -std::max(max, 1.0) : 0, std::max(max, 1.0));
    axis->applyNiceNumbers();
    if (symmetric) { // applyNiceNumbers may leave it lopsided; zero stays in the middle
        const double bound = std::max(std::abs(axis->min()), std::abs(axis->max()));
        axis->setRange(-bound, bound);
        axis->setTickCount(5);
    }
    return axis;
}

QChartView* newView(QWidget* parent, const QString& objectName, const QString& fileStem)
{
    auto* view = new QChartView(parent);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(260, 280); // the page scrolls rather than squeezing a chart's axes away
    addChartExportActions(view, fileStem);
    followPalette(view);
    return view;
}

} // namespace

QStringList RulesCharts::axisNames(const QStringList& names)
{
    QStringList out;
    constexpr int side = (kMaxAxisName - 1) / 2;
    for (const QString& name : names)
        out << (name.size() > kMaxAxisName ? name.left(side) + QStringLiteral("…") + name.right(side) : name);
    // Two names that elide alike get their place in the tabs in front.
    for (int i = 0; i < out.size(); ++i) {
        if (out.count(out[i]) > 1) {
            const QString shared = out[i];
            for (int j = 0; j < out.size(); ++j)
                if (out[j] == shared)
                    out[j] = QStringLiteral("%1. %2").arg(j + 1).arg(shared);
        }
    }
    return out;
}

RulesCharts::RulesCharts(QWidget* parent)
    : QWidget(parent)
    , m_grid(new QGridLayout(this))
    , m_change(newView(this, QStringLiteral("changeChart"), QStringLiteral("change-vs-baseline")))
    , m_transitions(newView(this, QStringLiteral("transitionsChart"), QStringLiteral("decision-changes")))
    , m_impact(newView(this, QStringLiteral("impactChart"), QStringLiteral("impact-rate")))
    , m_distribution(newView(this, QStringLiteral("distributionChart"), QStringLiteral("decisions")))
    , m_hits(newView(this, QStringLiteral("ruleHitsChart"), QStringLiteral("rule-hits")))
    , m_labels(newView(this, QStringLiteral("labelsChart"), QStringLiteral("precision-recall")))
    , m_scores(newView(this, QStringLiteral("scoresChart"), QStringLiteral("scores")))
{
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_hits->setMinimumHeight(360);
    setResult(nullptr);
}

std::vector<QChartView*> RulesCharts::ordered() const
{
    // What changes first; the hits per rule last, across the whole width (rule ids need it).
    return {m_change, m_transitions, m_impact, m_distribution, m_labels, m_scores, m_hits};
}

std::vector<QChartView*> RulesCharts::visibleCharts() const
{
    std::vector<QChartView*> out;
    for (QChartView* view : ordered()) {
        if (!view->isHidden())
            out.push_back(view);
    }
    return out;
}

void RulesCharts::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    const int columns = event->size().width() >= 2 * kMinChartWidth + m_grid->horizontalSpacing() ? 2 : 1;
    if (columns != m_columns) {
        m_columns = columns;
        arrange();
    }
}

void RulesCharts::arrange()
{
    for (QChartView* view : ordered())
        m_grid->removeWidget(view);
    const int columns = std::max(1, m_columns);
    int cell = 0;
    for (QChartView* view : visibleCharts()) {
        if (view == m_hits) {
            const int row = (cell + columns - 1) / columns;
            m_grid->addWidget(view, row, 0, 1, columns);
            break;
        }
        m_grid->addWidget(view, cell / columns, cell % columns);
        ++cell;
    }
    for (int c = 0; c < 2; ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
}

void RulesCharts::setResult(const std::shared_ptr<const RulesResult>& result)
{
    // QChartView::setChart does not delete the chart it had.
    for (QChartView* view : ordered()) {
        QChart* old = view->chart();
        view->setChart(newChart(QString()));
        delete old;
    }
    m_names.clear();
    if (!result || result->ruleSets.empty()) {
        m_distribution->chart()->setTitle(tr("Evaluate or compare to see decisions here"));
        for (QChartView* view : ordered())
            view->setHidden(view != m_distribution);
        arrange();
        return;
    }
    for (const auto& rs : result->ruleSets)
        m_names << rs->name;
    m_axisNames = axisNames(m_names);
    if (result->compare)
        m_axisNames[0] = tr("%1 (baseline)").arg(m_axisNames[0]);

    showChange(*result);
    showTransitions(*result);
    showImpact(*result);
    showDistribution(*result);
    showHits(*result);
    showScores(*result);
    showLabels(*result);
    arrange();
}

// Per variant, how many more (or fewer) records each decision gets than with the baseline: the changes a
// chart on the scale of the whole dataset cannot show. Its scale is the largest change's.
void RulesCharts::showChange(const RulesResult& result)
{
    m_change->setHidden(result.impacts.empty());
    if (result.impacts.empty())
        return;
    QChart* chart = m_change->chart();
    chart->setTitle(tr("Change against %1, per decision").arg(m_names[0]));
    // Every decision either side has, the baseline's order first.
    std::vector<std::string> decisions;
    auto note = [&](const std::vector<std::pair<std::string, std::int64_t>>& distribution) {
        for (const auto& [decision, n] : distribution)
            if (std::find(decisions.begin(), decisions.end(), decision) == decisions.end())
                decisions.push_back(decision);
    };
    for (const auto& impact : result.impacts) {
        note(impact.baselineDistribution);
        note(impact.candidateDistribution);
    }
    auto countIn = [](const std::vector<std::pair<std::string, std::int64_t>>& distribution, const std::string& d) {
        for (const auto& [decision, n] : distribution)
            if (decision == d)
                return n;
        return std::int64_t(0);
    };
    std::vector<Bars> sets;
    double largest = 0;
    for (std::size_t k = 0; k < decisions.size(); ++k) {
        Bars bars{toQString(decisions[k]), decisionColor(toQString(decisions[k]), static_cast<int>(k)), {}, {}};
        bool changes = false;
        for (std::size_t v = 0; v < result.impacts.size(); ++v) {
            const auto& impact = result.impacts[v];
            const std::int64_t before = countIn(impact.baselineDistribution, decisions[k]);
            const std::int64_t after = countIn(impact.candidateDistribution, decisions[k]);
            bars.values.push_back(static_cast<double>(after - before));
            changes = changes || after != before;
            largest = std::max(largest, std::abs(static_cast<double>(after - before)));
            QStringList moves;
            for (const auto& [move, n] : impact.transitions) {
                if (move.first == decisions[k])
                    moves << tr("%1 → %2: −%3").arg(toQString(move.first), toQString(move.second), count(n));
                else if (move.second == decisions[k])
                    moves << tr("%1 → %2: +%3").arg(toQString(move.first), toQString(move.second), count(n));
            }
            bars.tips << tr("<b>%1</b>, %2: %3 records (%4 with %5 → %6)")
                                 .arg(m_names[static_cast<int>(v) + 1].toHtmlEscaped(), bars.label.toHtmlEscaped(),
                                      signedCount(after - before), m_names[0].toHtmlEscaped(), count(before), count(after))
                             + (moves.isEmpty() ? QString() : QStringLiteral("<br>") + moves.join(QStringLiteral("<br>")));
        }
        if (changes)
            sets.push_back(std::move(bars));
    }
    if (sets.empty())
        chart->setTitle(tr("No decision changes against %1").arg(m_names[0]));
    auto* series = new QHorizontalBarSeries;
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(9);
    addBars(chart, series, m_axisNames.mid(1), sets,
            valueAxis(largest * 1.25, tr("Records, variant minus baseline"), QStringLiteral("%d"), true), true, true);
}

// The decision changes behind the net figures: how many records go from one decision to another, per variant.
void RulesCharts::showTransitions(const RulesResult& result)
{
    constexpr std::size_t kShown = 8;
    std::map<std::pair<std::string, std::string>, std::int64_t> most;
    for (const auto& impact : result.impacts)
        for (const auto& [move, n] : impact.transitions)
            most[move] = std::max(most[move], n);
    m_transitions->setHidden(most.empty());
    if (most.empty())
        return;
    std::vector<std::pair<std::int64_t, std::pair<std::string, std::string>>> ranked;
    for (const auto& [move, n] : most)
        ranked.emplace_back(-n, move);
    std::sort(ranked.begin(), ranked.end());
    if (ranked.size() > kShown)
        ranked.resize(kShown);
    QChart* chart = m_transitions->chart();
    chart->setTitle(most.size() > kShown ? tr("Decision changes from %1 (the %2 most frequent of %3)")
                                               .arg(m_names[0])
                                               .arg(kShown)
                                               .arg(most.size())
                                         : tr("Decision changes from %1").arg(m_names[0]));
    QStringList categories;
    for (const auto& [n, move] : ranked)
        categories << tr("%1 → %2").arg(toQString(move.first), toQString(move.second));
    std::vector<Bars> sets;
    double largest = 0;
    for (std::size_t v = 0; v < result.impacts.size(); ++v) {
        Bars bars{m_names[static_cast<int>(v) + 1], ruleSetColor(v + 1), {}, {}};
        for (const auto& [rank, move] : ranked) {
            std::int64_t n = 0;
            for (const auto& [m, k] : result.impacts[v].transitions)
                if (m == move)
                    n = k;
            bars.values.push_back(static_cast<double>(n));
            largest = std::max(largest, static_cast<double>(n));
            bars.tips << tr("<b>%1</b>: %2 records go from %3 to %4")
                             .arg(bars.label.toHtmlEscaped(), count(n), toQString(move.first).toHtmlEscaped(),
                                  toQString(move.second).toHtmlEscaped());
        }
        sets.push_back(std::move(bars));
    }
    auto* series = new QHorizontalBarSeries;
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(9);
    addBars(chart, series, categories, sets, valueAxis(largest * 1.2, tr("Records"), QStringLiteral("%d")), true,
            true);
    if (result.impacts.size() == 1)
        chart->legend()->hide();
}

// Impact rate per variant; hidden when there are no variants.
void RulesCharts::showImpact(const RulesResult& result)
{
    m_impact->setHidden(result.impacts.empty());
    if (result.impacts.empty())
        return;
    QChart* chart = m_impact->chart();
    chart->setTitle(tr("Impact rate per variant"));
    chart->legend()->hide();
    Bars bars{tr("Impact rate"), QColor(0x3d, 0x7e, 0xd8), {}, {}};
    double max = 0;
    for (std::size_t v = 0; v < result.impacts.size(); ++v) {
        const auto& impact = result.impacts[v];
        bars.values.push_back(impact.impactRate * 100.0);
        max = std::max(max, impact.impactRate * 100.0);
        bars.tips << tr("<b>%1</b>: %2 of %3 records change decision (%4); %5 more change only their score")
                         .arg(m_names[static_cast<int>(v) + 1].toHtmlEscaped(), count(impact.affected),
                              count(impact.total), percent(impact.impactRate), count(impact.scoreChanged));
    }
    auto* series = new QHorizontalBarSeries;
    series->setLabelsFormat(QStringLiteral("@value %"));
    series->setLabelsPrecision(3);
    addBars(chart, series, m_axisNames.mid(1), {bars},
            valueAxis(max * 1.25, tr("% of records whose decision changes"), QStringLiteral("%.2f")), true, true);
}

// Decisions per rule set, stacked: every decision any of them makes.
void RulesCharts::showDistribution(const RulesResult& result)
{
    m_distribution->setHidden(false);
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
    const auto total = static_cast<double>(result.dataset->data.rowCount());
    std::vector<Bars> sets;
    for (std::size_t k = 0; k < decisions.size(); ++k) {
        Bars bars{decisions[k], decisionColor(decisions[k], static_cast<int>(k)), {}, {}};
        for (std::size_t i = 0; i < result.ruleSets.size(); ++i) {
            const auto& rs = *result.ruleSets[i];
            const int d = rs.compiled->findDecision(toStdString(decisions[k]));
            const std::int64_t n = d >= 0 ? rs.evaluation.decisionCounts[static_cast<std::size_t>(d)] : 0;
            bars.values.push_back(static_cast<double>(n));
            bars.tips << tr("<b>%1</b>, %2: %3 records (%4)")
                             .arg(m_names[static_cast<int>(i)].toHtmlEscaped(), decisions[k].toHtmlEscaped(), count(n),
                                  percent(total > 0 ? static_cast<double>(n) / total : 0.0, 1));
        }
        sets.push_back(std::move(bars));
    }
    addBars(chart, new QHorizontalStackedBarSeries, m_axisNames, sets,
            valueAxis(total, tr("Records"), QStringLiteral("%d")), true, false);
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
        ids << id;
    }
    chart->setTitle(ranked.size() > static_cast<std::size_t>(kShown)
                        ? tr("Hits per rule (the %1 with the most of %2)").arg(kShown).arg(ranked.size())
                        : tr("Hits per rule"));
    std::vector<Bars> sets;
    double max = 0;
    for (std::size_t i = 0; i < result.ruleSets.size(); ++i) {
        const auto& rs = *result.ruleSets[i];
        Bars bars{result.compare && i == 0 ? tr("%1 (baseline)").arg(rs.name) : rs.name, ruleSetColor(i), {}, {}};
        std::map<QString, std::size_t> index;
        for (std::size_t k = 0; k < rs.compiled->rules.size(); ++k)
            index[toQString(rs.compiled->rule(k).id)] = k;
        for (const QString& id : ids) {
            const auto it = index.find(id);
            const std::int64_t hits = it != index.end() ? rs.evaluation.rules[it->second].hits : 0;
            const std::int64_t decided = it != index.end() ? rs.evaluation.rules[it->second].decided : 0;
            bars.values.push_back(static_cast<double>(hits));
            max = std::max(max, static_cast<double>(hits));
            bars.tips << (it == index.end() ? tr("<b>%1</b> has no rule %2").arg(rs.name.toHtmlEscaped(), id.toHtmlEscaped())
                                            : tr("<b>%1</b>, %2: matched %3 records, decided %4")
                                                  .arg(rs.name.toHtmlEscaped(), id.toHtmlEscaped(), count(hits),
                                                       count(decided)));
        }
        sets.push_back(std::move(bars));
    }
    addBars(chart, new QHorizontalBarSeries, ids, sets,
            valueAxis(max * 1.1, tr("Records the rule matched"), QStringLiteral("%d")), true, false);
    if (result.ruleSets.size() == 1)
        chart->legend()->hide();
}

// Scores of the records a rule decided, per rule set.
void RulesCharts::showScores(const RulesResult& result)
{
    m_scores->setHidden(false);
    QChart* chart = m_scores->chart();
    chart->setTitle(tr("Scores of records a rule decided"));
    QStringList bins;
    for (int b = 0; b < 10; ++b)
        bins << QString::number(b * 10); // the bin's lower bound: 0 is [0, 10), 90 is [90, 100]
    std::vector<Bars> sets;
    double max = 0;
    for (std::size_t i = 0; i < result.ruleSets.size(); ++i) {
        const auto& rs = *result.ruleSets[i];
        Bars bars{result.compare && i == 0 ? tr("%1 (baseline)").arg(rs.name) : rs.name, ruleSetColor(i), {}, {}};
        for (std::size_t b = 0; b < rs.scoreBins.size(); ++b) {
            const auto n = rs.scoreBins[b];
            bars.values.push_back(static_cast<double>(n));
            max = std::max(max, static_cast<double>(n));
            bars.tips << tr("<b>%1</b>, score %2–%3: %4 records")
                             .arg(rs.name.toHtmlEscaped())
                             .arg(b * 10)
                             .arg(b == 9 ? 100 : b * 10 + 9)
                             .arg(count(n));
        }
        sets.push_back(std::move(bars));
    }
    auto* axis = valueAxis(max * 1.1, tr("Records"), QStringLiteral("%d"));
    addBars(chart, new QBarSeries, bins, sets, axis, false, false);
    if (auto cats = chart->axes(Qt::Horizontal); !cats.isEmpty())
        cats.front()->setTitleText(tr("Score, in bands of ten from the number shown"));
    if (result.ruleSets.size() == 1)
        chart->legend()->hide();
}

// Precision and recall of "flagged" (anything but the default decision) per rule set; hidden without labels.
void RulesCharts::showLabels(const RulesResult& result)
{
    m_labels->setHidden(!result.baselineSummary);
    if (!result.baselineSummary)
        return;
    QChart* chart = m_labels->chart();
    chart->setTitle(tr("Flagged records against the label '%1'").arg(result.labelColumn));
    Bars precision{tr("Precision"), QColor(0x3d, 0x7e, 0xd8), {}, {}};
    Bars recall{tr("Recall"), QColor(0x8e, 0x44, 0xad), {}, {}};
    auto add = [&](const sb::rules::VariantSummary& s, const QString& name) {
        const auto& f = s.flagged;
        precision.values.push_back(f && f->precision ? *f->precision * 100.0 : 0.0);
        recall.values.push_back(f && f->recall ? *f->recall * 100.0 : 0.0);
        const QString none = tr("undefined");
        precision.tips << tr("<b>%1</b>: precision %2 (%3 flagged records are positives, %4 are not)")
                              .arg(name.toHtmlEscaped(), f && f->precision ? percent(*f->precision, 1) : none,
                                   count(f ? f->tp : 0), count(f ? f->fp : 0));
        recall.tips << tr("<b>%1</b>: recall %2 (%3 of %4 positives flagged)")
                           .arg(name.toHtmlEscaped(), f && f->recall ? percent(*f->recall, 1) : none,
                                count(f ? f->tp : 0), count(f ? f->tp + f->fn : 0));
    };
    add(*result.baselineSummary, m_names[0]);
    for (std::size_t i = 0; i < result.summaries.size(); ++i)
        add(result.summaries[i], m_names[static_cast<int>(i) + 1]);
    auto* series = new QHorizontalBarSeries;
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(3);
    auto* axis = valueAxis(100.0, tr("Percent"), QStringLiteral("%d"));
    addBars(chart, series, m_axisNames.mid(0, static_cast<int>(precision.values.size())), {precision, recall}, axis,
            true, true);
    axis->setRange(0, 110); // room for a label on a bar near 100
    axis->setTickCount(12);
}

} // namespace sb::ui
