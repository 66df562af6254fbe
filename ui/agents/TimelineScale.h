#pragma once

// The agent timeline's arithmetic, apart from its drawing so that it is tested as data: where a time falls in
// pixels, zooming around a point, panning within the session, the ticks of the axis, and which steps a stretch
// of time shows.

#include "agents/session_browse.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sb::ui {

struct TimelineScale {
    static constexpr double kMinMsPerPixel = 0.01; // 1 ms over 100 pixels at the closest

    double startMs = 0;    // the time at x = 0, in ms after the session's origin
    double msPerPixel = 1;

    double xOf(double ms) const { return (ms - startMs) / msPerPixel; }
    double msAt(double x) const { return startMs + x * msPerPixel; }

    // The most one can zoom out: all of `spanMs` in `width` pixels.
    static double fitMsPerPixel(double spanMs, int width);
    // Shows all of the span.
    void fit(double spanMs, int width);
    // Zooms by `factor` (above 1: in) keeping the time under `x` where it is, within the bounds.
    void zoomAt(double x, double factor, double spanMs, int width);
    // Moves the view `pixels` to the right (negative: left), within the span.
    void panBy(double pixels, double spanMs, int width);
    // Keeps the view within the span and the zoom within its bounds.
    void clamp(double spanMs, int width);

    // The axis's tick spacing in ms: 1, 2 or 5 times a power of ten, at least `minPixels` apart.
    double tickMs(double minPixels) const;
};

// The rows [first, last) of `steps` (ordered by start, as a session records them) that may show in the time
// range [fromMs, toMs] after `originMs`: those starting in it, or before it by less than `longestMs`.
std::pair<std::size_t, std::size_t> visibleStepRange(const std::vector<sb::agents::StepSummary>& steps,
                                                     std::int64_t originMs, std::int64_t longestMs, double fromMs,
                                                     double toMs);

} // namespace sb::ui
