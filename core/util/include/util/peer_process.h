#pragma once

// What a front end's socket knows of the process at its other end (live control of agent sessions, the run
// helper): whether that process is confined. Every sandboxed run has no_new_privs and a seccomp filter, which no
// process can drop, so a confined peer may be a sandboxed program and is never one to act for the user.

#include <optional>
#include <string>
#include <sys/types.h>

namespace sb {

// Why the process `pid` (of this pid namespace) is not known to be unconfined: it has no_new_privs or a seccomp
// filter, or its status cannot be read. nullopt when it has neither.
std::optional<std::string> whyConfined(pid_t pid);

} // namespace sb
