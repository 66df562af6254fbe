#include "cgroup.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace sb::cgroup {

namespace {

constexpr const char* kRoot = "/sys/fs/cgroup";
constexpr const char* kSupervisorLeaf = "sandbench-supervisor";
constexpr const char* kRunPrefix = "sandbench-"; // followed by "ns" or digits: a run's group (runGroupName)

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool writeFile(const std::string& path, const std::string& value)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, value.data(), value.size()) == static_cast<ssize_t>(value.size());
    ::close(fd);
    return ok;
}

// The launcher's own cgroup paths: "" key for v2, controller names for v1.
struct Membership {
    std::string unified;  // v2 path
    std::string memory;   // v1 paths
    std::string pids;
    std::string cpuacct;
};

Membership membership()
{
    Membership m;
    std::istringstream lines(readFile("/proc/self/cgroup"));
    for (std::string line; std::getline(lines, line);) {
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos)
            continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (controllers.empty()) {
            m.unified = path;
            continue;
        }
        std::istringstream names(controllers);
        for (std::string name; std::getline(names, name, ',');) {
            if (name == "memory")
                m.memory = path;
            else if (name == "pids")
                m.pids = path;
            else if (name == "cpuacct")
                m.cpuacct = path;
        }
    }
    return m;
}

bool isV2Root()
{
    return ::access(fmt::format("{}/cgroup.controllers", kRoot).c_str(), F_OK) == 0;
}

// Where a v1 controller is mounted (its own folder, or a folder shared with others such as cpu,cpuacct).
std::string v1Mount(const std::string& controller)
{
    for (const std::string& dir : {std::string(kRoot) + "/" + controller, std::string(kRoot) + "/cpu,cpuacct"}) {
        if (::access((dir + "/cgroup.procs").c_str(), F_OK) == 0
            && (controller != "cpuacct" || ::access((dir + "/cpuacct.usage").c_str(), F_OK) == 0))
            return dir;
    }
    return {};
}

// The folders a run's v1 groups go into (memory, pids, cpuacct), under this process's own groups; empty
// when one of those hierarchies is missing.
std::vector<std::string> v1Parents(const Membership& m)
{
    std::vector<std::string> parents;
    for (const auto& [controller, path] : {std::pair{"memory", &m.memory}, {"pids", &m.pids}, {"cpuacct", &m.cpuacct}}) {
        const std::string mount = v1Mount(controller);
        if (mount.empty())
            return {};
        parents.push_back(mount + (*path == "/" ? "" : *path));
    }
    return parents;
}

// A process's start time in clock ticks since boot (field 22 of /proc/PID/stat); "" when it is gone.
std::string startTime(pid_t pid)
{
    const std::string stat = readFile(fmt::format("/proc/{}/stat", pid));
    const auto afterName = stat.rfind(')');
    if (afterName == std::string::npos)
        return {};
    std::istringstream fields(stat.substr(afterName + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
    }
    return field;
}

// The inode of this process's pid namespace: a pid in a group's name means that process only there.
ino_t ownPidNamespace()
{
    struct stat st {};
    return ::stat("/proc/self/ns/pid", &st) == 0 ? st.st_ino : 0;
}

std::string v2Own(const Membership& m)
{
    if (!isV2Root() || m.unified.empty())
        return {};
    return std::string(kRoot) + (m.unified == "/" ? "" : m.unified);
}

// Where run cgroups go on v2: under our own cgroup, or beside it when prepareDelegation() moved us into
// the supervisor leaf of a delegated cgroup (v2 lets only leaves hold processes once controllers are on).
std::string v2Base(const Membership& m)
{
    std::string own = v2Own(m);
    const std::string leaf = std::string("/") + kSupervisorLeaf;
    if (own.size() > leaf.size() && own.ends_with(leaf))
        own.resize(own.size() - leaf.size());
    return own;
}

bool v2Delegates(const std::string& base, std::string* whyNot)
{
    const std::string control = readFile(base + "/cgroup.subtree_control");
    for (const char* needed : {"memory", "pids", "cpu"}) {
        if (control.find(needed) == std::string::npos) {
            if (whyNot)
                *whyNot = fmt::format("cgroup v2: the {} controller is not delegated to {} (cgroup.subtree_control: "
                                      "'{}'); run Sandbench in a delegated scope, e.g. systemd-run --user --scope "
                                      "-p Delegate=yes",
                                      needed, base, control.substr(0, control.find('\n')));
            return false;
        }
    }
    if (::access(base.c_str(), W_OK) != 0) {
        if (whyNot)
            *whyNot = fmt::format("cgroup v2: {} is not writable by this user", base);
        return false;
    }
    return true;
}

} // namespace

std::string runGroupName()
{
    const pid_t pid = ::getpid();
    return fmt::format("{}ns{}-{}-{}", kRunPrefix, ownPidNamespace(), pid, startTime(pid));
}

