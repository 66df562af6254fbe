#include "seccomp_filter.h"

#include "path_report.h"

#include <fmt/format.h>
#include <seccomp.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sb::seccomp {

namespace {

// Refused with a report: escapes (namespaces, mounts, tracing, kernel code and keys), side doors that
// bypass syscall filtering (io_uring) and ways to leave the run's process group.
constexpr std::array kRefusedSyscalls = {
    "ptrace",          "process_vm_readv", "process_vm_writev", "mount",
    "umount2",        "pivot_root",      "chroot",           "move_mount",        "open_tree",
    "fsopen",         "fsmount",         "fsconfig",         "fspick",            "mount_setattr",
    "add_key",        "request_key",     "keyctl",           "init_module",       "finit_module",
    "delete_module",  "kexec_load",      "kexec_file_load",  "bpf",               "perf_event_open",
    "unshare",        "setns",           "userfaultfd",      "io_uring_setup",    "io_uring_enter",
    "io_uring_register", "reboot",       "swapon",           "swapoff",           "sethostname",
    "setdomainname",  "settimeofday",    "clock_settime",    "clock_adjtime",     "adjtimex",
    "acct",           "quotactl",        "open_by_handle_at", "name_to_handle_at", "iopl",
    "ioperm",         "syslog",          "setsid",           "setpgid",           "lookup_dcookie",
    "vhangup",        "pidfd_getfd",     "fanotify_init",    "personality",
    // System V IPC and POSIX message queues: kernel objects that outlive the run and join runs of one uid.
    "msgget",         "msgsnd",          "msgrcv",           "msgctl",            "shmget",
    "shmat",          "shmdt",           "shmctl",           "semget",            "semop",
    "semtimedop",     "semctl",          "mq_open",          "mq_unlink",         "mq_timedsend",
    "mq_timedreceive", "mq_notify",      "mq_getsetattr",
};

// Calls that act on another process by pid (argument index of the target): allowed on the caller itself
// (pid/who 0) only, so that a run cannot lower the limits, priority or CPUs of the user's other processes.
constexpr std::pair<const char*, unsigned> kSelfOnlySyscalls[] = {
    {"prlimit64", 0},         {"sched_setaffinity", 0}, {"sched_setscheduler", 0}, {"sched_setparam", 0},
    {"sched_setattr", 0},     {"setpriority", 1},       {"ioprio_set", 1},         {"migrate_pages", 0},
    {"move_pages", 0},
};

constexpr std::uint64_t kNamespaceFlags[] = {CLONE_NEWUSER, CLONE_NEWNS,  CLONE_NEWPID,   CLONE_NEWNET,
                                             CLONE_NEWIPC,  CLONE_NEWUTS, CLONE_NEWCGROUP};
constexpr std::uint64_t kAllNamespaceFlags =
    CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;

class Ctx {
public:
    explicit Ctx(std::uint32_t defaultAction) : m_ctx(seccomp_init(defaultAction)) {}
    ~Ctx()
    {
        if (m_ctx)
            seccomp_release(m_ctx);
    }
    Ctx(const Ctx&) = delete;
    Ctx& operator=(const Ctx&) = delete;
    scmp_filter_ctx get() const { return m_ctx; }

private:
    scmp_filter_ctx m_ctx;
};

std::string familyName(std::uint64_t family)
{
    switch (family) {
    case AF_UNIX: return "AF_UNIX";
    case AF_INET: return "AF_INET";
    case AF_INET6: return "AF_INET6";
    case AF_NETLINK: return "AF_NETLINK";
    case AF_PACKET: return "AF_PACKET";
    case AF_BLUETOOTH: return "AF_BLUETOOTH";
    case AF_VSOCK: return "AF_VSOCK";
    case AF_ALG: return "AF_ALG";
    default: return fmt::format("family {}", family);
    }
}

std::string socketTypeName(std::uint64_t type)
{
    switch (type & 0xf) {
    case SOCK_STREAM: return "SOCK_STREAM";
    case SOCK_DGRAM: return "SOCK_DGRAM";
    case SOCK_RAW: return "SOCK_RAW";
    case SOCK_SEQPACKET: return "SOCK_SEQPACKET";
    default: return fmt::format("type {}", type & 0xf);
    }
}

std::string ptraceRequestName(std::uint64_t request)
{
    switch (request) {
    case PTRACE_TRACEME: return "PTRACE_TRACEME";
    case PTRACE_PEEKDATA: return "PTRACE_PEEKDATA";
    case PTRACE_POKEDATA: return "PTRACE_POKEDATA";
    case PTRACE_ATTACH: return "PTRACE_ATTACH";
    case PTRACE_SEIZE: return "PTRACE_SEIZE";
    default: return fmt::format("request {}", request);
    }
}

std::string cloneFlagsText(std::uint64_t flags)
{
    static constexpr std::pair<std::uint64_t, const char*> kNames[] = {
        {CLONE_NEWUSER, "CLONE_NEWUSER"}, {CLONE_NEWNS, "CLONE_NEWNS"},   {CLONE_NEWPID, "CLONE_NEWPID"},
        {CLONE_NEWNET, "CLONE_NEWNET"},   {CLONE_NEWIPC, "CLONE_NEWIPC"}, {CLONE_NEWUTS, "CLONE_NEWUTS"},
        {CLONE_NEWCGROUP, "CLONE_NEWCGROUP"}};
    std::string out;
    for (const auto& [bit, name] : kNames) {
        if (flags & bit) {
            if (!out.empty())
                out += '|';
            out += name;
        }
    }
    return out.empty() ? fmt::format("{:#x}", flags) : out;
}

// A NUL-terminated string from the calling process, for the report only.
std::string readString(pid_t pid, std::uint64_t address)
{
    if (address == 0)
        return "NULL";
    const int fd = ::open(fmt::format("/proc/{}/mem", pid).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fmt::format("{:#x}", address);
    std::array<char, 256> buf{};
    const ssize_t n = ::pread(fd, buf.data(), buf.size() - 1, static_cast<off_t>(address));
    ::close(fd);
    if (n <= 0)
        return fmt::format("{:#x}", address);
    std::string s(buf.data(), std::strlen(buf.data()));
    for (char& c : s) {
        if (static_cast<unsigned char>(c) < 0x20 || c == '"')
            c = '?';
    }
    return fmt::format("\"{}\"", s);
}

} // namespace

namespace {

// The supervisor answers notifications while the caller waits; a signal must not cut that wait short (the
// call would fail with EINTR or be restarted, and some programs, like dash forking, give up). With this
// flag the wait becomes killable-only once the supervisor has received the notification (Linux 5.19).
constexpr unsigned kListenerFlags = SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;

const char* const kWaitKillableMissing =
    "the kernel does not offer SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (Linux 5.19 or later is needed, so that "
    "a signal cannot interrupt a call the supervisor is inspecting)";

} // namespace

bool notifyAvailable(std::string* whyNot)
{
    const unsigned api = seccomp_api_get();
    if (api < 5) {
        if (whyNot)
            *whyNot = fmt::format("libseccomp API level {} (user notification needs 5)", api);
        return false;
    }
    // Known flags with no program get EFAULT; unknown flags EINVAL. Nothing is installed either way.
    if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, kListenerFlags, nullptr) == 0 || errno != EFAULT) {
        if (whyNot)
            *whyNot = kWaitKillableMissing;
        return false;
    }
    return true;
}

