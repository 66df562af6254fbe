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

// accountName, looked up once per uid for the life of the process: for the names a process stamps on what it
// records (an audit entry's actor, a checkpoint's author), which a session's gateway does around every call,
// and each lookup reads the password database (/etc/passwd, NSS).
std::optional<std::string> knownAccountName(uid_t uid);

// The user's home folder: $HOME, else the home of the real uid's entry in the password database; empty when
// neither names one (a bare container). Where the store and the audit keys live by default.
std::filesystem::path homeFolder();

} // namespace sb
