#include "path_report.h"

#include "container.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

namespace sb::paths {

namespace {

namespace la = landlock::access;

// Every call that names a path Landlock checks. Metadata calls (stat, access, readlink, chdir, xattrs,
// chmod, utimes) are not in it: Landlock does not govern them, and the layout only hides what they
// would tell (existence, size, times).
constexpr const char* kSyscalls[] = {
#ifdef SYS_open
    "open",
#endif
#ifdef SYS_creat
    "creat",
#endif
#ifdef SYS_mkdir
    "mkdir",
#endif
#ifdef SYS_mknod
    "mknod",
#endif
#ifdef SYS_symlink
    "symlink",
#endif
#ifdef SYS_unlink
    "unlink",
#endif
#ifdef SYS_rmdir
    "rmdir",
#endif
#ifdef SYS_rename
    "rename",
#endif
#ifdef SYS_link
    "link",
#endif
    "openat", "openat2", "execve", "execveat", "mkdirat", "mknodat", "symlinkat", "unlinkat", "renameat",
    "renameat2", "linkat", "truncate",
};

constexpr std::uint64_t kReadBits = la::kReadFile | la::kReadDir;
constexpr int kMaxSymlinks = 40;     // as the kernel (ELOOP)
constexpr std::size_t kMaxDirCache = 20000;
constexpr std::size_t kMaxShown = 240;

const char* verbOf(Op op)
{
    switch (op) {
    case Op::Open: return "open";
    case Op::Exec: return "exec";
    case Op::MakeDir: return "mkdir";
    case Op::MakeNode: return "mknod";
    case Op::Symlink: return "symlink";
    case Op::Unlink: return "unlink";
    case Op::RemoveDir: return "rmdir";
    case Op::Rename: return "rename";
    case Op::Link: return "link";
    case Op::Truncate: return "truncate";
    }
    return "?";
}

// The Landlock right that creates a node of this type (as the kernel's get_mode_access()).
std::uint64_t makeRight(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFLNK: return la::kMakeSym;
    case 0:
    case S_IFREG: return la::kMakeReg;
    case S_IFDIR: return la::kMakeDir;
    case S_IFCHR: return la::kMakeChar;
    case S_IFBLK: return la::kMakeBlock;
    case S_IFIFO: return la::kMakeFifo;
    case S_IFSOCK: return la::kMakeSock;
    default: return 0;
    }
}

std::uint64_t removeRight(mode_t mode)
{
    return S_ISDIR(mode) ? la::kRemoveDir : la::kRemoveFile;
}

// "read", "write", "read, write", "execute": what the call asked for, in words.
std::string accessWords(std::uint64_t need)
{
    if (need & la::kExecute)
        return "execute";
    const bool reads = need & kReadBits;
    const bool writes = need & ~(kReadBits | la::kExecute);
    return reads && writes ? "read, write" : writes ? "write" : "read";
}

// A path for a report: printable, bounded.
std::string shown(std::string_view path)
{
    std::string out(path.substr(0, kMaxShown));
    for (char& c : out) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '"')
            c = '?';
    }
    if (path.size() > kMaxShown)
        out += "...";
    return out;
}

std::string joinPath(const std::string& dir, std::string_view name)
{
    std::string out = dir == "/" ? std::string() : dir;
    out += '/';
    out += name;
    return out;
}

std::string parentOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

bool under(std::string_view path, std::string_view dir)
{
    return path == dir || (path.starts_with(dir) && path.size() > dir.size() && path[dir.size()] == '/');
}

// Reads that ordinary programs make on every start and that the sandbox refuses by design, so that a
// report of them would only drown the real ones (as local UNIX sockets are refused quietly): the
// terminal probe of shells (a run has no terminal), libc's name-service lookups of the run's own
// identity (user and group names are hidden at the process level), the kernel's own description in
// /proc (filesystems, limits, the process itself; other processes' entries stay reported), the CPU
// count probes of /sys and the memory and CPU limit probes of /sys/fs/cgroup (Node's libuv, the JVM and Go
// read them on every start). Writes to any of them are reported.
bool quietProbe(std::string_view path, std::uint64_t need)
{
    if (path == "/dev/tty")
        return true;
    if (need & ~(kReadBits | la::kExecute))
        return false;
    if (path == "/etc/nsswitch.conf" || path == "/etc/passwd" || path == "/etc/group")
        return true;
    if (under(path, "/sys/devices/system/cpu") || under(path, "/sys/fs/cgroup"))
        return true;
    if (under(path, "/proc")) {
        const std::string_view rest = path.size() > 6 ? path.substr(6) : std::string_view();
        const std::string_view first = rest.substr(0, rest.find('/'));
        return first.empty() || !std::all_of(first.begin(), first.end(), [](char c) { return c >= '0' && c <= '9'; });
    }
    return false;
}

