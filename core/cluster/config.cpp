#include "cluster/config.h"

#include "util/input_file.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <system_error>

namespace sb::cluster {

namespace {

std::string at(const std::filesystem::path& file, const YAML::Node& node)
{
    return fmt::format("{}:{}", file.string(), node.Mark().line + 1);
}

Result<int> integer(const std::filesystem::path& file, const YAML::Node& node, std::string_view key, int lo, int hi)
{
    int value = 0;
    if (!node.IsScalar() || !YAML::convert<int>::decode(node, value) || value < lo || value > hi)
        return fail(fmt::format("{}: {} is a whole number from {} to {}", at(file, node), key, lo, hi));
    return value;
}

Result<SlurmSettings> slurmSettings(const std::filesystem::path& file, const YAML::Node& node)
{
    if (!node.IsMap())
        return fail(fmt::format("{}: slurm: a mapping of settings (spool, partition, sandbench, retries, "
                                "time_limit, poll_ms)",
                                at(file, node)));
    SlurmSettings s;
    for (const auto& entry : node) {
        const std::string key = entry.first.as<std::string>();
        const YAML::Node& value = entry.second;
        if (key == "spool" || key == "partition" || key == "sandbench") {
            if (!value.IsScalar() || value.Scalar().empty())
                return fail(fmt::format("{}: slurm.{}: a non-empty text", at(file, value), key));
            if (key == "partition")
                s.partition = value.Scalar();
            else if (std::filesystem::path(value.Scalar()).is_relative())
                return fail(fmt::format("{}: slurm.{}: an absolute path (every node must find it)", at(file, value), key));
            else
                (key == "spool" ? s.spool : s.sandbench) = value.Scalar();
        } else if (key == "retries") {
            auto v = integer(file, value, "slurm.retries", 0, 20);
            if (!v)
                return std::unexpected(v.error());
            s.retries = *v;
        } else if (key == "time_limit") {
            auto v = integer(file, value, "slurm.time_limit", 1, 525600);
            if (!v)
                return std::unexpected(v.error());
            s.timeLimitMinutes = *v;
        } else if (key == "poll_ms") {
            auto v = integer(file, value, "slurm.poll_ms", 20, 60000);
            if (!v)
                return std::unexpected(v.error());
            s.pollMs = *v;
        } else {
            return fail(fmt::format("{}: slurm: unknown setting '{}' (spool, partition, sandbench, retries, "
                                    "time_limit, poll_ms)",
                                    at(file, entry.first), key));
        }
    }
    if (s.spool.empty())
        return fail(fmt::format("{}: slurm: no spool (a folder every node sees)", at(file, node)));
    return s;
}

} // namespace

std::filesystem::path configPath()
{
    if (const char* explicitPath = std::getenv("SANDBENCH_CONFIG"); explicitPath && *explicitPath)
        return explicitPath;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg == '/')
        return std::filesystem::path(xdg) / "sandbench" / "config.yaml";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : "/") / ".config" / "sandbench" / "config.yaml";
}

Result<ClusterConfig> parseClusterConfig(const std::string& text, const std::filesystem::path& file)
{
    ClusterConfig config;
    config.file = file;
    config.exists = true;
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        return fail(fmt::format("{}:{}: not YAML: {}", file.string(), e.mark.line + 1, e.msg));
    }
    if (root.IsNull())
        return config;
    if (!root.IsMap())
        return fail(fmt::format("{}: a mapping of sections (slurm)", at(file, root)));
    try {
        for (const auto& entry : root) {
            const std::string key = entry.first.as<std::string>();
            if (key != "slurm")
                return fail(fmt::format("{}: unknown section '{}' (slurm)", at(file, entry.first), key));
            auto slurm = slurmSettings(file, entry.second);
            if (!slurm)
                return std::unexpected(slurm.error());
            config.slurm = std::move(*slurm);
        }
    } catch (const YAML::Exception& e) {
        return fail(fmt::format("{}:{}: {}", file.string(), e.mark.line + 1, e.msg));
    }
    return config;
}

Result<ClusterConfig> loadClusterConfig()
{
    const std::filesystem::path file = configPath();
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) {
        ClusterConfig config;
        config.file = file;
        return config;
    }
    auto text = readInputFile(file, input::kClusterConfig);
    if (!text)
        return std::unexpected(text.error());
    return parseClusterConfig(*text, file);
}

} // namespace sb::cluster