Creation create(const std::string& name, std::int64_t memoryBytes, std::int64_t maxProcesses)
{
    const Membership m = membership();
    Creation made;
    RunGroup& group = made.group;
    if (const std::string base = v2Base(m); !base.empty()) {
        if (!v2Delegates(base, &made.whyNot))
            return made;
        made.offered = true;
        const std::string dir = base + "/" + name;
        if (::mkdir(dir.c_str(), 0755) != 0) {
            made.whyNot = fmt::format("cgroup v2: mkdir {}: {}", dir, std::strerror(errno));
            return made;
        }
        group.v2 = true;
        group.memoryDir = group.pidsDir = group.cpuDir = dir;
        writeFile(dir + "/memory.swap.max", "0"); // absent without swap accounting: fine
        const bool ok = writeFile(dir + "/memory.max", std::to_string(memoryBytes))
                        && writeFile(dir + "/pids.max", std::to_string(maxProcesses));
        if (!ok) {
            made.whyNot = fmt::format("cgroup v2: cannot set the limits in {}", dir);
            destroy(group);
            group = {};
        }
        return made;
    }

    // cgroup v1: one folder per controller, under the launcher's own group in each hierarchy.
    const std::vector<std::string> parents = v1Parents(m);
    if (parents.empty()) {
        made.whyNot = "no cgroup v2 with delegation and no cgroup v1 memory, pids and cpuacct hierarchies";
        return made;
    }
    for (const auto& parent : parents) {
        if (::access(parent.c_str(), W_OK) != 0) {
            made.whyNot = fmt::format("cgroup v1: {} is not writable by this user (cgroup limits for an unprivileged "
                                      "user need a delegated cgroup, e.g. cgroup v2 with systemd-run --user --scope "
                                      "-p Delegate=yes)",
                                      parent);
            return made;
        }
    }
    made.offered = true;
    std::string* dirs[] = {&group.memoryDir, &group.pidsDir, &group.cpuDir};
    for (std::size_t i = 0; i < parents.size(); ++i) {
        const std::string dir = parents[i] + "/" + name;
        if (::mkdir(dir.c_str(), 0755) != 0) {
            made.whyNot = fmt::format("cgroup v1: mkdir {}: {}", dir, std::strerror(errno));
            destroy(group);
            group = {};
            return made;
        }
        *dirs[i] = dir;
    }
    const bool ok = writeFile(group.memoryDir + "/memory.limit_in_bytes", std::to_string(memoryBytes))
                    && writeFile(group.pidsDir + "/pids.max", std::to_string(maxProcesses));
    if (!ok) {
        made.whyNot = fmt::format("cgroup v1: cannot set the limits under {}", group.memoryDir);
        destroy(group);
        group = {};
    }
    return made;
}

bool addProcess(const RunGroup& group, pid_t pid)
{
    if (!group.active())
        return false;
    const std::string value = std::to_string(pid);
    if (group.v2)
        return writeFile(group.memoryDir + "/cgroup.procs", value);
    return writeFile(group.memoryDir + "/cgroup.procs", value) && writeFile(group.pidsDir + "/cgroup.procs", value)
           && writeFile(group.cpuDir + "/cgroup.procs", value);
}

std::vector<int> openTasksFiles(const RunGroup& group)
{
    std::vector<int> tasks;
    if (!group.active() || group.v2)
        return tasks;
    for (const auto& dir : {group.memoryDir, group.pidsDir, group.cpuDir}) {
        const int fd = ::open((dir + "/tasks").c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) {
            for (int open : tasks)
                ::close(open);
            return {};
        }
        tasks.push_back(fd);
    }
    return tasks;
}

bool moveSelf(const std::vector<int>& tasks)
{
    bool moved = !tasks.empty();
    for (int fd : tasks)
        moved = ::write(fd, "0", 1) == 1 && moved;
    return moved;
}