// Bytes from the caller's memory; false if they cannot all be read.
bool readRemote(pid_t pid, std::uint64_t address, void* out, std::size_t size)
{
    iovec local{out, size};
    iovec remote{reinterpret_cast<void*>(address), size};
    return ::process_vm_readv(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(size);
}

// A NUL-terminated path from the caller's memory, read a page at most at a time (a path may end just
// before unmapped memory).
std::optional<std::string> readRemotePath(pid_t pid, std::uint64_t address)
{
    if (address == 0)
        return std::nullopt;
    constexpr std::size_t kPage = 4096;
    std::string out;
    char buf[kPage];
    while (out.size() < PATH_MAX) {
        const std::size_t chunk = kPage - (address % kPage);
        iovec local{buf, chunk};
        iovec remote{reinterpret_cast<void*>(address), chunk};
        const ssize_t n = ::process_vm_readv(pid, &local, 1, &remote, 1, 0);
        if (n <= 0)
            return std::nullopt;
        const auto* end = static_cast<const char*>(std::memchr(buf, 0, static_cast<std::size_t>(n)));
        if (end) {
            out.append(buf, static_cast<std::size_t>(end - buf));
            return out;
        }
        out.append(buf, static_cast<std::size_t>(n));
        address += static_cast<std::uint64_t>(n);
    }
    return std::nullopt; // longer than PATH_MAX: the kernel refuses it (ENAMETOOLONG) before any check
}

UniqueFd openPath(int dir, const char* path, int flags = 0)
{
    return UniqueFd(::openat(dir, path, O_PATH | O_CLOEXEC | flags));
}

bool statOf(int fd, struct stat& st)
{
    return ::fstat(fd, &st) == 0;
}

} // namespace

struct Reporter::Resolved {
    enum Kind {
        Found,       // it exists: object and the directory holding it are open
        MissingLast, // all but the last component exist: parent is open (a call may create the last)
        Missing,     // an earlier component is missing
        Unknown      // cannot be predicted (magic link, symlink loop, not a directory, no permission...)
    } kind = Unknown;
    UniqueFd parent;
    UniqueFd object;
    mode_t mode = 0;   // Found
    FileId id;         // Found
    std::string path;  // as the program sees it: symlinks followed, "." and ".." gone (see pathOf)
    std::string name;  // the last component, when path is left to be worked out from parent
};

std::span<const char* const> reportedSyscalls()
{
    return kSyscalls;
}

bool isReported(std::string_view syscall)
{
    return std::find(std::begin(kSyscalls), std::end(kSyscalls), syscall) != std::end(kSyscalls);
}

landlock::Rules landlockRules(const LaunchSpec& spec)
{
    const std::string workDir = spec.container ? container::kWorkDir : spec.workDir;
    std::vector<std::string> writable{workDir};
    if (spec.container && spec.tmpSizeMb > 0)
        writable.emplace_back("/tmp");
    // In a container the whole root is minimal and read-only already: all of it may be read.
    std::vector<std::string> readable = spec.container ? std::vector<std::string>{"/"} : spec.readPaths;
    return landlock::Rules{std::move(readable), spec.devPaths, std::move(writable), {}};
}

Reporter::Reporter(const LaunchSpec& spec) : m_container(spec.container), m_rules(landlockRules(spec))
{
    const int abi = landlock::abiVersion();
    if (abi <= 0)
        return; // no Landlock: nothing it could refuse (m_handled stays 0)
    m_handled = landlock::handledFsAccess(abi);
    // Outside a container the program's root is the launcher's own: the rules can be looked up now,
    // while the program is still setting itself up, rather than on its first call.
    if (!m_container) {
        openRoot(0);
        prepareRules();
    }
}

void Reporter::prepare(pid_t pid)
{
    if (m_handled == 0 || m_root.valid())
        return;
    openRoot(pid);
    prepareRules();
}

void Reporter::judge(const Call& call, std::vector<BlockedEvent>& events)
{
    if (m_full || !prepareRules())
        return;
    m_events = &events;
    judgeCall(call);
    m_events = nullptr;
}

