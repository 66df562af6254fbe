#include "ui/models/ActivityChartData.h"

namespace sb::ui {

sb::Result<DashboardActivity> loadDashboardActivity(const sb::Store& store)
{
    DashboardActivity activity;
    auto blocked = sb::blockedPoints(store);
    if (!blocked)
        return std::unexpected(blocked.error());
    auto steps = sb::agents::stepPoints(store);
    if (!steps)
        return std::unexpected(steps.error());
    auto promotions = sb::recentPromotions(store, kPromotionLimit);
    if (!promotions)
        return std::unexpected(promotions.error());
    activity.blocked = std::move(*blocked);
    auto tools = sb::agents::blockedToolPoints(*steps);
    activity.blocked.insert(activity.blocked.end(), std::make_move_iterator(tools.begin()),
                            std::make_move_iterator(tools.end()));
    activity.steps = std::move(*steps);
    activity.promotions = std::move(*promotions);
    return activity;
}

ActivityChartData activityChartDataFrom(const DashboardActivity& activity, std::int64_t fromMs, std::int64_t untilMs)
{
    ActivityChartData data;
    data.blocked = sb::countBlocked(activity.blocked, fromMs, untilMs, kTopBlockedTargets);
    data.verdicts = sb::agents::countVerdicts(activity.steps, fromMs, untilMs);
    for (const auto& promotion : activity.promotions) {
        if (promotion.atMs >= fromMs && (untilMs == 0 || promotion.atMs < untilMs))
            data.promotions.push_back(promotion);
    }
    return data;
}

QString shortLabel(const QString& text, int maxChars)
{
    if (text.size() <= maxChars || maxChars < 3)
        return text;
    // The end says more of a path or a host name (the file, the domain) than its start.
    const int head = (maxChars - 1) / 3;
    const int tail = maxChars - 1 - head;
    return text.left(head) + QChar(0x2026) + text.right(tail);
}

} // namespace sb::ui
