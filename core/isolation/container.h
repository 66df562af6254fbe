#pragma once

// The `container` level's filesystem and identity, built inside fresh user, pid, net, mount, ipc, uts and
// cgroup namespaces by the sandbox's pid 1 (see launcher_child.h). Runs between clone and the program's
// fork; reports failures as text (the caller fails the run closed).

#include "isolation/run.h"
#include "util/error.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace sb::container {

inline constexpr const char* kWorkDir = kContainerWorkDir; // where the run's work dir appears inside
inline constexpr uid_t kInnerUid = 1000;         // the run's identity inside its user namespace
inline constexpr gid_t kInnerGid = 1000;

// The namespaces a container-level run gets (clone flags).
int namespaceFlags();

// What pid 1 is cloned with: namespaceFlags() but the network namespace, which pid 1 has a helper make
// while it builds the root (creating one costs ~0.3 ms here, nearly all of it in the kernel, and the
// two overlap): startNetworkNamespace() at once, enterNetworkNamespace() before the run starts.
int cloneFlags();

struct NetworkHelper {
    pid_t pid = -1;
    int channel = -1;
};
Result<NetworkHelper> startNetworkNamespace();
// Joins the helper's fresh network namespace (and reaps the helper).
Result<void> enterNetworkNamespace(NetworkHelper& helper);

// Written by the supervisor (outside) for the child: maps kInnerUid/kInnerGid to outerUid/outerGid.
Result<void> writeIdMaps(pid_t child, uid_t outerUid, gid_t outerGid);

struct RootSpec {
    std::string workDir;                 // the host work dir
    std::vector<std::string> readPaths;  // host paths bind-mounted read-only at the same place
    std::vector<std::string> devPaths;   // device nodes bind-mounted into a fresh /dev
    std::int64_t tmpSizeMb = 64;         // size of the private /tmp (0: no /tmp)
};

// In the child, after the id maps are written: become kInnerUid, build the minimal root, pivot into it.
Result<void> enterRoot(const RootSpec& spec);

} // namespace sb::container
