#pragma once

#include "isolation/policy.h"
#include "isolation/run.h"
#include "util/error.h"

#include <cstdint>
#include <string>
#include <string_view>

struct seccomp_notif;

namespace sb::seccomp {

// Whether this kernel and libseccomp can report refused syscalls through user notification.
bool notifyAvailable(std::string* whyNot = nullptr);

// Builds and loads the filter into the calling process and returns the notification fd. Sandbench's
// built-in refusals (network sockets, ptrace, the mount family, keyrings, modules, namespaces, bpf,
// io_uring, ...) and every syscall a policy rule refuses or kills on are sent to whoever reads that fd
// (the launcher), which decides with decide() below; the policy's allow and log rules go into the filter.
// The path-taking calls Landlock governs (paths::reportedSyscalls) go there as well, to be let through and
// reported when refused. The waits are killable-only once the launcher has received a notification
// (SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV; fails closed on kernels without it).
// Must be called after no_new_privs; allocates, so call it before address-space limits. The few calls
// the launcher still makes before execve (see kBootstrapSyscalls) are allowed whatever the default.
// allowInetSockets: TCP/UDP sockets are let through (the network allowlist's empty namespace and Landlock
// confine them to Sandbench's proxy on loopback).
Result<int> loadFilter(const SyscallPolicy& policy, bool allowInetSockets = false);

// The filter loadFilter() builds, compiled by libseccomp to a BPF program for the native architecture
// (an array of struct sock_filter, as bytes). Compiling costs ~0.3 ms a run; the program depends on the
// policy alone, so the Runner compiles each policy's once and the launcher only loads it.
Result<std::string> compileFilter(const SyscallPolicy& policy, bool allowInetSockets = false);

// Loads a program from compileFilter() into the calling process, as loadFilter() does (no_new_privs must
// be set), and returns the notification fd. Needs no libseccomp call, and does not allocate.
Result<int> loadCompiled(std::string_view program);

// Asks the kernel to wake the supervisor on the caller's CPU when a notification arrives, and the caller
// on the supervisor's when it is answered (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, Linux 6.6; older kernels
// ignore it): a round trip then costs two context switches instead of two wake-ups of an idle CPU,
// which on a virtual machine whose idle CPUs halt is most of its cost.
void preferSyncWakeups(int notifyFd);

// The syscalls the launcher's child needs between loading the filter and execve.
bool isBootstrapSyscall(std::string_view name);

// Whether a pooled sandbox's program process may load its seccomp filter before it waits for its job: only
// if the filter lets every call of that wait through untouched (reading the job, or a program started ahead
// its one byte; reporting on the error channel; ending when released): no rule refuses one, and a
// default-deny filter (strict) allows each unconditionally. Then the filter costs nothing after the job.
bool fitsAPooledWait(const SyscallPolicy& policy);

// Anonymous mappings of at least this size (mmap), and growth to at least this size (mremap), go to the
// supervisor, which lets them through and notes whether the process asked for more address space than its
// RLIMIT_AS allows (the kernel then refuses the call with ENOMEM): the launcher's own sight of a run
// reaching its memory limit, where the program's word (a MemoryError on its stderr) is only a claim.
// Python's arenas are 1 MiB, and glibc's malloc falls back to mappings of at least 1 MiB when the heap
// cannot grow; smaller requests pass the filter untouched.
inline constexpr std::uint64_t kSupervisedMappingBytes = 1 << 20;

// What the supervisor answers to one notification.
struct Decision {
    bool allow = false;         // let the call proceed (decided on register values only, never memory)
    int error = 0;              // errno for a refused call
    bool report = false;        // record it as a blocked event
    bool endRun = false;        // a kill rule: the run ends as blocked
    // An allowed mmap or mremap that asks for this much more address space (0: none, or not a mapping).
    std::uint64_t addressSpaceGrowth = 0;
};
Decision decide(const SyscallPolicy& policy, const seccomp_notif& request, bool allowInetSockets = false);

// "socket(AF_INET, SOCK_STREAM)", "ptrace(PTRACE_ATTACH, 42)", ... from a notification. Reads string
// arguments from the caller's memory where the supervisor may (for reporting only, never for decisions).
BlockedEvent describe(const seccomp_notif& request);

} // namespace sb::seccomp