std::optional<Call> Reporter::capture(int notifyFd, const seccomp_notif& req)
{
    if (m_full || m_handled == 0)
        return std::nullopt;
    const auto* a = req.data.args;
    const auto nr = static_cast<long>(req.data.nr);
    Call call;
    call.pid = static_cast<pid_t>(req.pid);
    int dirfd[2] = {AT_FDCWD, AT_FDCWD};
    std::uint64_t address[2] = {0, 0};
    auto fd = [](std::uint64_t value) { return static_cast<int>(static_cast<std::int32_t>(value)); };

    switch (nr) {
#ifdef SYS_open
    case SYS_open: call.op = Op::Open; address[0] = a[0]; call.flags = a[1]; break;
#endif
    case SYS_openat: call.op = Op::Open; dirfd[0] = fd(a[0]); address[0] = a[1]; call.flags = a[2]; break;
    case SYS_openat2: {
        open_how how{};
        if (a[3] < sizeof how || !readRemote(call.pid, a[2], &how, sizeof how))
            return std::nullopt;
        if (how.resolve & (RESOLVE_NO_XDEV | RESOLVE_CACHED))
            return std::nullopt; // fails in ways a prediction would get wrong; rare outside of servers
        call.op = Op::Open;
        dirfd[0] = fd(a[0]);
        address[0] = a[1];
        call.flags = how.flags;
        call.beneath = how.resolve & RESOLVE_BENEATH;
        call.noSymlinks = how.resolve & RESOLVE_NO_SYMLINKS;
        if (how.resolve & (RESOLVE_IN_ROOT | RESOLVE_BENEATH)) {
            call.root = dirfd[0] == AT_FDCWD ? openPath(AT_FDCWD, fmt::format("/proc/{}/cwd", call.pid).c_str())
                                             : openPath(AT_FDCWD, fmt::format("/proc/{}/fd/{}", call.pid, dirfd[0]).c_str());
            if (!call.root.valid())
                return std::nullopt;
        }
        break;
    }
#ifdef SYS_creat
    case SYS_creat: call.op = Op::Open; address[0] = a[0]; call.flags = O_CREAT | O_WRONLY | O_TRUNC; break;
#endif
    case SYS_execve: call.op = Op::Exec; address[0] = a[0]; break;
    case SYS_execveat:
        call.op = Op::Exec; dirfd[0] = fd(a[0]); address[0] = a[1]; call.flags = a[4];
        break;
#ifdef SYS_mkdir
    case SYS_mkdir: call.op = Op::MakeDir; address[0] = a[0]; break;
#endif
    case SYS_mkdirat: call.op = Op::MakeDir; dirfd[0] = fd(a[0]); address[0] = a[1]; break;
#ifdef SYS_mknod
    case SYS_mknod: call.op = Op::MakeNode; address[0] = a[0]; call.mode = a[1]; break;
#endif
    case SYS_mknodat: call.op = Op::MakeNode; dirfd[0] = fd(a[0]); address[0] = a[1]; call.mode = a[2]; break;
#ifdef SYS_symlink
    case SYS_symlink: call.op = Op::Symlink; address[0] = a[1]; break; // the link's own path; its text is data
#endif
    case SYS_symlinkat: call.op = Op::Symlink; dirfd[0] = fd(a[1]); address[0] = a[2]; break;
#ifdef SYS_unlink
    case SYS_unlink: call.op = Op::Unlink; address[0] = a[0]; break;
#endif
    case SYS_unlinkat:
        call.op = (a[2] & AT_REMOVEDIR) ? Op::RemoveDir : Op::Unlink; dirfd[0] = fd(a[0]); address[0] = a[1];
        break;
#ifdef SYS_rmdir
    case SYS_rmdir: call.op = Op::RemoveDir; address[0] = a[0]; break;
#endif
#ifdef SYS_rename
    case SYS_rename: call.op = Op::Rename; address[0] = a[0]; address[1] = a[1]; break;
#endif
    case SYS_renameat:
    case SYS_renameat2:
        call.op = Op::Rename; dirfd[0] = fd(a[0]); address[0] = a[1]; dirfd[1] = fd(a[2]); address[1] = a[3];
        call.flags = nr == SYS_renameat2 ? a[4] : 0;
        break;
#ifdef SYS_link
    case SYS_link: call.op = Op::Link; address[0] = a[0]; address[1] = a[1]; break;
#endif
    case SYS_linkat:
        call.op = Op::Link; dirfd[0] = fd(a[0]); address[0] = a[1]; dirfd[1] = fd(a[2]); address[1] = a[3];
        call.flags = a[4];
        break;
    case SYS_truncate: call.op = Op::Truncate; address[0] = a[0]; break;
    default: return std::nullopt;
    }
    // An O_PATH open reads nothing and Landlock does not check it.
    if (call.op == Op::Open && (call.flags & O_PATH))
        return std::nullopt;

    const int paths = (call.op == Op::Rename || call.op == Op::Link) ? 2 : 1;
    for (int i = 0; i < paths; ++i) {
        auto text = readRemotePath(call.pid, address[i]);
        if (!text || text->empty())
            return std::nullopt; // unreadable (gone, or not dumpable), or empty: fd-based (AT_EMPTY_PATH) or ENOENT
        call.path[i] = std::move(*text);
        if (call.path[i].front() == '/')
            continue;
        // Relative: hold the directory it starts from, as it is now, before the caller moves on.
        call.base[i] = dirfd[i] == AT_FDCWD
                           ? openPath(AT_FDCWD, fmt::format("/proc/{}/cwd", call.pid).c_str())
                           : openPath(AT_FDCWD, fmt::format("/proc/{}/fd/{}", call.pid, dirfd[i]).c_str());
        if (!call.base[i].valid())
            return std::nullopt;
    }
    if (!m_root.valid()) {
        openRoot(call.pid);
        if (!m_root.valid())
            return std::nullopt;
    }
    // What was read belongs to this call only if the caller is still stopped in it (a pid can be reused).
    __u64 id = req.id;
    if (::ioctl(notifyFd, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) != 0)
        return std::nullopt;
    return call;
}