namespace {

constexpr std::array kBootstrapSyscalls = {"sendmsg", "close", "write", "prlimit64", "setrlimit", "execve",
                                           "exit", "exit_group", "rt_sigreturn"};

bool isBuiltinRefused(std::string_view name)
{
    return std::find(kRefusedSyscalls.begin(), kRefusedSyscalls.end(), name) != kRefusedSyscalls.end();
}

bool namedBy(const SyscallRule& rule, std::string_view name)
{
    return std::find(rule.names.begin(), rule.names.end(), name) != rule.names.end();
}

scmp_compare toScmp(ArgOp op)
{
    switch (op) {
    case ArgOp::Eq: return SCMP_CMP_EQ;
    case ArgOp::Ne: return SCMP_CMP_NE;
    case ArgOp::Lt: return SCMP_CMP_LT;
    case ArgOp::Le: return SCMP_CMP_LE;
    case ArgOp::Gt: return SCMP_CMP_GT;
    case ArgOp::Ge: return SCMP_CMP_GE;
    case ArgOp::MaskedEq: return SCMP_CMP_MASKED_EQ;
    }
    return SCMP_CMP_EQ;
}

bool argsMatch(const std::vector<ArgCondition>& conditions, const __u64* args)
{
    for (const auto& c : conditions) {
        if (c.index > 5)
            return false;
        const std::uint64_t a = args[c.index];
        bool ok = false;
        switch (c.op) {
        case ArgOp::Eq: ok = a == c.value; break;
        case ArgOp::Ne: ok = a != c.value; break;
        case ArgOp::Lt: ok = a < c.value; break;
        case ArgOp::Le: ok = a <= c.value; break;
        case ArgOp::Gt: ok = a > c.value; break;
        case ArgOp::Ge: ok = a >= c.value; break;
        case ArgOp::MaskedEq: ok = (a & c.mask) == c.value; break;
        }
        if (!ok)
            return false;
    }
    return true;
}

std::string syscallName(const seccomp_notif& req)
{
    char* raw = seccomp_syscall_resolve_num_arch(req.data.arch, req.data.nr);
    std::string name = raw ? raw : "";
    std::free(raw);
    return name;
}

} // namespace

