#pragma once

#include "util/error.h"

#include <string>
#include <vector>

namespace sb::landlock {

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