// The program's root. All of a run's processes share it: chroot and pivot_root are refused to them.
void Reporter::openRoot(pid_t pid)
{
    m_root = m_container ? openPath(AT_FDCWD, fmt::format("/proc/{}/root", pid).c_str(), O_DIRECTORY)
                         : openPath(AT_FDCWD, "/", O_DIRECTORY);
    struct stat st {};
    if (!m_root.valid() || !statOf(m_root.get(), st)) {
        m_root.reset();
        return;
    }
    m_rootId = {st.st_dev, st.st_ino};
    m_rootText = programPath(m_root.get());
    // The program's /proc: paths into it are walked, never resolved by the launcher's kernel calls (its
    // /proc/self is the launcher).
    if (struct stat proc {}; ::fstatat(m_root.get(), "proc", &proc, AT_SYMLINK_NOFOLLOW) == 0)
        m_procDev = proc.st_dev;
}

// How the launcher names an open directory, turned into the program's view of it (inside its root).
std::string Reporter::programPath(int fd) const
{
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(fmt::format("/proc/self/fd/{}", fd).c_str(), buf, sizeof buf - 1);
    if (n <= 0 || buf[0] != '/')
        return {};
    std::string text(buf, static_cast<std::size_t>(n));
    if (text.ends_with(" (deleted)"))
        return {};
    if (m_rootText.empty() || m_rootText == "/")
        return text;
    if (text == m_rootText)
        return "/";
    if (!under(text, m_rootText))
        return {};
    return text.substr(m_rootText.size());
}

// Resolves path number `which` of the call the way the kernel would for the program: from its cwd or
// dirfd, inside its root, following symlinks (the last one only when the call does).
Reporter::Resolved Reporter::resolve(const Call& call, int which, bool followLast)
{
    // Most paths are plain: the kernel walks the directory part in one call, exactly as for the program
    // (inside its root, symlinks followed, no magic links), and the last component is looked at here.
    // Anything else, and anything that needs the path spelled out (a container's missing paths), takes
    // the walk below.
    const std::string& path = call.path[which];
    if (call.root.valid() || call.noSymlinks || (m_container && path.front() != '/'))
        return walk(call, which, followLast);
    UniqueFd dir;
    std::string name;
    if (!openParent(path.front() == '/' ? m_root.get() : call.base[which].get(), path, dir, name))
        return walk(call, which, followLast);
    if (!dir.valid()) {
        Resolved out;
        out.kind = Resolved::Missing; // (only outside a container, where a missing path is no refusal)
        return out;
    }
    for (int symlinks = 0;; ++symlinks) {
        UniqueFd object = openPath(dir.get(), name.c_str(), O_NOFOLLOW);
        struct stat st {};
        if (!object.valid()) {
            // A missing name in /proc may sit in the launcher's own entries (/proc/self): not judged here.
            if (errno != ENOENT || !statOf(dir.get(), st) || st.st_dev == m_procDev)
                return walk(call, which, followLast);
            Resolved out;
            out.kind = Resolved::MissingLast;
            out.parent = std::move(dir);
            out.name = std::move(name);
            return out;
        }
        if (!statOf(object.get(), st) || st.st_dev == m_procDev)
            return walk(call, which, followLast); // /proc: its links lead to objects, not paths
        if (!S_ISLNK(st.st_mode) || !followLast) {
            Resolved out;
            out.kind = Resolved::Found;
            out.parent = std::move(dir);
            out.object = std::move(object);
            out.mode = st.st_mode;
            out.id = {st.st_dev, st.st_ino};
            out.name = std::move(name);
            return out;
        }
        // A symlink at the end (lib.so.6 -> lib.so.6.1): follow it from here.
        char target[PATH_MAX];
        const ssize_t n = ::readlinkat(object.get(), "", target, sizeof target - 1);
        if (n <= 0 || symlinks >= kMaxSymlinks)
            return walk(call, which, followLast);
        const std::string text(target, static_cast<std::size_t>(n));
        if (text.find('/') == std::string::npos && text != "." && text != "..") {
            name = text;
            continue;
        }
        // A target with directories: in a container only the walk keeps ".." and "/" inside its root.
        if (m_container)
            return walk(call, which, followLast);
        UniqueFd next;
        if (!openParent(text.front() == '/' ? m_root.get() : dir.get(), text, next, name) || !next.valid())
            return walk(call, which, followLast);
        dir = std::move(next);
    }
}

// Opens the directory that holds the last component of `path` (starting at `start`) into `dir` and puts
// the last component in `name`. True with an invalid `dir` when a directory on the way is missing
// (outside a container); false when the walk must decide.
bool Reporter::openParent(int start, const std::string& path, UniqueFd& dir, std::string& name) const
{
    if (path.back() == '/')
        return false;
    const auto slash = path.rfind('/');
    name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name == "." || name == "..")
        return false;
    if (slash == std::string::npos) {
        dir.reset(::fcntl(start, F_DUPFD_CLOEXEC, 0));
        return dir.valid();
    }
    const std::string dirname = slash == 0 ? "/" : path.substr(0, slash);
    open_how how{};
    how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
    // Inside the program's root. At the process level that root is the launcher's own, so relative paths
    // and symlinks need no clamping.
    how.resolve = RESOLVE_NO_MAGICLINKS | (m_container ? RESOLVE_IN_ROOT : 0);
    dir.reset(static_cast<int>(::syscall(SYS_openat2, start, dirname.c_str(), &how, sizeof how)));
    if (dir.valid())
        return true;
    return errno == ENOENT && !m_container;
}

