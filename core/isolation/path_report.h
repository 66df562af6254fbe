#pragma once

// Reporting the paths Landlock or the mount layout refused, without trusting the program to tell.
//
// The seccomp filter sends the path-taking calls that Landlock governs (open, exec, create, remove,
// rename, link, truncate: reportedSyscalls()) to the launcher as user notifications. With the caller
// stopped, the launcher copies the path arguments and the directories relative paths start from
// (capture), answers CONTINUE, and then predicts from that copy whether the kernel refused the call
// (judge): it resolves the path as the program sees it (its working directory or dirfd, its root, its
// symlinks) and checks the result the way Landlock does (every right the call needs must be granted by a
// rule on the file or on one of its parent directories, compared by device and inode); in a container a
// path that exists on the host but not in the sandbox's root counts as hidden by the layout.
//
// The kernel stays the only enforcer: these calls are always let go on unchanged, so a program that
// races its own arguments (another thread rewriting the path, a symlink swapped in) can at worst spoil
// a report, never gain an access. Paths that exist nowhere are not reported (runtimes probe many).

#include "landlock.h"
#include "isolation/launch_spec.h"
#include "isolation/run.h"
#include "util/unique_fd.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <utility>
#include <vector>

struct seccomp_notif;

namespace sb::paths {

// The syscalls the filter routes to the supervisor for path reports (names as libseccomp knows them).
std::span<const char* const> reportedSyscalls();
bool isReported(std::string_view syscall);

// The Landlock rules of a run: applied by the program's process before exec, modelled by the Reporter.
// In a container the whole (minimal, read-only) root is readable.
landlock::Rules landlockRules(const LaunchSpec& spec);

enum class Op { Open, Exec, MakeDir, MakeNode, Symlink, Unlink, RemoveDir, Rename, Link, Truncate };

// One path call, as copied from the stopped caller.
struct Call {
    Op op = Op::Open;
    pid_t pid = 0;
    std::string path[2];         // as the program wrote them (rename and link have two)
    UniqueFd base[2];            // where a relative path starts: the caller's cwd or dirfd (O_PATH)
    UniqueFd root;               // openat2 with RESOLVE_IN_ROOT/BENEATH: the dirfd (else the run's root)
    std::uint64_t flags = 0;     // open flags, or the call's AT_* / RENAME_* flags
    std::uint64_t mode = 0;      // mknod: the type of node
    bool beneath = false;        // openat2 RESOLVE_BENEATH: leaving the dirfd fails the call
    bool noSymlinks = false;     // openat2 RESOLVE_NO_SYMLINKS: any symlink fails the call
};

class Reporter {
public:
    static constexpr std::size_t kMaxEvents = 100; // distinct path events per run, then one summary line

    explicit Reporter(const LaunchSpec& spec);

    // Looks the rules up ahead of the first call, in the root `pid` sees (a container's pid 1 shares the
    // program's root once it has built it). A pooled run does this while it waits for its job, so that the
    // program's first calls do not wait for it.
    void prepare(pid_t pid);

    // With the caller stopped at the notified call: copies what the judgement needs. Empty for calls it
    // does not report (or that Landlock does not check, like O_PATH opens), when the caller's memory cannot
    // be read or the notification is gone, and once the event limit is reached.
    std::optional<Call> capture(int notifyFd, const seccomp_notif& request);

    // After the call was let go on (the caller runs again meanwhile): appends a `path` event to `events`
    // when Landlock or the layout refused it, each distinct event once.
    void judge(const Call& call, std::vector<BlockedEvent>& events);

private:
    struct FileId {
        dev_t dev = 0;
        ino_t ino = 0;
        auto operator<=>(const FileId&) const = default;
    };
    struct Resolved; // where a path leads, as the program would see it (path_report.cpp)

    Resolved resolve(const Call& call, int which, bool followLast);
    Resolved walk(const Call& call, int which, bool followLast);
    bool openParent(int start, const std::string& path, UniqueFd& dir, std::string& name) const;
    std::string pathOf(const Resolved& r) const;
    bool prepareRules();
    std::uint64_t ruleRights(const FileId& id) const;
    std::uint64_t rightsByPath(const std::string& dirPath) const;
    std::uint64_t directoryRights(int dirFd, std::uint64_t need);
    std::uint64_t objectRights(const Resolved& r, std::uint64_t need);
    std::string programPath(int fd) const;
    void openRoot(pid_t pid);
    void judgeCall(const Call& call);
    void report(std::string detail);

    std::vector<BlockedEvent>* m_events = nullptr; // where judge() puts what it finds
    template <typename Rights>
    void checkAccess(const Call& call, const Resolved& r, std::uint64_t need, Rights have);
    void checkLayout(const Call& call, const Resolved& r, std::uint64_t need);

    bool m_container = false;
    landlock::Rules m_rules;
    std::uint64_t m_handled = 0;
    UniqueFd m_root;
    FileId m_rootId;
    std::string m_rootText;                      // how the launcher names the program's root ("/" if shared)
    dev_t m_procDev = static_cast<dev_t>(-1);    // the program's /proc
    bool m_rulesReady = false;
    std::map<FileId, std::uint64_t> m_ruleRights; // rights granted by a rule on exactly this inode
    std::uint64_t m_rootRights = 0;               // granted everywhere (a container's readable root)
    std::vector<std::pair<std::string, std::uint64_t>> m_ruleDirs; // directory rules by path, for quick grants
    struct Known {
        std::uint64_t rights = 0;
        bool exact = false; // false: a lower bound from the path alone
    };
    std::map<FileId, Known> m_dirRights; // rights granted at a directory (its rules and its parents')
    std::set<std::string> m_reported;
    std::size_t m_count = 0;
    bool m_full = false;
};

} // namespace sb::paths
