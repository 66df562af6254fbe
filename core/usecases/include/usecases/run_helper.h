#pragma once

// The run helper: a long-lived process of the user's (`sandbench serve`) that runs and records the command
// line's `run` and `exec` with what each command would otherwise set up for itself: its stores kept open, and
// sandboxes prepared ahead (a warm pool, isolation/warm_pool.h, for each kind of run it served lately). It does
// the command line's `checkpoint create` and `checkpoint restore` too (Request::task), with the sandbox engine it
// keeps on each store, whose watches of the workspaces make a checkpoint walk only what changed. A
// command asks it first and, when anything fails before the helper has taken the run, runs it itself as
// without one: the helper is never required, and a run it serves is the run the command would have made, in
// the same store, under the same policy, recorded before its result is answered.
//
// Fail closed, both ways:
// - The socket is in the user's private runtime folder (util/runtime_folder.h).
// - A command takes the helper's answers only after its hello, whose writer the kernel names (SO_PASSCRED), is
//   this user's process running this executable in the same namespaces: the process that listens may be
//   systemd (socket activation), and a socket file in the folder proves nothing about who answers on it.
// - The helper serves a peer only when it is this user (SO_PEERCRED), runs this very executable (the same file,
//   by device and inode: an upgraded or another build is not the same program), sees the same files (the same
//   mount namespace and root), is in the same user namespace and is not itself confined: a process with
//   no_new_privs or a seccomp filter (every sandboxed run has both) is refused, so that nothing inside a sandbox
//   can have a run made for it outside.
// - The environment a run and its record read (kContextVariables) must be the same on both sides; a policy
//   that copies variables from the caller's environment (env_pass), a run in a sandbox's workspace and a
//   request the helper cannot carry (text that is not UTF-8) are not asked.
// - A command line (Client::askCommandLine) is parsed by the helper only after those checks, with the command's
//   own definitions (ServerOptions::commandLine), on a thread whose working folder is the command's (passed as
//   a descriptor) and no other thread's, and only when the variables the parsing reads (kCommandLineVariables)
//   are the helper's own: it reads the files the command names as the command would.
// - A run the command settled itself travels with its policy as its canonical rendering (renderPolicy), which
//   the helper parses back; a rendering that does not come back the same is refused. Without --policy, what the command asked (--level,
//   --timeout-ms, --memory-mb) travels instead and the helper resolves it as the command would
//   (resolveRunPolicy): the default level is the deepest this machine offers, which the helper probed in the
//   same user namespace as the command (a peer in another is refused).
// - A command that goes away while its run is under way (killed, Ctrl-C) cancels the run.
//
// The wire: frames of a 4-byte little-endian length, a kind byte and a payload (kind_and_payload below).

#include "sandboxes/sandbox_engine.h"
#include "store/store.h"
#include "usecases/helper_client.h"
#include "usecases/run.h"
#include "util/error.h"
#include "util/unique_fd.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb::helper {

// A command other than a run that the helper does as the front end would (checkpoint create and restore): what
// it prints and its exit status, given the store open and the sandbox engine kept with it between commands,
// which watches the workspaces it saves (SandboxEngine::watchWorkspaces). `cancel` is set when the command goes
// away.
using Task = std::function<Reply(SandboxEngine& engine, const std::atomic<bool>* cancel)>;

// What a command asks.
struct Request {
    RunOrder order;        // no sandbox, no workspace, no channel
    // The helper resolves the run's policy from order.asked (resolveRunPolicy) rather than taking
    // order.request.policy: for a command without --policy, whose policy depends on nothing of the command's
    // own (not its folder), so that the command does not probe what the helper has probed already.
    bool policyFromAsked = false;
    StoreLocation store;   // as the command located it
    Environment context;   // contextOfThisProcess() of the command
    bool json = false;     // how the front end prints the result
    // Only from a command line the helper parsed (ServerOptions::commandLine): a command that is not a run,
    // done in place of one against the store at `store`; `taskName` names it in the helper's log.
    Task task;
    std::string taskName;
};

// What the helper does with a run, given an open store and a Runner drawing from a pool of its kind: the front
// end's runAndRecord and its printing. `cancel` is set when the command goes away.
using Handler = std::function<Reply(Store& store, const Runner& runner, RunOrder order, bool json,
                                    const std::atomic<bool>* cancel)>;

// The request a command line makes (Client::askCommandLine), as the command would have made it, or why it is
// not one to serve here. Called on a thread whose working folder is the command's; `context` is the command's
// (contextOfThisProcess as the command sent it), for Request::context.
using CommandLineParser =
    std::function<std::expected<Request, std::string>(const std::vector<std::string>& args, const Environment& context)>;

struct ServerOptions {
    // Exits after this long without a command (0: never).
    std::chrono::seconds idleExit{600};
    // Warm pools: at most this many kinds of run, each with `poolSize` sandboxes ready.
    std::size_t poolKinds = 4;
    std::size_t poolSize = 2;
    // One line per connection: what was served, or why a peer was refused.
    std::function<void(std::string_view)> log;
    // Parses the command lines commands send; without it they are declined.
    CommandLineParser commandLine;
};

// The helper's side. One listener per user: a second one refuses to start while the first answers.
// Started by socket activation (systemd's LISTEN_PID/LISTEN_FDS: packaging/systemd/sandbench.socket), it serves
// the socket it was passed, which must be the one in the user's private runtime folder, and leaves it in place
// when it ends.
class Server {
public:
    static Result<std::unique_ptr<Server>> listen(ServerOptions options, Handler handler);
    ~Server(); // stops listening; runs under way are cancelled and waited for; the pools end their sandboxes
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Serves until stop() (from a signal handler too), the idle time is up, or this executable was replaced.
    // Why it ended, as a sentence.
    std::string serve();
    void stop();

    const std::filesystem::path& path() const;
    bool activated() const; // serving a socket that socket activation passed

    struct Stats {
        std::uint64_t served = 0;
        std::uint64_t refused = 0;
        std::size_t pools = 0;
    };
    Stats stats() const;

private:
    struct Impl;
    explicit Server(std::unique_ptr<Impl> impl);
    static Result<std::unique_ptr<Server>> start(std::unique_ptr<Impl> impl); // the watcher, then the server

    std::unique_ptr<Impl> m_impl;
};

} // namespace sb::helper