// The path of a resolved object as the program sees it.
std::string Reporter::pathOf(const Resolved& r) const
{
    if (!r.path.empty() || !r.parent.valid())
        return r.path;
    const std::string dir = programPath(r.parent.get());
    return dir.empty() ? std::string() : joinPath(dir, r.name);
}

// The walk behind resolve(), one component at a time, spelling the path out as it goes.
Reporter::Resolved Reporter::walk(const Call& call, int which, bool followLast)
{
    Resolved out;
    const std::string& path = call.path[which];
    const int root = call.root.valid() ? call.root.get() : m_root.get();
    FileId rootId = m_rootId;
    if (call.root.valid()) {
        struct stat st {};
        if (!statOf(root, st))
            return out;
        rootId = {st.st_dev, st.st_ino};
    }
    const bool absolute = path.front() == '/';
    if (call.beneath && absolute)
        return out; // EXDEV
    // openat2's RESOLVE_IN_ROOT and RESOLVE_BENEATH start at the dirfd, which is also the root.
    const bool fromRoot = absolute || call.root.valid();
    const std::string rootPath = call.root.valid() ? programPath(root) : "/";
    std::string current = fromRoot ? rootPath : programPath(call.base[which].get());
    if (current.empty())
        return out;
    UniqueFd dir(::fcntl(fromRoot ? root : call.base[which].get(), F_DUPFD_CLOEXEC, 0));
    if (!dir.valid())
        return out;

    // Components still to walk, last first (a symlink's target is pushed in front).
    std::vector<std::string> pending;
    auto push = [&pending](std::string_view text) {
        std::vector<std::string> parts;
        for (std::size_t pos = 0; pos <= text.size();) {
            const auto slash = std::min(text.find('/', pos), text.size());
            if (slash > pos)
                parts.emplace_back(text.substr(pos, slash - pos));
            pos = slash + 1;
        }
        pending.insert(pending.end(), parts.rbegin(), parts.rend());
    };
    push(path);
    int symlinks = 0;

    auto atRoot = [&](int fd) {
        struct stat st {};
        return statOf(fd, st) && FileId{st.st_dev, st.st_ino} == rootId;
    };
    auto missing = [&](const std::string& name) {
        out.kind = Resolved::Missing;
        out.path = joinPath(current, name);
        for (auto it = pending.rbegin(); it != pending.rend(); ++it)
            out.path = joinPath(out.path, *it);
        return std::move(out);
    };

    while (!pending.empty()) {
        const std::string name = std::move(pending.back());
        pending.pop_back();
        const bool last = pending.empty();
        if (name == ".")
            continue;
        if (name == "..") {
            if (atRoot(dir.get())) {
                if (call.beneath)
                    return out; // EXDEV
                continue;
            }
            UniqueFd up = openPath(dir.get(), "..", O_DIRECTORY);
            if (!up.valid())
                return out;
            dir = std::move(up);
            current = parentOf(current);
            continue;
        }
        if (!last) {
            UniqueFd next = openPath(dir.get(), name.c_str(), O_DIRECTORY | O_NOFOLLOW);
            if (next.valid()) {
                dir = std::move(next);
                current = joinPath(current, name);
                continue;
            }
            if (errno == ENOENT)
                return missing(name);
            if (errno != ENOTDIR && errno != ELOOP)
                return out;
            // Not a directory: a symlink to follow, or the call fails (ENOTDIR) and nothing is refused.
        }
        UniqueFd object = openPath(dir.get(), name.c_str(), O_NOFOLLOW);
        if (!object.valid()) {
            if (errno != ENOENT)
                return out;
            if (!last)
                return missing(name);
            out.kind = Resolved::MissingLast;
            out.parent = std::move(dir);
            out.path = joinPath(current, name);
            return out;
        }
        struct stat st {};
        if (!statOf(object.get(), st))
            return out;
        if (S_ISLNK(st.st_mode) && (!last || followLast)) {
            if (call.noSymlinks || ++symlinks > kMaxSymlinks)
                return out; // ELOOP
            struct statfs fs {};
            if (::fstatfs(dir.get(), &fs) != 0 || fs.f_type == PROC_SUPER_MAGIC)
                return out; // /proc's links lead to objects, not paths (magic links)
            char target[PATH_MAX];
            const ssize_t n = ::readlinkat(object.get(), "", target, sizeof target - 1);
            if (n <= 0)
                return out;
            const std::string_view text(target, static_cast<std::size_t>(n));
            if (text.front() == '/') {
                if (call.beneath)
                    return out; // EXDEV
                dir.reset(::fcntl(root, F_DUPFD_CLOEXEC, 0));
                if (!dir.valid())
                    return out;
                current = rootPath;
            }
            push(text);
            continue;
        }
        if (!last)
            return out; // not a directory: ENOTDIR
        out.kind = Resolved::Found;
        out.parent = std::move(dir);
        out.object = std::move(object);
        out.mode = st.st_mode;
        out.id = {st.st_dev, st.st_ino};
        out.path = joinPath(current, name);
        return out;
    }
    // The path ended on a directory ("/", ".", "..", "dir/"): it is the object.
    struct stat st {};
    if (!statOf(dir.get(), st))
        return out;
    out.kind = Resolved::Found;
    out.parent = openPath(dir.get(), "..", O_DIRECTORY);
    out.mode = st.st_mode;
    out.id = {st.st_dev, st.st_ino};
    out.path = current;
    out.object = std::move(dir);
    return out;
}