void preferSyncWakeups(int notifyFd)
{
    constexpr unsigned long kSetFlags = SECCOMP_IOW(4, __u64); // SECCOMP_IOCTL_NOTIF_SET_FLAGS (Linux 6.6)
    constexpr __u64 kSyncWakeUp = 1;                          // SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
    ::ioctl(notifyFd, kSetFlags, kSyncWakeUp);                // a speed-up only: failure changes nothing
}

bool isBootstrapSyscall(std::string_view name)
{
    return std::find(kBootstrapSyscalls.begin(), kBootstrapSyscalls.end(), name) != kBootstrapSyscalls.end();
}

bool fitsAPooledWait(const SyscallPolicy& policy)
{
    static constexpr std::string_view kWaitCalls[] = {"read", "write", "close", "brk", "mmap", "munmap", "mremap",
                                                      "madvise", "futex", "exit", "exit_group", "rt_sigreturn"};
    for (const std::string_view call : kWaitCalls) {
        bool allowed = policy.defaultAction == SyscallAction::Allow || isBootstrapSyscall(call);
        for (const auto& rule : policy.rules) {
            if (std::find(rule.names.begin(), rule.names.end(), call) == rule.names.end())
                continue;
            if (rule.action != SyscallAction::Allow && rule.action != SyscallAction::Log)
                return false;
            allowed = allowed || rule.args.empty();
        }
        if (!allowed)
            return false;
    }
    return true;
}

namespace {

// Builds the filter's rules into ctx; loadFilter() loads them, compileFilter() exports them.
Result<void> buildFilter(Ctx& ctx, const SyscallPolicy& policy, bool allowInetSockets);

} // namespace

Result<int> loadFilter(const SyscallPolicy& policy, bool allowInetSockets)
{
    auto program = compileFilter(policy, allowInetSockets);
    if (!program)
        return std::unexpected(program.error());
    return loadCompiled(*program);
}

