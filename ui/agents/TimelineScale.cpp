#include "ui/agents/TimelineScale.h"

#include <algorithm>
#include <cmath>

namespace sb::ui {

double TimelineScale::fitMsPerPixel(double spanMs, int width)
{
    return std::max(kMinMsPerPixel, std::max(spanMs, 1.0) / std::max(width, 1));
}

void TimelineScale::fit(double spanMs, int width)
{
    msPerPixel = fitMsPerPixel(spanMs, width);
    startMs = 0;
}

void TimelineScale::zoomAt(double x, double factor, double spanMs, int width)
{
    if (factor <= 0)
        return;
    const double anchor = msAt(x);
    msPerPixel = std::clamp(msPerPixel / factor, kMinMsPerPixel, fitMsPerPixel(spanMs, width));
    startMs = anchor - x * msPerPixel;
    clamp(spanMs, width);
}

void TimelineScale::panBy(double pixels, double spanMs, int width)
{
    startMs += pixels * msPerPixel;
    clamp(spanMs, width);
}

void TimelineScale::clamp(double spanMs, int width)
{
    msPerPixel = std::clamp(msPerPixel, kMinMsPerPixel, fitMsPerPixel(spanMs, width));
    const double shown = msPerPixel * std::max(width, 1);
    startMs = std::clamp(startMs, 0.0, std::max(0.0, spanMs - shown));
}

double TimelineScale::tickMs(double minPixels) const
{
    const double wanted = std::max(minPixels * msPerPixel, 1e-9);
    double power = std::pow(10.0, std::floor(std::log10(wanted)));
    for (;;) {
        for (const double step : {1.0, 2.0, 5.0}) {
            if (step * power >= wanted)
                return step * power;
        }
        power *= 10;
    }
}

std::pair<std::size_t, std::size_t> visibleStepRange(const std::vector<sb::agents::StepSummary>& steps,
                                                     std::int64_t originMs, std::int64_t longestMs, double fromMs,
                                                     double toMs)
{
    const auto startOf = [originMs](const sb::agents::StepSummary& step) {
        return static_cast<double>(step.startedAtMs - originMs);
    };
    const double earliest = fromMs - static_cast<double>(std::max<std::int64_t>(longestMs, 0));
    const auto first = std::lower_bound(steps.begin(), steps.end(), earliest,
                                        [&](const sb::agents::StepSummary& step, double ms) { return startOf(step) < ms; });
    const auto last = std::upper_bound(first, steps.end(), toMs,
                                       [&](double ms, const sb::agents::StepSummary& step) { return ms < startOf(step); });
    return {static_cast<std::size_t>(first - steps.begin()), static_cast<std::size_t>(last - steps.begin())};
}

} // namespace sb::ui
