#include "netproxy.h"

#include "fd_passing.h"
#include "util/ascii.h"

#include <fmt/format.h>

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>

namespace sb::netproxy {

namespace {

constexpr std::size_t kMaxHead = 16 * 1024;
constexpr int kHeadTimeoutMs = 10'000;
constexpr int kConnectTimeoutMs = 10'000;


// host[:port] with an optional [IPv6] form; port defaults to `defaultPort`.
bool splitHostPort(std::string_view text, int defaultPort, std::string& host, int& port)
{
    port = defaultPort;
    if (text.starts_with("[")) {
        const auto close = text.find(']');
        if (close == std::string_view::npos)
            return false;
        host = std::string(text.substr(1, close - 1));
        text.remove_prefix(close + 1);
        if (text.starts_with(":"))
            port = std::atoi(std::string(text.substr(1)).c_str());
    } else {
        const auto colon = text.rfind(':');
        host = std::string(text.substr(0, colon));
        if (colon != std::string_view::npos)
            port = std::atoi(std::string(text.substr(colon + 1)).c_str());
    }
    return !host.empty() && port > 0 && port < 65536;
}

int connectTo(const std::string& host, int port)
{
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_family = AF_UNSPEC;
    addrinfo* list = nullptr;
    if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &list) != 0)
        return -1;
    int fd = -1;
    for (addrinfo* a = list; a && fd < 0; a = a->ai_next) {
        fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0)
            continue;
        if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
            ::close(fd);
            fd = -1;
            continue;
        }
        pollfd p{fd, POLLOUT, 0};
        int error = 0;
        socklen_t len = sizeof error;
        if (::poll(&p, 1, kConnectTimeoutMs) != 1 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0
            || error != 0) {
            ::close(fd);
            fd = -1;
        }
    }
    ::freeaddrinfo(list);
    if (fd >= 0)
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

void relay(int a, int b)
{
    bool aOpen = true;
    bool bOpen = true;
    char buf[16384];
    while (aOpen || bOpen) {
        pollfd fds[2] = {{a, static_cast<short>(aOpen ? POLLIN : 0), 0}, {b, static_cast<short>(bOpen ? POLLIN : 0), 0}};
        if (::poll(fds, 2, -1) < 0 && errno != EINTR)
            return;
        for (int i = 0; i < 2; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const int from = i == 0 ? a : b;
            const int to = i == 0 ? b : a;
            const ssize_t n = ::recv(from, buf, sizeof buf, 0);
            if (n <= 0) {
                ::shutdown(to, SHUT_WR);
                (i == 0 ? aOpen : bOpen) = false;
                if (n < 0 && errno != EINTR)
                    return;
                continue;
            }
            if (!sendAll(to, std::string_view(buf, static_cast<std::size_t>(n))))
                return;
        }
    }
}

} // namespace

bool allows(const std::vector<std::string>& allowlist, std::string_view host, int port)
{
    const std::string wanted = asciiLower(host);
    for (const auto& entry : allowlist) {
        const auto colon = entry.rfind(':');
        if (colon == std::string::npos)
            continue;
        const std::string pattern = asciiLower(std::string_view(entry).substr(0, colon));
        const std::string_view portText = std::string_view(entry).substr(colon + 1);
        if (portText != "*" && portText != std::to_string(port))
            continue;
        if (pattern == wanted)
            return true;
        if (pattern.starts_with("*.") && wanted.size() > pattern.size() - 1
            && wanted.ends_with(std::string_view(pattern).substr(1)))
            return true;
    }
    return false;
}

Result<void> startGate(int channel)
{
    // Loopback up: the pid 1 of a fresh network namespace holds CAP_NET_ADMIN there.
    const int control = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (control < 0)
        return fail(fmt::format("network proxy: socket: {}", std::strerror(errno)));
    ifreq ifr{};
    std::strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
    const bool up = ::ioctl(control, SIOCGIFFLAGS, &ifr) == 0
                    && (ifr.ifr_flags |= IFF_UP, ::ioctl(control, SIOCSIFFLAGS, &ifr) == 0);
    const int upErrno = errno;
    ::close(control);
    if (!up)
        return fail(fmt::format("network proxy: loopback up: {}", std::strerror(upErrno)));

    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(kPort);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
        || ::listen(listener, 64) != 0)
        return fail(fmt::format("network proxy: listen on 127.0.0.1:{}: {}", kPort, std::strerror(errno)));

    const pid_t gate = ::fork();
    if (gate < 0)
        return fail(fmt::format("network proxy: fork: {}", std::strerror(errno)));
    if (gate == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        // Nothing but the listener and the channel: not the run's pipes, not pid 1's other channels.
        for (int fd = 0; fd < 1024; ++fd) {
            if (fd != listener && fd != channel)
                ::close(fd);
        }
        for (;;) {
            const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0) {
                if (errno == EINTR || errno == ECONNABORTED)
                    continue;
                ::_exit(0);
            }
            if (!sendFd(channel, client))
                ::_exit(0); // the supervisor is gone: so is the run
            ::close(client);
        }
    }
    ::close(listener);
    return {};
}