Result<std::string> compileFilter(const SyscallPolicy& policy, bool allowInetSockets)
{
    std::string why;
    if (!notifyAvailable(&why))
        return fail("seccomp user notification unavailable: " + why);
    Ctx ctx(policy.defaultAction == SyscallAction::Allow ? SCMP_ACT_ALLOW : SCMP_ACT_NOTIFY);
    if (!ctx.get())
        return fail("seccomp_init failed");
    // A binary search over syscall numbers instead of a linear chain of comparisons: every syscall of the
    // program is checked in a few instructions instead of up to a hundred, and loading the filter is
    // cheaper too (the kernel runs it for every syscall number to find the ones always allowed).
    if (int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_OPTIMIZE, 2); rc != 0)
        return fail(fmt::format("seccomp_attr_set(SCMP_FLTATR_CTL_OPTIMIZE): {}", std::strerror(-rc)));
    if (auto built = buildFilter(ctx, policy, allowInetSockets); !built)
        return std::unexpected(built.error());
    const int fd = ::memfd_create("sandbench-seccomp", MFD_CLOEXEC);
    if (fd < 0)
        return fail(fmt::format("memfd_create: {}", std::strerror(errno)));
    std::string program;
    if (int rc = seccomp_export_bpf(ctx.get(), fd); rc != 0) {
        ::close(fd);
        return fail(fmt::format("seccomp_export_bpf: {}", std::strerror(-rc)));
    }
    const off_t size = ::lseek(fd, 0, SEEK_END);
    program.resize(size > 0 ? static_cast<std::size_t>(size) : 0);
    const ssize_t n = ::pread(fd, program.data(), program.size(), 0);
    ::close(fd);
    if (size <= 0 || n != size || program.size() % sizeof(sock_filter) != 0)
        return fail("seccomp_export_bpf: no program");
    return program;
}

Result<int> loadCompiled(std::string_view program)
{
    if (program.empty() || program.size() % sizeof(sock_filter) != 0
        || program.size() / sizeof(sock_filter) > BPF_MAXINSNS)
        return fail("seccomp: not a BPF program");
    sock_fprog prog{};
    prog.len = static_cast<unsigned short>(program.size() / sizeof(sock_filter));
    // The kernel copies the program; it only reads through this pointer.
    prog.filter = reinterpret_cast<sock_filter*>(const_cast<char*>(program.data()));
    // What seccomp_load does for a filter with notify rules, plus WAIT_KILLABLE_RECV (libseccomp 2.5 cannot
    // ask for it): no TSYNC, no SPEC_ALLOW, no LOG.
    const long fd = ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, kListenerFlags, &prog);
    if (fd < 0)
        return fail(errno == EINVAL ? std::string(kWaitKillableMissing)
                                    : fmt::format("seccomp(SECCOMP_SET_MODE_FILTER): {}", std::strerror(errno)));
    return static_cast<int>(fd);
}

