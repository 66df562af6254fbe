#pragma once

// What a gateway writes to a peer it must never block on (wrap_gateway.cpp, agent_session.cpp).

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <string_view>
#include <unistd.h>

namespace sb::agents {

// Lines for one peer, written as it reads them. Its descriptor is made non-blocking (unless it is a terminal,
// whose flags the gateway must not change under the user's shell) and given back as it was.
class Outbox {
public:
    static constexpr std::size_t kHighWater = std::size_t{64} << 20;

    explicit Outbox(int fd) : m_fd(fd)
    {
        if (m_fd >= 0 && !::isatty(m_fd)) {
            m_flags = ::fcntl(m_fd, F_GETFL);
            if (m_flags >= 0)
                ::fcntl(m_fd, F_SETFL, m_flags | O_NONBLOCK);
        }
    }
    ~Outbox() { release(); }

    // Gives the descriptor back as it was (before the owner closes it); nothing more is written.
    void release()
    {
        if (m_fd >= 0 && m_flags >= 0)
            ::fcntl(m_fd, F_SETFL, m_flags);
        m_fd = -1;
        m_broken = true;
    }
    Outbox(const Outbox&) = delete;
    Outbox& operator=(const Outbox&) = delete;

    int fd() const { return m_fd; }
    bool pending() const { return m_sent < m_buffer.size(); }
    bool full() const { return m_buffer.size() - m_sent >= kHighWater; }
    bool broken() const { return m_broken; }
    bool released() const { return m_fd < 0; }

    void push(std::string_view line)
    {
        if (m_broken || m_fd < 0)
            return;
        m_buffer.append(line);
        if (line.empty() || line.back() != '\n')
            m_buffer.push_back('\n');
    }

    // Writes what the peer takes now.
    void flush()
    {
        while (pending() && !m_broken) {
            const ssize_t n = ::write(m_fd, m_buffer.data() + m_sent, m_buffer.size() - m_sent);
            if (n > 0) {
                m_sent += static_cast<std::size_t>(n);
            } else if (n < 0 && errno == EINTR) {
                continue;
            } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                break;
            } else {
                m_broken = true; // EPIPE: the peer is gone
            }
        }
        if (m_sent == m_buffer.size()) {
            m_buffer.clear();
            m_sent = 0;
        }
    }

    // Waits up to `ms` for the peer to take what is left (at the end, before closing).
    void drain(int ms)
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (pending() && !m_broken) {
            flush();
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
            if (!pending() || left <= 0)
                break;
            pollfd p{m_fd, POLLOUT, 0};
            ::poll(&p, 1, static_cast<int>(left));
        }
    }

private:
    int m_fd;
    int m_flags = -1;
    std::string m_buffer;
    std::size_t m_sent = 0;
    bool m_broken = false;
};

} // namespace sb::agents
