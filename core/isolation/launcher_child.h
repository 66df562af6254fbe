#pragma once

// sandbench-launcher's child side: what runs between fork (or clone) and execve in the program's process,
// and the container's pid 1 around it. Each failure is written on `errFd` as text and ends the process with
// exit code 127; the supervisor (launcher_supervisor.h) reports it as the run's setup error.

#include "isolation/launch_spec.h"

#include <vector>

namespace sb::launcher {

class LineReader;

// The program: applies the layers and becomes the snippet or command. In a container it runs as the
// sandbox user inside the new root; otherwise on the host, as a dropped or the caller's identity.
// job: where a pooled sandbox's job comes from; null when the spec has its job already.
// baseFd: where the launcher sends the caller's task count (kProcessBaseCountedByLauncher), else -1.
// goFd: a program started ahead (LaunchSpec::programAhead) gets it as kAheadGoFd and waits there itself; else -1.
[[noreturn]] void runChild(LaunchSpec& spec, int errFd, int fdSocket, LineReader* job, int baseFd, int goFd);

// The container's pid 1: waits for its id maps, builds the root, starts the program and reaps until the
// program ends; then it ends every other process of the pid namespace, tells the supervisor (a ProgramEnd
// on statusFd), and exits.
[[noreturn]] void runContainerInit(LaunchSpec& spec, int errFd, int fdSocket, LineReader* job, int goFd, int syncFd,
                                   int statusFd, int gateFd, const std::vector<int>& cgroupTasks);

} // namespace sb::launcher
