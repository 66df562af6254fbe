#pragma once

// The launcher zygote: `sandbench-launcher --zygote`, started once per caller process (launcher_process.h)
// and then asked, over a UNIX socket, for a fresh launcher per run. It forks one and hands back its pidfd.
//
// Why: exec'ing the launcher costs ~0.65 ms here, nearly all of it glibc's start-up (it probes the CPU's
// caches with ~80 cpuid instructions, each of which traps to the hypervisor in a VM). A fork of an idle
// launcher that has done nothing but that start-up costs ~0.1 ms. What the exec gave each run stays true:
// the launcher is a new, single-threaded process that shares no memory with the caller (its peak-memory
// figures are the run's own) and holds none of the caller's descriptors; it never saw another run, since
// the zygote only forks and never reads a spec. It ends with its owner: at the socket's EOF the zygote tells
// its launchers to end their runs, waits for them, removes their runs' folders and exits (and should it be
// killed itself, the launchers' parent-death signal ends them).
//
// Protocol, one SOCK_SEQPACKET message per launcher: the Runner sends kRequest (followed by a NUL and the
// run's folder, when it has one to remove) with the run's five descriptors (stdout, stderr, spec, result, a
// reply socket) in that order, and a channel run's input (RunRequest::channelIn) sixth, the launcher's fd 0
// (else /dev/null); the zygote answers on the reply socket with "pid <n>" and the launcher's pidfd.
//
// The zygote is the subreaper above its launchers: should one be killed from outside, the run it
// supervised is reparented to the zygote, which ends every process of it and removes the run's folder, also
// when its owner is killed with the launcher.

namespace sb::zygote {

inline constexpr const char* kArgument = "--zygote";
inline constexpr int kSocketFd = 3;           // the zygote's end of its control socket
inline constexpr char kRequest[] = "launch";

// The zygote's loop: serves requests on kSocketFd until its owner is gone. `launch(parent)` is the
// launcher's own main, run in each forked child with its descriptors in place (0-4, launch_spec.h).
int serve(int (*launch)(int parent));

} // namespace sb::zygote
