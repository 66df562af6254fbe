#include "util/runtime_folder.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace sb {

namespace {

Result<std::filesystem::path> checked(const std::filesystem::path& folder)
{
    struct stat st {};
    if (::lstat(folder.c_str(), &st) != 0)
        return fail(fmt::format("{}: {}", folder.string(), std::strerror(errno)));
    if (!S_ISDIR(st.st_mode))
        return fail(fmt::format("{} is not a folder", folder.string()));
    if (st.st_uid != ::getuid() || (st.st_mode & 0077) != 0)
        return fail(fmt::format("{} is not this user's own private folder (owner uid {}, mode {:o})", folder.string(),
                                st.st_uid, st.st_mode & 07777));
    return folder;
}

} // namespace

std::filesystem::path runtimeFolderLocation()
{
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    return runtime && *runtime == '/' ? std::filesystem::path(runtime) / "sandbench"
                                      : std::filesystem::path(fmt::format("/tmp/sandbench-{}", ::getuid()));
}

Result<std::filesystem::path> privateRuntimeFolder()
{
    const std::filesystem::path folder = runtimeFolderLocation();
    if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
        return fail(fmt::format("cannot create {}: {}", folder.string(), std::strerror(errno)));
    return checked(folder);
}

Result<std::filesystem::path> existingPrivateRuntimeFolder()
{
    return checked(runtimeFolderLocation());
}

} // namespace sb
