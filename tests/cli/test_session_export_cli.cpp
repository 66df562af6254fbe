// `sandbench sessions export ID --format jsonl|html [-o FILE]` over a session recorded through the store's API.

#include "cli_fixture.h"

#include "agents/session_store.h"
#include "store/store.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace sb::clitest {
namespace {

using Json = nlohmann::json;

class SessionExportCli : public Cli {
protected:
    // A closed session of `count` steps, the third of them blocked; returns its id.
    std::string recordSession(int count)
    {
        auto store = sb::Store::open(m_store);
        EXPECT_TRUE(store);
        agents::SessionStore sessions(*store);
        agents::SessionInfo info;
        info.command = {"python3", "agent.py"};
        info.sandbox = "try";
        auto live = sessions.begin(info);
        EXPECT_TRUE(live);
        std::vector<agents::StepRecord> steps;
        for (int i = 1; i <= count; ++i) {
            agents::StepRecord step;
            step.tool = i == 3 ? "http_get" : "read_file";
            step.arguments = Json{{"path", "f" + std::to_string(i)}};
            step.result = Json{{"content", Json::array()}};
            step.verdict = i == 3 ? agents::Verdict::Blocked : agents::Verdict::Allowed;
            step.rule = i == 3 ? "network.allow" : "";
            steps.push_back(step);
        }
        EXPECT_TRUE(live->addSteps(steps));
        EXPECT_TRUE(live->end(agents::SessionStatus::Completed, "done"));
        return live->info().id;
    }
};

TEST_F(SessionExportCli, JsonLinesOnStandardOutput)
{
    const std::string id = recordSession(5);
    const auto r = cli("sessions export " + id.substr(0, 8) + store());
    ASSERT_EQ(r.status, 0) << r.out;
    std::istringstream lines(r.out);
    std::string line;
    std::vector<Json> records;
    while (std::getline(lines, line))
        records.push_back(Json::parse(line));
    ASSERT_EQ(records.size(), 6u);
    EXPECT_EQ(records[0]["record"], "session");
    EXPECT_EQ(records[0]["id"], id);
    EXPECT_EQ(records[3]["record"], "step");
    EXPECT_EQ(records[3]["index"], 3);
    EXPECT_EQ(records[3]["verdict"], "blocked");
    EXPECT_EQ(records[3]["rule"], "network.allow");
}

TEST_F(SessionExportCli, AnHtmlReportToAFile)
{
    const std::string id = recordSession(4);
    const fs::path report = m_dir / "report.html";
    const auto r = cli("sessions export " + id + " --format html -o " + quoted(report.string()) + store(), true);
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("written to"), std::string::npos) << r.out;
    const std::string html = readFile(report);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("<tr id=\"step-4\">"), std::string::npos);
    EXPECT_NE(html.find("network.allow"), std::string::npos);
}

TEST_F(SessionExportCli, ErrorsNameWhatIsWrongAndLeaveNoHalfFile)
{
    const std::string id = recordSession(2);
    const auto format = cli("sessions export " + id + " --format xml" + store(), true);
    EXPECT_EQ(format.status, 2) << format.out;
    EXPECT_NE(format.out.find("xml"), std::string::npos) << format.out;
    const auto unknown = cli("sessions export 0000aaaa" + store(), true);
    EXPECT_NE(unknown.status, 0);
    EXPECT_NE(unknown.out.find("no agent session"), std::string::npos) << unknown.out;
    const auto folder = cli("sessions export " + id + " -o " + quoted((m_dir / "missing" / "x.jsonl").string()) + store(),
                            true);
    EXPECT_NE(folder.status, 0);
    EXPECT_NE(folder.out.find("missing"), std::string::npos) << folder.out;
    EXPECT_FALSE(fs::exists(m_dir / "missing"));
}

} // namespace
} // namespace sb::clitest
