#include "ui/models/MetricsChartData.h"

#include "ui/style/OutcomeStyle.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

#include <algorithm>
#include <array>
#include <limits>

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

namespace {

constexpr std::int64_t kMinute = 60 * 1000;
constexpr std::int64_t kHour = 60 * kMinute;
constexpr std::int64_t kDay = 24 * kHour;

// lupdate files the tr() calls of free functions in sb::ui under the context "sb::ui"; this looks them up there.
QString tr(const char* text)
{
    return QCoreApplication::translate("sb::ui", text);
}

// Aggregate figures of the runs `keep` accepts.
struct Tally {
    std::int64_t total = 0;
    std::array<std::int64_t, sb::kAllOutcomes.size()> perOutcome{};
    std::vector<double> durations;
};

std::size_t outcomeIndex(sb::Outcome outcome)
{
    return static_cast<std::size_t>(std::find(sb::kAllOutcomes.begin(), sb::kAllOutcomes.end(), outcome)
                                    - sb::kAllOutcomes.begin());
}

template <typename Keep>
Tally tally(const std::vector<sb::RunPoint>& runs, Keep keep)
{
    Tally t;
    for (const auto& run : runs) {
        if (!keep(run))
            continue;
        ++t.total;
        ++t.perOutcome[outcomeIndex(run.outcome)];
        if (run.durationMs >= 0)
            t.durations.push_back(run.durationMs);
    }
    return t;
}

// The timeline's bucket for a range; All: the smallest that keeps the span to at most 48 buckets.
std::int64_t bucketFor(TimeRange range, std::int64_t spanMs)
{
    switch (range) {
    case TimeRange::LastHour:
        return 5 * kMinute;
    case TimeRange::LastDay:
        return kHour;
    case TimeRange::LastWeek:
        return 6 * kHour;
    case TimeRange::All:
        break;
    }
    for (std::int64_t bucket : {kMinute, 5 * kMinute, 15 * kMinute, kHour, 6 * kHour, kDay, 7 * kDay})
        if (spanMs / bucket <= 48)
            return bucket;
    return 30 * kDay;
}

std::int64_t floorTo(std::int64_t value, std::int64_t step)
{
    const std::int64_t q = value / step;
    return (q * step > value ? q - 1 : q) * step;
}

} // namespace

std::int64_t timeRangeMs(TimeRange range)
{
    switch (range) {
    case TimeRange::LastHour:
        return kHour;
    case TimeRange::LastDay:
        return kDay;
    case TimeRange::LastWeek:
        return 7 * kDay;
    case TimeRange::All:
        break;
    }
    return 0;
}

QString timeRangeName(TimeRange range)
{
    switch (range) {
    case TimeRange::LastHour:
        return tr("Last hour");
    case TimeRange::LastDay:
        return tr("Last day");
    case TimeRange::LastWeek:
        return tr("Last week");
    case TimeRange::All:
        break;
    }
    return tr("All time");
}

QString timeRangeKey(TimeRange range)
{
    switch (range) {
    case TimeRange::LastHour:
        return QStringLiteral("hour");
    case TimeRange::LastDay:
        return QStringLiteral("day");
    case TimeRange::LastWeek:
        return QStringLiteral("week");
    case TimeRange::All:
        break;
    }
    return QStringLiteral("all");
}

TimeRange timeRangeFromKey(const QString& key)
{
    for (TimeRange range : kAllTimeRanges)
        if (timeRangeKey(range) == key)
            return range;
    return TimeRange::All;
}

bool RunFilter::accepts(sb::Outcome runOutcome, double runDurationMs, std::int64_t startedAtMs) const
{
    if (outcome && *outcome != runOutcome)
        return false;
    if (durationMs && (runDurationMs < 0 || runDurationMs < durationMs->first || runDurationMs >= durationMs->second))
        return false;
    if (startMs && (startedAtMs < startMs->first || startedAtMs >= startMs->second))
        return false;
    return true;
}

QString RunFilter::describe() const
{
    QStringList parts;
    if (outcome)
        parts << outcomeName(*outcome);
    if (durationMs) {
        const bool open = durationMs->second == std::numeric_limits<double>::infinity();
        parts << QCoreApplication::translate("sb::ui::Units", "%1 ms")
                     .arg(histogramBinLabel(sb::HistogramBin{durationMs->first, durationMs->second, 0}, open));
    }
    if (startMs) {
        const auto from = QDateTime::fromMSecsSinceEpoch(startMs->first);
        const auto to = QDateTime::fromMSecsSinceEpoch(startMs->second);
        const QLocale locale;
        const QString day = locale.toString(from.date(), QLocale::ShortFormat);
        parts << QStringLiteral("%1 %2–%3").arg(day, locale.toString(from.time(), QLocale::ShortFormat),
                                                 locale.toString(to.time(), QLocale::ShortFormat));
    }
    return parts.join(QStringLiteral(" · "));
}

std::int64_t Timeline::maxCount() const
{
    std::int64_t result = 0;
    for (const auto& line : series)
        for (const auto n : line.counts)
            result = std::max(result, n);
    return result;
}

