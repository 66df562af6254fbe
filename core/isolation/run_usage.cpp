#include "run_usage.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>
#include <utility>
#include <vector>

namespace sb::usage {

namespace {

// A run never has more processes than its limit allows; this only bounds the work of one sample.
constexpr std::size_t kMaxProcesses = 8192;
constexpr std::int64_t kMaxEntries = 200000;

// Reads a small /proc file into buf (NUL-terminated); false when the process is gone.
bool readSmall(const char* path, char* buf, std::size_t size)
{
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const ssize_t n = ::read(fd, buf, size - 1);
    ::close(fd);
    if (n <= 0)
        return false;
    buf[n] = 0;
    return true;
}

struct ProcessSample {
    std::int64_t ticks = 0; // utime + stime + cutime + cstime
    std::int64_t anonPages = 0;
};

bool sampleProcess(pid_t pid, ProcessSample& out)
{
    char path[64];
    char buf[1024];
    std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
    if (!readSmall(path, buf, sizeof buf))
        return false;
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const char* p = std::strrchr(buf, ')');
    if (!p)
        return false;
    p += 2; // ") " -> field 3 (state)
    // Fields 3..13 are skipped; 14..17 are utime, stime, cutime, cstime.
    for (int field = 3; field < 14 && *p; ++field) {
        p = std::strchr(p, ' ');
        if (!p)
            return false;
        ++p;
    }
    long long times[4] = {};
    if (std::sscanf(p, "%lld %lld %lld %lld", &times[0], &times[1], &times[2], &times[3]) != 4)
        return false;
    out.ticks = times[0] + times[1] + times[2] + times[3];

    std::snprintf(path, sizeof path, "/proc/%d/statm", pid);
    long long size = 0, resident = 0, shared = 0;
    if (readSmall(path, buf, sizeof buf) && std::sscanf(buf, "%lld %lld %lld", &size, &resident, &shared) == 3)
        out.anonPages = resident > shared ? resident - shared : 0; // zombies: all zero
    return true;
}

// Appends the children of every thread of `pid`.
void appendChildren(pid_t pid, std::vector<pid_t>& out)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR* tasks = ::opendir(path);
    if (!tasks)
        return;
    char buf[4096];
    while (const dirent* task = ::readdir(tasks)) {
        if (task->d_name[0] < '0' || task->d_name[0] > '9')
            continue;
        char childrenPath[384];
        std::snprintf(childrenPath, sizeof childrenPath, "/proc/%d/task/%s/children", pid, task->d_name);
        const int fd = ::open(childrenPath, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        // The list can be longer than one buffer: parse as we go, carrying a split number over.
        std::string pending;
        for (;;) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n <= 0)
                break;
            pending.append(buf, static_cast<std::size_t>(n));
            std::size_t start = 0;
            for (std::size_t i = 0; i < pending.size(); ++i) {
                if (pending[i] == ' ') {
                    if (i > start && out.size() < kMaxProcesses)
                        out.push_back(static_cast<pid_t>(std::atoi(pending.c_str() + start)));
                    start = i + 1;
                }
            }
            pending.erase(0, start);
        }
        if (!pending.empty() && out.size() < kMaxProcesses)
            out.push_back(static_cast<pid_t>(std::atoi(pending.c_str())));
        ::close(fd);
    }
    ::closedir(tasks);
}

std::int64_t ticksToUs(std::int64_t ticks)
{
    static const long hz = ::sysconf(_SC_CLK_TCK);
    return ticks * 1'000'000 / (hz > 0 ? hz : 100);
}

} // namespace

TreeSample sampleTree(pid_t root)
{
    static const long pageKb = ::sysconf(_SC_PAGESIZE) / 1024;
    TreeSample sample;
    std::vector<pid_t> pending{root};
    std::int64_t ticks = 0;
    std::int64_t anonPages = 0;
    for (std::size_t i = 0; i < pending.size() && i < kMaxProcesses; ++i) {
        ProcessSample one;
        if (!sampleProcess(pending[i], one))
            continue;
        ticks += one.ticks;
        anonPages += one.anonPages;
        ++sample.processes;
        appendChildren(pending[i], pending);
    }
    sample.cpuUs = ticksToUs(ticks);
    sample.anonKb = anonPages * pageKb;
    return sample;
}

