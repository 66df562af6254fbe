#pragma once

#include "util/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sb::landlock {

// Landlock's filesystem access rights (kernel ABI values: Debian 12's headers stop at ABI 2, the running
// kernel may offer more). Shared by restrictSelf() and the path reporter, which predicts its refusals.
namespace access {
inline constexpr std::uint64_t kExecute = 1ULL << 0;
inline constexpr std::uint64_t kWriteFile = 1ULL << 1;
inline constexpr std::uint64_t kReadFile = 1ULL << 2;
inline constexpr std::uint64_t kReadDir = 1ULL << 3;
inline constexpr std::uint64_t kRemoveDir = 1ULL << 4;
inline constexpr std::uint64_t kRemoveFile = 1ULL << 5;
inline constexpr std::uint64_t kMakeChar = 1ULL << 6;
inline constexpr std::uint64_t kMakeDir = 1ULL << 7;
inline constexpr std::uint64_t kMakeReg = 1ULL << 8;
inline constexpr std::uint64_t kMakeSock = 1ULL << 9;
inline constexpr std::uint64_t kMakeFifo = 1ULL << 10;
inline constexpr std::uint64_t kMakeBlock = 1ULL << 11;
inline constexpr std::uint64_t kMakeSym = 1ULL << 12;
inline constexpr std::uint64_t kRefer = 1ULL << 13;     // ABI 2
inline constexpr std::uint64_t kTruncate = 1ULL << 14;  // ABI 3
inline constexpr std::uint64_t kIoctlDev = 1ULL << 15;  // ABI 5
// The rights that mean anything on a file (the kernel refuses directory rights in a rule on a file).
inline constexpr std::uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;
} // namespace access

// What each kind of path in Rules grants (the work dir gets everything handled).
inline constexpr std::uint64_t kReadRights = access::kExecute | access::kReadFile | access::kReadDir;
inline constexpr std::uint64_t kDeviceRights = access::kReadFile | access::kWriteFile | access::kTruncate;

// The filesystem rights a ruleset handles (refuses unless a rule grants them) at this ABI version.
std::uint64_t handledFsAccess(int abi);

// The Landlock ABI version this kernel offers, or 0 when Landlock is unavailable (with the reason).
int abiVersion(std::string* whyNot = nullptr);

struct Rules {
    std::vector<std::string> readPaths;   // read files, list dirs, execute
    std::vector<std::string> devPaths;    // device files: read and write, nothing else
    std::vector<std::string> writePaths;  // everything (the run's work dir)
    std::vector<int> connectPorts;        // TCP ports the run may connect to (ABI >= 4; none: no TCP at all)
};

struct Applied {
    int abi = 0;
    bool network = false;  // TCP bind/connect denied (ABI >= 4)
    bool scoped = false;   // signals and abstract UNIX sockets confined to the sandbox (ABI >= 6)
};

// Restricts the calling thread (and its future children) to the rules. Needs no_new_privs already set.
// Paths that do not exist are skipped; any other failure is an error (the caller fails closed).
Result<Applied> restrictSelf(const Rules& rules);

} // namespace sb::landlock
