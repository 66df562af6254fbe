#include "ui/models/CheckpointGraph.h"

#include <algorithm>
#include <unordered_set>

namespace sb::ui {

namespace {

int freeLane(std::vector<std::string>& lanes)
{
    const auto it = std::find(lanes.begin(), lanes.end(), std::string());
    if (it != lanes.end())
        return static_cast<int>(it - lanes.begin());
    lanes.emplace_back();
    return static_cast<int>(lanes.size()) - 1;
}

} // namespace

std::vector<GraphRow> layoutGraph(const std::vector<GraphNode>& nodes)
{
    std::unordered_set<std::string> known;
    for (const auto& node : nodes)
        known.insert(node.id);

    std::vector<GraphRow> rows;
    rows.reserve(nodes.size());
    std::vector<std::string> lanes; // the id each lane waits for below; "" when free
    for (const auto& node : nodes) {
        GraphRow row;
        for (int i = 0; i < static_cast<int>(lanes.size()); ++i) {
            const auto& waiting = lanes[static_cast<std::size_t>(i)];
            if (waiting == node.id)
                row.fromAbove.push_back(i);
            else if (!waiting.empty())
                row.through.push_back(i);
        }
        row.lane = row.fromAbove.empty() ? freeLane(lanes) : row.fromAbove.front();
        for (int i : row.fromAbove)
            lanes[static_cast<std::size_t>(i)].clear();

        for (const auto& parent : node.parents) {
            if (!known.contains(parent)) {
                row.outsideParent = true;
                continue;
            }
            // A parent another line already waits for: join that line rather than draw a second one.
            const auto waiting = std::find(lanes.begin(), lanes.end(), parent);
            if (waiting != lanes.end()) {
                const int lane = static_cast<int>(waiting - lanes.begin());
                if (std::find(row.toBelow.begin(), row.toBelow.end(), lane) == row.toBelow.end())
                    row.toBelow.push_back(lane);
                continue;
            }
            // The first parent continues the node's own lane.
            const int lane = lanes[static_cast<std::size_t>(row.lane)].empty() ? row.lane : freeLane(lanes);
            lanes[static_cast<std::size_t>(lane)] = parent;
            row.toBelow.push_back(lane);
        }

        int widest = row.lane;
        for (const auto* list : {&row.through, &row.fromAbove, &row.toBelow}) {
            for (int lane : *list)
                widest = std::max(widest, lane);
        }
        row.lanes = widest + 1;
        while (!lanes.empty() && lanes.back().empty())
            lanes.pop_back();
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace sb::ui
