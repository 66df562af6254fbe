#include "checkpoints/diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

namespace sb {

std::string_view toString(ChangeKind kind)
{
    switch (kind) {
    case ChangeKind::Added:
        return "added";
    case ChangeKind::Removed:
        return "removed";
    case ChangeKind::Modified:
        return "modified";
    }
    return "?";
}

// -----------------------------------------------------------------------------------------------------------
// Trees

namespace {

class TreeDiffer {
public:
    explicit TreeDiffer(TreeReader& reader) : m_reader(reader) {}

    Result<void> directories(const ContentHash& from, const ContentHash& to, const std::string& prefix)
    {
        if (from == to)
            return {};
        auto a = m_reader.read(from);
        if (!a)
            return std::unexpected(a.error());
        auto b = m_reader.read(to);
        if (!b)
            return std::unexpected(b.error());
        const auto& left = (*a)->entries;
        const auto& right = (*b)->entries;
        std::size_t i = 0;
        std::size_t j = 0;
        while (i < left.size() || j < right.size()) {
            if (j == right.size() || (i < left.size() && left[i].name < right[j].name)) {
                if (auto ok = side(left[i], prefix, ChangeKind::Removed); !ok)
                    return ok;
                ++i;
            } else if (i == left.size() || right[j].name < left[i].name) {
                if (auto ok = side(right[j], prefix, ChangeKind::Added); !ok)
                    return ok;
                ++j;
            } else {
                if (auto ok = both(left[i], right[j], prefix); !ok)
                    return ok;
                ++i;
                ++j;
            }
        }
        return {};
    }

    std::vector<TreeChange> take() { return std::move(m_changes); }

private:
    Result<void> both(const TreeEntry& before, const TreeEntry& after, const std::string& prefix)
    {
        if (before.sameAs(after))
            return {};
        const std::string path = treePath(prefix, before.name);
        const bool beforeDir = before.type == EntryType::Directory;
        const bool afterDir = after.type == EntryType::Directory;
        if (beforeDir && afterDir) {
            if (before.mode != after.mode)
                m_changes.push_back(TreeChange{path, ChangeKind::Modified, before, after});
            return directories(before.hash, after.hash, path);
        }
        if (beforeDir || afterDir) {
            if (auto ok = side(before, prefix, ChangeKind::Removed); !ok)
                return ok;
            return side(after, prefix, ChangeKind::Added);
        }
        m_changes.push_back(TreeChange{path, ChangeKind::Modified, before, after});
        return {};
    }

    // An entry only one side has: itself, or for a directory every leaf below it (an empty one is a leaf).
    Result<void> side(const TreeEntry& entry, const std::string& prefix, ChangeKind kind)
    {
        auto add = [&](const std::string& path, const TreeEntry& e) {
            TreeChange change{path, kind, std::nullopt, std::nullopt};
            (kind == ChangeKind::Added ? change.after : change.before) = e;
            m_changes.push_back(std::move(change));
        };
        const std::string path = treePath(prefix, entry.name);
        if (entry.type != EntryType::Directory) {
            add(path, entry);
            return {};
        }
        auto tree = m_reader.read(entry.hash);
        if (!tree)
            return std::unexpected(tree.error());
        if ((*tree)->entries.empty()) {
            add(path, entry);
            return {};
        }
        for (const auto& child : (*tree)->entries) {
            if (auto ok = side(child, path, kind); !ok)
                return ok;
        }
        return {};
    }

    TreeReader& m_reader;
    std::vector<TreeChange> m_changes;
};

} // namespace

Result<std::vector<TreeChange>> diffTrees(TreeReader& reader, const ContentHash& from, const ContentHash& to)
{
    TreeDiffer differ(reader);
    if (auto ok = differ.directories(from, to, ""); !ok)
        return std::unexpected(ok.error());
    return differ.take();
}

// -----------------------------------------------------------------------------------------------------------
// Text

bool looksBinary(std::string_view bytes)
{
    return bytes.substr(0, 8000).find('\0') != std::string_view::npos;
}

namespace {

// Beyond this many differing lines, one replacing hunk: the search's memory grows with its square.
constexpr int kMaxEdits = 2000;

enum class Op : char { Keep = ' ', Delete = '-', Insert = '+' };

struct Step {
    Op op;
    std::size_t line; // index into `from` (Keep, Delete) or `to` (Insert)
};

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::size_t stop = end == std::string_view::npos ? text.size() : end + 1;
        lines.push_back(text.substr(start, stop - start));
        start = stop;
    }
    return lines;
}

