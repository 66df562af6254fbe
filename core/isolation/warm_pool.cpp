#include "isolation/warm_pool.h"

#include "launch.h"

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <sys/eventfd.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sb {

namespace {

using Clock = std::chrono::steady_clock;

// A sandbox that says nothing for this long while it is prepared is given up.
constexpr auto kPrepareTimeout = std::chrono::seconds(10);
// After a failure, preparing pauses this long, doubling up to kMaxBackoff while failures go on.
constexpr auto kFirstBackoff = std::chrono::milliseconds(100);
constexpr auto kMaxBackoff = std::chrono::seconds(30);

enum class Heard { Nothing, Ready, Ended };

// Reads what a launcher said on its result pipe (it is readable): "started N", "ready", or its result
// (a pooled launcher only writes one when it could not prepare its sandbox or was ended) or EOF.
Heard listen(launch::Started& s)
{
    char buf[4096];
    const ssize_t n = ::read(s.result.get(), buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return Heard::Nothing;
    if (n <= 0)
        return Heard::Ended;
    s.reported.append(buf, static_cast<std::size_t>(n));
    const LauncherReport report = splitLauncherReport(s.reported);
    if (!report.json.empty())
        return Heard::Ended;
    return report.ready ? Heard::Ready : Heard::Nothing;
}

// Why a launcher that ended before it was ready did so, for lastError().
std::string whyEnded(const launch::Started& s)
{
    const LauncherReport report = splitLauncherReport(s.reported);
    if (auto result = decodeResult(report.json); result && result->setupFailed)
        return "a sandbox layer could not be applied: " + result->setupError;
    return "the launcher ended before its sandbox was ready";
}

} // namespace

struct WarmPool::Impl {
    WarmPoolOptions options;
    Result<launch::Plan> plan;
    int wakeFd = -1; // eventfd: a sandbox was taken, or the pool is going

    // A run given a sandbox, whose replacement waits for it (options.refillGrace).
    struct InFlight {
        UniqueFd launcher; // a pidfd: readable once the run's launcher has ended
        Clock::time_point since;
    };

    mutable std::mutex mutex;
    mutable std::condition_variable changed;
    std::deque<std::unique_ptr<launch::Started>> ready;
    std::vector<InFlight> inFlight;
    Clock::time_point burstUntil; // a run found the pool empty: until then, what is taken is replaced at once
    std::size_t starting = 0;
    bool stopping = false;
    std::uint64_t handedOut = 0;
    std::uint64_t failed = 0;
    std::string lastError;

    std::thread thread;

    explicit Impl(WarmPoolOptions o) : options(std::move(o)), plan(launch::makePlan(options.prototype, options.runner))
    {
        options.runner.warmPool.reset();
        if (!plan)
            lastError = plan.error().message;
    }

    bool inBurst(Clock::time_point now) const { return now < burstUntil; }

    void wake() const
    {
        const std::uint64_t one = 1;
        [[maybe_unused]] const ssize_t n = ::write(wakeFd, &one, sizeof one);
    }

    void fail(const std::string& why)
    {
        const std::lock_guard lock(mutex);
        ++failed;
        lastError = why;
        changed.notify_all();
    }

    // The background thread: keeps `size` sandboxes ready, watches them, ends them when the pool goes.
    void serve()
    {
        struct Pending {
            std::unique_ptr<launch::Started> sandbox;
            Clock::time_point since;
        };
        std::vector<Pending> pending;
        auto backoff = kFirstBackoff;
        auto nextAttempt = Clock::now();
        for (;;) {
            std::size_t need = 0;
            std::vector<int> readyFds;    // to notice an idle sandbox that ends (killed, its owner's death)
            std::vector<int> inFlightFds; // to notice the end of a run whose replacement waits for it
            auto graceEnds = Clock::time_point::max();
            {
                const std::lock_guard lock(mutex);
                if (stopping)
                    break;
                const auto now = Clock::now();
                std::erase_if(inFlight, [&](const InFlight& run) {
                    return inBurst(now) || now - run.since >= options.refillGrace;
                });
                for (const auto& run : inFlight) {
                    inFlightFds.push_back(run.launcher.get());
                    graceEnds = std::min(graceEnds, run.since + options.refillGrace);
                }
                const std::size_t have = ready.size() + pending.size() + inFlight.size();
                need = options.size > have ? options.size - have : 0;
                for (const auto& s : ready)
                    readyFds.push_back(s->result.get());
            }
            while (need > 0 && Clock::now() >= nextAttempt) {
                auto started = launch::start(*plan, true);
                if (!started) {
                    fail(started.error().message);
                    nextAttempt = Clock::now() + backoff;
                    backoff = std::min<std::chrono::milliseconds>(backoff * 2, kMaxBackoff);
                    break;
                }
                pending.push_back({std::move(*started), Clock::now()});
                --need;
            }
            {
                const std::lock_guard lock(mutex);
                starting = pending.size();
            }

            std::vector<pollfd> fds;
            fds.push_back({wakeFd, POLLIN, 0});
            for (const auto& p : pending)
                fds.push_back({p.sandbox->result.get(), POLLIN, 0});
            for (int fd : readyFds)
                fds.push_back({fd, POLLIN, 0});
            const std::size_t firstInFlight = fds.size();
            for (int fd : inFlightFds)
                fds.push_back({fd, POLLIN, 0});
            auto wakeAt = Clock::now() + std::chrono::seconds(1); // also a periodic look at slow sandboxes
            if (need > 0)
                wakeAt = std::min(wakeAt, nextAttempt);
            wakeAt = std::min(wakeAt, graceEnds);
            const int timeoutMs = static_cast<int>(std::clamp<std::int64_t>(
                std::chrono::ceil<std::chrono::milliseconds>(wakeAt - Clock::now()).count(), 0, 1000));
            if (::poll(fds.data(), fds.size(), timeoutMs) < 0 && errno != EINTR)
                continue;
            if (fds[0].revents & POLLIN) {
                std::uint64_t count = 0;
                [[maybe_unused]] const ssize_t n = ::read(wakeFd, &count, sizeof count);
            }

            // Sandboxes being prepared: ready, ended, or too slow.
            std::size_t i = 1;
            for (auto it = pending.begin(); it != pending.end(); ++i) {
                Heard heard = Heard::Nothing;
                if (fds[i].revents)
                    heard = listen(*it->sandbox);
                if (heard == Heard::Nothing && Clock::now() - it->since > kPrepareTimeout) {
                    heard = Heard::Ended;
                    it->sandbox->reported += "\n(too slow)";
                }
                if (heard == Heard::Ready) {
                    const std::lock_guard lock(mutex);
                    ready.push_back(std::move(it->sandbox));
                    backoff = kFirstBackoff;
                    changed.notify_all();
                    it = pending.erase(it);
                } else if (heard == Heard::Ended) {
                    fail(whyEnded(*it->sandbox));
                    nextAttempt = Clock::now() + backoff;
                    backoff = std::min<std::chrono::milliseconds>(backoff * 2, kMaxBackoff);
                    it = pending.erase(it); // its destructor waits for the launcher and removes the work dir
                } else {
                    ++it;
                }
            }
            // Runs that have ended: their replacements are due.
            {
                const std::lock_guard lock(mutex);
                for (std::size_t k = firstInFlight; k < fds.size(); ++k) {
                    if (fds[k].revents)
                        std::erase_if(inFlight, [&](const InFlight& run) { return run.launcher.get() == fds[k].fd; });
                }
            }
            // Idle sandboxes say nothing; one that does has ended (or failed) and is dropped. Only those
            // still in the pool: one taken meanwhile belongs to its run.
            for (; i < firstInFlight; ++i) {
                if (!fds[i].revents)
                    continue;
                std::unique_ptr<launch::Started> gone;
                {
                    const std::lock_guard lock(mutex);
                    const auto found = std::find_if(ready.begin(), ready.end(),
                                                    [&](const auto& s) { return s->result.get() == fds[i].fd; });
                    if (found != ready.end() && listen(**found) == Heard::Ended) {
                        gone = std::move(*found);
                        ready.erase(found);
                    }
                }
                if (gone)
                    fail(whyEnded(*gone));
            }
        }
        // The pool is going: every sandbox is released and awaited (Started's destructor).
        pending.clear();
        std::deque<std::unique_ptr<launch::Started>> idle;
        {
            const std::lock_guard lock(mutex);
            idle.swap(ready);
            starting = 0;
        }
        idle.clear();
    }
};

WarmPool::WarmPool(WarmPoolOptions options) : m_impl(std::make_unique<Impl>(std::move(options)))
{
    if (!m_impl->plan || m_impl->options.size == 0)
        return; // nothing to prepare: every run starts cold
    m_impl->wakeFd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_impl->wakeFd < 0) {
        m_impl->lastError = "eventfd failed";
        return;
    }
    m_impl->thread = std::thread([impl = m_impl.get()] { impl->serve(); });
}

WarmPool::~WarmPool()
{
    if (m_impl->thread.joinable()) {
        {
            const std::lock_guard lock(m_impl->mutex);
            m_impl->stopping = true;
        }
        m_impl->wake();
        m_impl->thread.join();
    }
    if (m_impl->wakeFd >= 0)
        ::close(m_impl->wakeFd);
}

WarmPool::Stats WarmPool::stats() const
{
    const std::lock_guard lock(m_impl->mutex);
    return {m_impl->ready.size(), m_impl->starting, m_impl->handedOut, m_impl->failed};
}

std::string WarmPool::lastError() const
{
    const std::lock_guard lock(m_impl->mutex);
    return m_impl->lastError;
}

bool WarmPool::waitUntilReady(std::chrono::milliseconds timeout) const
{
    if (!m_impl->thread.joinable())
        return false; // nothing is being prepared (lastError says why)
    std::unique_lock lock(m_impl->mutex);
    return m_impl->changed.wait_for(lock, timeout, [&] { return m_impl->ready.size() >= m_impl->options.size; });
}

bool WarmPool::serves(const RunRequest& request) const
{
    if (!m_impl->plan)
        return false;
    const auto plan = launch::makePlan(request, m_impl->options.runner);
    return plan && launch::sameShape(*plan, *m_impl->plan);
}

std::shared_ptr<WarmPool> makeBurstPool(const std::vector<RunRequest>& requests, const RunnerOptions& options,
                                        std::size_t size)
{
    // Group the requests by the sandbox they would get; requests that would be refused count for none.
    std::vector<std::pair<launch::Plan, std::size_t>> kinds; // a plan of each kind, and the index of its first request
    std::vector<std::size_t> counts;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        auto plan = launch::makePlan(requests[i], options);
        if (!plan)
            continue;
        const auto same = std::find_if(kinds.begin(), kinds.end(),
                                       [&](const auto& kind) { return launch::sameShape(kind.first, *plan); });
        if (same != kinds.end()) {
            ++counts[static_cast<std::size_t>(same - kinds.begin())];
        } else {
            kinds.emplace_back(std::move(*plan), i);
            counts.push_back(1);
        }
    }
    const auto most = std::max_element(counts.begin(), counts.end());
    if (most == counts.end() || *most < 2)
        return nullptr;
    WarmPoolOptions poolOptions;
    poolOptions.prototype = requests[kinds[static_cast<std::size_t>(most - counts.begin())].second];
    poolOptions.size = std::min(size, *most);
    poolOptions.runner = options;
    return std::make_shared<WarmPool>(std::move(poolOptions));
}

std::unique_ptr<launch::Started> WarmPool::take(const launch::Plan& plan)
{
    if (!m_impl->plan || !launch::sameShape(plan, *m_impl->plan))
        return nullptr;
    std::unique_ptr<launch::Started> taken;
    {
        const std::lock_guard lock(m_impl->mutex);
        const auto now = Clock::now();
        if (m_impl->ready.empty()) {
            m_impl->burstUntil = now + m_impl->options.refillGrace;
            m_impl->wake(); // what was taken is replaced at once
            return nullptr;
        }
        taken = std::move(m_impl->ready.front());
        m_impl->ready.pop_front();
        ++m_impl->handedOut;
        if (m_impl->inBurst(now)) {
            m_impl->burstUntil = now + m_impl->options.refillGrace;
        } else if (taken->process) {
            // Its replacement waits for this run (options.refillGrace).
            if (const int launcher = ::fcntl(taken->process->pidfd(), F_DUPFD_CLOEXEC, 0); launcher >= 0)
                m_impl->inFlight.push_back({UniqueFd(launcher), now});
        }
    }
    m_impl->wake(); // the pool thread watches the run, or replaces its sandbox at once
    return taken;
}

} // namespace sb
