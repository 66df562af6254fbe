#include "usecases/run_helper.h"

#include "helper_wire.h"
#include "isolation/policy.h"
#include "isolation/warm_pool.h"
#include "util/errno_text.h"
#include "util/peer_process.h"
#include "util/program_files.h"
#include "util/runtime_folder.h"
#include "util/utf8.h"
#include "util/unique_fd.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <functional>
#include <list>
#include <mutex>
#include <poll.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

namespace sb::helper {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace wire;

namespace {

// Why the command on `fd` is not one to serve (whyNotTrusted, unconfined), or nullopt; its pid in `pidOut`. The
// command runs this executable or the small client found from it (util/program_files.h), each as it is now: an
// upgraded client is a new file, and an old helper does not serve it.
std::optional<std::string> whyNotServable(int fd, pid_t* pidOut)
{
    ucred peer{};
    socklen_t size = sizeof peer;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0)
        return "its credentials cannot be read: " + errnoText(errno);
    if (pidOut)
        *pidOut = peer.pid;
    std::vector<FileId> programs;
    if (const auto self = fileId("/proc/self/exe"))
        programs.push_back(*self);
    if (const auto client = programs::locate(programs::kCommand)) {
        if (const auto id = fileId(client->string()))
            programs.push_back(*id);
    }
    return whyNotTrusted(peer.pid, peer.uid, true, programs);
}

json requestToJson(const Request& request)
{
    const RunRequest& run = request.order.request;
    const RunPolicyRequest& asked = request.order.asked;
    return json{
        {"store", {{"path", request.store.path.string()}, {"default", request.store.isDefault}}},
        {"context", environmentToJson(request.context)},
        {"json", request.json},
        {"asked",
         {{"policy", asked.policy},
          {"level", asked.level ? json(std::string(toString(*asked.level))) : json(nullptr)},
          {"timeout_ms", asked.timeoutMs},
          {"memory_mb", asked.memoryMb}}},
        {"request",
         {{"language", std::string(toString(run.language))},
          {"source", run.source},
          {"policy", request.policyFromAsked ? json(nullptr) : json(renderPolicy(run.policy))},
          {"label", run.label},
          {"command", run.command}}},
    };
}

// The request as sent, its policy text still to be parsed (none: resolved from what was asked), or its policy
// settled already (a command line the helper parsed).
struct Received {
    Request request;
    std::optional<std::string> policyText;
    bool settled = false;
};

// The variables of `names` whose values differ between `theirs` and `ours`, as "$A, $B"; nullopt when none.
std::optional<std::string> differingVariables(const Environment& theirs, const Environment& ours,
                                              const std::vector<std::string_view>& names)
{
    std::string differs;
    for (const auto name : names) {
        const std::string key(name);
        const auto a = theirs.find(key);
        const auto b = ours.find(key);
        const std::optional<std::string> left = a == theirs.end() ? std::nullopt : a->second;
        const std::optional<std::string> right = b == ours.end() ? std::nullopt : b->second;
        if (left != right || (a == theirs.end()) != (b == ours.end()))
            differs += (differs.empty() ? "$" : ", $") + key;
    }
    if (differs.empty())
        return std::nullopt;
    return differs;
}

Result<Received> requestFromJson(const json& in)
{
    try {
        Received out;
        const json& store = in.at("store");
        out.request.store.path = store.at("path").get<std::string>();
        out.request.store.isDefault = store.at("default").get<bool>();
        auto context = environmentFromJson(in.at("context"));
        if (!context)
            return std::unexpected(context.error());
        out.request.context = std::move(*context);
        out.request.json = in.at("json").get<bool>();
        const json& asked = in.at("asked");
        out.request.order.asked.policy = asked.at("policy").get<std::string>();
        if (!asked.at("level").is_null()) {
            const auto level = isolationLevelFromString(asked.at("level").get<std::string>());
            if (!level)
                return fail("asked.level: not a level");
            out.request.order.asked.level = *level;
        }
        out.request.order.asked.timeoutMs = asked.at("timeout_ms").get<std::int64_t>();
        out.request.order.asked.memoryMb = asked.at("memory_mb").get<std::int64_t>();
        const json& run = in.at("request");
        const auto language = languageFromString(run.at("language").get<std::string>());
        if (!language)
            return fail("request.language: not a language");
        RunRequest& request = out.request.order.request;
        request.language = *language;
        request.source = run.at("source").get<std::string>();
        request.label = run.at("label").get<std::string>();
        request.command = run.at("command").get<std::vector<std::string>>();
        if (run.at("policy").is_null())
            out.request.policyFromAsked = true;
        else
            out.policyText = run.at("policy").get<std::string>();
        return out;
    } catch (const json::exception& e) {
        return fail(std::string("the request is not one this helper reads: ") + e.what());
    }
}

} // namespace

