// The cluster module without a cluster: the configuration's form and its refusals, the array specs sbatch
// takes, shell quoting of the job's script, and running a client command (its status, its outputs, a timeout).
// The backend against a real Slurm is tests/cli/test_cli_slurm.cpp.

#include "cluster/command.h"
#include "cluster/config.h"
#include "cluster/slurm.h"

#include <gtest/gtest.h>

namespace sb::cluster {
namespace {

using namespace std::chrono_literals;

std::string refusal(const std::string& yaml)
{
    auto config = parseClusterConfig(yaml, "config.yaml");
    return config ? std::string() : config.error().message;
}

TEST(ClusterConfig, ReadsTheSlurmSection)
{
    auto config = parseClusterConfig("slurm:\n  spool: /shared/sb\n  partition: batch\n  sandbench: /usr/bin/sandbench\n"
                                     "  retries: 0\n  time_limit: 90\n  poll_ms: 20\n",
                                     "config.yaml");
    ASSERT_TRUE(config) << config.error().message;
    ASSERT_TRUE(config->slurm);
    EXPECT_EQ(config->slurm->spool, "/shared/sb");
    EXPECT_EQ(config->slurm->partition, "batch");
    EXPECT_EQ(config->slurm->sandbench, "/usr/bin/sandbench");
    EXPECT_EQ(config->slurm->retries, 0);
    EXPECT_EQ(config->slurm->timeLimitMinutes, 90);
    EXPECT_EQ(config->slurm->pollMs, 20);
    // Defaults, and a file with nothing in it.
    auto minimal = parseClusterConfig("slurm: {spool: /s}\n", "config.yaml");
    ASSERT_TRUE(minimal && minimal->slurm);
    EXPECT_EQ(minimal->slurm->retries, 2);
    EXPECT_EQ(minimal->slurm->partition, "");
    auto empty = parseClusterConfig("", "config.yaml");
    ASSERT_TRUE(empty);
    EXPECT_FALSE(empty->slurm);
}

TEST(ClusterConfig, RefusesWhatIsNotOfItsFormNamingTheLine)
{
    EXPECT_EQ(refusal("slurm:\n  spool: rel/path\n"), "config.yaml:2: slurm.spool: an absolute path (every node must find it)");
    EXPECT_EQ(refusal("slurm:\n  spool: /s\n  retries: 21\n"), "config.yaml:3: slurm.retries is a whole number from 0 to 20");
    EXPECT_EQ(refusal("slurm:\n  spool: /s\n  poll_ms: fast\n"), "config.yaml:3: slurm.poll_ms is a whole number from 20 to 60000");
    EXPECT_NE(refusal("slurm:\n  spool: /s\n  spoool: /t\n").find("config.yaml:3: slurm: unknown setting 'spoool'"),
              std::string::npos);
    EXPECT_NE(refusal("slurm:\n  partition: p\n").find("slurm: no spool"), std::string::npos);
    EXPECT_NE(refusal("kubernetes: {}\n").find("config.yaml:1: unknown section 'kubernetes'"), std::string::npos);
    EXPECT_NE(refusal("- a\n- b\n").find("a mapping of sections"), std::string::npos);
    EXPECT_NE(refusal("slurm: [\n").find("config.yaml:"), std::string::npos);
    EXPECT_NE(refusal("slurm: 3\n").find("slurm: a mapping of settings"), std::string::npos);
    EXPECT_NE(refusal("slurm:\n  spool: [/a, /b]\n").find("slurm.spool: a non-empty text"), std::string::npos);
}

TEST(ClusterSlurm, ArraySpecsAndShellQuoting)
{
    EXPECT_EQ(arraySpec({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
    EXPECT_EQ(arraySpec({8, 7, 5, 2, 1, 0, 1}), "0-2,5,7-8");
    EXPECT_EQ(arraySpec({3}), "3");
    EXPECT_EQ(arraySpec({}), "");
    EXPECT_EQ(shellQuote("plain"), "'plain'");
    EXPECT_EQ(shellQuote("it's $HOME `x`"), "'it'\\''s $HOME `x`'");
}

TEST(ClusterCommand, StatusOutputsAndTimeout)
{
    auto r = runCommand({"/bin/sh", "-c", "echo out; echo first >&2; echo last >&2; exit 3"});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->exitStatus, 3);
    EXPECT_FALSE(r->ok());
    EXPECT_EQ(r->out, "out\n");
    EXPECT_EQ(r->message(), "last");
    auto quiet = runCommand({"/bin/sh", "-c", "echo only out"});
    ASSERT_TRUE(quiet);
    EXPECT_TRUE(quiet->ok());
    EXPECT_EQ(quiet->message(), "only out");

    const auto started = std::chrono::steady_clock::now();
    auto slow = runCommand({"/bin/sh", "-c", "echo waiting >&2; sleep 30"}, 300ms);
    ASSERT_FALSE(slow);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
    EXPECT_EQ(slow.error().message, "/bin/sh: did not finish within 0.3 s: waiting");

    auto missing = runCommand({"no-such-program-sandbench"});
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("no-such-program-sandbench: cannot run it"), std::string::npos);
}

} // namespace
} // namespace sb::cluster
