#include "checkpoints/path_filter.h"

#include <fmt/format.h>

#include <fnmatch.h>

namespace sb {

namespace {

std::vector<std::string> splitPath(std::string_view path)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t slash = path.find('/', start);
        const std::size_t end = slash == std::string_view::npos ? path.size() : slash;
        if (end > start)
            parts.emplace_back(path.substr(start, end - start));
        if (slash == std::string_view::npos)
            break;
        start = slash + 1;
    }
    return parts;
}

bool componentMatches(const std::string& pattern, const std::string& name)
{
    // No FNM_PERIOD: "*" takes dot files too, as people expect of "exclude *.tmp".
    return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

// Whether the pattern matches a prefix of the names that ends at a component boundary (a directory that
// matches takes everything below it). Dynamic programming over (pattern part, name) so that patterns with
// many '**' stay linear in their length times the path's depth.
bool matchPrefix(const std::vector<std::string>& pattern, const std::vector<std::string>& names)
{
    const std::size_t columns = names.size() + 1;
    // reach[p * columns + n]: pattern parts [0, p) can match names [0, n).
    std::vector<char> reach((pattern.size() + 1) * columns, 0);
    reach[0] = 1;
    for (std::size_t p = 0; p < pattern.size(); ++p) {
        const bool any = pattern[p] == "**";
        bool carried = false; // '**': once reachable at n, reachable at every later n
        for (std::size_t n = 0; n < columns; ++n) {
            const bool here = reach[p * columns + n] != 0;
            if (any) {
                carried = carried || here;
                if (carried)
                    reach[(p + 1) * columns + n] = 1;
            } else if (here && n < names.size() && componentMatches(pattern[p], names[n])) {
                reach[(p + 1) * columns + n + 1] = 1;
            }
        }
    }
    for (std::size_t n = 0; n < columns; ++n) {
        if (reach[pattern.size() * columns + n])
            return true;
    }
    return false;
}

} // namespace

Result<PathFilter> PathFilter::make(std::vector<std::string> includes, std::vector<std::string> excludes)
{
    PathFilter filter;
    auto add = [](std::vector<Pattern>& into, const std::string& text, std::string_view option) -> Result<void> {
        if (text.empty())
            return fail(fmt::format("{}: an empty pattern", option));
        if (text.find('\0') != std::string::npos)
            return fail(fmt::format("{}: a pattern cannot hold a NUL byte", option));
        Pattern pattern;
        pattern.parts = splitPath(text);
        if (pattern.parts.empty())
            return fail(fmt::format("{} '{}': the pattern names no path", option, text));
        // "dir/" and "/dir" are anchored; "name" alone matches at any depth.
        pattern.anywhere = text.find('/') == std::string::npos;
        for (const auto& part : pattern.parts) {
            if (part == "." || part == "..")
                return fail(fmt::format("{} '{}': '.' and '..' are not allowed in a pattern", option, text));
        }
        into.push_back(std::move(pattern));
        return {};
    };
    for (const auto& text : includes) {
        if (auto ok = add(filter.m_includes, text, "--include"); !ok)
            return std::unexpected(ok.error());
    }
    for (const auto& text : excludes) {
        if (auto ok = add(filter.m_excludes, text, "--exclude"); !ok)
            return std::unexpected(ok.error());
    }
    filter.m_includePatterns = std::move(includes);
    filter.m_excludePatterns = std::move(excludes);
    return filter;
}

bool PathFilter::matches(const Pattern& pattern, std::string_view path)
{
    const std::vector<std::string> names = splitPath(path);
    if (pattern.anywhere) {
        for (const auto& name : names) {
            if (componentMatches(pattern.parts.front(), name))
                return true;
        }
        return false;
    }
    return matchPrefix(pattern.parts, names);
}

bool PathFilter::takes(std::string_view path) const
{
    for (const auto& pattern : m_excludes) {
        if (matches(pattern, path))
            return false;
    }
    if (m_includes.empty())
        return true;
    for (const auto& pattern : m_includes) {
        if (matches(pattern, path))
            return true;
    }
    return false;
}

bool PathFilter::skipsDirectory(std::string_view path) const
{
    for (const auto& pattern : m_excludes) {
        if (matches(pattern, path))
            return true;
    }
    return false;
}

} // namespace sb
