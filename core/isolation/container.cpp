#include "container.h"

#include "fd_passing.h"
#include "isolation/start_trace.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sb::container {

namespace {

// The new root is a tmpfs mounted over /tmp of this mount namespace: one mount both covers the host's
// /tmp and holds the root while it is built (the work dir, under the host's /tmp, was opened before).
constexpr const char* kNewRoot = "/tmp";

std::string err(const std::string& what)
{
    return what + ": " + std::strerror(errno);
}

Result<void> writeFile(const std::string& path, const std::string& text)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(err("open " + path));
    const ssize_t n = ::write(fd, text.data(), text.size());
    ::close(fd);
    if (n != static_cast<ssize_t>(text.size()))
        return fail(err("write " + path));
    return {};
}

// mkdir -p, from the deepest folder that exists: usually the parent does, and it is one mkdir.
Result<void> makeDirs(const std::string& path)
{
    if (::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST)
        return {};
    if (errno != ENOENT)
        return fail(err("mkdir " + path));
    const auto slash = path.rfind('/');
    if (slash == 0 || slash == std::string::npos)
        return fail(err("mkdir " + path));
    if (auto r = makeDirs(path.substr(0, slash)); !r)
        return r;
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
        return fail(err("mkdir " + path));
    return {};
}

// An empty file to bind a file onto, in one call.
Result<void> makeFile(const std::string& path)
{
    if (::mknod(path.c_str(), S_IFREG | 0644, 0) != 0 && errno != EEXIST)
        return fail(err("create " + path));
    return {};
}

// Read-only again after a bind: a bind mount ignores MS_RDONLY, and inside a user namespace the flags
// the original mount has locked (nosuid, nodev, noexec) must be kept.
Result<void> remountReadOnly(const std::string& target)
{
    struct statvfs sv {};
    if (::statvfs(target.c_str(), &sv) != 0)
        return fail(err("statvfs " + target));
    unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV;
    if (sv.f_flag & ST_NOEXEC)
        flags |= MS_NOEXEC;
    if (sv.f_flag & ST_NOATIME)
        flags |= MS_NOATIME;
    if (sv.f_flag & ST_RELATIME)
        flags |= MS_RELATIME;
    if (::mount(nullptr, target.c_str(), nullptr, flags, nullptr) != 0)
        return fail(err("remount read-only " + target));
    return {};
}

// Read-only, nosuid and nodev, for a bound file or a whole bound tree: mount_setattr changes only what it
// is asked to (the flags a user namespace keeps locked stay), and AT_RECURSIVE reaches the mounts under
// the top one, which a remount does not. Kernels before 5.12 get the remount.
Result<void> makeReadOnly(const std::string& target, bool tree)
{
    mount_attr attr{};
    attr.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
    if (::mount_setattr(AT_FDCWD, target.c_str(), tree ? AT_RECURSIVE : 0, &attr, sizeof attr) == 0)
        return {};
    if (errno != ENOSYS)
        return fail(err("read-only " + target));
    return remountReadOnly(target);
}

// A host path held open before /tmp is covered, so that it can still be bound afterwards.
struct Source {
    std::string path;
    int fd = -1;          // O_PATH, opened in this mount namespace
    struct stat st {};
    std::string link;     // the target, for a symlink
};

Result<Source> openSource(const std::string& path)
{
    Source s;
    s.path = path;
    if (::lstat(path.c_str(), &s.st) != 0)
        return s; // absent: skipped
    if (S_ISLNK(s.st.st_mode)) {
        char link[4096];
        const ssize_t n = ::readlink(path.c_str(), link, sizeof link - 1);
        if (n < 0)
            return fail(err("readlink " + path));
        s.link.assign(link, static_cast<std::size_t>(n));
        return s;
    }
    s.fd = ::open(path.c_str(), O_PATH | O_CLOEXEC | O_NOFOLLOW);
    if (s.fd < 0)
        return fail(err("open " + path));
    return s;
}

std::string fdPath(int fd)
{
    return fmt::format("/proc/self/fd/{}", fd);
}

