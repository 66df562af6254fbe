#pragma once

// Reading /proc while processes come and go. A process can end between opening one of its files and reading
// it: read() then fails with ESRCH, and an ifstream read through istreambuf_iterator throws. These helpers
// read with plain read(2) and treat a vanished process as an empty file.

#include <cerrno>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <sys/types.h>
#include <unistd.h>
#include <vector>

namespace sb::test {

// The whole file, or what could be read of it before an error; "" when it cannot be opened.
inline std::string readWhole(const std::string& path)
{
    std::string out;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return out;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            out.append(buffer, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        break;
    }
    ::close(fd);
    return out;
}

// Every pid in /proc. readdir, not std::filesystem: entries vanish while /proc is listed, and the
// directory iterator's increment would throw where readdir just moves on.
inline std::vector<pid_t> allPids()
{
    std::vector<pid_t> out;
    if (DIR* proc = ::opendir("/proc")) {
        while (const dirent* entry = ::readdir(proc)) {
            if (entry->d_name[0] >= '1' && entry->d_name[0] <= '9')
                out.push_back(static_cast<pid_t>(std::atol(entry->d_name)));
        }
        ::closedir(proc);
    }
    return out;
}

// pids of every process whose command line contains marker.
inline std::vector<pid_t> processesWithMarker(const std::string& marker)
{
    std::vector<pid_t> out;
    for (const pid_t pid : allPids()) {
        if (readWhole("/proc/" + std::to_string(pid) + "/cmdline").find(marker) != std::string::npos)
            out.push_back(pid);
    }
    return out;
}

} // namespace sb::test