Proxy::Proxy(std::vector<std::string> allowlist) : m_allowlist(std::move(allowlist)) {}

Proxy::~Proxy()
{
    shutdown();
}

void Proxy::serve(int clientFd)
{
    std::lock_guard lock(m_mutex);
    m_openFds.push_back(clientFd);
    m_threads.emplace_back([this, clientFd] { handle(clientFd); });
}

void Proxy::shutdown()
{
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(m_mutex);
        for (int fd : m_openFds)
            ::shutdown(fd, SHUT_RDWR); // wakes the relays; each thread closes its own fds
        threads.swap(m_threads);
    }
    for (auto& t : threads)
        t.join();
}

std::vector<BlockedEvent> Proxy::refusals() const
{
    std::lock_guard lock(m_mutex);
    return m_refusals;
}

void Proxy::handle(int client)
{
    auto finish = [&](int upstream) {
        std::lock_guard lock(m_mutex);
        m_openFds.erase(std::remove(m_openFds.begin(), m_openFds.end(), client), m_openFds.end());
        m_openFds.erase(std::remove(m_openFds.begin(), m_openFds.end(), upstream), m_openFds.end());
        ::close(client);
        if (upstream >= 0)
            ::close(upstream);
    };
    // The request head: "CONNECT host:port HTTP/1.1" or "GET http://host[:port]/path HTTP/1.1".
    std::string head;
    char buf[4096];
    while (head.find("\r\n\r\n") == std::string::npos && head.size() < kMaxHead) {
        pollfd p{client, POLLIN, 0};
        if (::poll(&p, 1, kHeadTimeoutMs) != 1)
            return finish(-1);
        const ssize_t n = ::recv(client, buf, sizeof buf, 0);
        if (n <= 0)
            return finish(-1);
        head.append(buf, static_cast<std::size_t>(n));
    }
    const auto lineEnd = head.find("\r\n");
    const std::string line = head.substr(0, lineEnd);
    const auto sp1 = line.find(' ');
    const auto sp2 = line.find(' ', sp1 + 1);
    if (lineEnd == std::string::npos || sp1 == std::string::npos || sp2 == std::string::npos) {
        sendAll(client, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        return finish(-1);
    }
    const std::string method = line.substr(0, sp1);
    std::string target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    const bool tunnel = method == "CONNECT";
    std::string host;
    int port = 0;
    bool parsed = false;
    if (tunnel) {
        parsed = splitHostPort(target, 443, host, port);
    } else if (asciiLower(target).starts_with("http://")) {
        std::string_view rest = std::string_view(target).substr(7);
        parsed = splitHostPort(rest.substr(0, rest.find('/')), 80, host, port);
    }
    if (!parsed) {
        sendAll(client, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"
                         "Sandbench's proxy takes CONNECT host:port or http:// URLs\n");
        return finish(-1);
    }
    if (!allows(m_allowlist, host, port)) {
        {
            std::lock_guard lock(m_mutex);
            if (m_refusals.size() < 1000)
                m_refusals.push_back({"network", fmt::format("{}:{} (not on the policy's allowlist)", host, port)});
        }
        const std::string body = fmt::format("{}:{} is not on the Sandbench policy's network allowlist\n", host, port);
        sendAll(client, fmt::format("HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n"
                                     "Connection: close\r\n\r\n{}",
                                     body.size(), body));
        return finish(-1);
    }
    const int upstream = connectTo(host, port);
    if (upstream < 0) {
        sendAll(client, "HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n");
        return finish(-1);
    }
    {
        std::lock_guard lock(m_mutex);
        m_openFds.push_back(upstream);
    }
    const std::string rest = head.substr(head.find("\r\n\r\n") + 4);
    bool started = false;
    if (tunnel) {
        started = sendAll(client, "HTTP/1.1 200 Connection established\r\n\r\n")
                  && (rest.empty() || sendAll(upstream, rest));
    } else {
        // The origin server gets the origin form of the request line ("GET /path HTTP/1.1").
        const std::string_view afterScheme = std::string_view(target).substr(7);
        const auto slash = afterScheme.find('/');
        const std::string path = slash == std::string_view::npos ? "/" : std::string(afterScheme.substr(slash));
        started = sendAll(upstream, method + " " + path + line.substr(sp2) + head.substr(lineEnd));
    }
    if (started)
        relay(client, upstream);
    finish(upstream);
}

} // namespace sb::netproxy