QString bucketName(std::int64_t bucketMs)
{
    if (bucketMs == kMinute)
        return tr("minute");
    if (bucketMs < kHour)
        return tr("%1 min").arg(bucketMs / kMinute);
    if (bucketMs == kHour)
        return tr("hour");
    if (bucketMs < kDay)
        return tr("%1 hours").arg(bucketMs / kHour);
    if (bucketMs == kDay)
        return tr("day");
    return tr("%1 days").arg(bucketMs / kDay);
}

MetricsChartData chartDataFrom(const sb::MetricsSnapshot& snapshot, const std::vector<sb::RunPoint>& runs,
                               TimeRange range, const RunFilter& filter, std::int64_t nowMs)
{
    MetricsChartData data;
    data.range = range;
    data.filter = filter;
    if (nowMs == 0)
        nowMs = QDateTime::currentMSecsSinceEpoch();

    std::vector<sb::HistogramBin> bins;
    std::array<std::int64_t, sb::kAllOutcomes.size()> perOutcome{};
    if (runs.empty() && snapshot.total > 0) {
        // All-time figures only: nothing to filter them by.
        data.total = snapshot.total;
        data.p50Ms = snapshot.p50Ms;
        data.p95Ms = snapshot.p95Ms;
        data.p99Ms = snapshot.p99Ms;
        for (const auto& count : snapshot.outcomes)
            perOutcome[outcomeIndex(count.outcome)] = count.count;
        bins = snapshot.durationHistogram;
        for (sb::Outcome outcome : sb::kAllOutcomes)
            data.outcomes.push_back(OutcomeBar{outcome, perOutcome[outcomeIndex(outcome)], 0});
    } else {
        const std::int64_t from = range == TimeRange::All ? std::numeric_limits<std::int64_t>::min()
                                                          : nowMs - timeRangeMs(range);
        auto inRange = [&](const sb::RunPoint& run) { return run.startedAtMs >= from && run.startedAtMs <= nowMs; };
        auto without = [&](auto clear) {
            RunFilter f = filter;
            clear(f);
            return [&, f](const sb::RunPoint& run) {
                return inRange(run) && f.accepts(run.outcome, run.durationMs, run.startedAtMs);
            };
        };
        const Tally selected = tally(runs, without([](RunFilter&) {}));
        data.total = selected.total;
        data.p50Ms = sb::percentile(selected.durations, 50);
        data.p95Ms = sb::percentile(selected.durations, 95);
        data.p99Ms = sb::percentile(selected.durations, 99);
        perOutcome = selected.perOutcome;

        const Tally forOutcomes = tally(runs, without([](RunFilter& f) { f.outcome.reset(); }));
        for (sb::Outcome outcome : sb::kAllOutcomes)
            data.outcomes.push_back(OutcomeBar{outcome, forOutcomes.perOutcome[outcomeIndex(outcome)], 0});
        bins = sb::durationHistogram(tally(runs, without([](RunFilter& f) { f.durationMs.reset(); })).durations);

        // The timeline: aligned buckets from the range's start (All: the first run's) to now.
        std::int64_t first = range == TimeRange::All ? nowMs - kHour : from;
        if (range == TimeRange::All) {
            for (const auto& run : runs)
                first = std::min(first, run.startedAtMs);
        }
        Timeline& line = data.timeline;
        line.bucketMs = bucketFor(range, nowMs - first);
        line.startMs = floorTo(first, line.bucketMs);
        line.buckets = static_cast<int>((nowMs - line.startMs) / line.bucketMs + 1);
        const auto keep = without([](RunFilter& f) { f.startMs.reset(); });
        std::array<std::vector<std::int64_t>, sb::kAllOutcomes.size()> counts;
        for (const auto& run : runs) {
            if (!keep(run) || run.startedAtMs < line.startMs)
                continue;
            const auto b = static_cast<std::size_t>((run.startedAtMs - line.startMs) / line.bucketMs);
            auto& c = counts[outcomeIndex(run.outcome)];
            if (b >= static_cast<std::size_t>(line.buckets))
                continue;
            c.resize(static_cast<std::size_t>(line.buckets), 0);
            ++c[b];
        }
        for (std::size_t i = 0; i < counts.size(); ++i)
            if (!counts[i].empty())
                line.series.push_back(TimeSeries{sb::kAllOutcomes[i], std::move(counts[i])});
    }

    std::int64_t shown = 0;
    for (const auto& bar : data.outcomes)
        shown += bar.count;
    for (auto& bar : data.outcomes)
        bar.rate = shown > 0 ? static_cast<double>(bar.count) / static_cast<double>(shown) : 0;
    const auto denominator = static_cast<double>(data.total);
    data.okRate = data.total > 0 ? static_cast<double>(perOutcome[outcomeIndex(sb::Outcome::Ok)]) / denominator : 0;
    data.blocked = perOutcome[outcomeIndex(sb::Outcome::Blocked)];
    data.timeouts = perOutcome[outcomeIndex(sb::Outcome::Timeout)];
    data.errors = perOutcome[outcomeIndex(sb::Outcome::Error)];

    // An empty store still shows the bins, so the chart keeps its shape from the first start.
    if (bins.empty())
        bins = sb::durationHistogram({});
    for (std::size_t i = 0; i < bins.size(); ++i)
        data.histogram.push_back({histogramBinLabel(bins[i], i + 1 == bins.size()), bins[i].count, bins[i].lowMs,
                                  bins[i].highMs});
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
