#include "store_internal.h"

#include "util/errno_text.h"
#include "util/user_account.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <sys/stat.h>
#include <system_error>
#include <vector>

// Where a store is: the default location (XDG), a path a person named, and the folder it is made in.

namespace sb {

namespace fs = std::filesystem;

namespace {

// Creates the missing folders above the store, private to the user: the store holds sources and outputs.
Result<void> ensureParentFolder(const fs::path& file)
{
    const fs::path parent = file.parent_path();
    if (parent.empty())
        return {};
    std::error_code ec;
    std::vector<fs::path> missing;
    for (fs::path p = parent; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path())
            break;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST)
            return fail(fmt::format("store {}: cannot create folder {}: {}", file.string(), it->string(),
                                    errnoText(errno)));
    }
    if (!fs::is_directory(parent, ec))
        return fail(fmt::format("store {}: {} is not a folder", file.string(), parent.string()));
    return {};
}

// The folder of a store a person named must exist: it is never made, so that a typo is not a new store.
Result<void> requireParentFolder(const fs::path& file)
{
    const fs::path parent = file.parent_path();
    if (parent.empty())
        return {};
    std::error_code ec;
    const auto status = fs::status(parent, ec);
    if (!fs::exists(status))
        return fail(fmt::format("store {}: the folder {} does not exist (a store named with --store or "
                                "$SANDBENCH_STORE is only made in a folder that exists: create it first)",
                                file.string(), parent.string()));
    if (!fs::is_directory(status))
        return fail(fmt::format("store {}: {} is not a folder", file.string(), parent.string()));
    return {};
}

} // namespace

Result<void> detail::prepareFolder(const StoreLocation& location)
{
    return location.isDefault ? ensureParentFolder(location.path) : requireParentFolder(location.path);
}

StoreLocation Store::locate(const fs::path& named)
{
    if (!named.empty())
        return {named, false};
    if (const char* explicitPath = std::getenv("SANDBENCH_STORE"); explicitPath && *explicitPath)
        return {explicitPath, false};
    // The XDG spec says relative values are invalid and must be ignored.
    if (const char* dataHome = std::getenv("XDG_DATA_HOME"); dataHome && *dataHome == '/')
        return {fs::path(dataHome) / "sandbench" / "workbench.db", true};
    const fs::path home = homeFolder();
    if (home.empty())
        return {fs::path("workbench.db"), true}; // no home at all (a bare container): the current folder
    return {home / ".local" / "share" / "sandbench" / "workbench.db", true};
}

fs::path Store::defaultPath()
{
    return locate().path;
}

} // namespace sb
