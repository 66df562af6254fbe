#pragma once

#include "isolation/policy.h"

namespace sb {

// The `strict` level's syscalls: default deny (refused and reported) with an allowlist of what the Python
// and shell runtimes and the common command-line tools need (derived with strace from stdlib-heavy
// Python, sh and bash workloads, plus their close relatives). The policy's own rules come first, so a
// policy can refuse more; the built-in refusals still apply on top. A policy that brings its own
// refusing default keeps it unchanged.
SyscallPolicy strictSyscalls(const SyscallPolicy& policy);

} // namespace sb