// The run's Landlock rules as inodes, resolved in the program's root the way restrictSelf() opened them.
bool Reporter::prepareRules()
{
    if (m_rulesReady)
        return true;
    if (!m_root.valid())
        return false;
    auto add = [&](const std::string& path, std::uint64_t rights) {
        // As restrictSelf() opened it: following symlinks, inside the program's root.
        open_how how{};
        how.flags = O_PATH | O_CLOEXEC;
        how.resolve = RESOLVE_NO_MAGICLINKS | (m_container ? RESOLVE_IN_ROOT : 0);
        const UniqueFd fd(static_cast<int>(::syscall(SYS_openat2, m_root.get(), path.c_str(), &how, sizeof how)));
        struct stat st {};
        if (!fd.valid() || !statOf(fd.get(), st))
            return; // restrictSelf() skips what does not exist
        if (!S_ISDIR(st.st_mode))
            rights &= la::kFileRights;
        m_ruleRights[{st.st_dev, st.st_ino}] |= rights & m_handled;
        if (const std::string text = programPath(fd.get()); S_ISDIR(st.st_mode) && !text.empty())
            m_ruleDirs.emplace_back(text, rights & m_handled);
    };
    for (const auto& p : m_rules.readPaths)
        add(p, landlock::kReadRights);
    for (const auto& p : m_rules.devPaths)
        add(p, landlock::kDeviceRights);
    for (const auto& p : m_rules.writePaths)
        add(p, m_handled);
    m_rootRights = ruleRights(m_rootId);
    m_rulesReady = true;
    return true;
}

std::uint64_t Reporter::ruleRights(const FileId& id) const
{
    const auto it = m_ruleRights.find(id);
    return it == m_ruleRights.end() ? 0 : it->second;
}

// Rights a directory certainly has, from its path: rules on directories whose path is a prefix of its
// own are on its parents. A rule reached through another mount of the same inode is missed, so this is a
// lower bound: enough to say "granted", never enough to say "refused".
std::uint64_t Reporter::rightsByPath(const std::string& dirPath) const
{
    std::uint64_t rights = 0;
    for (const auto& [ruleDir, granted] : m_ruleDirs) {
        if (ruleDir == "/" || under(dirPath, ruleDir))
            rights |= granted;
    }
    return rights;
}

// The rights granted at a directory: by rules on it and on every directory above it, up through the
// mount points to the top of the program's mount tree (Landlock's walk, compared by inode). Stops early
// once the path alone shows that `need` is granted.
std::uint64_t Reporter::directoryRights(int dirFd, std::uint64_t need)
{
    struct stat st {};
    if (!statOf(dirFd, st))
        return m_handled; // unknown: assume granted (a report must be sure)
    const FileId id{st.st_dev, st.st_ino};
    if (const auto it = m_dirRights.find(id); it != m_dirRights.end()) {
        if (it->second.exact || (need & ~it->second.rights) == 0)
            return it->second.rights;
    } else {
        if (m_dirRights.size() > kMaxDirCache)
            m_dirRights.clear();
        const std::string path = programPath(dirFd);
        const std::uint64_t lower = path.empty() ? 0 : rightsByPath(path);
        m_dirRights[id] = {lower, false};
        if ((need & ~lower) == 0)
            return lower;
    }

    std::vector<FileId> chain{id};
    std::uint64_t inherited = 0;
    UniqueFd current(::fcntl(dirFd, F_DUPFD_CLOEXEC, 0));
    for (int depth = 0; current.valid() && depth < 4096; ++depth) {
        UniqueFd up = openPath(current.get(), "..", O_DIRECTORY);
        struct stat upSt {};
        if (!up.valid() || !statOf(up.get(), upSt))
            return m_handled;
        const FileId upId{upSt.st_dev, upSt.st_ino};
        if (upId == chain.back())
            break; // the top
        if (const auto it = m_dirRights.find(upId); it != m_dirRights.end() && it->second.exact) {
            inherited = it->second.rights;
            break;
        }
        chain.push_back(upId);
        current = std::move(up);
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        inherited |= ruleRights(*it);
        m_dirRights[*it] = {inherited, true};
    }
    return inherited;
}

std::uint64_t Reporter::objectRights(const Resolved& r, std::uint64_t need)
{
    if (S_ISDIR(r.mode))
        return directoryRights(r.object.get(), need);
    const std::uint64_t own = ruleRights(r.id);
    return own | (r.parent.valid() ? directoryRights(r.parent.get(), need & ~own) : m_handled);
}

