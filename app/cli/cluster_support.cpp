#include "cluster_support.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <vector>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace sb::cli {

namespace {

std::atomic<bool> g_cancel{false};

extern "C" void onCancelSignal(int)
{
    g_cancel = true;
}

} // namespace

void addBackendOptions(CLI::App* command, BackendOptions& options, std::string_view what, bool shards)
{
    auto* backend = command->add_option("--backend", options.backend,
                                        fmt::format("Where to run: local (default), or slurm: {} as Slurm jobs "
                                                    "(configured in ~/.config/sandbench/config.yaml, docs/SCALING.md)",
                                                    what))
                        ->check(CLI::IsMember({"local", "slurm"}));
    if (shards)
        command->add_option("--shards", options.shards,
                            "With --backend slurm: the shards to cut the data into, one Slurm task each "
                            "(default: one per node of the partition)")
            ->check(CLI::Range(std::size_t{1}, std::size_t{1000}))
            ->needs(backend);
    command->add_option("--partition", options.partition,
                        "With --backend slurm: the Slurm partition (default: slurm.partition, else Slurm's)")
        ->needs(backend);
}

Result<cluster::SlurmSettings> slurmSettings()
{
    auto config = cluster::loadClusterConfig();
    if (!config)
        return std::unexpected(config.error());
    if (!config->slurm)
        return fail(fmt::format("--backend slurm: no Slurm is configured: add a slurm section with a spool folder "
                                "to {} (docs/SCALING.md)",
                                config->file.string()));
    return *config->slurm;
}

Result<std::size_t> shardCount(const BackendOptions& options, const cluster::SlurmSettings& settings)
{
    if (options.shards > 0)
        return options.shards;
    auto partition = cluster::choosePartition(settings, options.partition);
    if (!partition)
        return std::unexpected(partition.error());
    auto list = cluster::partitions();
    if (!list)
        return std::unexpected(list.error());
    for (const auto& p : *list) {
        if (p.name == *partition)
            return static_cast<std::size_t>(std::max(1, p.nodes));
    }
    return std::size_t{1};
}

std::string commandTitle()
{
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string arg;
    std::vector<std::string> args;
    while (std::getline(in, arg, '\0'))
        args.push_back(args.empty() ? std::filesystem::path(arg).filename().string() : cluster::shellQuote(arg));
    return fmt::format("{}", fmt::join(args, " "));
}

std::optional<std::size_t> slurmArrayTaskId()
{
    const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
    char* end = nullptr;
    const long long index = id ? std::strtoll(id, &end, 10) : -1;
    if (!id || end == id || *end != '\0' || index < 0)
        return std::nullopt;
    return static_cast<std::size_t>(index);
}

const std::atomic<bool>* catchCancel()
{
    struct sigaction cancel {};
    cancel.sa_handler = onCancelSignal;
    ::sigaction(SIGINT, &cancel, nullptr);
    ::sigaction(SIGTERM, &cancel, nullptr);
    return &g_cancel;
}

void ClusterProgress::show(std::string_view phase, const cluster::StageProgress& p)
{
    if (!m_decided) {
        m_inPlace = ::isatty(STDERR_FILENO) == 1;
        m_decided = true;
    }
    std::string line = fmt::format("slurm: {}", phase);
    if (p.tasks > 0) {
        line += fmt::format(": {} queued, {} running, {} of {} done", p.queued, p.running, p.done, p.tasks);
        if (p.retried > 0)
            line += fmt::format(", {} retried", p.retried);
        if (p.recordsDone > 0)
            line += fmt::format(", {} records", p.recordsDone);
        if (!p.jobs.empty())
            line += fmt::format(" (job {})", fmt::join(p.jobs, ", "));
    }
    if (line == m_last)
        return;
    m_last = line;
    if (m_inPlace)
        std::cerr << "\r\033[K" << line << std::flush;
    else
        std::cerr << line << '\n';
}

void ClusterProgress::finish()
{
    if (m_inPlace && !m_last.empty())
        std::cerr << '\n';
    m_last.clear();
}

} // namespace sb::cli
