#include "isolation/doctor.h"

#include "cgroup.h"
#include "landlock.h"
#include "isolation/runner.h"
#include "seccomp_filter.h"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sb {

namespace {

// 0 when this process may create a user namespace, else clone's errno. The child is made in a new one and only
// ends; it shares this process's memory (CLONE_VM | CLONE_VFORK, as posix_spawn does), so that nothing is
// copied for it: a fork of a large process costs a millisecond, a command's whole budget for this.
int userNamespaceErrno()
{
    constexpr std::size_t kStackBytes = 64 * 1024;
    const auto stack = std::make_unique<char[]>(kStackBytes);
    const pid_t pid = ::clone([](void*) { return 0; }, stack.get() + kStackBytes,
                              CLONE_NEWUSER | CLONE_VM | CLONE_VFORK | SIGCHLD, nullptr);
    if (pid < 0)
        return errno;
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    return 0;
}

LayerStatus probeUserNamespaces()
{
    const int code = userNamespaceErrno();
    if (code == 0)
        return {"user_namespaces", true, "unprivileged user namespaces can be created"};
    // Say which switch is off, and how to turn it on.
    auto sysctl = [](const char* path) {
        std::ifstream in(path);
        int value = -1;
        in >> value;
        return value;
    };
    std::string remedy;
    if (sysctl("/proc/sys/kernel/unprivileged_userns_clone") == 0)
        remedy = "; turn them on with `sysctl kernel.unprivileged_userns_clone=1`";
    else if (sysctl("/proc/sys/user/max_user_namespaces") == 0)
        remedy = "; turn them on with `sysctl user.max_user_namespaces=10000`";
    else if (sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1)
        remedy = "; AppArmor restricts them (Ubuntu 24.04+): add an AppArmor profile allowing `userns` for "
                 "sandbench-launcher, or ask for --level process";
    return {"user_namespaces", false, fmt::format("unshare(CLONE_NEWUSER): {}{}", std::strerror(code), remedy)};
}

LayerStatus probeCgroups()
{
    std::string detail;
    std::string prepared;
    cgroup::prepareDelegation(&prepared); // as the first strict run would
    const bool ok = cgroup::available(&detail);
    return {"cgroups", ok, prepared.empty() ? detail : prepared + "; " + detail};
}

} // namespace

IsolationLevel highestAvailableLevel()
{
    // Probed once per process: user namespaces do not come and go while Sandbench runs.
    // Only what the levels depend on; the cgroup probe (which strict uses where it can) stays in the doctor.
    static const IsolationLevel level = [] {
        std::string why;
        const bool processLevel = ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && seccomp::notifyAvailable(&why)
                                  && landlock::abiVersion(&why) > 0 && Runner().launcher().has_value();
        if (!processLevel)
            return IsolationLevel::Process; // runs are refused anyway, with the failing layer named
        return probeUserNamespaces().available ? IsolationLevel::Strict : IsolationLevel::Process;
    }();
    return level;
}

std::string whyUnavailable(IsolationLevel level)
{
    if (level == IsolationLevel::Process)
        return "";
    const LayerStatus userns = probeUserNamespaces();
    return userns.available ? "" : fmt::format("the layer it needs first, user namespaces, is missing: {}", userns.detail);
}

DoctorReport runDoctor()
{
    DoctorReport report;
    report.layers.push_back({"rlimits", true, "CPU, address space, file size, open files, processes, core dumps"});

    std::string why;
    const bool seccompOk = ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && seccomp::notifyAvailable(&why);
    report.layers.push_back(
        {"seccomp", seccompOk, seccompOk ? "filter with user notification: refused syscalls are reported precisely" : why});

    why.clear();
    const int abi = landlock::abiVersion(&why);
    report.layers.push_back({"landlock", abi > 0, abi > 0 ? fmt::format("ABI {}", abi) : why});
    report.layers.push_back({"landlock_network", abi >= 4,
                             abi >= 4 ? "TCP bind/connect denied by Landlock too" : "needs Landlock ABI 4 (Linux 6.7)"});
    report.layers.push_back({"landlock_scope", abi >= 6,
                             abi >= 6 ? "signals and abstract UNIX sockets confined to the run"
                                      : "needs Landlock ABI 6 (Linux 6.12)"});

    const bool root = ::geteuid() == 0;
    report.layers.push_back({"unprivileged", true,
                             root ? "started by root: each run gets a transient uid/gid of its own, no capabilities"
                                  : fmt::format("runs as uid {} with no_new_privs", ::getuid())});

    const Runner runner;
    auto launcher = runner.launcher();
    report.layers.push_back({"launcher", launcher.has_value(),
                             launcher ? launcher->string() : launcher.error().message});
    const bool python = ::access("/usr/bin/python3", X_OK) == 0;
    report.layers.push_back({"python3", python, python ? "/usr/bin/python3" : "/usr/bin/python3 is missing"});
    const LayerStatus userns = probeUserNamespaces();
    report.layers.push_back(userns);
    report.layers.push_back(probeCgroups());

    const bool processLevel = seccompOk && abi > 0 && launcher.has_value();
    const bool containerLevel = processLevel && userns.available;
    report.levels = {{IsolationLevel::Process, processLevel},
                     {IsolationLevel::Container, containerLevel},
                     {IsolationLevel::Strict, containerLevel}};
    if (!processLevel)
        report.notes.push_back("the process level needs seccomp, Landlock and sandbench-launcher; runs are refused");
    if (processLevel && !containerLevel)
        report.notes.push_back("the container level needs unprivileged user namespaces: on Debian "
                               "`sysctl kernel.unprivileged_userns_clone=1`, on Ubuntu 24.04+ an AppArmor profile "
                               "allowing userns for sandbench-launcher; until then ask for --level process");
    report.notes.push_back("strict = container + a default-deny syscall allowlist + no writable /tmp + cgroup "
                           "limits for the whole run where the cgroups layer is available (the kernel counts "
                           "every process; otherwise the launcher sums the run's CPU and memory over its "
                           "process tree every 50 ms, as at the other levels, and the run's layers say "
                           "cgroup_limits: false)");
    return report;
}

} // namespace sb
