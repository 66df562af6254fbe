// sandbench: the command a person types. A run or exec, a checkpoint create or restore goes to the run helper as
// it was typed, before anything else (usecases/helper_client.h); everything else, and what the helper does not take, is done by the command
// line's own program, sandbench-cli, which this one becomes (execv). A process of this small program costs a
// fraction of one that holds every command: for a run through the helper, that is most of what the command
// costs the person who typed it.

#include "usecases/helper_client.h"
#include "util/fd_io.h"
#include "util/program_files.h"

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace {

// Exit statuses of the command line's (app/cli/commands.h).
constexpr int kExitFailure = 1;

// Whether the command line is one the helper may serve: a run or exec without --help, standard input (-) or
// --sandbox (which the helper never serves, so they are not worth its round trip), or a checkpoint create or
// restore without --help.
bool forTheHelper(const std::vector<std::string>& args)
{
    const bool run = args[0] == "run" || args[0] == "exec";
    if (!run && !(args[0] == "checkpoint" && args.size() > 1 && (args[1] == "create" || args[1] == "restore")))
        return false;
    for (const auto& arg : args) {
        if (arg == "--")
            break;
        if (arg == "--help" || arg == "-h" || (run && (arg == "-" || arg.starts_with("--sandbox"))))
            return false;
    }
    return true;
}

// A command the helper took: its exit status, its output written as the command line writes it; nullopt when
// there is no helper, it did not take the command line, or the command line is not one to send.
std::optional<int> throughTheHelper(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || !forTheHelper(args))
        return std::nullopt;
    if (sb::helper::disabledByEnvironment())
        return std::nullopt;
    auto client = sb::helper::Client::connect();
    if (!client)
        return std::nullopt;
    auto reply = client->askCommandLine(args);
    if (!reply) {
        if (!reply.error().taken)
            return std::nullopt;
        sb::writeFully(STDERR_FILENO, "sandbench: " + reply.error().message + "\n");
        return kExitFailure;
    }
    sb::writeFully(STDOUT_FILENO, reply->out);
    sb::writeFully(STDERR_FILENO, reply->err);
    return reply->status;
}

} // namespace

int main(int argc, char** argv)
{
    if (const auto status = throughTheHelper(argc, argv))
        return *status;
    const auto program = sb::programs::locate(sb::programs::kCommandLine);
    if (!program) {
        sb::writeFully(STDERR_FILENO, "sandbench: " + program.error().message + " (an incomplete installation)\n");
        return kExitFailure;
    }
    ::execv(program->c_str(), argv);
    sb::writeFully(STDERR_FILENO, "sandbench: cannot start " + program->string() + ": " + std::strerror(errno) + "\n");
    return kExitFailure;
}
