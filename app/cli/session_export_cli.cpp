// sandbench sessions export ID --format jsonl|html [-o FILE]

#include "agents/session_export.h"
#include "command_line.h"
#include "commands.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace sb::cli {

namespace {

struct ExportOptions {
    std::string store;
    std::string id;
    std::string format = "jsonl";
    std::string output; // "" or "-": standard output
};

using Writer = std::function<Result<void>(const agents::ShowSink&)>;

// Writes to FILE through FILE.partial-PID, renamed over it once whole: a failed export leaves no half file.
Result<void> writeFile(const std::filesystem::path& path, const Writer& write)
{
    const std::filesystem::path partial = path.string() + fmt::format(".partial-{}", ::getpid());
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!out)
        return fail(fmt::format("cannot write {}: {}", partial.string(), std::strerror(errno)));
    auto written = write([&](std::string_view text) -> Result<void> {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!out)
            return fail(fmt::format("cannot write {}", partial.string()));
        return {};
    });
    out.close();
    std::error_code ignored;
    if (!written || !out) {
        std::filesystem::remove(partial, ignored);
        return written ? fail(fmt::format("cannot write {}", partial.string())) : written;
    }
    std::error_code error;
    std::filesystem::rename(partial, path, error);
    if (error) {
        std::filesystem::remove(partial, ignored);
        return fail(fmt::format("cannot write {}: {}", path.string(), error.message()));
    }
    return {};
}

int exportCommand(const ExportOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    agents::SessionStore sessions(*store);
    auto session = sessions.find(options.id);
    if (!session)
        return reportError(session.error().message);
    const Writer write = [&](const agents::ShowSink& sink) {
        return options.format == "html" ? agents::writeSessionHtml(sessions, *session, sink)
                                        : agents::writeSessionJsonLines(sessions, *session, sink);
    };
    if (options.output.empty() || options.output == "-") {
        auto written = write([](std::string_view text) -> Result<void> {
            std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
            return {};
        });
        std::cout.flush();
        return written ? 0 : reportError(written.error().message);
    }
    auto written = writeFile(options.output, write);
    if (!written)
        return reportError(written.error().message);
    std::cerr << fmt::format("session {} ({} steps) written to {}\n", session->id, session->steps, options.output);
    return 0;
}

} // namespace

void addSessionExportCommand(CommandLine& commandLine)
{
    auto* sessionsCmd = commandLine.app().get_subcommand("sessions");
    auto options = std::make_shared<ExportOptions>();
    auto* exportCmd = sessionsCmd->add_subcommand(
        "export", "Write a session out: JSON Lines (a line for the session, then one per step) or a readable HTML "
                  "report for a reviewer");
    exportCmd->add_option("id", options->id, "Session id, or a unique prefix of at least 4 characters")->required();
    exportCmd->add_option("--format", options->format, "jsonl or html")
        ->check(CLI::IsMember({"jsonl", "html"}))
        ->capture_default_str();
    exportCmd->add_option("-o,--output", options->output, "The file to write (default: standard output)");
    addStoreOption(exportCmd, options->store);
    commandLine.onParsed(exportCmd, [options] { return exportCommand(*options); });
}

} // namespace sb::cli