std::optional<std::string> Client::whyNotAskable(const Request& request)
{
    const RunRequest& run = request.order.request;
    if (request.policyFromAsked && !request.order.asked.policy.empty())
        return std::string("a --policy reference to resolve (it means what it means in the command's folder)");
    if (!request.order.sandbox.empty() || !run.workspace.empty())
        return std::string("a run in a sandbox's workspace");
    if (run.channelIn >= 0 || run.channelOut >= 0)
        return std::string("a run with a channel");
    if (!request.store.path.is_absolute())
        return std::string("a store path that is not absolute (the helper's folder is not the command's)");
    if (!run.policy.envPass.empty())
        return std::string("a policy that copies variables from the caller's environment (env_pass)");
    auto utf8 = [](const std::string& text) { return utf8::firstInvalid(text) == std::string_view::npos; };
    if (!utf8(run.source) || !utf8(run.label) || !std::all_of(run.command.begin(), run.command.end(), utf8)
        || !utf8(request.order.asked.policy) || !utf8(request.store.path.string()))
        return std::string("text that is not UTF-8");
    for (const auto& [name, value] : request.context) {
        if (value && !utf8(*value))
            return "$" + name + " is not UTF-8";
    }
    return std::nullopt;
}

std::expected<Reply, AskError> Client::ask(const Request& request, std::chrono::milliseconds acceptTimeout)
{
    if (auto why = whyNotAskable(request))
        return std::unexpected(AskError{*why, false});
    if (auto sent = writeFrame(m_fd.get(), kRequest, requestToJson(request).dump()); !sent)
        return std::unexpected(AskError{"sending the request: " + sent.error().message, false});
    return awaitReply(acceptTimeout);
}

// --- the helper's side ---

struct Server::Impl {
    ServerOptions options;
    Handler handler;
    fs::path path;
    FileId socketFile;
    bool activated = false; // the listener came from socket activation
    UniqueFd listener;
    std::array<int, 2> wake{-1, -1}; // stop(): a byte on wake[1]
    Environment context = contextOfThisProcess();
    Environment commandLineEnvironment = commandLineEnvironmentOfThisProcess();

    mutable std::mutex mutex;
    std::condition_variable ended; // a connection ended
    std::size_t active = 0;        // connections accepted and not yet ended, queued ones too
    Clock::time_point lastActivity = Clock::now();
    std::atomic<bool> stopping{false};
    Stats stats;

    // A store kept open, with the sandbox engine on it once a task needed one (kept too: its watches of the
    // workspaces it saved are what make the next save quick).
    struct OpenStore {
        std::unique_ptr<Store> store;
        std::unique_ptr<SandboxEngine> engine;
    };
    // Open stores by path, each with the file it opened: a store removed or replaced is opened anew.
    struct OpenStores {
        FileId file;
        std::vector<OpenStore> idle;
    };
    std::map<fs::path, OpenStores> stores;
    // Warm pools, the most recently used first.
    std::list<std::shared_ptr<WarmPool>> pools;
    // Policies parsed lately, by their text.
    std::list<std::pair<std::string, Policy>> policies;

