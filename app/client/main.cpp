// sandbench: the command a person types. A run or exec goes to the run helper as it was typed, before anything
// else (usecases/helper_client.h); everything else, and what the helper does not take, is done by the command
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

// A run or exec the helper took: its exit status, its output written as the command line writes it; nullopt
// when there is no helper, it did not take the command line, or the command line is not one to send: --help,
// standard input (-) and --sandbox are never served by the helper, and are not worth its round trip.
std::optional<int> throughTheHelper(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    for (const auto& arg : args) {
        if (arg == "--")
            break;
        if (arg == "-" || arg.starts_with("--sandbox") || arg == "--help" || arg == "-h")
            return std::nullopt;
    }
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
    const std::string_view command = argc > 1 ? argv[1] : "";
    if (command == "run" || command == "exec") {
        if (const auto status = throughTheHelper(argc, argv))
            return *status;
    }
    const auto program = sb::programs::locate(sb::programs::kCommandLine);
    if (!program) {
        sb::writeFully(STDERR_FILENO, "sandbench: " + program.error().message + " (an incomplete installation)\n");
        return kExitFailure;
    }
    ::execv(program->c_str(), argv);
    sb::writeFully(STDERR_FILENO, "sandbench: cannot start " + program->string() + ": " + std::strerror(errno) + "\n");
    return kExitFailure;
}
