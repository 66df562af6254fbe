#pragma once
// What the dashboard shows beside the runs, read in one go with them (ui/jobs/RunJob.h): the blocked events of
// runs and agent tools, the agent steps, the recent promotions; and their figures over a span of time.

#include "agents/step_points.h"
#include "store/dashboard_points.h"
#include "store/store.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace sb::ui {

struct DashboardActivity {
    std::vector<sb::BlockedPoint> blocked;          // the runs' blocked events, then refused agent tool calls
    std::vector<sb::agents::StepPoint> steps;       // every agent step, oldest first
    std::vector<sb::PromotionRecord> promotions;    // the latest kPromotionLimit, newest first
};

inline constexpr std::size_t kPromotionLimit = 50;
inline constexpr std::size_t kTopBlockedTargets = 10;

sb::Result<DashboardActivity> loadDashboardActivity(const sb::Store& store);

struct ActivityChartData {
    sb::BlockedCounts blocked;
    sb::agents::VerdictCounts verdicts;
    std::vector<sb::PromotionRecord> promotions; // those in the span, newest first
};

// The figures of what falls in [fromMs, untilMs); untilMs 0 means no end.
ActivityChartData activityChartDataFrom(const DashboardActivity& activity, std::int64_t fromMs, std::int64_t untilMs);

// A label of at most `maxChars` characters: a longer one keeps its start (a third) and its end around "…".
QString shortLabel(const QString& text, int maxChars);

} // namespace sb::ui