    // Connection workers, kept for the next connection rather than started for each: the command waits for a
    // thread's end, and glibc gives an ended thread's stack back with madvise, a TLB shootdown on every core.
    static constexpr std::size_t kMaxWorkers = 64;
    std::vector<std::thread> workers;
    std::deque<UniqueFd> queued;
    std::size_t idleWorkers = 0;
    std::condition_variable workReady;

    // One thread watches the connections whose runs are under way (epoll, each with the id of its watch): a
    // command that goes away cancels its run. The id 0 is the wake that ends the watching.
    UniqueFd epoll;
    UniqueFd watcherWake;
    std::thread watcher;
    std::map<std::uint64_t, std::atomic<bool>*> watched;
    std::uint64_t nextWatch = 1;

    ~Impl()
    {
        for (int fd : wake) {
            if (fd >= 0)
                ::close(fd);
        }
    }

    // Takes an accepted connection: an idle worker serves it, else a new one while there are fewer than
    // kMaxWorkers; past that it waits its turn (a command waits 2 s for its run to be taken, then runs it itself).
    void enqueue(UniqueFd fd)
    {
        const std::lock_guard lock(mutex);
        ++active;
        lastActivity = Clock::now();
        queued.push_back(std::move(fd));
        if (idleWorkers < queued.size() && workers.size() < kMaxWorkers)
            workers.emplace_back([this] { work(); });
        workReady.notify_one();
    }

    void work()
    {
        std::unique_lock lock(mutex);
        for (;;) {
            ++idleWorkers;
            workReady.wait(lock, [&] { return stopping.load() || !queued.empty(); });
            --idleWorkers;
            if (stopping.load()) {
                // Connections not yet served end unanswered: their commands run their runs themselves.
                active -= queued.size();
                queued.clear();
                ended.notify_all();
                return;
            }
            UniqueFd fd = std::move(queued.front());
            queued.pop_front();
            lock.unlock();
            serveConnection(std::move(fd));
            lock.lock();
            --active;
            lastActivity = Clock::now();
            ended.notify_all();
        }
    }

    // Watches `fd` for its command going away, which sets `cancel` (stop() sets it too); an error when the
    // connection cannot be watched.
    Result<std::uint64_t> watch(int fd, std::atomic<bool>* cancel)
    {
        const std::lock_guard lock(mutex);
        const std::uint64_t id = nextWatch++;
        epoll_event event{};
        event.events = EPOLLRDHUP | EPOLLONESHOT;
        event.data.u64 = id;
        if (::epoll_ctl(epoll.get(), EPOLL_CTL_ADD, fd, &event) != 0)
            return fail("cannot watch the connection: " + errnoText(errno));
        watched[id] = cancel;
        if (stopping.load())
            cancel->store(true);
        return id;
    }

    void unwatch(int fd, std::uint64_t id)
    {
        (void)::epoll_ctl(epoll.get(), EPOLL_CTL_DEL, fd, nullptr);
        const std::lock_guard lock(mutex);
        watched.erase(id); // an event of this watch still on its way finds nothing
    }

