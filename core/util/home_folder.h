#pragma once

#include <filesystem>

namespace sb {

// The user's home folder: $HOME, else the home of the real uid's entry in the password database; empty when
// neither names one (a bare container). Where the store and the audit keys live by default.
std::filesystem::path homeFolder();

} // namespace sb
