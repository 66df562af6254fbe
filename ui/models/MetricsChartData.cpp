#include "ui/models/MetricsChartData.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>

namespace sb::ui {

std::int64_t MetricsChartData::countOf(sb::Outcome outcome) const
{
    for (const auto& bar : outcomes) {
        if (bar.outcome == outcome)
            return bar.count;
    }
    return 0;
}

std::int64_t MetricsChartData::maxOutcomeCount() const
{
    std::int64_t result = 0;
    for (const auto& bar : outcomes)
        result = std::max(result, bar.count);
    return result;
}

std::int64_t MetricsChartData::maxHistogramCount() const
{
    std::int64_t result = 0;
    for (const auto& bar : histogram)
        result = std::max(result, bar.count);
    return result;
}

QString histogramBinLabel(const sb::HistogramBin& bin, bool lastBin)
{
    QLocale locale;
    locale.setNumberOptions(QLocale::OmitGroupSeparator); // short axis labels: "5000", not "5,000"
    if (lastBin)
        return QStringLiteral("≥") + locale.toString(bin.lowMs, 'g', 6);
    if (bin.lowMs <= 0)
        return QStringLiteral("<") + locale.toString(bin.highMs, 'g', 6);
    return locale.toString(bin.lowMs, 'g', 6) + QStringLiteral("–") + locale.toString(bin.highMs, 'g', 6);
}

MetricsChartData chartDataFrom(const sb::MetricsSnapshot& snapshot)
{
    MetricsChartData data;
    data.total = snapshot.total;
    data.p50Ms = snapshot.p50Ms;
    data.p95Ms = snapshot.p95Ms;
    data.p99Ms = snapshot.p99Ms;

    for (sb::Outcome outcome : sb::kAllOutcomes) {
        OutcomeBar bar{outcome, 0, 0};
        for (const auto& count : snapshot.outcomes) {
            if (count.outcome == outcome) {
                bar.count = count.count;
                bar.rate = snapshot.total > 0 ? static_cast<double>(count.count) / static_cast<double>(snapshot.total) : 0;
            }
        }
        data.outcomes.push_back(bar);
    }
    data.okRate = data.outcomes.front().rate;
    data.blocked = data.countOf(sb::Outcome::Blocked);
    data.timeouts = data.countOf(sb::Outcome::Timeout);

    // An empty store still shows the bins, so the chart keeps its shape from the first start.
    const auto bins = snapshot.durationHistogram.empty() ? sb::durationHistogram({}) : snapshot.durationHistogram;
    for (std::size_t i = 0; i < bins.size(); ++i)
        data.histogram.push_back({histogramBinLabel(bins[i], i + 1 == bins.size()), bins[i].count});
    return data;
}

CountAxis countAxisFor(std::int64_t largestCount)
{
    // Steps of 1, 2, 5 × 10^k with four intervals keep every tick on a whole number.
    constexpr int intervals = 4;
    std::int64_t step = 1;
    while (step * intervals < largestCount) {
        if (step * 2 * intervals >= largestCount) {
            step *= 2;
            break;
        }
        if (step * 5 * intervals >= largestCount) {
            step *= 5;
            break;
        }
        step *= 10;
    }
    return CountAxis{step * intervals, intervals + 1};
}

QString formatDuration(double ms)
{
    const QLocale locale;
    if (ms >= 1000)
        return QCoreApplication::translate("sb::ui::Units", "%1 s").arg(locale.toString(ms / 1000, 'f', 2));
    return QCoreApplication::translate("sb::ui::Units", "%1 ms").arg(locale.toString(ms, 'f', ms < 100 ? 1 : 0));
}

QString formatKilobytes(std::int64_t kb)
{
    const QLocale locale;
    if (kb >= 1024)
        return QCoreApplication::translate("sb::ui::Units", "%1 MB").arg(locale.toString(static_cast<double>(kb) / 1024, 'f', 1));
    return QCoreApplication::translate("sb::ui::Units", "%1 KB").arg(kb);
}

} // namespace sb::ui