namespace {

bool isMappingCall(std::string_view name)
{
    return name == "mmap" || name == "mremap";
}

// Large anonymous mappings go to the supervisor (kSupervisedMappingBytes); every other mapping call is
// allowed as before. Under a default that allows, the large ones are singled out; under a default that
// sends everything to the supervisor (strict), the others are let through.
Result<void> addMappingRules(Ctx& ctx, bool defaultAllows, const std::vector<std::string>& supervised)
{
    const auto isSupervised = [&](const char* name) {
        return std::find(supervised.begin(), supervised.end(), name) != supervised.end();
    };
    struct Rule {
        std::uint32_t action;
        int nr;
        std::vector<scmp_arg_cmp> conditions;
    };
    std::vector<Rule> rules;
    if (defaultAllows) {
        rules.push_back({SCMP_ACT_NOTIFY, SCMP_SYS(mmap),
                         {SCMP_A1(SCMP_CMP_GE, kSupervisedMappingBytes),
                          SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_ANONYMOUS, MAP_ANONYMOUS)}});
        rules.push_back({SCMP_ACT_NOTIFY, SCMP_SYS(mremap), {SCMP_A2(SCMP_CMP_GE, kSupervisedMappingBytes)}});
    } else {
        rules.push_back({SCMP_ACT_ALLOW, SCMP_SYS(mmap), {SCMP_A1(SCMP_CMP_LT, kSupervisedMappingBytes)}});
        rules.push_back({SCMP_ACT_ALLOW, SCMP_SYS(mmap), {SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_ANONYMOUS, 0)}});
        rules.push_back({SCMP_ACT_ALLOW, SCMP_SYS(mremap), {SCMP_A2(SCMP_CMP_LT, kSupervisedMappingBytes)}});
    }
    for (const auto& rule : rules) {
        if (isSupervised(rule.nr == SCMP_SYS(mmap) ? "mmap" : "mremap"))
            continue; // every call of it goes to the supervisor already
        if (int rc = seccomp_rule_add_array(ctx.get(), rule.action, rule.nr,
                                            static_cast<unsigned>(rule.conditions.size()), rule.conditions.data());
            rc != 0)
            return fail(fmt::format("seccomp rule for the memory mappings: {}", std::strerror(-rc)));
    }
    return {};
}

