#pragma once

// The lanes of a checkpoint graph as git GUIs draw them, worked out apart from any painting so the layout
// can be tested with data alone. Rows come newest first; each row says where its node sits and which lines
// cross it.

#include <string>
#include <vector>

namespace sb::ui {

struct GraphNode {
    std::string id;
    std::vector<std::string> parents; // first parent first
};

struct GraphRow {
    int lane = 0;                // the node's lane
    int lanes = 1;               // lanes this row needs (its drawing width)
    std::vector<int> through;    // lines crossing the row from top to bottom without touching the node
    std::vector<int> fromAbove;  // lines from the top edge into the node (children above it)
    std::vector<int> toBelow;    // lines from the node to the bottom edge (its parents below)
    bool outsideParent = false;  // a parent that is not among the rows (another sandbox's checkpoint)
};

// One GraphRow per node, in the same order. A parent is linked when it is among the rows; lanes freed by a
// node whose parents are all outside are reused by the next node that needs one.
std::vector<GraphRow> layoutGraph(const std::vector<GraphNode>& nodes);

// Pixels of a lane graph in one cell: lane centres, the width a number of lanes needs.
struct GraphGeometry {
    int laneWidth = 16;
    int margin = 4;

    int laneCenter(int lane) const { return margin + lane * laneWidth + laneWidth / 2; }
    int width(int lanes) const { return 2 * margin + lanes * laneWidth; }
};

} // namespace sb::ui