// Mirrors a host path into the new root: symlinks as symlinks (merged-/usr systems), the rest as
// read-only binds. Paths that do not exist are skipped.
Result<void> mirrorReadOnly(const Source& source)
{
    const std::string& hostPath = source.path;
    const struct stat& st = source.st;
    if (source.fd < 0 && source.link.empty())
        return {};
    const std::string target = std::string(kNewRoot) + hostPath;
    const auto slash = target.rfind('/');
    if (auto r = makeDirs(target.substr(0, slash)); !r)
        return r;
    if (!source.link.empty()) {
        if (::symlink(source.link.c_str(), target.c_str()) != 0 && errno != EEXIST)
            return fail(err("symlink " + target));
        return {};
    }
    if (S_ISDIR(st.st_mode)) {
        if (::mkdir(target.c_str(), 0755) != 0 && errno != EEXIST)
            return fail(err("mkdir " + target));
    } else if (auto r = makeFile(target); !r) {
        return r;
    }
    if (::mount(fdPath(source.fd).c_str(), target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0)
        return fail(err("bind " + hostPath));
    return makeReadOnly(target, S_ISDIR(st.st_mode));
}

} // namespace

int namespaceFlags()
{
    return CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;
}

int cloneFlags()
{
    return namespaceFlags() & ~CLONE_NEWNET;
}

Result<NetworkHelper> startNetworkNamespace()
{
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
        return fail(err("network namespace: socketpair"));
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int e = errno;
        ::close(pair[0]);
        ::close(pair[1]);
        errno = e;
        return fail(err("network namespace: fork"));
    }
    if (pid == 0) {
        ::close(pair[0]);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        const int fd = ::unshare(CLONE_NEWNET) == 0 ? ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC) : -1;
        if (fd >= 0) {
            sendFd(pair[1], fd);
        } else {
            const int e = errno;
            [[maybe_unused]] const ssize_t n = ::write(pair[1], &e, sizeof e);
        }
        ::_exit(0);
    }
    ::close(pair[1]);
    return NetworkHelper{pid, pair[0]};
}

Result<void> enterNetworkNamespace(NetworkHelper& helper)
{
    std::string message;
    int fd = -1;
    const int got = receiveFds(helper.channel, message, std::span<int>(&fd, 1));
    ::close(helper.channel);
    ::waitpid(helper.pid, nullptr, 0);
    helper = {};
    if (got != 1) {
        int e = EIO;
        if (message.size() == sizeof e)
            std::memcpy(&e, message.data(), sizeof e);
        errno = e;
        return fail(err("network namespace: unshare"));
    }
    const bool joined = ::setns(fd, CLONE_NEWNET) == 0;
    const int e = errno;
    ::close(fd);
    errno = e;
    if (!joined)
        return fail(err("network namespace: setns"));
    return {};
}

Result<void> writeIdMaps(pid_t child, uid_t outerUid, gid_t outerGid)
{
    const std::string proc = fmt::format("/proc/{}/", child);
    if (auto r = writeFile(proc + "uid_map", fmt::format("{} {} 1\n", kInnerUid, outerUid)); !r)
        return r;
    if (auto r = writeFile(proc + "setgroups", "deny\n"); !r)
        return r;
    return writeFile(proc + "gid_map", fmt::format("{} {} 1\n", kInnerGid, outerGid));
}