Result<void> buildFilter(Ctx& ctx, const SyscallPolicy& policy, bool allowInetSockets)
{
    const bool defaultAllows = policy.defaultAction == SyscallAction::Allow;
    // Refusing and killing defaults go through the supervisor, which reports and decides (the caller
    // made ctx with SCMP_ACT_NOTIFY as its default then).
    // Only the native ABI: 32-bit and x32 entry points would sidestep the rules (libseccomp kills those).

    // Syscalls the supervisor decides: the built-in refusals and whatever a policy rule refuses or kills.
    std::vector<std::string> supervised(kRefusedSyscalls.begin(), kRefusedSyscalls.end());
    bool policyNamesSocket = false;
    bool policyNamesClone = false;
    for (const auto& rule : policy.rules) {
        for (const auto& name : rule.names) {
            const bool refuses = rule.action == SyscallAction::Errno || rule.action == SyscallAction::Kill;
            // Allowing socket or clone changes nothing (the built-in conditions stay in the filter); only a
            // refusing rule sends every call of them to the supervisor. Supervising every fork would also
            // make it interruptible by signals, which some shells do not retry.
            policyNamesSocket = policyNamesSocket || (refuses && name == "socket");
            policyNamesClone = policyNamesClone || (refuses && name == "clone");
            if (refuses && isBootstrapSyscall(name))
                return fail(fmt::format("the policy refuses {}, which Sandbench needs to start the program", name));
            if ((refuses || isBuiltinRefused(name))
                && std::find(supervised.begin(), supervised.end(), name) == supervised.end())
                supervised.push_back(name);
        }
    }
    // Path-taking calls go through the supervisor too, which lets them go on and reports what Landlock or
    // the mount layout refused (path_report.h).
    for (const char* name : paths::reportedSyscalls()) {
        if (std::find(supervised.begin(), supervised.end(), name) == supervised.end())
            supervised.emplace_back(name);
    }
    for (const auto& name : supervised) {
        if (!defaultAllows)
            break; // the default already sends everything unlisted to the supervisor
        const int nr = seccomp_syscall_resolve_name(name.c_str());
        if (nr == __NR_SCMP_ERROR || nr < 0)
            continue; // not on this architecture
        if (int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_NOTIFY, nr, 0); rc != 0)
            return fail(fmt::format("seccomp rule for {}: {}", name, std::strerror(-rc)));
    }
    // Network sockets are refused with a report. Local UNIX sockets are refused quietly: ordinary programs
    // probe them through libc (nscd lookups), and reporting those would drown the real refusals; the
    // effect is the same either way: no connection to the desktop session bus or any other local service.
    if (!policyNamesSocket && allowInetSockets) {
        // TCP/IP sockets through; local UNIX sockets refused quietly; every other family refused and
        // reported (one comparison per rule: libseccomp does not compare one argument twice).
        std::vector<std::pair<std::uint32_t, scmp_arg_cmp>> rules = {
            {SCMP_ACT_ALLOW, SCMP_A0(SCMP_CMP_EQ, AF_INET)},
            {SCMP_ACT_ALLOW, SCMP_A0(SCMP_CMP_EQ, AF_INET6)},
            {SCMP_ACT_ERRNO(EACCES), SCMP_A0(SCMP_CMP_EQ, AF_UNIX)},
        };
        if (defaultAllows) {
            rules.push_back({SCMP_ACT_NOTIFY, SCMP_A0(SCMP_CMP_GT, AF_INET6)});
            for (scmp_datum_t family = 0; family < AF_INET6; ++family) {
                if (family != AF_UNIX && family != AF_INET)
                    rules.push_back({SCMP_ACT_NOTIFY, SCMP_A0(SCMP_CMP_EQ, family)});
            }
        }
        for (const auto& [action, condition] : rules) {
            if (action == (defaultAllows ? SCMP_ACT_ALLOW : SCMP_ACT_NOTIFY))
                continue; // equal to the default: libseccomp refuses such a rule, and it is not needed
            if (int rc = seccomp_rule_add_array(ctx.get(), action, SCMP_SYS(socket), 1, &condition); rc != 0)
                return fail(fmt::format("seccomp rule for socket: {}", std::strerror(-rc)));
        }
    }
    if (!policyNamesSocket && !allowInetSockets) {
        if (int rc = defaultAllows ? seccomp_rule_add(ctx.get(), SCMP_ACT_NOTIFY, SCMP_SYS(socket), 1,
                                                      SCMP_A0(SCMP_CMP_NE, AF_UNIX))
                                   : 0;
            rc != 0)
            return fail(fmt::format("seccomp rule for socket: {}", std::strerror(-rc)));
        if (int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                                      SCMP_A0(SCMP_CMP_EQ, AF_UNIX));
            rc != 0)
            return fail(fmt::format("seccomp rule for socket: {}", std::strerror(-rc)));
    }
    if (!policyNamesClone) {
        for (const auto flag : kNamespaceFlags) {
            if (!defaultAllows)
                break;
            if (int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_NOTIFY, SCMP_SYS(clone), 1,
                                          SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
                rc != 0)
                return fail(fmt::format("seccomp rule for clone: {}", std::strerror(-rc)));
        }
        if (!defaultAllows) {
            if (int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                                          SCMP_A0(SCMP_CMP_MASKED_EQ, kAllNamespaceFlags, 0));
                rc != 0)
                return fail(fmt::format("seccomp rule for clone: {}", std::strerror(-rc)));
        }
    }
    for (const auto& [name, index] : kSelfOnlySyscalls) {
        const int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR || nr < 0)
            continue;
        const scmp_arg_cmp notSelf = SCMP_CMP64(index, SCMP_CMP_NE, 0);
        if (int rc = seccomp_rule_add_array(ctx.get(), SCMP_ACT_NOTIFY, nr, 1, &notSelf); rc != 0 && rc != -EACCES)
            return fail(fmt::format("seccomp rule for {}: {}", name, std::strerror(-rc)));
    }
    if (auto memory = addMappingRules(ctx, defaultAllows, supervised); !memory)
        return memory;
    // clone3 passes its flags in memory where a filter cannot look: make libc fall back to clone.
    if (int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0); rc != 0)
        return fail(fmt::format("seccomp rule for clone3: {}", std::strerror(-rc)));

    // The policy's allow and log rules on syscalls nobody supervises go straight into the filter.
    for (const auto& rule : policy.rules) {
        if (rule.action != SyscallAction::Allow && rule.action != SyscallAction::Log)
            continue;
        const std::uint32_t action = rule.action == SyscallAction::Log ? SCMP_ACT_LOG : SCMP_ACT_ALLOW;
        if (defaultAllows && action == SCMP_ACT_ALLOW)
            continue; // the default already allows it (libseccomp refuses a rule equal to the default)
        std::vector<scmp_arg_cmp> conditions;
        for (const auto& c : rule.args) {
            conditions.push_back(c.op == ArgOp::MaskedEq ? SCMP_CMP64(c.index, SCMP_CMP_MASKED_EQ, c.mask, c.value)
                                                         : SCMP_CMP64(c.index, toScmp(c.op), c.value));
        }
        for (const auto& name : rule.names) {
            if (std::find(supervised.begin(), supervised.end(), name) != supervised.end() || name == "clone3"
                || name == "socket" || name == "clone")
                continue; // decided by the built-in rules above
            if (isMappingCall(name) && conditions.empty() && action == SCMP_ACT_ALLOW)
                continue; // allowed by addMappingRules but for the large anonymous ones
            const int nr = seccomp_syscall_resolve_name(name.c_str());
            if (nr == __NR_SCMP_ERROR || nr < 0)
                continue;
            if (int rc = seccomp_rule_add_array(ctx.get(), action, nr, static_cast<unsigned>(conditions.size()),
                                                conditions.data());
                rc != 0 && rc != -EEXIST)
                return fail(fmt::format("seccomp rule for {}: {}", name, std::strerror(-rc)));
        }
    }
    if (!defaultAllows) {
        for (const char* name : kBootstrapSyscalls) {
            if (paths::isReported(name))
                continue; // execve: supervised for its path; decide() lets it through
            const int nr = seccomp_syscall_resolve_name(name);
            const scmp_arg_cmp self = SCMP_CMP64(0, SCMP_CMP_EQ, 0);
            const bool targetsPid = std::string_view(name) == "prlimit64";
            if (int rc = seccomp_rule_add_array(ctx.get(), SCMP_ACT_ALLOW, nr, targetsPid ? 1 : 0, targetsPid ? &self : nullptr);
                rc != 0 && rc != -EEXIST)
                return fail(fmt::format("seccomp rule for {}: {}", name, std::strerror(-rc)));
        }
    }
    return {};
}

} // namespace

