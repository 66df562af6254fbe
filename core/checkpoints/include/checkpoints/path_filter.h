#pragma once

#include "util/error.h"

#include <string>
#include <string_view>
#include <vector>

namespace sb {

// Which paths of a tree a selective snapshot takes (sandbox create --include/--exclude). Paths are relative,
// '/'-separated, as stored in checkpoints.
//
// A pattern is a glob: '*' and '?' and '[...]' within one path component, '**' for any number of components.
// A pattern without a '/' matches a name at any depth ("*.log", "node_modules"); one with a '/' matches from
// the top ("src/**/*.py", "docs/"; a leading '/' is allowed). A pattern that matches a directory matches
// everything below it. A path is taken when no exclude pattern matches it and, if there are include
// patterns, one of them does; excludes win.
class PathFilter {
public:
    PathFilter() = default; // takes everything
    static Result<PathFilter> make(std::vector<std::string> includes, std::vector<std::string> excludes);

    bool empty() const { return m_includes.empty() && m_excludes.empty(); }
    // A file, symlink or empty directory at `path`.
    bool takes(std::string_view path) const;
    // Whether nothing below the directory `path` can be taken (it is excluded): the walk skips it.
    bool skipsDirectory(std::string_view path) const;

    const std::vector<std::string>& includes() const { return m_includePatterns; }
    const std::vector<std::string>& excludes() const { return m_excludePatterns; }

private:
    struct Pattern {
        std::vector<std::string> parts; // split at '/'; "**" is its own part
        bool anywhere = false;          // no '/': matches one component at any depth
    };
    static bool matches(const Pattern& pattern, std::string_view path);

    std::vector<Pattern> m_includes;
    std::vector<Pattern> m_excludes;
    std::vector<std::string> m_includePatterns;
    std::vector<std::string> m_excludePatterns;
};

} // namespace sb
