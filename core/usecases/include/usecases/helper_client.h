#pragma once

// The command's side of the run helper (usecases/run_helper.h): finding it, checking it, and asking it. Kept
// apart from the helper's side so that the small client (app/client), which hands run and exec over before
// anything else, links no more than this.

#include "util/error.h"
#include "util/unique_fd.h"

#include <chrono>
#include <expected>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb::helper {

struct Request; // usecases/run_helper.h

// The socket: privateRuntimeFolder()/helper.sock.
Result<std::filesystem::path> socketPath();

// SANDBENCH_HELPER=off: commands never ask a helper.
bool disabledByEnvironment();

// The variables whose values a run and its record read from the environment: where runs work (TMPDIR), the
// audit key's folder (SANDBENCH_AUDIT_KEYS, XDG_CONFIG_HOME, HOME), the user's name (USER), time zones, and
// the start trace. A test checks that every variable core reads is here or says why it does not matter.
extern const std::vector<std::string_view> kContextVariables;
using Environment = std::map<std::string, std::optional<std::string>>;
Environment contextOfThisProcess();

// The variables a command line's parsing reads besides those: where the store is (Store::locate). A command
// line is served only when the command's values of these and kContextVariables are the helper's own, so that
// the helper, parsing it, reads what the command would have read.
extern const std::vector<std::string_view> kCommandLineVariables;
Environment commandLineEnvironmentOfThisProcess(); // kContextVariables and kCommandLineVariables

// What the front end printed, and its exit status.
struct Reply {
    std::string out;
    std::string err;
    int status = 0;
};

// Why a command's run does not go through the helper, or went wrong in it.
struct AskError {
    std::string message;
    // The helper took the run and then failed to answer: the run may have run, and may be in the store. The
    // command reports it and must not run it again. Otherwise nothing ran: the command runs it itself.
    bool taken = false;
};

// The command's side: a connection to a helper that passed the checks.
class Client {
public:
    // Connects and checks the helper; an error when there is none to ask (no socket, nobody listening, another
    // user's, one that does not run the command line's program found from this one (util/program_files.h),
    // SANDBENCH_HELPER=off). Costs a connect and a few reads of /proc.
    static Result<Client> connect();

    // Whether `request` can be asked at all (usecases/run_helper.h).
    static std::optional<std::string> whyNotAskable(const Request& request);

    // Sends the request (defined with it, in run_helper.cpp) and waits for the reply. `acceptTimeout`: how long the helper may take to say it takes
    // the run; the run itself may take as long as its policy lets it.
    std::expected<Reply, AskError> ask(const Request& request,
                                       std::chrono::milliseconds acceptTimeout = std::chrono::seconds(2));

    // The same for a command line as the command was given (`run ...`, `exec ...`, without the program's
    // name): the helper parses it with the command's own definitions (ServerOptions::commandLine), in this
    // process's working folder (passed as a descriptor) and environment, and serves the request that makes,
    // or declines it (a usage error, --help, a run that is not askable), and then the command parses it itself.
    std::expected<Reply, AskError> askCommandLine(const std::vector<std::string>& args,
                                                  std::chrono::milliseconds acceptTimeout = std::chrono::seconds(2));

private:
    explicit Client(UniqueFd fd) : m_fd(std::move(fd)) {}
    std::expected<Reply, AskError> awaitReply(std::chrono::milliseconds acceptTimeout);
    UniqueFd m_fd;
};

} // namespace sb::helper
