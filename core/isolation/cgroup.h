#pragma once

// Limits for a run as a whole (the strict level): memory, number of processes, and the CPU time of every
// process together, through the cgroup the launcher creates under its own. cgroup v2 where the
// launcher's cgroup delegates the memory and pids controllers; cgroup v1 (memory, pids, cpuacct) where
// those hierarchies are mounted and writable (root, or a delegated v1 tree). Where the machine offers
// neither, the run goes on with per-process limits only and its layers say cgroup_limits: false; where it
// offers one and making the run's group fails, the run is refused.

#include "util/unique_fd.h"

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace sb::cgroup {

struct RunGroup {
    bool v2 = false;
    std::string memoryDir; // v2: all three are the run's one cgroup
    std::string pidsDir;
    std::string cpuDir;
    bool active() const { return !memoryDir.empty() && !pidsDir.empty() && !cpuDir.empty(); }
};

struct Creation {
    RunGroup group;
    bool offered = false; // the machine offers run cgroups to this user: an inactive group is a failure
    std::string whyNot;   // why the group is inactive
};

// The name of this process's run group: its pid namespace, pid and start time, which no later process shares
// (pids are reused; a launcher killed outright leaves its group behind for pruneStale(), which judges only the
// groups of its own pid namespace).
std::string runGroupName();
// Creates the run's cgroup(s) named `name` with the limits.
Creation create(const std::string& name, std::int64_t memoryBytes, std::int64_t maxProcesses);
// Moves a process (and so all it will start) into the group.
bool addProcess(const RunGroup& group, pid_t pid);
// cgroup v1: the group's `tasks` files, opened (close-on-exec) for a process of the run to move itself in
// with moveSelf(). A thread that moves itself skips the lock that moving another process takes, whose RCU
// grace period cost most strict runs 6-15 ms here. Empty for v2 (addProcess) or when one cannot be opened.
std::vector<int> openTasksFiles(const RunGroup& group);
// Writes "0" to each: moves the calling thread, the whole of a single-threaded process, into the group.
// Allocates nothing (safe between fork and exec). Whether every write was taken.
bool moveSelf(const std::vector<int>& tasks);
// What the kernel counts for the group, read while the run goes on and at its end. The files are opened
// once, ahead: the first lookup of a fresh group's file costs 10-30 µs here, which would otherwise fall
// between the run's end and its result.
class Figures {
public:
    Figures() = default;
    explicit Figures(const RunGroup& group);

    // CPU time of every process that ran in the group, in microseconds; -1 when unknown.
    std::int64_t cpuUsageUs() const;
    // Whether the kernel's OOM killer ended a process of the group (the memory limit was reached).
    bool oomKilled() const;

private:
    bool m_v2 = false;
    UniqueFd m_cpu;    // cpuacct.usage (v1), cpu.stat (v2)
    UniqueFd m_memory; // memory.oom_control (v1), memory.events (v2)
};
// Removes the group; call when every process of it is gone (waits a little for those still exiting).
void destroy(const RunGroup& group);
// Removes the empty run groups beside this process's whose launcher is gone (killed before it could
// remove its own); a group with processes in it stays (busy) until they are gone, and a group of another pid
// namespace is not judged at all.
struct Pruned {
    int removed = 0;
    int busy = 0;
};
Pruned pruneStale();
// cgroup v2 with a delegated cgroup (systemd's Delegate=yes, e.g. `systemd-run --user --scope -p
// Delegate=yes sandbench-gui`) whose controllers are not on yet: moves this cgroup's processes into a
// leaf ("sandbench-supervisor") and enables memory, pids and cpu for the runs' cgroups beside it. Once per
// process, before the first strict run; true when it changed something.
bool prepareDelegation(std::string* detail);
// For `sandbench doctor`: whether runs can get cgroup limits here, and how or why not.
bool available(std::string* detail);

} // namespace sb::cgroup
