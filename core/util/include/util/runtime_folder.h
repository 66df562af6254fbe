#pragma once

// The user's private folder for Sandbench's sockets (live control of agent sessions, the run helper):
// $XDG_RUNTIME_DIR/sandbench when XDG_RUNTIME_DIR is an absolute path, else /tmp/sandbench-UID. Refused when it is
// not a folder, not this user's own, or open to anyone else, so that nothing listens where another user could
// have put a socket or could reach one, and nothing connects to a socket another user could have put there.

#include "util/error.h"

#include <filesystem>

namespace sb {

// Where the folder is, whether or not it exists.
std::filesystem::path runtimeFolderLocation();
// The folder, made (0700) when missing: for a process that listens.
Result<std::filesystem::path> privateRuntimeFolder();
// The folder as it is, made by no one: for a process that connects (an error when it is missing).
Result<std::filesystem::path> existingPrivateRuntimeFolder();

} // namespace sb
