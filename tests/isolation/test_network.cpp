// The network allowlist: the run reaches listed hosts through Sandbench's proxy and nothing else.
// Only loopback services of this test are used.

#include "run_helpers.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <atomic>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace sb;
using namespace sb::test;

namespace {

// A one-page HTTP server on 127.0.0.1 that counts the connections it accepted.
class TinyHttpServer {
public:
    TinyHttpServer()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        ::listen(m_fd, 8);
        socklen_t len = sizeof addr;
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        m_thread = std::thread([this] { loop(); });
    }
    ~TinyHttpServer()
    {
        m_stop = true;
        ::shutdown(m_fd, SHUT_RDWR);
        m_thread.join();
        ::close(m_fd);
    }
    int port() const { return m_port; }
    int accepted() const { return m_accepted; }

private:
    void loop()
    {
        while (!m_stop) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 100) != 1)
                continue;
            const int client = ::accept(m_fd, nullptr, nullptr);
            if (client < 0)
                continue;
            ++m_accepted;
            char buf[4096];
            (void)::recv(client, buf, sizeof buf, 0);
            const std::string reply = "HTTP/1.0 200 OK\r\nContent-Length: 18\r\n\r\nhello from the lan";
            (void)::send(client, reply.data(), reply.size(), MSG_NOSIGNAL);
            ::close(client);
        }
    }
    int m_fd = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_accepted{0};
    std::thread m_thread;
};

Policy allowlistPolicy(const std::vector<std::string>& allow)
{
    Policy p;
    p.level = IsolationLevel::Container;
    p.network = NetworkMode::Allowlist;
    p.networkAllow = allow;
    p.blockedImports = {}; // the OS layers and the proxy decide here
    return p;
}

std::string fetch(int port)
{
    return "import urllib.request\ntry:\n    print(urllib.request.urlopen('http://127.0.0.1:" + std::to_string(port)
           + "/', timeout=5).read().decode())\nexcept Exception as e:\n    print('failed:', e)\n";
}

} // namespace

TEST(Network, AllowlistedHostIsReachedThroughTheProxy)
{
    TinyHttpServer server;
    const auto r = runPython(fetch(server.port()), allowlistPolicy({"127.0.0.1:" + std::to_string(server.port())}));
    EXPECT_EQ(r.outcome, Outcome::Ok) << r.message << r.stderrText;
    EXPECT_EQ(r.stdoutText, "hello from the lan\n") << r.stderrText;
    EXPECT_EQ(server.accepted(), 1);
}

TEST(Network, OtherHostsAreRefusedReportedAndNeverReached)
{
    TinyHttpServer allowed;
    TinyHttpServer other;
    const auto r = runPython(fetch(other.port()), allowlistPolicy({"127.0.0.1:" + std::to_string(allowed.port())}));
    EXPECT_EQ(r.outcome, Outcome::Blocked) << r.message << r.stderrText;
    EXPECT_NE(r.stdoutText.find("403"), std::string::npos) << r.stdoutText;
    EXPECT_TRUE(hasBlocked(r, "network", "127.0.0.1:" + std::to_string(other.port()))) << r.message;
    EXPECT_EQ(other.accepted(), 0) << "the refused host was reached";
}

TEST(Network, DirectConnectionsBypassingTheProxyGoNowhere)
{
    TinyHttpServer server;
    const auto r = runPython("import socket\ntry:\n    socket.create_connection(('127.0.0.1', " + std::to_string(server.port())
                                 + "), timeout=2)\n    print('CONNECTED')\nexcept OSError as e:\n    print('refused', e.errno)\n",
                             allowlistPolicy({"127.0.0.1:" + std::to_string(server.port())}));
    EXPECT_EQ(r.stdoutText.find("CONNECTED"), std::string::npos) << r.stdoutText;
    EXPECT_EQ(server.accepted(), 0) << "a direct connection reached the host's loopback";
}

TEST(Network, AllowlistAtTheProcessLevelIsRefused)
{
    Policy p = allowlistPolicy({"127.0.0.1:80"});
    p.level = IsolationLevel::Process;
    const auto r = runShell("echo should-not-run\n", p);
    EXPECT_EQ(r.outcome, Outcome::InternalError);
    EXPECT_EQ(r.stdoutText, "");
    EXPECT_NE(r.message.text().find("allowlist"), std::string::npos) << r.message;
}