std::int64_t reapedCpuUs()
{
    rusage usage{};
    ::getrusage(RUSAGE_CHILDREN, &usage);
    return (static_cast<std::int64_t>(usage.ru_utime.tv_sec) + usage.ru_stime.tv_sec) * 1'000'000
           + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

DiskSample diskUsage(const std::string& dir, std::int64_t stopAtKb)
{
    DiskSample sample;
    const int rootFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (rootFd < 0)
        return sample;
    struct stat rootStat{};
    if (::fstat(rootFd, &rootStat) != 0) {
        ::close(rootFd);
        return sample;
    }
    std::unordered_set<ino_t> linked; // files with several names count once
    std::int64_t blocks = rootStat.st_blocks;
    std::vector<int> stack{rootFd};
    while (!stack.empty()) {
        const int dirFd = stack.back();
        stack.pop_back();
        DIR* listing = ::fdopendir(dirFd);
        if (!listing) {
            ::close(dirFd);
            continue;
        }
        while (const dirent* entry = ::readdir(listing)) {
            const char* name = entry->d_name;
            if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)))
                continue;
            if (++sample.entries > kMaxEntries || blocks / 2 > stopAtKb) {
                sample.complete = false;
                break;
            }
            struct stat st{};
            if (::fstatat(::dirfd(listing), name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_dev != rootStat.st_dev)
                continue;
            if (!S_ISDIR(st.st_mode) && st.st_nlink > 1 && !linked.insert(st.st_ino).second)
                continue;
            blocks += st.st_blocks;
            if (!S_ISDIR(st.st_mode))
                continue;
            int child = ::openat(::dirfd(listing), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0 && errno == EACCES) {
                // A folder the run made unreadable to hide what it holds: the work dir is ours to inspect.
                ::fchmodat(::dirfd(listing), name, (st.st_mode & 07777) | S_IRWXU, 0);
                child = ::openat(::dirfd(listing), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            }
            if (child >= 0)
                stack.push_back(child);
        }
        ::closedir(listing);
        if (!sample.complete)
            break;
    }
    for (const int fd : stack)
        ::close(fd);
    sample.kb = blocks / 2; // st_blocks counts 512-byte units
    return sample;
}

namespace {

constexpr std::uint32_t kWatchMask = IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR;

} // namespace

WorkDirWatch::WorkDirWatch(const std::string& dir)
{
    m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    const int wd = m_fd >= 0 ? ::inotify_add_watch(m_fd, dir.c_str(), kWatchMask | IN_DONT_FOLLOW) : -1;
    if (wd < 0) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
        return;
    }
    m_dirs.emplace(wd, dir);
}

WorkDirWatch::~WorkDirWatch()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool WorkDirWatch::drain()
{
    if (m_fd < 0)
        return false;
    // Watch descriptors map to their folders only through the events themselves; keep the paths of
    // the folders we watch, by descriptor, to resolve the names of folders made inside them.
    alignas(inotify_event) char buf[16384];
    bool changed = false;
    for (;;) {
        const ssize_t n = ::read(m_fd, buf, sizeof buf);
        if (n <= 0)
            break;
        changed = true;
        for (ssize_t at = 0; at < n;) {
            const auto* event = reinterpret_cast<const inotify_event*>(buf + at);
            at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
            if ((event->mask & IN_ISDIR) && (event->mask & (IN_CREATE | IN_MOVED_TO)) && event->len > 0) {
                const auto parent = m_dirs.find(event->wd);
                if (parent == m_dirs.end())
                    continue;
                const std::string path = parent->second + "/" + event->name;
                const int wd = ::inotify_add_watch(m_fd, path.c_str(), kWatchMask | IN_DONT_FOLLOW);
                if (wd >= 0) // out of watches: the periodic sample covers that folder
                    m_dirs.emplace(wd, path);
            }
        }
    }
    return changed;
}

std::int64_t addressSpaceBytes(pid_t pid)
{
    char path[32];
    char buf[128];
    std::snprintf(path, sizeof path, "/proc/%d/statm", static_cast<int>(pid));
    if (!readSmall(path, buf, sizeof buf))
        return -1;
    static const long pageSize = ::sysconf(_SC_PAGESIZE);
    return std::atoll(buf) * pageSize; // the first field: the whole mapped size, in pages
}

std::int64_t tasksOfUid(uid_t uid)
{
    std::int64_t tasks = 0;
    DIR* proc = ::opendir("/proc");
    if (!proc)
        return 0;
    const int procFd = ::dirfd(proc);
    while (const dirent* e = ::readdir(proc)) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        struct stat st {};
        if (::fstatat(procFd, e->d_name, &st, 0) != 0 || st.st_uid != uid)
            continue;
        char path[sizeof e->d_name + 16];
        char buf[1024];
        std::snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        if (!readSmall(path, buf, sizeof buf))
            continue;
        // num_threads is field 20; the fields after the command's closing parenthesis start at 3.
        const char* at = std::strrchr(buf, ')');
        for (int field = 2; at && field < 20; ++field)
            at = std::strchr(at + 1, ' ');
        if (at)
            tasks += std::atoll(at + 1);
    }
    ::closedir(proc);
    return tasks;
}

} // namespace sb::usage