    void watchConnections()
    {
        for (;;) {
            std::array<epoll_event, 16> events{};
            const int n = ::epoll_wait(epoll.get(), events.data(), static_cast<int>(events.size()), -1);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                log("epoll_wait: " + errnoText(errno) + ": no command going away can cancel its run any more; "
                    "the helper stops");
                stop();
                return;
            }
            const std::lock_guard lock(mutex);
            for (int i = 0; i < n; ++i) {
                const std::uint64_t id = events[static_cast<std::size_t>(i)].data.u64;
                if (id == 0)
                    return;
                if (auto it = watched.find(id); it != watched.end())
                    it->second->store(true);
            }
        }
    }

    void stop()
    {
        const char byte = 's';
        (void)!::write(wake[1], &byte, 1);
    }

    void log(std::string_view line) const
    {
        if (options.log)
            options.log(line);
    }

    // The run's policy: parsed from the command's rendering, or resolved from what the command asked.
    Result<Policy> policyOf(const std::optional<std::string>& rendering, const RunPolicyRequest& asked)
    {
        if (!rendering) {
            // A policy reference means what it means in the command's folder: the command resolves those.
            if (!asked.policy.empty())
                return fail("a --policy reference is resolved by the command, not here");
            return resolveRunPolicy(asked);
        }
        const std::string& text = *rendering;
        {
            const std::lock_guard lock(mutex);
            for (auto it = policies.begin(); it != policies.end(); ++it) {
                if (it->first == text) {
                    policies.splice(policies.begin(), policies, it);
                    return it->second;
                }
            }
        }
        auto policy = parsePolicy(text, "the command's policy");
        if (!policy)
            return std::unexpected(policy.error());
        if (renderPolicy(*policy) != text)
            return fail("the command's policy does not come back the same from its rendering");
        const std::lock_guard lock(mutex);
        policies.emplace_front(text, *policy);
        if (policies.size() > 8)
            policies.pop_back();
        return policy;
    }

    // An open store at `location`, and the file it has open.
    struct TakenStore {
        OpenStore open;
        FileId file;
    };
    Result<TakenStore> takeStore(const StoreLocation& location)
    {
        const auto file = fileId(location.path.string());
        if (file) {
            const std::lock_guard lock(mutex);
            auto it = stores.find(location.path);
            if (it != stores.end() && !(it->second.file == *file)) {
                stores.erase(it); // removed or replaced since: its connections hold what is gone
            } else if (it != stores.end() && !it->second.idle.empty()) {
                auto store = std::move(it->second.idle.back());
                it->second.idle.pop_back();
                return TakenStore{std::move(store), *file};
            }
        }
        auto store = Store::open(location);
        if (!store)
            return std::unexpected(store.error());
        const auto opened = fileId(location.path.string());
        if (!opened)
            return fail(location.path.string() + ": gone as it was opened");
        return TakenStore{OpenStore{std::make_unique<Store>(std::move(*store)), nullptr}, *opened};
    }

    // Kept for the next command while it is the file at its path.
    void giveBack(const StoreLocation& location, TakenStore taken)
    {
        const auto file = fileId(location.path.string());
        if (!file || !(*file == taken.file))
            return;
        const std::lock_guard lock(mutex);
        auto& open = stores[location.path];
        if (!(open.file == *file)) {
            open.file = *file;
            open.idle.clear();
        }
        if (open.idle.size() < 4)
            open.idle.push_back(std::move(taken.open));
    }

    // A pool that serves `request`, made the most recently used; null when none does.
    std::shared_ptr<WarmPool> poolFor(const RunRequest& request)
    {
        const std::lock_guard lock(mutex);
        for (auto it = pools.begin(); it != pools.end(); ++it) {
            if ((*it)->serves(request)) {
                pools.splice(pools.begin(), pools, it);
                return *it;
            }
        }
        return nullptr;
    }

    // After a cold run: a pool for runs of its kind, the least recently used one ending when there are too many.
    void addPoolFor(const RunRequest& request)
    {
        if (options.poolKinds == 0 || options.poolSize == 0)
            return;
        WarmPoolOptions poolOptions;
        poolOptions.prototype = request;
        poolOptions.size = options.poolSize;
        auto pool = std::make_shared<WarmPool>(std::move(poolOptions));
        if (!pool->serves(request))
            return; // a kind no pool serves (a command outside the system paths)
        std::shared_ptr<WarmPool> evicted;
        {
            const std::lock_guard lock(mutex);
            pools.push_front(std::move(pool));
            if (pools.size() > options.poolKinds) {
                evicted = std::move(pools.back());
                pools.pop_back();
            }
        }
        // `evicted` ends its idle sandboxes here, outside the lock.
    }

    // The request a command line makes, parsed by options.commandLine on this thread with the command's working
    // folder (`folder`) as its own, when the command's environment is the helper's where the parsing reads it.
    Result<Received> requestFromCommandLine(const json& in, const UniqueFd& folder)
    {
        if (!options.commandLine)
            return fail("command lines are not served here");
        if (!folder.valid())
            return fail("a command line without its working folder");
        struct stat st {};
        if (::fstat(folder.get(), &st) != 0 || !S_ISDIR(st.st_mode))
            return fail("a command line whose working folder is not a folder");
        std::vector<std::string> args;
        Environment environment;
        try {
            args = in.at("args").get<std::vector<std::string>>();
            auto sent = environmentFromJson(in.at("environment"));
            if (!sent)
                return std::unexpected(sent.error());
            environment = std::move(*sent);
        } catch (const json::exception& e) {
            return fail(std::string("the command line is not one this helper reads: ") + e.what());
        }
        if (auto differs = differingVariables(environment, commandLineEnvironment, kContextVariables))
            return fail("the command's environment differs from the helper's: " + *differs);
        if (auto differs = differingVariables(environment, commandLineEnvironment, kCommandLineVariables))
            return fail("the command's environment differs from the helper's: " + *differs);
        // The working folder is this thread's alone (unshare(CLONE_FS) once per worker), so relative paths in the
        // command line resolve as they would in the command; back to the root afterwards, so that no folder of
        // a command stays in use.
        thread_local bool ownFolder = ::unshare(CLONE_FS) == 0;
        if (!ownFolder)
            return fail("cannot give this thread a working folder of its own: " + errnoText(errno));
        if (::fchdir(folder.get()) != 0)
            return fail("cannot enter the command's working folder: " + errnoText(errno));
        Environment theirs;
        for (const auto name : kContextVariables)
            theirs[std::string(name)] = environment[std::string(name)];
        auto parsed = options.commandLine(args, theirs);
        (void)::chdir("/");
        if (!parsed)
            return fail(parsed.error());
        Received out;
        out.request = std::move(*parsed);
        out.settled = !out.request.policyFromAsked;
        return out;
    }

    void decline(int fd, const std::string& why, pid_t pid)
    {
        (void)writeFrame(fd, kDeclined, why);
        log(fmt::format("pid {}: declined: {}", pid, why));
        const std::lock_guard lock(mutex);
        ++stats.refused;
    }

    // A command that is not a run (Request::task), with the store's engine, made the first time.
    void serveTask(int fd, pid_t pid, Request& request)
    {
        if (utf8::firstInvalid(request.store.path.string()) != std::string_view::npos) {
            decline(fd, "not served here: a store path that is not UTF-8", pid);
            return;
        }
        auto store = takeStore(request.store);
        if (!store) {
            decline(fd, "the store: " + store.error().message, pid);
            return;
        }
        if (!store->open.engine) {
            auto engine = SandboxEngine::open(*store->open.store);
            if (!engine) {
                // The command opens it itself, and says what is wrong as it would without a helper.
                decline(fd, "the store's sandboxes: " + engine.error().message, pid);
                return;
            }
            store->open.engine = std::move(*engine);
            store->open.engine->watchWorkspaces();
        }
        std::atomic<bool> cancel{false};
        const auto watching = watch(fd, &cancel);
        if (!watching) {
            giveBack(request.store, std::move(*store));
            decline(fd, watching.error().message, pid);
            return;
        }
        if (!writeFrame(fd, kAccepted, {})) {
            unwatch(fd, *watching);
            giveBack(request.store, std::move(*store));
            return;
        }
        const auto began = Clock::now();
        const Reply reply = request.task(*store->open.engine, &cancel);
        unwatch(fd, *watching);
        giveBack(request.store, std::move(*store));
        const bool answered = writeChunks(fd, kOut, reply.out) && writeChunks(fd, kErr, reply.err)
                              && writeFrame(fd, kStatus, json{{"status", reply.status}}.dump());
        log(fmt::format("pid {}: as typed: {}: exit status {} in {:.1f} ms{}", pid, request.taskName, reply.status,
                        std::chrono::duration<double, std::milli>(Clock::now() - began).count(),
                        cancel.load() ? ", cancelled: the command went away" : answered ? "" : ", not answered"));
        const std::lock_guard lock(mutex);
        ++stats.served;
    }

    void serveConnection(UniqueFd fd)
    {
        pid_t pid = 0;
        if (auto why = whyNotServable(fd.get(), &pid)) {
            decline(fd.get(), "refused: " + *why, pid);
            return;
        }
        if (!writeFrame(fd.get(), kHello, {}))
            return;
        UniqueFd passed;
        auto frame = readFirstFrame(fd.get(), Clock::now() + std::chrono::seconds(2), passed);
        if (!frame && frame.error().message == "ended")
            return; // the command found it had nothing to ask after all (its policy or snippet was refused)
        if (!frame || (frame->kind != kRequest && frame->kind != kCommandLine)) {
            decline(fd.get(), frame ? std::string("not a request") : "no request: " + frame.error().message, pid);
            return;
        }
        const json in = json::parse(frame->payload, nullptr, false);
        if (in.is_discarded()) {
            decline(fd.get(), "the request is not JSON", pid);
            return;
        }
        auto received = frame->kind == kRequest ? requestFromJson(in) : requestFromCommandLine(in, passed);
        if (!received) {
            decline(fd.get(), received.error().message, pid);
            return;
        }
        Request& request = received->request;
        const bool typed = frame->kind == kCommandLine;
        if (request.context != context) {
            const auto differs = differingVariables(request.context, context, kContextVariables);
            decline(fd.get(), "the command's environment differs from the helper's: "
                                  + differs.value_or(std::string("it names other variables")), pid);
            return;
        }
        if (request.task) {
            serveTask(fd.get(), pid, request);
            return;
        }
        if (!received->settled) {
            auto policy = policyOf(received->policyText, request.order.asked);
            if (!policy) {
                decline(fd.get(), policy.error().message, pid);
                return;
            }
            request.order.request.policy = std::move(*policy);
        }
        if (auto why = Client::whyNotAskable(request)) {
            decline(fd.get(), "not served here: " + *why, pid);
            return;
        }
        auto store = takeStore(request.store);
        if (!store) {
            // The command opens it itself, and says what is wrong with it as it would without a helper.
            decline(fd.get(), "the store: " + store.error().message, pid);
            return;
        }
        std::shared_ptr<WarmPool> pool = poolFor(request.order.request);
        // The command going away cancels the run, as stop() does.
        std::atomic<bool> cancel{false};
        const auto watching = watch(fd.get(), &cancel);
        if (!watching) {
            giveBack(request.store, std::move(*store));
            decline(fd.get(), watching.error().message, pid);
            return;
        }
        if (!writeFrame(fd.get(), kAccepted, {})) {
            unwatch(fd.get(), *watching);
            giveBack(request.store, std::move(*store));
            return;
        }
        RunnerOptions runnerOptions;
        runnerOptions.warmPool = pool;
        const Runner runner(runnerOptions);
        const bool warm = pool != nullptr;
        const RunRequest kind = request.order.request;
        const auto began = Clock::now();
        const Reply reply = handler(*store->open.store, runner, std::move(request.order), request.json, &cancel);
        unwatch(fd.get(), *watching);
        giveBack(request.store, std::move(*store));
        const bool answered = writeChunks(fd.get(), kOut, reply.out) && writeChunks(fd.get(), kErr, reply.err)
                              && writeFrame(fd.get(), kStatus, json{{"status", reply.status}}.dump());
        log(fmt::format("pid {}: {}{} {} ({} sandbox): exit status {} in {:.1f} ms{}", pid,
                        typed ? "as typed: " : "", toString(kind.language),
                        kind.label, warm ? "warm" : "cold", reply.status,
                        std::chrono::duration<double, std::milli>(Clock::now() - began).count(),
                        cancel.load() ? ", cancelled: the command went away" : answered ? "" : ", not answered"));
        {
            const std::lock_guard lock(mutex);
            ++stats.served;
        }
        if (!warm)
            addPoolFor(kind);
    }
};