void Reporter::report(std::string detail)
{
    if (m_full || m_events->size() >= 1000 || !m_reported.insert(detail).second)
        return;
    if (++m_count > kMaxEvents) {
        m_full = true;
        detail = fmt::format("more refused paths were not listed (at most {} per run)", kMaxEvents);
    }
    m_events->push_back({"path", std::move(detail)});
}

// `have(need)` works out the rights granted where the call acts (at least those of `need` that are); it
// is only asked when the root does not grant everything already (a container's reads never need it).
template <typename Rights>
void Reporter::checkAccess(const Call& call, const Resolved& r, std::uint64_t need, Rights have)
{
    need &= m_handled;
    if ((need & ~m_rootRights) == 0)
        return;
    const std::uint64_t refused = need & ~have(need);
    if (refused == 0)
        return;
    const std::string path = pathOf(r);
    if (path.empty() || quietProbe(path, need))
        return;
    const bool writes = refused & ~(kReadBits | la::kExecute);
    std::string access = accessWords(need);
    if (call.path[0] != path)
        access += fmt::format(", as \"{}\"", shown(call.path[0]));
    report(fmt::format("{} {} ({}): outside the policy's {} paths", verbOf(call.op), shown(path), access,
                               writes ? "writable" : "readable"));
}

// A path that is not in a container's root but exists on the host was hidden by the mount layout.
void Reporter::checkLayout(const Call& call, const Resolved& r, std::uint64_t need)
{
    if (!m_container)
        return;
    const std::string path = pathOf(r);
    if (path.empty() || quietProbe(path, need))
        return;
    // The container's own /proc (another pid namespace: equal numbers, other processes) and its work dir
    // are not views of the host.
    if (under(path, "/proc") || under(path, container::kWorkDir))
        return;
    const bool creates = call.op == Op::MakeDir || call.op == Op::MakeNode || call.op == Op::Symlink
                         || (call.op == Op::Open && (call.flags & O_CREAT));
    const std::string onHost = creates ? parentOf(path) : path;
    open_how how{};
    how.flags = O_PATH | O_CLOEXEC;
    how.resolve = RESOLVE_NO_MAGICLINKS;
    const UniqueFd host(static_cast<int>(::syscall(SYS_openat2, AT_FDCWD, onHost.c_str(), &how, sizeof how)));
    if (!host.valid())
        return; // exists nowhere: a probe, not a refusal
    std::string access = accessWords(need);
    if (call.path[0] != path)
        access += fmt::format(", as \"{}\"", shown(call.path[0]));
    report(fmt::format("{} {} ({}): not in the sandbox's root", verbOf(call.op), shown(path), access));
}

