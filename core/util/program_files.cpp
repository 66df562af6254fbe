#include "util/program_files.h"

#include <string>
#include <unistd.h>
#include <vector>

namespace sb::programs {

namespace fs = std::filesystem;

Result<fs::path> locate(std::string_view name, const fs::path& self)
{
    const fs::path folder = self.parent_path();
    std::vector<fs::path> candidates = {folder / name};
    if (name == kCommand)
        candidates.push_back(folder.parent_path().parent_path() / "bin" / name); // from PREFIX/libexec/sandbench
    else
        candidates.push_back(folder.parent_path() / "libexec/sandbench" / name); // from PREFIX/bin
    for (const fs::path& candidate : candidates) {
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return fail(std::string(name) + " not found beside " + self.string() + " nor at " + candidates.back().string());
}

Result<fs::path> locate(std::string_view name)
{
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (error)
        return fail("cannot locate this program (/proc/self/exe): " + error.message());
    return locate(name, self);
}

} // namespace sb::programs