Result<void> enterRoot(const RootSpec& spec)
{
    if (::setresgid(kInnerGid, kInnerGid, kInnerGid) != 0 || ::setresuid(kInnerUid, kInnerUid, kInnerUid) != 0)
        return fail(err("user namespace: becoming the sandbox user"));
    if (::sethostname("sandbench", 9) != 0)
        return fail(err("uts namespace: sethostname"));
    // Nothing we mount may propagate back to the host.
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return fail(err("mount namespace: making / private"));
    // Everything the root is made of, held open before /tmp is covered (a work dir lives there).
    std::vector<Source> sources;
    for (const auto& path : spec.readPaths) {
        auto source = openSource(path);
        if (!source)
            return std::unexpected(source.error());
        sources.push_back(std::move(*source));
    }
    std::vector<Source> devices;
    for (const auto& path : spec.devPaths) {
        auto source = openSource(path);
        if (!source)
            return std::unexpected(source.error());
        devices.push_back(std::move(*source));
    }
    auto work = openSource(spec.workDir);
    if (!work || work->fd < 0)
        return fail(work ? "the work dir " + spec.workDir + " is missing" : work.error().message);
    struct Closer {
        std::vector<Source>* lists[2];
        Source* one;
        ~Closer()
        {
            for (auto* list : lists)
                for (auto& s : *list)
                    if (s.fd >= 0)
                        ::close(s.fd);
            if (one->fd >= 0)
                ::close(one->fd);
        }
    } closer{{&sources, &devices}, &*work};
    sb::starttrace::mark("root.opened");

    if (::mount("tmpfs", kNewRoot, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4m") != 0)
        return fail(err("mount the new root"));

    // Read paths inside /tmp go on top of the sandbox's own /tmp, once it is there (below); the rest now.
    auto insideTmp = [](const Source& source) { return source.path.starts_with("/tmp/"); };
    for (const auto& source : sources) {
        if (insideTmp(source))
            continue;
        if (auto r = mirrorReadOnly(source); !r)
            return r;
    }

    const std::string root = kNewRoot;
    // /etc/passwd and /etc/group naming the sandbox user, so tools that look themselves up are content.
    if (auto r = makeDirs(root + "/etc"); !r)
        return r;
    if (auto r = writeFile(root + "/etc/passwd",
                           fmt::format("sandbox:x:{}:{}:Sandbench run:{}:/bin/sh\nnobody:x:65534:65534::/:/usr/sbin/nologin\n",
                                       kInnerUid, kInnerGid, kWorkDir));
        !r)
        return r;
    if (auto r = writeFile(root + "/etc/group", fmt::format("sandbox:x:{}:\nnogroup:x:65534:\n", kInnerGid)); !r)
        return r;
    if (auto r = writeFile(root + "/etc/hostname", "sandbench\n"); !r)
        return r;

    // A minimal /dev: a few harmless nodes bound from the host, no tty, a private /dev/shm.
    if (auto r = makeDirs(root + "/dev/shm"); !r)
        return r;
    for (const auto& dev : devices) {
        if (dev.fd < 0)
            continue;
        const std::string target = root + dev.path;
        if (auto r = makeFile(target); !r)
            return r;
        if (::mount(fdPath(dev.fd).c_str(), target.c_str(), nullptr, MS_BIND, nullptr) != 0)
            return fail(err("bind " + dev.path));
    }
    for (const auto& [link, to] : {std::pair{"/dev/fd", "/proc/self/fd"}, std::pair{"/dev/stdin", "/proc/self/fd/0"},
                                   std::pair{"/dev/stdout", "/proc/self/fd/1"}, std::pair{"/dev/stderr", "/proc/self/fd/2"}}) {
        if (::symlink(to, (root + link).c_str()) != 0)
            return fail(err(std::string("symlink ") + link));
    }
    if (::mount("tmpfs", (root + "/dev/shm").c_str(), "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=1777,size=16m") != 0)
        return fail(err("mount /dev/shm"));

    // A /proc of this pid namespace only: the host's processes are not in it.
    if (auto r = makeDirs(root + "/proc"); !r)
        return r;
    if (::mount("proc", (root + "/proc").c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0)
        return fail(err("mount /proc"));

    if (spec.tmpSizeMb > 0) {
        if (auto r = makeDirs(root + "/tmp"); !r)
            return r;
        const auto options = fmt::format("mode=1777,size={}m", spec.tmpSizeMb);
        if (::mount("tmpfs", (root + "/tmp").c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0)
            return fail(err("mount /tmp"));
    }
    for (const auto& source : sources) {
        if (!insideTmp(source))
            continue;
        if (auto r = mirrorReadOnly(source); !r)
            return r;
    }

    // The work dir, read-write, at a fixed path.
    const std::string workTarget = root + kWorkDir;
    if (auto r = makeDirs(workTarget); !r)
        return r;
    if (::mount(fdPath(work->fd).c_str(), workTarget.c_str(), nullptr, MS_BIND, nullptr) != 0)
        return fail(err("bind the work dir"));
    mount_attr workAttr{};
    workAttr.attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
    if (::mount_setattr(AT_FDCWD, workTarget.c_str(), 0, &workAttr, sizeof workAttr) != 0
        && (errno != ENOSYS
            || ::mount(nullptr, workTarget.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV, nullptr) != 0))
        return fail(err("remount the work dir nosuid,nodev"));

    sb::starttrace::mark("root.mounted");
    // Into the new root; the old one is detached and gone from this namespace.
    if (::chdir(kNewRoot) != 0)
        return fail(err("chdir new root"));
    if (::syscall(SYS_pivot_root, ".", ".") != 0)
        return fail(err("pivot_root"));
    if (::umount2(".", MNT_DETACH) != 0)
        return fail(err("detach the old root"));
    sb::starttrace::mark("root.pivoted");
    if (::chdir("/") != 0)
        return fail(err("chdir /"));
    // The root itself read-only: the program writes only /work (and /tmp where there is one).
    if (::mount(nullptr, "/", nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) != 0)
        return fail(err("remount / read-only"));
    if (::chdir(kWorkDir) != 0)
        return fail(err("chdir /work"));
    return {};
}

} // namespace sb::container
