#pragma once

// The network allowlist (container and strict levels). The run's network namespace has only loopback;
// on it a small gate, started by the sandbox's pid 1, listens on 127.0.0.1:kPort and hands every
// connection it accepts to the launcher outside over a UNIX socket. The launcher speaks HTTP proxy
// (CONNECT host:port, or an absolute-form request), connects out from the host's network only where the
// policy's allowlist says so, relays the bytes, and reports every refusal with the host it tried.
// Programs find the proxy through HTTP(S)_PROXY/ALL_PROXY, as they do on locked-down corporate networks.

#include "isolation/run.h"
#include "util/error.h"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace sb::netproxy {

inline constexpr int kPort = 3128;

// Whether host:port matches an entry ("host:port", "host:*", "*.domain:port"); case-insensitive.
bool allows(const std::vector<std::string>& allowlist, std::string_view host, int port);

// In the sandbox's pid 1, before the root is built: loopback up, the gate listening and forked. The gate
// keeps `channel` and the listening socket; the caller closes its copy of `channel` afterwards.
Result<void> startGate(int channel);

// Launcher side: serves each connection the gate hands over, on a thread of its own.
class Proxy {
public:
    explicit Proxy(std::vector<std::string> allowlist);
    ~Proxy();
    Proxy(const Proxy&) = delete;
    Proxy& operator=(const Proxy&) = delete;

    void serve(int clientFd);
    // Ends every connection still open and waits for their threads.
    void shutdown();
    std::vector<BlockedEvent> refusals() const;

private:
    void handle(int clientFd);

    std::vector<std::string> m_allowlist;
    mutable std::mutex m_mutex;
    std::vector<BlockedEvent> m_refusals;
    std::vector<int> m_openFds;
    std::vector<std::thread> m_threads;
};

} // namespace sb::netproxy