namespace {

Decision decideByPolicy(const SyscallPolicy& policy, const seccomp_notif& req, const std::string& name,
                        bool allowInetSockets)
{
    const __u64* args = req.data.args;
    // Built-in refusals first: a policy cannot lift them.
    if (name == "socket") {
        const bool inet = args[0] == AF_INET || args[0] == AF_INET6;
        if (args[0] != AF_UNIX && !(inet && allowInetSockets))
            return {false, EACCES, true, false};
    } else if (name == "clone") {
        if (args[0] & kAllNamespaceFlags)
            return {false, EPERM, true, false};
    } else if (const auto* self = std::find_if(std::begin(kSelfOnlySyscalls), std::end(kSelfOnlySyscalls),
                                               [&](const auto& entry) { return name == entry.first; });
               self != std::end(kSelfOnlySyscalls) && args[self->second] != 0) {
        return {false, EPERM, true, false};
    } else if (isBuiltinRefused(name)) {
        // A kill rule still ends the run; anything else is the built-in refusal.
        for (const auto& rule : policy.rules) {
            if (namedBy(rule, name) && argsMatch(rule.args, args) && rule.action == SyscallAction::Kill)
                return {false, EPERM, true, true};
        }
        return {false, EPERM, true, false};
    }
    for (const auto& rule : policy.rules) {
        if (!namedBy(rule, name) || !argsMatch(rule.args, args))
            continue;
        switch (rule.action) {
        case SyscallAction::Allow:
        case SyscallAction::Log: return {true, 0, false, false};
        case SyscallAction::Errno: return {false, rule.errnoValue, true, false};
        case SyscallAction::Kill: return {false, EPERM, true, true};
        }
    }
    if (name == "socket")
        return {false, EACCES, false, false}; // a local socket: refused quietly, as without a policy
    if (isBootstrapSyscall(name))
        return {true, 0, false, false}; // execve, supervised for its path: the program must start
    switch (policy.defaultAction) {
    case SyscallAction::Allow:
    case SyscallAction::Log: return {true, 0, false, false};
    case SyscallAction::Errno: return {false, policy.defaultErrno, true, false};
    case SyscallAction::Kill: return {false, EPERM, true, true};
    }
    return {false, EPERM, true, false};
}

} // namespace

