#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <sys/types.h>

namespace sb {

// A uid's entry in the password database, looked up reentrantly (the GUI's worker threads may look one up
// while others use getpw*); nothing when it has none or its field is empty.
std::optional<std::string> accountName(uid_t uid);
std::optional<std::filesystem::path> accountHome(uid_t uid);

// The user's home folder: $HOME, else the home of the real uid's entry in the password database; empty when
// neither names one (a bare container). Where the store and the audit keys live by default.
std::filesystem::path homeFolder();

} // namespace sb
