#include "demo/worked_example.h"

#include "demo/worked_example_files.h"

#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <system_error>

namespace sb {

std::span<const ExampleFile> workedExampleFiles()
{
    return worked_example::kFiles;
}

Result<void> writeWorkedExample(const std::filesystem::path& folder)
{
    namespace fs = std::filesystem;
    constexpr auto kFolderMode = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec
                                 | fs::perms::others_read | fs::perms::others_exec;
    constexpr auto kFileMode =
        fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read;
    for (const ExampleFile& file : workedExampleFiles()) {
        const fs::path relative(file.path);
        const fs::path path = folder / relative;
        std::error_code ec;
        fs::path parent = folder;
        for (auto part = relative.begin(); !ec && std::next(part) != relative.end(); ++part) {
            parent /= *part;
            fs::create_directory(parent, ec);
            if (!ec)
                fs::permissions(parent, kFolderMode, ec);
        }
        if (ec)
            return fail(fmt::format("cannot make {}: {}", parent.string(), ec.message()));
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(file.text.data(), static_cast<std::streamsize>(file.text.size()));
        out.close();
        if (!out)
            return fail(fmt::format("cannot write {}", path.string()));
        fs::permissions(path, kFileMode, ec);
        if (ec)
            return fail(fmt::format("cannot set the mode of {}: {}", path.string(), ec.message()));
    }
    return {};
}

} // namespace sb
