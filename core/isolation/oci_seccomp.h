#pragma once

#include "isolation/policy.h"
#include "util/error.h"

#include <string>
#include <string_view>
#include <vector>

namespace sb {

// What an import kept and dropped, so the caller can tell the user (an import never fails on these).
struct OciImportReport {
    int rulesKept = 0;
    int rulesSkipped = 0;                     // need capabilities, another architecture or another kernel
    std::vector<std::string> unknownSyscalls; // names this libseccomp does not know on the native arch
    std::vector<std::string> warnings;        // one line each, prefixed with the origin
};

// The machine facts an import depends on; the defaults describe the running machine. Tests pin them.
struct OciImportHost {
    std::string arch;     // Go/Docker name ("amd64", "arm64", ...); empty: the native architecture
    int kernelMajor = -1; // -1: the running kernel (uname)
    int kernelMinor = 0;
};

// Imports a Docker / OCI seccomp profile (the JSON of Docker's profiles/seccomp/default.json or an OCI
// runtime spec's linux.seccomp) as a SyscallPolicy for the native architecture:
//  - defaultAction / defaultErrnoRet become the policy default; syscalls[] become rules in order.
//  - SCMP_ACT_ALLOW → Allow, SCMP_ACT_ERRNO → Errno (errnoRet, else defaultErrnoRet, else EPERM),
//    SCMP_ACT_LOG → Log, SCMP_ACT_KILL / KILL_PROCESS / KILL_THREAD → Kill (a run ends whole, never one
//    thread), SCMP_ACT_TRAP / SCMP_ACT_TRACE → Kill (nothing in a run handles SIGSYS or traces it, so
//    the honest outcome is `blocked`). SCMP_ACT_NOTIFY is refused: it needs an agent outside the profile.
//  - A run has no capabilities: rules with includes.caps are skipped; excludes.caps never excludes.
//    includes/excludes.arches and minKernel are checked against `host`. architectures / archMap, when
//    present, must cover the native architecture (only the native ABI is ever let through).
//  - OCI's SCMP_CMP_MASKED_EQ is {value: mask, valueTwo: expected}; it becomes ArgCondition{mask, value}.
//  - Unknown syscall names are skipped and reported (Docker lists syscalls across kernels and arches).
// Errors name the origin and the JSON path: "profile.json: syscalls[12].args[0].op: unknown operator ...".
Result<SyscallPolicy> importOciSeccompProfile(std::string_view json, std::string_view origin);
Result<SyscallPolicy> importOciSeccompProfile(std::string_view json, std::string_view origin, OciImportReport* report,
                                              const OciImportHost& host = {});

} // namespace sb
