#pragma once

// Where Sandbench's programs are, found from the one running. In a build tree they are all in one folder (bin/).
// Installed, the command a person types (`sandbench`) is in PREFIX/bin, and the programs it starts (the command
// line's own, `sandbench-cli`, and `sandbench-launcher`) are in PREFIX/libexec/sandbench.

#include "util/error.h"

#include <filesystem>
#include <string_view>

namespace sb::programs {

inline constexpr std::string_view kCommand = "sandbench";            // what a person types: the small client
inline constexpr std::string_view kCommandLine = "sandbench-cli";    // every command, run by the client
inline constexpr std::string_view kLauncher = "sandbench-launcher";  // sets up and supervises one run

// The program `name`, executable, beside `self` or where an installation puts it relative to `self`; an error
// naming where it was looked for.
Result<std::filesystem::path> locate(std::string_view name, const std::filesystem::path& self);
// The same from this process's own executable (/proc/self/exe).
Result<std::filesystem::path> locate(std::string_view name);

} // namespace sb::programs
