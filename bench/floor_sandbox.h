#pragma once

// The kernel's floor for a container start: the least a sandbox with the container level's namespaces and
// root can do, as one straight sequence of system calls and nothing else. No Landlock, no seccomp, no
// change of identity, no report, no checks beyond "did the call work": only what every sandbox of this
// kind (bubblewrap's --unshare-all, nsjail, Sandbench) has to ask of the kernel for one run.
//
//   the caller       clone(user, pid, mount, ipc, uts, cgroup namespaces), writes the uid/gid maps, drains
//                    the program's output, waits
//   pid 1            forks a helper that makes the network namespace meanwhile (as Sandbench's pid 1 does);
//                    a tmpfs root with /usr read-only, the /lib, /lib64, /bin links, four /dev nodes, a fresh
//                    /proc, a tmpfs /tmp and the work dir at /work; pivot_root, the old root detached, the
//                    root read-only; joins the network namespace; forks and execs the program; reaps it
//
// The order is the fastest found for this machine (bench/README.md). Used by bench_container to show how far
// any implementation could go here, side by side with bubblewrap and Sandbench.

#include "bench_common.h"

#include "fd_passing.h" // sendmsg/recvmsg of one descriptor, nothing more

#include <fcntl.h>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bench::floor {

namespace detail {

// In pid 1: fails the run with the step's number as its exit status, which the caller turns into a message.
inline void check(bool ok, int step)
{
    if (!ok)
        ::_exit(100 + step);
}

inline bool writeText(const std::string& path, const std::string& text)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

inline bool bindReadOnly(const char* source, const char* target)
{
    return ::mount(source, target, nullptr, MS_BIND | MS_REC, nullptr) == 0
           && ::mount(nullptr, target, nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr)
                  == 0;
}

[[noreturn]] inline void pid1(int sync, const char* workDir, const char* program, int out, int err)
{
    // The network namespace, made meanwhile by a helper (in our user namespace, where we have every capability).
    int channel[2];
    check(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, channel) == 0, 1);
    const pid_t helper = ::fork();
    check(helper >= 0, 1);
    if (helper == 0) {
        if (::unshare(CLONE_NEWNET) != 0)
            ::_exit(1);
        const int ns = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
        ::_exit(ns >= 0 && sb::sendFd(channel[1], ns) ? 0 : 1);
    }
    ::close(channel[1]); // a helper that failed is EOF
    char go = 0;
    check(::read(sync, &go, 1) == 1, 2); // the caller has written our maps
    check(::sethostname("sandbench", 9) == 0, 3);
    check(::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0, 4);
    const int work = ::open(workDir, O_PATH | O_DIRECTORY | O_CLOEXEC); // a mount of our namespace, for the bind
    check(work >= 0, 4);
    check(::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4m") == 0, 5);
    check(::mkdir("/tmp/usr", 0755) == 0 && bindReadOnly("/usr", "/tmp/usr"), 6);
    check(::symlink("usr/bin", "/tmp/bin") == 0 && ::symlink("usr/lib", "/tmp/lib") == 0
              && ::symlink("usr/lib64", "/tmp/lib64") == 0,
          7);
    check(::mkdir("/tmp/dev", 0755) == 0, 8);
    for (const char* node : {"null", "zero", "random", "urandom"}) {
        const std::string target = std::string("/tmp/dev/") + node;
        const int fd = ::open(target.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        check(fd >= 0 && ::close(fd) == 0, 9);
        check(::mount((std::string("/dev/") + node).c_str(), target.c_str(), nullptr, MS_BIND, nullptr) == 0, 10);
    }
    check(::mkdir("/tmp/proc", 0755) == 0
              && ::mount("proc", "/tmp/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0,
          11);
    check(::mkdir("/tmp/tmp", 01777) == 0
              && ::mount("tmpfs", "/tmp/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64m") == 0,
          12);
    const std::string workPath = "/proc/self/fd/" + std::to_string(work);
    check(::mkdir("/tmp/work", 0755) == 0 && ::mount(workPath.c_str(), "/tmp/work", nullptr, MS_BIND, nullptr) == 0,
          13);
    check(::chdir("/tmp") == 0 && ::syscall(SYS_pivot_root, ".", ".") == 0 && ::umount2(".", MNT_DETACH) == 0
              && ::chdir("/") == 0,
          14);
    check(::mount(nullptr, "/", nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) == 0, 15);
    const int net = sb::receiveFd(channel[0]);
    check(net >= 0 && ::setns(net, CLONE_NEWNET) == 0, 16);
    int status = 0;
    check(::waitpid(helper, &status, 0) == helper && WIFEXITED(status) && WEXITSTATUS(status) == 0, 17);

    const pid_t child = ::fork();
    check(child >= 0, 18);
    if (child == 0) {
        if (::dup2(out, 1) < 0 || ::dup2(err, 2) < 0 || ::chdir("/work") != 0)
            ::_exit(127);
        char* argv[] = {const_cast<char*>(program), nullptr};
        char* envp[] = {nullptr};
        ::execve(program, argv, envp);
        ::_exit(127);
    }
    check(::waitpid(child, &status, 0) == child, 19);
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 99);
}

} // namespace detail

// One run of `program` (no arguments) through the floor's sequence, timed like spawnAndWait(): from before
// the clone to the reaped pid 1, the output drained. workDir must exist; it becomes /work. The clone is a
// raw system call (glibc's fork handlers do not run): call this from a process with one thread.
inline Spawned run(const char* program, const std::string& workDir)
{
    Spawned r;
    int sync[2], out[2], err[2];
    if (::pipe2(sync, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
        r.error = std::string("pipes: ") + std::strerror(errno);
        return r;
    }
    const auto start = Clock::now();
    const long pid = ::syscall(SYS_clone,
                               SIGCHLD | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS
                                   | CLONE_NEWCGROUP,
                               nullptr, nullptr, nullptr, nullptr);
    if (pid == 0)
        detail::pid1(sync[0], workDir.c_str(), program, out[1], err[1]);
    const int cloneErrno = errno;
    for (int fd : {sync[0], out[1], err[1]})
        ::close(fd);
    bool mapped = false;
    if (pid > 0) {
        const std::string proc = "/proc/" + std::to_string(pid) + "/";
        const std::string uid = std::to_string(::getuid()), gid = std::to_string(::getgid());
        mapped = detail::writeText(proc + "uid_map", uid + " " + uid + " 1\n")
                 && detail::writeText(proc + "setgroups", "deny\n")
                 && detail::writeText(proc + "gid_map", gid + " " + gid + " 1\n");
        if (mapped)
            mapped = ::write(sync[1], "1", 1) == 1;
    }
    ::close(sync[1]);
    std::string errText;
    for (int* fd : {&out[0], &err[0]}) { // /bin/true says nothing: EOF on each is the end of the program
        char buf[4096];
        for (;;) {
            const ssize_t n = ::read(*fd, buf, sizeof buf);
            if (n > 0 && fd == &out[0])
                r.stdoutText.append(buf, static_cast<std::size_t>(n));
            else if (n > 0)
                errText.append(buf, static_cast<std::size_t>(n));
            else if (n == 0 || errno != EINTR)
                break;
        }
        ::close(*fd);
    }
    if (pid < 0) {
        r.error = std::string("clone: ") + std::strerror(cloneErrno);
        return r;
    }
    int status = 0;
    while (::waitpid(static_cast<pid_t>(pid), &status, 0) < 0 && errno == EINTR) {
    }
    r.wallMs = msSince(start);
    r.ok = mapped && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!mapped)
        r.error = "cannot write the uid/gid maps";
    else if (!r.ok && WIFEXITED(status) && WEXITSTATUS(status) > 100)
        r.error = "step " + std::to_string(WEXITSTATUS(status) - 100) + " failed";
    else if (!r.ok)
        r.error = "status " + std::to_string(status) + ": " + errText.substr(0, 200);
    return r;
}

} // namespace bench::floor
