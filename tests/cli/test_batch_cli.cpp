// sandbench batch here: every file run and recorded as `run` records one, the outcomes counted, the exit
// status that of the first run that did not end ok; a file that cannot be read refuses the whole batch.

#include "cli_fixture.h"

namespace sb::clitest {
namespace {

TEST_F(Cli, BatchRunsAndRecordsEveryFile)
{
    write("ok.py", "print('hello')\n");
    write("blocked.py", "import socket\nsocket.socket()\n");
    write("fails.sh", "echo to stderr >&2\nexit 3\n");
    write("list.txt", "# the snippets\nok.py\n\n  blocked.py\nfails.sh\n");
    const std::string list = quoted((m_dir / "list.txt").string());

    const auto r = cli("batch --from " + list + " --json" + store());
    EXPECT_EQ(r.status, 11) << r.out; // blocked: the first run that did not end ok
    const auto out = nlohmann::json::parse(r.out);
    EXPECT_EQ(out["backend"], "local");
    ASSERT_EQ(out["runs"].size(), 3u);
    EXPECT_EQ(out["runs"][0]["outcome"], "ok");
    EXPECT_EQ(out["runs"][0]["stdout"], "hello\n");
    EXPECT_EQ(out["runs"][1]["outcome"], "blocked");
    EXPECT_FALSE(out["runs"][1]["blocked"].empty());
    EXPECT_EQ(out["runs"][2]["outcome"], "error");
    EXPECT_EQ(out["runs"][2]["exit_code"], 3);
    EXPECT_EQ(out["outcomes"], (nlohmann::json{{"ok", 1}, {"blocked", 1}, {"error", 1}}));
    for (const auto& run : out["runs"])
        EXPECT_EQ(run["recorded"], true);

    // Recorded as runs are, and audited.
    const auto history = nlohmann::json::parse(cli("history --json" + store()).out);
    ASSERT_EQ(history.size(), 3u);
    for (const auto& run : out["runs"]) {
        bool found = false;
        for (const auto& h : history)
            found = found || h["run_id"] == run["run_id"];
        EXPECT_TRUE(found) << run["run_id"];
    }
    EXPECT_EQ(cli("audit verify" + store()).status, 0);

    // Files named and listed together, all ok: exit status 0 and a line each.
    write("ok2.py", "print(2)\n");
    const auto text = cli("batch " + quoted((m_dir / "ok.py").string()) + " " + quoted((m_dir / "ok2.py").string()) + store());
    EXPECT_EQ(text.status, 0) << text.out;
    EXPECT_NE(text.out.find("2 runs: 2 ok"), std::string::npos) << text.out;

    // A file that cannot be read refuses the batch before anything runs.
    const auto missing = cli("batch " + quoted((m_dir / "ok.py").string()) + " nope.py" + store(), true);
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.out.find("nope.py"), std::string::npos) << missing.out;
    EXPECT_EQ(nlohmann::json::parse(cli("history --json" + store()).out).size(), 5u);
    EXPECT_EQ(cli("batch" + store()).status, 1);
}

} // namespace
} // namespace sb::clitest
