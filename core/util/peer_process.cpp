#include "util/peer_process.h"

#include <fmt/format.h>

#include <cerrno>
#include <fcntl.h>
#include <string_view>
#include <unistd.h>

namespace sb {

namespace {

std::string readSmallFile(const std::string& path)
{
    std::string out;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return out;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        out.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return out;
}

// The value of a "Name:\tvalue" line of /proc/PID/status; nullopt when there is none.
std::optional<std::string> statusField(std::string_view status, std::string_view name)
{
    while (!status.empty()) {
        const auto end = status.find('\n');
        std::string_view line = status.substr(0, end);
        status.remove_prefix(end == std::string_view::npos ? status.size() : end + 1);
        if (line.size() > name.size() && line.starts_with(name) && line[name.size()] == ':') {
            line.remove_prefix(name.size() + 1);
            while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
                line.remove_prefix(1);
            return std::string(line);
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> whyConfined(pid_t pid)
{
    if (pid <= 0)
        return std::string("the process is outside this one's pid namespace");
    const std::string status = readSmallFile(fmt::format("/proc/{}/status", pid));
    const auto noNewPrivs = statusField(status, "NoNewPrivs");
    const auto seccomp = statusField(status, "Seccomp");
    if (!noNewPrivs || !seccomp)
        return fmt::format("pid {}: its status cannot be read", pid);
    if (*noNewPrivs != "0" || *seccomp != "0")
        return fmt::format("pid {} is confined (no_new_privs {}, seccomp {}): a sandboxed process", pid, *noNewPrivs,
                           *seccomp);
    return std::nullopt;
}

} // namespace sb
