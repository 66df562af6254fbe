#include "strict.h"

namespace sb {

namespace {

const std::vector<std::string>& strictAllowlist()
{
    static const std::vector<std::string> names = {
        // memory
        "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "msync", "mincore", "membarrier",
        // files, in the places Landlock and the mount layout allow
        "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2", "pwritev2",
        "open", "openat", "openat2", "close", "close_range", "creat", "stat", "lstat", "fstat", "newfstatat",
        "statx", "statfs", "fstatfs", "access", "faccessat", "faccessat2", "readlink", "readlinkat", "getdents",
        "getdents64", "lseek", "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat",
        "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir", "chmod", "fchmod", "fchmodat", "truncate",
        "ftruncate", "fsync", "fdatasync", "flock", "fcntl", "dup", "dup2", "dup3", "pipe", "pipe2", "umask",
        "chdir", "fchdir", "getcwd", "utime", "utimes", "utimensat", "futimesat", "fallocate", "fadvise64",
        "copy_file_range", "sendfile", "splice", "tee", "getxattr", "lgetxattr", "fgetxattr", "listxattr",
        "llistxattr", "flistxattr", "ioctl", "poll", "ppoll", "select", "pselect6", "epoll_create",
        "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2", "eventfd", "eventfd2",
        "timerfd_create", "timerfd_settime", "timerfd_gettime", "signalfd", "signalfd4", "inotify_init",
        "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
        // processes and threads (namespace flags on clone stay refused; clone3 falls back to clone)
        "clone", "fork", "vfork", "execve", "wait4", "waitid", "exit", "exit_group", "getpid", "getppid",
        "gettid", "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid", "getgroups", "getpgrp",
        "getpgid", "getsid", "getrusage", "getrlimit", "prlimit64", "setrlimit", "getpriority", "kill", "tkill",
        "tgkill", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigsuspend",
        "rt_sigtimedwait", "rt_sigqueueinfo", "sigaltstack", "pause", "nanosleep", "clock_nanosleep",
        "clock_gettime", "clock_getres", "gettimeofday", "time", "times", "alarm", "getitimer", "setitimer",
        "sched_yield", "sched_getaffinity", "sched_setaffinity", "sched_getparam", "sched_getscheduler",
        "sched_get_priority_max", "sched_get_priority_min", "futex", "futex_waitv", "set_robust_list",
        "get_robust_list", "set_tid_address", "rseq", "arch_prctl", "prctl", "capget", "getrandom", "uname",
        "sysinfo", "getcpu", "get_mempolicy", "set_mempolicy",
        // sockets exist only as socketpair(); socket() itself stays refused
        "socketpair", "sendmsg", "recvmsg", "sendto", "recvfrom", "shutdown", "getsockopt", "setsockopt",
        "getsockname", "getpeername", "socket", "connect",
    };
    return names;
}

} // namespace

SyscallPolicy strictSyscalls(const SyscallPolicy& policy)
{
    if (policy.defaultAction != SyscallAction::Allow)
        return policy; // the policy's own default-deny list is at least as tight
    SyscallPolicy strict = policy;
    strict.defaultAction = SyscallAction::Errno;
    strict.defaultErrno = 1; // EPERM
    SyscallRule allow;
    allow.names = strictAllowlist();
    allow.action = SyscallAction::Allow;
    strict.rules.push_back(std::move(allow));
    return strict;
}

} // namespace sb
