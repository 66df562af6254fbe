#pragma once

// The user's configuration of the cluster backends: a YAML file, $SANDBENCH_CONFIG when set, else
// $XDG_CONFIG_HOME/sandbench/config.yaml (~/.config/sandbench/config.yaml). No file means no cluster is
// configured; a file that is not of this form is an error naming its line, never half read.
//
//   slurm:
//     spool: /shared/sandbench      # a folder every node sees at this path: shards, partial results, runs
//     partition: batch              # the partition jobs go to when --partition is not given (default: Slurm's)
//     sandbench: /usr/bin/sandbench # the program the nodes run (default: the path of the one submitting)
//     retries: 2                    # times a failed task is submitted again before the command fails
//     time_limit: 60                # minutes a task may run (default: the partition's limit)
//     poll_ms: 250                  # how often the jobs' states are read

#include "util/error.h"

#include <filesystem>
#include <optional>
#include <string>

namespace sb::cluster {

struct SlurmSettings {
    std::filesystem::path spool;
    std::string partition;
    std::filesystem::path sandbench;
    int retries = 2;
    int timeLimitMinutes = 0; // 0: the partition's
    int pollMs = 250;
};

struct ClusterConfig {
    std::filesystem::path file; // where it was read from (or would be)
    bool exists = false;
    std::optional<SlurmSettings> slurm;
};

// Where the configuration is read from.
std::filesystem::path configPath();

// The configuration at configPath(); a missing file is an empty configuration.
Result<ClusterConfig> loadClusterConfig();
// The same from text, `file` naming it in messages.
Result<ClusterConfig> parseClusterConfig(const std::string& text, const std::filesystem::path& file);

} // namespace sb::cluster