Server::Server(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

namespace {

// Socket activation (the protocol of systemd's sd_listen_fds(3)): LISTEN_PID is this process and LISTEN_FDS 1,
// the listening socket on descriptor 3, bound to `expected`. Nullopt when this process was not started so.
Result<std::optional<UniqueFd>> activatedSocket(const fs::path& expected)
{
    const char* pid = std::getenv("LISTEN_PID");
    const char* fds = std::getenv("LISTEN_FDS");
    if (!pid || !fds || std::to_string(::getpid()) != pid)
        return std::nullopt; // not passed, or meant for another process
    const std::string count = fds;
    // Not for the runs' processes, nor for anything this one starts.
    ::unsetenv("LISTEN_PID");
    ::unsetenv("LISTEN_FDS");
    ::unsetenv("LISTEN_FDNAMES");
    if (count != "1")
        return fail(fmt::format("socket activation passed {} sockets; the helper takes one", count));
    constexpr int kFd = 3; // SD_LISTEN_FDS_START
    auto option = [](int name) {
        int value = -1;
        socklen_t size = sizeof value;
        return ::getsockopt(kFd, SOL_SOCKET, name, &value, &size) == 0 ? value : -1;
    };
    if (option(SO_DOMAIN) != AF_UNIX || option(SO_TYPE) != SOCK_STREAM || option(SO_ACCEPTCONN) != 1)
        return fail("the socket that socket activation passed (descriptor 3) is not a listening UNIX stream socket");
    sockaddr_un bound{};
    socklen_t size = sizeof bound;
    if (::getsockname(kFd, reinterpret_cast<sockaddr*>(&bound), &size) != 0)
        return fail("the socket that socket activation passed: " + errnoText(errno));
    const std::string path(bound.sun_path, ::strnlen(bound.sun_path, sizeof bound.sun_path));
    if (path != expected.string())
        return fail(fmt::format("the socket that socket activation passed is {}, not {}",
                                path.empty() ? std::string("unnamed") : path, expected.string()));
    if (::fcntl(kFd, F_SETFD, FD_CLOEXEC) != 0)
        return fail("the socket that socket activation passed: " + errnoText(errno));
    return UniqueFd(kFd);
}

} // namespace

Result<std::unique_ptr<Server>> Server::listen(ServerOptions options, Handler handler)
{
    auto folder = privateRuntimeFolder();
    if (!folder)
        return fail(folder.error().message + ": the helper refuses to listen there");
    auto impl = std::make_unique<Impl>();
    impl->options = std::move(options);
    impl->handler = std::move(handler);
    impl->path = *folder / kSocketName;
    auto activated = activatedSocket(impl->path);
    if (!activated)
        return std::unexpected(activated.error());
    if (*activated) {
        // The socket and its file are systemd's: it keeps them, and starts the helper again on the next command.
        impl->listener = std::move(**activated);
        impl->activated = true;
        return start(std::move(impl));
    }
    if (auto other = Client::connect())
        return fail(fmt::format("a helper already answers on {}", impl->path.string()));
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (impl->path.native().size() >= sizeof address.sun_path)
        return fail(impl->path.string() + ": too long a socket path");
    std::memcpy(address.sun_path, impl->path.c_str(), impl->path.native().size() + 1);
    impl->listener.reset(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!impl->listener.valid())
        return fail("socket: " + errnoText(errno));
    ::unlink(impl->path.c_str()); // a socket left by a helper that was killed: nobody answered on it
    const mode_t before = ::umask(0177);
    const int bound = ::bind(impl->listener.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address);
    ::umask(before);
    if (bound != 0 || ::listen(impl->listener.get(), 64) != 0)
        return fail(fmt::format("cannot listen on {}: {}", impl->path.string(), errnoText(errno)));
    impl->socketFile = fileId(impl->path.string()).value_or(FileId{});
    return start(std::move(impl));
}

Result<std::unique_ptr<Server>> Server::start(std::unique_ptr<Impl> impl)
{
    if (::pipe2(impl->wake.data(), O_CLOEXEC | O_NONBLOCK) != 0)
        return fail("pipe: " + errnoText(errno));
    impl->epoll.reset(::epoll_create1(EPOLL_CLOEXEC));
    impl->watcherWake.reset(::eventfd(0, EFD_CLOEXEC));
    epoll_event wakeEvent{};
    wakeEvent.events = EPOLLIN;
    wakeEvent.data.u64 = 0;
    if (!impl->epoll.valid() || !impl->watcherWake.valid()
        || ::epoll_ctl(impl->epoll.get(), EPOLL_CTL_ADD, impl->watcherWake.get(), &wakeEvent) != 0)
        return fail("cannot watch connections: " + errnoText(errno));
    impl->watcher = std::thread([impl = impl.get()] { impl->watchConnections(); });
    return std::unique_ptr<Server>(new Server(std::move(impl)));
}

Server::~Server()
{
    Impl& impl = *m_impl;
    impl.listener.reset();
    // Only the socket this helper made (not one socket activation passed): another helper may have taken the
    // name since.
    if (const auto file = fileId(impl.path.string()); !impl.activated && file && *file == impl.socketFile)
        ::unlink(impl.path.c_str());
    {
        std::unique_lock lock(impl.mutex);
        impl.stopping.store(true);
        for (auto& [id, cancel] : impl.watched)
            cancel->store(true);
        impl.workReady.notify_all();
        impl.ended.wait(lock, [&] { return impl.active == 0; });
    }
    const std::uint64_t one = 1;
    (void)!::write(impl.watcherWake.get(), &one, sizeof one);
    if (impl.watcher.joinable())
        impl.watcher.join();
    for (auto& worker : impl.workers)
        worker.join();
    impl.pools.clear();
    impl.stores.clear();
}

void Server::stop()
{
    m_impl->stop();
}

const fs::path& Server::path() const
{
    return m_impl->path;
}

bool Server::activated() const
{
    return m_impl->activated;
}

Server::Stats Server::stats() const
{
    const std::lock_guard lock(m_impl->mutex);
    Stats out = m_impl->stats;
    out.pools = m_impl->pools.size();
    return out;
}

std::string Server::serve()
{
    Impl& impl = *m_impl;
    for (;;) {
        std::array<pollfd, 2> fds{{{impl.listener.get(), POLLIN, 0}, {impl.wake[0], POLLIN, 0}}};
        const int ready = ::poll(fds.data(), fds.size(), 1000);
        if (ready < 0 && errno != EINTR)
            return "poll: " + errnoText(errno);
        if (fds[1].revents & POLLIN)
            return "stopped";
        if (ready > 0 && (fds[0].revents & POLLIN)) {
            UniqueFd client(::accept4(impl.listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
            if (client.valid())
                impl.enqueue(std::move(client));
            continue;
        }
        // Every second, or so: the idle time, and whether this executable is still the one installed.
        std::array<char, 4096> exe{};
        const ssize_t n = ::readlink("/proc/self/exe", exe.data(), exe.size() - 1);
        if (n > 0 && std::string_view(exe.data(), static_cast<std::size_t>(n)).ends_with(" (deleted)"))
            return "its executable was replaced or removed";
        const std::lock_guard lock(impl.mutex);
        if (impl.options.idleExit.count() > 0 && impl.active == 0
            && Clock::now() - impl.lastActivity >= impl.options.idleExit)
            return fmt::format("idle for {} s", impl.options.idleExit.count());
    }
}

} // namespace sb::helper
