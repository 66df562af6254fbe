#pragma once

// What a run uses as a whole, measured by the launcher from the kernel's own accounting when no cgroup
// counts it: rlimits hold per process only, so a run that forks could otherwise spread CPU time, memory
// and disk over many processes and files, each under its limit. The launcher samples these while the run
// goes on and ends it when one passes the policy's limit.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <sys/types.h>

namespace sb::usage {

struct TreeSample {
    std::int64_t cpuUs = 0;       // user + system time of the live processes and of what they reaped
    std::int64_t anonKb = 0;      // resident private memory (RssAnon) of the live processes together
    std::int64_t processes = 0;   // live processes (zombies included)
};

// Samples `root` and every descendant of it (through /proc/PID/task/TID/children, so pid namespaces do
// not hide anything from the launcher outside). Processes that end while they are read are skipped:
// their time reaches the totals through whoever reaps them.
TreeSample sampleTree(pid_t root);

// The CPU time, in microseconds, of every child the caller reaped so far (and of what they reaped).
std::int64_t reapedCpuUs();

// The address space a process (or thread) has mapped, in bytes, as RLIMIT_AS counts it; -1 when it cannot
// be read (the process is gone).
std::int64_t addressSpaceBytes(pid_t pid);

// The tasks (threads) of every process whose /proc entry belongs to `uid`: what the kernel counts against
// that uid's RLIMIT_NPROC, give or take the processes that come and go meanwhile.
std::int64_t tasksOfUid(uid_t uid);

struct DiskSample {
    std::int64_t kb = 0;          // allocated size of every file and folder below the dir, each inode once
    std::int64_t entries = 0;     // how many were looked at
    bool complete = true;         // false when the walk stopped at `stopAtKb` or at the entry cap
};

// The space a work dir takes, never following symlinks nor leaving the dir's file system. Stops early
// once `stopAtKb` is passed: the caller only needs to know that the quota is exceeded.
DiskSample diskUsage(const std::string& dir, std::int64_t stopAtKb);

// Wakes the launcher as soon as the run writes to its work dir (inotify on the dir and every folder made
// in it), so that the quota is checked within milliseconds of a flood rather than at the next sample.
// Writes through a shared mapping raise no event: the periodic sample still covers those.
class WorkDirWatch {
public:
    explicit WorkDirWatch(const std::string& dir);
    ~WorkDirWatch();
    WorkDirWatch(const WorkDirWatch&) = delete;
    WorkDirWatch& operator=(const WorkDirWatch&) = delete;

    int fd() const { return m_fd; } // -1 when inotify is unavailable: sampling alone then
    // Reads what is pending, watching new folders; true when something in the dir changed.
    bool drain();

private:
    int m_fd = -1;
    std::unordered_map<int, std::string> m_dirs; // watch descriptor -> folder
};

} // namespace sb::usage