namespace {

// The whole of a cgroup file from its start (seq_file: a read at offset 0 renders it anew).
std::string readFrom(int fd)
{
    std::string text;
    char buffer[4096];
    for (off_t offset = 0;;) {
        const ssize_t n = ::pread(fd, buffer, sizeof buffer, offset);
        if (n > 0) {
            text.append(buffer, static_cast<std::size_t>(n));
            offset += n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        return text;
    }
}

// The value of `key` in a "key value" per line file; -1 when absent.
std::int64_t keyedValue(const std::string& text, std::string_view key)
{
    std::istringstream lines(text);
    std::string name;
    std::int64_t value = 0;
    while (lines >> name >> value) {
        if (name == key)
            return value;
    }
    return -1;
}

} // namespace

Figures::Figures(const RunGroup& group) : m_v2(group.v2)
{
    if (!group.active())
        return;
    m_cpu.reset(::open((group.cpuDir + (group.v2 ? "/cpu.stat" : "/cpuacct.usage")).c_str(), O_RDONLY | O_CLOEXEC));
    m_memory.reset(::open((group.memoryDir + (group.v2 ? "/memory.events" : "/memory.oom_control")).c_str(),
                          O_RDONLY | O_CLOEXEC));
}

std::int64_t Figures::cpuUsageUs() const
{
    if (!m_cpu.valid())
        return -1;
    const std::string text = readFrom(m_cpu.get());
    if (m_v2)
        return keyedValue(text, "usage_usec");
    return text.empty() ? -1 : std::atoll(text.c_str()) / 1000;
}

bool Figures::oomKilled() const
{
    return m_memory.valid() && keyedValue(readFrom(m_memory.get()), "oom_kill") > 0;
}

void destroy(const RunGroup& group)
{
    for (const auto& dir : {group.cpuDir, group.pidsDir, group.memoryDir}) {
        if (dir.empty())
            continue;
        // The kernel may count a process that was reaped a moment ago (v1): EBUSY for a short while.
        for (int attempt = 0; ::rmdir(dir.c_str()) != 0 && errno == EBUSY && attempt < 50; ++attempt)
            ::usleep(2000);
    } // v2: the same folder thrice; the later calls fail harmlessly
}

Pruned pruneStale()
{
    const Membership m = membership();
    std::vector<std::string> parents = v1Parents(m);
    if (const std::string base = v2Base(m); !base.empty())
        parents = {base};
    Pruned pruned;
    const ino_t ownNamespace = ownPidNamespace();
    for (const auto& parent : parents) {
        DIR* dir = ::opendir(parent.c_str());
        if (!dir)
            continue;
        while (const dirent* entry = ::readdir(dir)) {
            const std::string_view name = entry->d_name;
            if (entry->d_type != DT_DIR || !name.starts_with(kRunPrefix))
                continue;
            // "sandbench-nsNS-PID-START" (older versions: "sandbench-PID-START", "sandbench-PID"): stale when that
            // process is gone. A group of another pid namespace (a launcher in a container, another test run's)
            // names a pid this process cannot judge: left alone, empty or not, as its launcher may move in yet.
            std::string_view rest = name.substr(std::string_view(kRunPrefix).size());
            if (rest.starts_with("ns")) {
                rest.remove_prefix(2);
                const auto nsDash = rest.find('-');
                ino_t ns = 0;
                const auto parsed = std::from_chars(rest.data(), rest.data() + std::min(nsDash, rest.size()), ns);
                if (nsDash == std::string_view::npos || parsed.ec != std::errc{} || ns != ownNamespace)
                    continue;
                rest.remove_prefix(nsDash + 1);
            }
            const auto dash = rest.find('-');
            const std::string_view digits = rest.substr(0, dash);
            pid_t pid = 0;
            const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
            if (ec != std::errc{} || end != digits.data() + digits.size() || pid <= 0)
                continue;
            const bool alive = ::kill(pid, 0) == 0 || errno == EPERM;
            const bool same = alive && (dash == std::string_view::npos || rest.substr(dash + 1) == startTime(pid));
            if (same)
                continue;
            if (::rmdir(fmt::format("{}/{}", parent, name).c_str()) == 0)
                ++pruned.removed;
            else if (errno == EBUSY)
                ++pruned.busy;
        }
        ::closedir(dir);
    }
    return pruned;
}

bool prepareDelegation(std::string* detail)
{
    const Membership m = membership();
    const std::string own = v2Own(m);
    if (own.empty() || own != v2Base(m))
        return false; // not cgroup v2, or prepared already
    const std::string controllers = readFile(own + "/cgroup.controllers");
    const std::string enabled = readFile(own + "/cgroup.subtree_control");
    bool needed = false;
    for (const char* c : {"memory", "pids", "cpu"}) {
        if (controllers.find(c) == std::string::npos || ::access(own.c_str(), W_OK) != 0)
            return false; // nothing delegated to us: doctor explains
        needed = needed || enabled.find(c) == std::string::npos;
    }
    if (!needed)
        return false;
    // Every process of the delegated cgroup is this user's own (systemd gives a scope to one user): move
    // them into a leaf, then turn the controllers on for the runs' cgroups beside it.
    const std::string leaf = own + "/" + kSupervisorLeaf;
    if (::mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST) {
        if (detail)
            *detail = fmt::format("cgroup v2: mkdir {}: {}", leaf, std::strerror(errno));
        return false;
    }
    for (int round = 0; round < 3; ++round) { // processes may start while we move them
        std::istringstream pids(readFile(own + "/cgroup.procs"));
        bool moved = false;
        for (std::string pid; pids >> pid;)
            moved = writeFile(leaf + "/cgroup.procs", pid) || moved;
        if (!moved)
            break;
    }
    if (!writeFile(own + "/cgroup.subtree_control", "+memory +pids +cpu")) {
        if (detail)
            *detail = fmt::format("cgroup v2: cannot enable memory, pids and cpu in {}: {}", own, std::strerror(errno));
        return false;
    }
    if (detail)
        *detail = fmt::format("cgroup v2: controllers enabled in the delegated cgroup {}", own);
    return true;
}

bool available(std::string* detail)
{
    const std::string name = fmt::format("sandbench-probe-{}", ::getpid());
    const Creation probe = create(name, 64LL << 20, 8);
    if (!probe.group.active()) {
        if (detail)
            *detail = probe.whyNot;
        return false;
    }
    if (detail)
        *detail = probe.group.v2 ? "cgroup v2: memory, pids and CPU limits for each strict run"
                                 : "cgroup v1 (memory, pids, cpuacct): limits for each strict run";
    destroy(probe.group);
    return true;
}

} // namespace sb::cgroup