// Myers' O(ND) greedy search (Myers 1986) over interned lines, keeping each round's frontier to walk back.
// Returns false when the shortest script is longer than kMaxEdits.
bool shortestScript(const std::vector<int>& a, const std::vector<int>& b, std::size_t offsetA, std::size_t offsetB,
                    std::vector<Step>& out)
{
    const int n = static_cast<int>(a.size());
    const int m = static_cast<int>(b.size());
    const int maxD = std::min(n + m, kMaxEdits);
    const int offset = maxD + 1;
    std::vector<int> v(static_cast<std::size_t>(2 * maxD + 3), 0);
    std::vector<std::vector<int>> trace; // trace[d]: v for k in [-d-1, d+1] before round d
    int found = -1;
    for (int d = 0; d <= maxD && found < 0; ++d) {
        trace.emplace_back(v.begin() + (offset - d - 1), v.begin() + (offset + d + 2));
        for (int k = -d; k <= d; k += 2) {
            int x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1]
                                                                                    : v[offset + k - 1] + 1;
            int y = x - k;
            while (x < n && y < m && a[static_cast<std::size_t>(x)] == b[static_cast<std::size_t>(y)]) {
                ++x;
                ++y;
            }
            v[offset + k] = x;
            if (x >= n && y >= m) {
                found = d;
                break;
            }
        }
    }
    if (found < 0)
        return false;

    std::vector<Step> reversed;
    int x = n;
    int y = m;
    for (int d = found; d >= 0; --d) {
        const std::vector<int>& before = trace[static_cast<std::size_t>(d)];
        auto at = [&](int k) { return before[static_cast<std::size_t>(k + d + 1)]; };
        const int k = x - y;
        const int previousK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
        const int previousX = d == 0 ? 0 : at(previousK);
        const int previousY = d == 0 ? 0 : previousX - previousK;
        while (x > previousX && y > previousY) {
            --x;
            --y;
            reversed.push_back(Step{Op::Keep, offsetA + static_cast<std::size_t>(x)});
        }
        if (d > 0) {
            if (x == previousX)
                reversed.push_back(Step{Op::Insert, offsetB + static_cast<std::size_t>(previousY)});
            else
                reversed.push_back(Step{Op::Delete, offsetA + static_cast<std::size_t>(previousX)});
        }
        x = previousX;
        y = previousY;
    }
    out.insert(out.end(), reversed.rbegin(), reversed.rend());
    return true;
}

void appendLine(std::string& out, char mark, std::string_view line)
{
    out += mark;
    out += line;
    if (line.empty() || line.back() != '\n')
        out += "\n\\ No newline at end of file\n";
}

} // namespace

std::string unifiedDiff(std::string_view from, std::string_view to, std::string_view fromName, std::string_view toName,
                        int context)
{
    if (from == to)
        return {};
    const auto a = splitLines(from);
    const auto b = splitLines(to);

    // Common lines at both ends are kept without searching.
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    std::size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
           && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;

    std::unordered_map<std::string_view, int> ids;
    auto intern = [&](std::string_view line) { return ids.try_emplace(line, static_cast<int>(ids.size())).first->second; };
    std::vector<int> middleA;
    std::vector<int> middleB;
    for (std::size_t i = prefix; i < a.size() - suffix; ++i)
        middleA.push_back(intern(a[i]));
    for (std::size_t i = prefix; i < b.size() - suffix; ++i)
        middleB.push_back(intern(b[i]));

    std::vector<Step> steps;
    steps.reserve(a.size() + b.size());
    for (std::size_t i = 0; i < prefix; ++i)
        steps.push_back(Step{Op::Keep, i});
    if (!shortestScript(middleA, middleB, prefix, prefix, steps)) {
        for (std::size_t i = prefix; i < a.size() - suffix; ++i)
            steps.push_back(Step{Op::Delete, i});
        for (std::size_t i = prefix; i < b.size() - suffix; ++i)
            steps.push_back(Step{Op::Insert, i});
    }
    for (std::size_t i = a.size() - suffix; i < a.size(); ++i)
        steps.push_back(Step{Op::Keep, i});

    // Line numbers before each step, for the hunk headers.
    std::vector<std::size_t> lineA(steps.size() + 1);
    std::vector<std::size_t> lineB(steps.size() + 1);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        lineA[i + 1] = lineA[i] + (steps[i].op != Op::Insert ? 1 : 0);
        lineB[i + 1] = lineB[i] + (steps[i].op != Op::Delete ? 1 : 0);
    }

    std::string out = fmt::format("--- {}\n+++ {}\n", fromName, toName);
    const auto ctx = static_cast<std::size_t>(std::max(context, 0));
    std::size_t i = 0;
    while (i < steps.size()) {
        if (steps[i].op == Op::Keep) {
            ++i;
            continue;
        }
        const std::size_t begin = i >= ctx ? i - ctx : 0;
        // Extend over changes closer than two contexts apart.
        std::size_t last = i;
        std::size_t j = i;
        while (j < steps.size()) {
            if (steps[j].op != Op::Keep) {
                last = j;
                ++j;
                continue;
            }
            if (j - last > 2 * ctx)
                break;
            ++j;
        }
        const std::size_t end = std::min(steps.size(), last + 1 + ctx);
        const std::size_t countA = lineA[end] - lineA[begin];
        const std::size_t countB = lineB[end] - lineB[begin];
        // As GNU diff writes them: "start,count", or just "start" for one line.
        auto range = [](std::size_t before, std::size_t count) {
            return count == 1 ? fmt::format("{}", before + 1)
                              : fmt::format("{},{}", count ? before + 1 : before, count);
        };
        out += fmt::format("@@ -{} +{} @@\n", range(lineA[begin], countA), range(lineB[begin], countB));
        for (std::size_t s = begin; s < end; ++s) {
            const Step& step = steps[s];
            appendLine(out, static_cast<char>(step.op), step.op == Op::Insert ? b[step.line] : a[step.line]);
        }
        i = end;
    }
    return out;
}

} // namespace sb