void Reporter::judgeCall(const Call& call)
{
    switch (call.op) {
    case Op::Open: {
        const auto flags = call.flags;
        const auto mode = flags & O_ACCMODE;
        const bool reads = mode == O_RDONLY || mode == O_RDWR;
        const bool writes = mode == O_WRONLY || mode == O_RDWR;
        if ((flags & O_TMPFILE) == O_TMPFILE) {
            // An unnamed file in the named directory: Landlock checks it as a file there.
            Resolved r = resolve(call, 0, true);
            const std::uint64_t need = (reads ? la::kReadFile : 0) | (writes ? la::kWriteFile : 0);
            if (r.kind == Resolved::Found && S_ISDIR(r.mode))
                checkAccess(call, r, need, [&](std::uint64_t n) { return directoryRights(r.object.get(), n); });
            else if (r.kind == Resolved::Missing || r.kind == Resolved::MissingLast)
                checkLayout(call, r, need);
            return;
        }
        const bool creates = flags & O_CREAT;
        const bool exclusive = creates && (flags & O_EXCL);
        Resolved r = resolve(call, 0, !(flags & O_NOFOLLOW) && !exclusive);
        if (r.kind == Resolved::Found) {
            if (exclusive || S_ISLNK(r.mode))
                return; // EEXIST, ELOOP
            std::uint64_t need = 0;
            if (S_ISDIR(r.mode)) {
                if (writes)
                    return; // EISDIR
                need = reads ? la::kReadDir : 0;
            } else {
                if (flags & O_DIRECTORY)
                    return; // ENOTDIR
                need = (reads ? la::kReadFile : 0) | (writes ? la::kWriteFile : 0)
                       | ((flags & O_TRUNC) && S_ISREG(r.mode) ? la::kTruncate : 0);
            }
            checkAccess(call, r, need, [&](std::uint64_t n) { return objectRights(r, n); });
        } else if (r.kind == Resolved::MissingLast && creates) {
            // Created (MAKE_REG on the directory), then opened as a file of that directory.
            checkAccess(call, r, la::kMakeReg | (writes ? la::kWriteFile : 0) | (reads ? la::kReadFile : 0),
                        [&](std::uint64_t n) { return directoryRights(r.parent.get(), n); });
        } else if (r.kind == Resolved::Missing || r.kind == Resolved::MissingLast) {
            checkLayout(call, r, (reads ? la::kReadFile : 0) | (writes ? la::kWriteFile : 0));
        }
        return;
    }
    case Op::Exec: {
        Resolved r = resolve(call, 0, !(call.flags & AT_SYMLINK_NOFOLLOW));
        if (r.kind == Resolved::Found && S_ISREG(r.mode))
            checkAccess(call, r, la::kExecute | la::kReadFile, [&](std::uint64_t n) { return objectRights(r, n); });
        else if (r.kind == Resolved::Missing || r.kind == Resolved::MissingLast)
            checkLayout(call, r, la::kExecute | la::kReadFile);
        return;
    }
    case Op::MakeDir:
    case Op::MakeNode:
    case Op::Symlink: {
        const std::uint64_t need = call.op == Op::MakeDir ? la::kMakeDir
                                   : call.op == Op::Symlink ? la::kMakeSym
                                                            : makeRight(static_cast<mode_t>(call.mode));
        Resolved r = resolve(call, 0, false);
        if (r.kind == Resolved::MissingLast)
            checkAccess(call, r, need, [&](std::uint64_t n) { return directoryRights(r.parent.get(), n); });
        else if (r.kind == Resolved::Missing)
            checkLayout(call, r, need);
        return;
    }
    case Op::Unlink:
    case Op::RemoveDir: {
        Resolved r = resolve(call, 0, false);
        if (r.kind == Resolved::Found && r.parent.valid()) {
            if (S_ISDIR(r.mode) != (call.op == Op::RemoveDir))
                return; // EISDIR, ENOTDIR
            checkAccess(call, r, removeRight(r.mode), [&](std::uint64_t n) { return directoryRights(r.parent.get(), n); });
        } else if (r.kind == Resolved::Missing || r.kind == Resolved::MissingLast) {
            checkLayout(call, r, call.op == Op::RemoveDir ? la::kRemoveDir : la::kRemoveFile);
        }
        return;
    }
    case Op::Truncate: {
        Resolved r = resolve(call, 0, true);
        if (r.kind == Resolved::Found && S_ISREG(r.mode))
            checkAccess(call, r, la::kTruncate, [&](std::uint64_t n) { return objectRights(r, n); });
        else if (r.kind == Resolved::Missing || r.kind == Resolved::MissingLast)
            checkLayout(call, r, la::kTruncate);
        return;
    }
    case Op::Rename:
    case Op::Link: {
        const bool rename = call.op == Op::Rename;
        const bool exchange = rename && (call.flags & RENAME_EXCHANGE);
        Resolved from = resolve(call, 0, !rename && (call.flags & AT_SYMLINK_FOLLOW));
        Resolved to = resolve(call, 1, false);
        if (from.kind == Resolved::Missing || from.kind == Resolved::MissingLast) {
            checkLayout(call, from, rename ? la::kRemoveFile : la::kMakeReg);
            return;
        }
        if (from.kind != Resolved::Found || !from.parent.valid())
            return;
        if (to.kind == Resolved::Missing) {
            checkLayout(call, to, makeRight(from.mode));
            return;
        }
        if (to.kind == Resolved::Unknown || (to.kind == Resolved::Found && !rename) || (exchange && to.kind != Resolved::Found))
            return; // EEXIST, ENOENT
        if (to.kind == Resolved::Found && (to.id == from.id || !to.parent.valid()))
            return;
        struct stat a {}, b {};
        if (!statOf(from.parent.get(), a) || !statOf(to.parent.get(), b))
            return;
        const bool sameDir = a.st_dev == b.st_dev && a.st_ino == b.st_ino;
        const bool replaces = to.kind == Resolved::Found;
        // As the kernel's current_check_refer_path(): the source directory loses the node, the
        // destination gains it; moving between directories needs REFER on both.
        std::uint64_t needFrom = rename ? removeRight(from.mode) : 0;
        std::uint64_t needTo = makeRight(from.mode) | (replaces && rename ? removeRight(to.mode) : 0);
        if (exchange) {
            needFrom |= makeRight(to.mode);
            needTo |= removeRight(to.mode);
        }
        if (!sameDir) {
            needFrom |= la::kRefer;
            needTo |= la::kRefer;
        }
        const std::uint64_t haveFrom = directoryRights(from.parent.get(), needFrom);
        const std::uint64_t haveTo = directoryRights(to.parent.get(), needTo);
        const std::uint64_t refusedFrom = needFrom & m_handled & ~haveFrom;
        const std::uint64_t refusedTo = needTo & m_handled & ~haveTo;
        if ((refusedFrom | refusedTo) == 0)
            return;
        // The side that is refused is the one reported; the destination when both are.
        const std::string fromPath = pathOf(from);
        const std::string toPath = pathOf(to);
        if (fromPath.empty() || toPath.empty() || quietProbe(refusedTo ? toPath : fromPath, needFrom | needTo))
            return;
        report(fmt::format("{} {} to {} (write): outside the policy's writable paths", verbOf(call.op),
                                   shown(fromPath), shown(toPath)));
        return;
    }
    }
}

} // namespace sb::paths
