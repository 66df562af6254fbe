#include "launcher_io.h"

#include <cerrno>
#include <unistd.h>
#include <utility>

namespace sb::launcher {

std::string readAll(int fd)
{
    std::string out;
    char buf[8192];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return out;
        out.append(buf, static_cast<std::size_t>(n));
    }
}

std::optional<std::string> LineReader::next()
{
    for (;;) {
        if (const auto newline = m_buffer.find('\n'); newline != std::string::npos) {
            std::string rest = m_buffer.substr(newline + 1); // nothing after a job line
            std::string line = std::exchange(m_buffer, std::move(rest));
            line.resize(newline);
            return line;
        }
        char buf[8192];
        const ssize_t n = ::read(m_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (m_buffer.empty())
                return std::nullopt;
            return std::exchange(m_buffer, {});
        }
        if (m_capacity > 0 && m_buffer.size() + static_cast<std::size_t>(n) > m_capacity) {
            m_overflowed = true;
            return std::nullopt;
        }
        m_buffer.append(buf, static_cast<std::size_t>(n));
    }
}

void report(const LaunchResult& result)
{
    ::close(1);
    ::close(2);
    writeFully(sb::kLauncherResultFd, sb::encodeResult(result) + '\n');
}

namespace {

[[noreturn]] void finish(const LaunchResult& result)
{
    report(result);
    ::_exit(0);
}

} // namespace

void finishWithError(const std::string& message)
{
    LaunchResult r;
    r.setupFailed = true;
    r.setupError = message;
    finish(r);
}

} // namespace sb::launcher
