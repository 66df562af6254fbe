#pragma once

#include "isolation/run.h"
#include "util/error.h"

#include <string>

struct seccomp_notif;

namespace sb::seccomp {

// Whether this kernel and libseccomp can report refused syscalls through user notification.
bool notifyAvailable(std::string* whyNot = nullptr);

// Builds and loads the process-level filter into the calling process and returns the notification fd:
// every refused call (network sockets, ptrace, mount family, keyring, modules, namespaces,
// bpf, io_uring, ...) is sent to whoever reads that fd, which answers with an errno.
// Must be called after no_new_privs; allocates, so call it before address-space limits.
Result<int> loadProcessFilter();

// "socket(AF_INET, SOCK_STREAM)", "ptrace(PTRACE_ATTACH, 42)", ... from a notification. Reads string
// arguments from the caller's memory where the supervisor may (for reporting only, never for decisions).
BlockedEvent describe(const seccomp_notif& request);

// The errno a refused call gets (EACCES for sockets, like a firewall; EPERM otherwise).
int refusalErrno(const seccomp_notif& request);

} // namespace sb::seccomp