Decision decide(const SyscallPolicy& policy, const seccomp_notif& req, bool allowInetSockets)
{
    const std::string name = syscallName(req);
    Decision decision = decideByPolicy(policy, req, name, allowInetSockets);
    const __u64* args = req.data.args;
    if (decision.allow && name == "mmap" && (args[3] & MAP_ANONYMOUS) && args[1] >= kSupervisedMappingBytes)
        decision.addressSpaceGrowth = args[1];
    else if (decision.allow && name == "mremap" && args[2] > args[1] && args[2] >= kSupervisedMappingBytes)
        decision.addressSpaceGrowth = args[2] - args[1];
    return decision;
}

BlockedEvent describe(const seccomp_notif& req)
{
    const auto& a = req.data.args;
    char* rawName = seccomp_syscall_resolve_num_arch(req.data.arch, req.data.nr);
    const std::string name = rawName ? rawName : fmt::format("syscall {}", req.data.nr);
    std::free(rawName);
    const auto pid = static_cast<pid_t>(req.pid);

    if (name == "socket") {
        const bool net = a[0] == AF_INET || a[0] == AF_INET6 || a[0] == AF_PACKET || a[0] == AF_NETLINK;
        return {net ? "network" : "syscall", fmt::format("socket({}, {})", familyName(a[0]), socketTypeName(a[1]))};
    }
    if (name == "ptrace")
        return {"syscall", fmt::format("ptrace({}, {})", ptraceRequestName(a[0]), static_cast<std::int64_t>(a[1]))};
    if (name == "mount")
        return {"syscall", fmt::format("mount({}, {}, {})", readString(pid, a[0]), readString(pid, a[1]),
                                       readString(pid, a[2]))};
    if (name == "umount2" || name == "chroot")
        return {"syscall", fmt::format("{}({})", name, readString(pid, a[0]))};
    if (name == "pivot_root")
        return {"syscall", fmt::format("pivot_root({}, {})", readString(pid, a[0]), readString(pid, a[1]))};
    if (name == "clone" || name == "unshare")
        return {"syscall", fmt::format("{}({})", name, cloneFlagsText(a[0]))};
    if (name == "setns")
        return {"syscall", fmt::format("setns({}, {})", static_cast<std::int64_t>(a[0]), cloneFlagsText(a[1]))};
    if (name == "init_module" || name == "finit_module" || name == "delete_module" || name == "kexec_load"
        || name == "kexec_file_load")
        return {"syscall", name + "(...)"};
    if (name == "setsid" || name == "vhangup" || name == "userfaultfd" || name == "io_uring_setup")
        return {"syscall", name + "()"};
    if (name == "setpgid")
        return {"syscall", fmt::format("setpgid({}, {})", static_cast<std::int64_t>(a[0]), static_cast<std::int64_t>(a[1]))};
    if (name == "keyctl" || name == "add_key" || name == "request_key" || name == "bpf")
        return {"syscall", fmt::format("{}({}, ...)", name, static_cast<std::int64_t>(a[0]))};
    return {"syscall", fmt::format("{}({:#x}, {:#x}, ...)", name, a[0], a[1])};
}

} // namespace sb::seccomp
