// The command-line contract of the rules and data commands: names, JSON fields and exit statuses that scripts
// rely on (sandbench rules check|eval|impact|ab|explain, sandbench data import|list|show|generate).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

struct Output {
    int status = -1;
    std::string out;
};

// Runs the CLI through /bin/sh with stdout captured (stderr folded in when asked).
Output cli(const std::string& args, bool withStderr = false)
{
    std::string command = std::string(SANDBENCH_CLI) + " " + args + (withStderr ? " 2>&1" : " 2>/dev/null");
    Output o;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return o;
    std::array<char, 4096> buf{};
    size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0)
        o.out.append(buf.data(), n);
    const int rc = ::pclose(pipe);
    o.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    return o;
}

nlohmann::json parse(const Output& o)
{
    auto j = nlohmann::json::parse(o.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << o.out;
    return j;
}

const fs::path kDemo = SANDBENCH_DEMO_DIR;

// r2 and r3 are fraud; the candidate turns r2 from review into block.
const char* const kData = "id,amount,country,hour,is_fraud\n"
                          "r1,50,US,12,false\n"
                          "r2,1500,US,3,true\n"
                          "r3,2500,NG,14,true\n"
                          "r4,20,NG,2,false\n"
                          "r5,900,FR,23,false\n"
                          "r6,3000,US,13,false\n";

const char* const kBaseline = "name: baseline\n"
                              "version: 1\n"
                              "default: {decision: allow, score: 0}\n"
                              "fields: {amount: double}\n"
                              "rules:\n"
                              "  - id: big\n"
                              "    when: amount > 2000.0\n"
                              "    decision: block\n"
                              "    score: 90\n"
                              "  - id: night\n"
                              "    when: hour < 5\n"
                              "    decision: review\n"
                              "    score: 50\n";

const char* const kCandidate = "name: candidate\n"
                               "version: 2\n"
                               "default: {decision: allow, score: 0}\n"
                               "fields: {amount: double}\n"
                               "rules:\n"
                               "  - id: big\n"
                               "    when: amount > 1000.0\n"
                               "    decision: block\n"
                               "    score: 90\n"
                               "  - id: risky\n"
                               "    when: country == 'NG'\n"
                               "    decision: review\n"
                               "    score: 60\n"
                               "  - id: night\n"
                               "    when: hour < 5 && amount > 100.0\n"
                               "    decision: review\n"
                               "    score: 50\n";

class CliRules : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "sandbench-cli-rules-XXXXXX").string();
        m_dir = ::mkdtemp(pattern.data());
        m_store = (m_dir / "store.db").string();
        ::setenv("XDG_DATA_HOME", (m_dir / "xdg").c_str(), 1); // never the user's store
        ::unsetenv("SANDBENCH_STORE");
        m_data = write("tx.csv", kData);
        m_baseline = write("baseline.yaml", kBaseline);
        m_candidate = write("candidate.yaml", kCandidate);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    std::string write(const std::string& name, const std::string& text)
    {
        const auto path = m_dir / name;
        std::ofstream(path, std::ios::binary) << text;
        return path.string();
    }
    std::string store() const { return " --store " + m_store; }

    fs::path m_dir;
    std::string m_store, m_data, m_baseline, m_candidate;
};

TEST_F(CliRules, HelpForEveryCommand)
{
    for (const char* sub : {"rules check", "rules eval", "rules impact", "rules ab", "rules explain", "data import",
                            "data list", "data show", "data generate"}) {
        const auto h = cli(std::string(sub) + " --help");
        EXPECT_EQ(h.status, 0) << sub;
        EXPECT_NE(h.out.find("--"), std::string::npos) << sub;
    }
}

TEST_F(CliRules, UsageErrorsExitTwo)
{
    EXPECT_EQ(cli("rules").status, 2);
    EXPECT_EQ(cli("rules check").status, 2);
    EXPECT_EQ(cli("rules eval --data " + m_data).status, 2);
    EXPECT_EQ(cli("rules eval --rules " + m_baseline).status, 2);
    EXPECT_EQ(cli("rules impact --baseline " + m_baseline + " --data " + m_data).status, 2);
    EXPECT_EQ(cli("rules ab --baseline " + m_baseline + " --data " + m_data).status, 2);
    EXPECT_EQ(cli("rules explain --rules " + m_baseline + " --data " + m_data).status, 2);
    EXPECT_EQ(cli("rules eval --rules " + m_baseline + " --data " + m_data + " --on-bad-row maybe").status, 2);
    EXPECT_EQ(cli("rules eval --rules " + m_baseline + " --data " + m_data + " --threads 0").status, 2);
    EXPECT_EQ(cli("data").status, 2);
    EXPECT_EQ(cli("data import " + m_data).status, 2);
    EXPECT_EQ(cli("data import " + m_data + " --name x --sample 2" + store()).status, 2);
    EXPECT_EQ(cli("data import " + m_data + " --name x --max-rows -1" + store()).status, 2);
    EXPECT_EQ(cli("data generate out.csv").status, 2);
    EXPECT_EQ(cli("data show").status, 2);
}

TEST_F(CliRules, CheckCleanRuleSetExitsZero)
{
    const auto r = cli("rules check " + (kDemo / "rules" / "current.yaml").string());
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("current.yaml: ok, 1 warning (20 rules, first_match"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(": warning: rule 'legacy_country_list' can never fire: it is disabled"), std::string::npos);

    const auto j = parse(cli("rules check --json " + (kDemo / "rules" / "current.yaml").string()));
    EXPECT_EQ(j["ok"], true);
    EXPECT_TRUE(j["errors"].is_array() && j["errors"].empty());
    ASSERT_EQ(j["warnings"].size(), 1u);
    for (const char* field : {"file", "line", "column", "severity", "code", "rule", "message"})
        EXPECT_TRUE(j["warnings"][0].contains(field)) << field;
    EXPECT_EQ(j["warnings"][0]["code"], "never_fires");
    EXPECT_EQ(j["ruleset"]["strategy"], "first_match");
    EXPECT_EQ(j["ruleset"]["rules"], 20);
}

TEST_F(CliRules, CheckErrorsAsFileLineColumnExitOne)
{
    const std::string bad = write("bad.yaml", "name: t\n"
                                              "default: allow\n"
                                              "fields: {amount: double}\n"
                                              "rules:\n"
                                              "  - id: a\n"
                                              "    when: amount > 1.0 && amout < 2.0\n"
                                              "    decision: block\n"
                                              "    score: 1\n"
                                              "  - id: a\n"
                                              "    when: amount > 1.0\n"
                                              "    decision: block\n"
                                              "    score: 1\n");
    const auto r = cli("rules check " + bad);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find(bad + ":9:9: error: duplicate rule id 'a' (first at line 5)"), std::string::npos) << r.out;
    const auto j = parse(cli("rules check --json " + bad));
    EXPECT_EQ(j["ok"], false);
    ASSERT_EQ(j["errors"].size(), 1u); // structural errors first: the conditions compile once those are fixed

    const std::string cel = write("cel.yaml", "name: t\ndefault: allow\nfields: {amount: double}\nrules:\n"
                                              "  - id: a\n    when: |\n      amount > 1.0 &&\n        amout < 2.0\n"
                                              "    decision: block\n    score: 1\n");
    const auto c = cli("rules check " + cel);
    EXPECT_EQ(c.status, 1);
    EXPECT_NE(c.out.find(cel + ":8:9: error: rule 'a': undeclared reference to 'amout'"), std::string::npos) << c.out;
    const auto cj = parse(cli("rules check --json " + cel));
    ASSERT_EQ(cj["errors"].size(), 1u);
    EXPECT_EQ(cj["errors"][0]["line"], 8);
    EXPECT_EQ(cj["errors"][0]["column"], 9);
    EXPECT_EQ(cj["errors"][0]["rule"], "a");
    EXPECT_EQ(cj["errors"][0]["code"], "cel");

    const std::string yaml = write("broken.yaml", "name: t\nrules: [\n");
    const auto y = cli("rules check " + yaml);
    EXPECT_EQ(y.status, 1);
    EXPECT_NE(y.out.find(yaml + ":"), std::string::npos);
    EXPECT_NE(y.out.find(": error: malformed YAML"), std::string::npos) << y.out;
}

TEST_F(CliRules, CheckHostileInputExitsOneAndNeverCrashes)
{
    std::string binary = "\x7f"
                         "ELF";
    binary += std::string(64, '\0');
    const std::string bin = write("x.yaml", binary);
    const auto b = cli("rules check " + bin, true);
    EXPECT_EQ(b.status, 1);
    EXPECT_NE(b.out.find("binary content"), std::string::npos) << b.out;
    EXPECT_EQ(cli("rules check " + (m_dir / "missing.yaml").string()).status, 1);
    EXPECT_EQ(cli("rules check " + m_dir.string()).status, 1);
    const std::string deep =
        write("deep.yaml", "name: t\ndefault: allow\nrules:\n  - id: a\n    when: " + std::string(5000, '(') + "1"
                               + std::string(5000, ')') + "\n    decision: x\n    score: 1\n");
    EXPECT_EQ(cli("rules check " + deep).status, 1);
    const std::string nested = write("nested.yaml", std::string(20000, '[') + std::string(20000, ']'));
    const auto n = cli("rules check " + nested);
    EXPECT_TRUE(n.status == 1) << n.status;
    // Data that is not CSV: a clear error naming the line, whatever --on-bad-row says.
    std::string binaryData = "id,a\n1,2\n";
    binaryData += std::string(10, '\0');
    const std::string data = write("bin.csv", binaryData);
    const auto d = cli("rules eval --on-bad-row skip --rules " + m_baseline + " --data " + data, true);
    EXPECT_EQ(d.status, 1);
    EXPECT_NE(d.out.find("bin.csv:3: binary content"), std::string::npos) << d.out;
}

TEST_F(CliRules, CheckWithDataFindsShadowedRules)
{
    const std::string rules = write("shadow.yaml", "name: t\ndefault: allow\nfields: {amount: double}\nrules:\n"
                                                   "  - id: big\n    when: amount > 1000.0\n    decision: block\n"
                                                   "    score: 1\n"
                                                   "  - id: bigger\n    when: amount > 2000.0\n    decision: review\n"
                                                   "    score: 1\n");
    const auto r = cli("rules check " + rules + " --data " + m_data);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find(rules + ":9:5: warning: rule 'bigger' is fully shadowed on " + m_data), std::string::npos)
        << r.out;
    const auto j = parse(cli("rules check --json " + rules + " --data " + m_data));
    ASSERT_EQ(j["warnings"].size(), 1u);
    EXPECT_EQ(j["warnings"][0]["code"], "shadowed");
    ASSERT_EQ(j["coverage"].size(), 2u);
    EXPECT_EQ(j["coverage"][1]["hits"], 2);
    EXPECT_EQ(j["coverage"][1]["decided"], 0);
    EXPECT_EQ(j["data"]["rows"], 6);
}

TEST_F(CliRules, EvalReportsDistributionHitsAndErrors)
{
    const auto r = cli("rules eval --json --rules " + m_baseline + " --data " + m_data);
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = parse(r);
    EXPECT_EQ(j["total"], 6);
    EXPECT_EQ(j["distribution"], nlohmann::json({{"allow", 2}, {"block", 2}, {"review", 2}}));
    ASSERT_EQ(j["rules"].size(), 2u);
    EXPECT_EQ(j["rules"][0]["id"], "big");
    EXPECT_EQ(j["rules"][0]["hits"], 2);
    EXPECT_EQ(j["rules"][0]["decided"], 2);
    EXPECT_EQ(j["rules"][1]["hits"], 2);
    EXPECT_EQ(j["errors"]["records"], 0);
    EXPECT_EQ(j["ruleset"]["name"], "baseline");
    EXPECT_EQ(j["data"]["rows"], 6);

    const std::string gaps = write("gaps.csv", "id,amount,hour\na,,3\nb,5000,12\n");
    const auto e = parse(cli("rules eval --json --rules " + m_baseline + " --data " + gaps));
    EXPECT_EQ(e["errors"]["records"], 1);
    EXPECT_EQ(e["rules"][0]["errors"], 1);
    EXPECT_EQ(e["rules"][0]["first_error"]["record_id"], "a");
    EXPECT_NE(e["rules"][0]["first_error"]["message"].get<std::string>().find("no value for 'amount'"),
              std::string::npos);
    const auto text = cli("rules eval --rules " + m_baseline + " --data " + gaps);
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("big: 1 record (first at record a:"), std::string::npos) << text.out;
}

TEST_F(CliRules, BadRowsFailOrSkipButNeverSilently)
{
    const std::string bad = write("bad.csv", "id,amount,hour\na,10,3\nb,20\nc,30,4\n");
    const auto fail = cli("rules eval --rules " + m_baseline + " --data " + bad, true);
    EXPECT_EQ(fail.status, 1);
    EXPECT_NE(fail.out.find("bad.csv:3: expected 3 fields, found 2"), std::string::npos) << fail.out;
    const auto skip = cli("rules eval --on-bad-row skip --rules " + m_baseline + " --data " + bad, true);
    EXPECT_EQ(skip.status, 0) << skip.out;
    EXPECT_NE(skip.out.find("skipped 1 bad row"), std::string::npos) << skip.out;
    EXPECT_NE(skip.out.find("line 3: expected 3 fields, found 2"), std::string::npos) << skip.out;
    const auto j = parse(cli("rules eval --json --on-bad-row skip --rules " + m_baseline + " --data " + bad));
    EXPECT_EQ(j["total"], 2);
    EXPECT_EQ(j["data"]["bad_rows"]["skipped"], 1);
    EXPECT_EQ(j["data"]["bad_rows"]["examples"][0]["line"], 3);
}

TEST_F(CliRules, DataErrorsNameTheInput)
{
    const auto missing = cli("rules eval --rules " + m_baseline + " --data " + (m_dir / "none.csv").string(), true);
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.out.find("none.csv: no such file"), std::string::npos) << missing.out;
    const auto name = cli("rules eval --rules " + m_baseline + " --data nosuchset" + store(), true);
    EXPECT_EQ(name.status, 1);
    EXPECT_NE(name.out.find("no dataset of that name"), std::string::npos) << name.out;
    const std::string txt = write("data.txt", "id\n1\n");
    EXPECT_EQ(cli("rules eval --rules " + m_baseline + " --data " + txt).status, 1);
    const auto wrongType =
        cli("rules eval --rules " + m_baseline + " --data " + write("w.csv", "id,amount,hour\na,x,1\n"), true);
    EXPECT_EQ(wrongType.status, 1);
    EXPECT_NE(wrongType.out.find("w.csv:2: field 'amount': 'x' is not a double"), std::string::npos) << wrongType.out;
    const std::string broken = write("broken.yaml", "name: t\ndefault: allow\nrules:\n  - id: a\n    when: hour <\n"
                                                    "    decision: x\n    score: 1\n");
    const auto b = cli("rules eval --rules " + broken + " --data " + m_data, true);
    EXPECT_EQ(b.status, 1);
    EXPECT_NE(b.out.find(broken + ":5:"), std::string::npos) << b.out;
    const auto bj = cli("rules eval --json --rules " + broken + " --data " + m_data);
    EXPECT_EQ(parse(bj)["ok"], false);
}

TEST_F(CliRules, ImpactJsonContract)
{
    const auto r = cli("rules impact --json --baseline " + m_baseline + " --candidate " + m_candidate + " --data "
                       + m_data + " --label-column is_fraud --amount-column amount");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = parse(r);
    for (const char* field : {"total", "affected", "impact_rate", "distribution", "changed", "labels"})
        EXPECT_TRUE(j.contains(field)) << field;
    EXPECT_EQ(j["total"], 6);
    EXPECT_EQ(j["affected"], 1);
    EXPECT_NEAR(j["impact_rate"].get<double>(), 1.0 / 6.0, 1e-12);
    EXPECT_EQ(j["distribution"]["baseline"]["review"], 2);
    EXPECT_EQ(j["distribution"]["candidate"]["block"], 3);
    ASSERT_EQ(j["changed"].size(), 1u);
    const auto& c = j["changed"][0];
    EXPECT_EQ(c["record_id"], "r2");
    EXPECT_EQ(c["old_decision"], "review");
    EXPECT_EQ(c["new_decision"], "block");
    EXPECT_EQ(c["old_score"], 50);
    EXPECT_EQ(c["new_score"], 90);
    EXPECT_EQ(c["old_rule"], "night");
    EXPECT_EQ(c["new_rule"], "big");
    const auto& block = j["labels"]["decisions"]["block"];
    for (const char* side : {"baseline", "candidate", "delta"}) {
        for (const char* field : {"tp", "fp", "fn", "tn", "precision", "recall", "fpr", "amount_caught", "amount_hurt"})
            EXPECT_TRUE(block[side].contains(field)) << side << "." << field;
    }
    EXPECT_EQ(block["baseline"]["tp"], 1);
    EXPECT_EQ(block["candidate"]["tp"], 2);
    EXPECT_EQ(block["delta"]["tp"], 1);
    EXPECT_EQ(block["delta"]["amount_caught"], 1500);
    EXPECT_EQ(j["labels"]["flagged"]["baseline"]["tp"], 2);
    EXPECT_EQ(j["labels"]["label_column"], "is_fraud");

    // Without labels: no labels section; without amounts: no amounts.
    const auto plain = parse(
        cli("rules impact --json --baseline " + m_baseline + " --candidate " + m_candidate + " --data " + m_data));
    EXPECT_FALSE(plain.contains("labels"));
    const auto noAmount = parse(cli("rules impact --json --baseline " + m_baseline + " --candidate " + m_candidate
                                    + " --data " + m_data + " --label-column is_fraud"));
    EXPECT_FALSE(noAmount["labels"]["decisions"]["block"]["baseline"].contains("amount_caught"));
    // An amount without a label, a label the data lacks: input errors.
    EXPECT_EQ(cli("rules impact --baseline " + m_baseline + " --candidate " + m_candidate + " --data " + m_data
                  + " --amount-column amount")
                  .status,
              1);
    EXPECT_EQ(cli("rules impact --baseline " + m_baseline + " --candidate " + m_candidate + " --data " + m_data
                  + " --label-column fraud")
                  .status,
              1);
}

TEST_F(CliRules, ImpactTextIsCurrentProposedDelta)
{
    const auto r = cli("rules impact --baseline " + m_baseline + " --candidate " + m_candidate + " --data " + m_data
                       + " --label-column is_fraud --amount-column amount");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("affected: 1 record (16.67 % of all)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Current"), std::string::npos);
    EXPECT_NE(r.out.find("Proposed"), std::string::npos);
    EXPECT_NE(r.out.find("Δ"), std::string::npos);
    EXPECT_NE(r.out.find("r2"), std::string::npos);
    EXPECT_NE(r.out.find("review → block"), std::string::npos) << r.out;
}

TEST_F(CliRules, AbComparesVariantsAndRanksThem)
{
    const std::string worse = write("worse.yaml", "name: worse\ndefault: allow\nrules:\n"
                                                  "  - id: all\n    when: amount > 0.0\n    decision: block\n"
                                                  "    score: 1\n");
    const auto r = cli("rules ab --json --baseline " + m_baseline + " --variant " + m_candidate + " --variant " + worse
                       + " --data " + m_data + " --label-column is_fraud");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = parse(r);
    ASSERT_EQ(j["variants"].size(), 2u);
    EXPECT_EQ(j["variants"][0]["name"], "candidate");
    EXPECT_EQ(j["variants"][1]["name"], "worse");
    for (const char* field : {"total", "affected", "impact_rate", "distribution", "changed", "labels"})
        EXPECT_TRUE(j["variants"][0].contains(field)) << field;
    EXPECT_EQ(j["variants"][0]["affected"], 1);
    EXPECT_EQ(j["variants"][1]["affected"], 4);
    EXPECT_EQ(j["summary"]["ranking_metric"], "f1");
    ASSERT_EQ(j["summary"]["ranking"].size(), 2u);
    EXPECT_EQ(j["summary"]["ranking"][0]["rank"], 1);
    EXPECT_EQ(j["summary"]["best"], j["summary"]["ranking"][0]["name"]);
    EXPECT_EQ(j["baseline"]["name"], "baseline");

    const auto noLabels = parse(cli("rules ab --json --baseline " + m_baseline + " --variant " + m_candidate
                                    + " --variant " + worse + " --data " + m_data));
    EXPECT_EQ(noLabels["summary"]["ranking_metric"], "impact_rate");
    EXPECT_EQ(noLabels["summary"]["best"], "candidate");
    const auto text = cli("rules ab --baseline " + m_baseline + " --variant " + m_candidate + " --variant " + worse
                          + " --data " + m_data + " --label-column is_fraud");
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("ranking"), std::string::npos) << text.out;
}

TEST_F(CliRules, ExplainOneRecord)
{
    const auto r = cli("rules explain --json --rules " + m_candidate + " --data " + m_data + " --record r4");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = parse(r);
    EXPECT_EQ(j["record_id"], "r4");
    EXPECT_EQ(j["decision"], "review");
    EXPECT_EQ(j["rule"], "risky");
    EXPECT_EQ(j["score"], 60);
    EXPECT_EQ(j["fields"]["country"], "NG");
    ASSERT_EQ(j["rules"].size(), 3u);
    EXPECT_EQ(j["rules"][0]["id"], "big");
    EXPECT_EQ(j["rules"][0]["matched"], false);
    EXPECT_EQ(j["rules"][1]["matched"], true);
    EXPECT_EQ(j["rules"][1]["decided"], true);
    const auto& step = j["rules"][2]["steps"][0];
    EXPECT_EQ(step["expression"], "amount > 100.0");
    EXPECT_EQ(step["value"], false);
    EXPECT_EQ(step["line"], 15);
    EXPECT_EQ(step["column"], 23);
    EXPECT_EQ(step["operands"][0]["expression"], "amount");
    EXPECT_EQ(step["operands"][0]["value"], "20.0");

    const auto text = cli("rules explain --rules " + m_candidate + " --data " + m_data + " --record r4");
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("record r4"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("by rule risky"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("amount > 100.0"), std::string::npos) << text.out;

    const auto none = cli("rules explain --rules " + m_candidate + " --data " + m_data + " --record r99", true);
    EXPECT_EQ(none.status, 1);
    EXPECT_NE(none.out.find("no record with id r99"), std::string::npos) << none.out;
}

TEST_F(CliRules, DataImportListShowAndUse)
{
    const auto imported = cli("data import --json " + m_data + " --name tx" + store());
    ASSERT_EQ(imported.status, 0) << imported.out;
    const auto i = parse(imported);
    for (const char* field : {"name", "sha256", "rows", "schema", "id_column", "created_at", "bad_rows"})
        EXPECT_TRUE(i.contains(field)) << field;
    EXPECT_EQ(i["rows"], 6);
    EXPECT_EQ(i["sha256"].get<std::string>().size(), 64u);
    EXPECT_EQ(i["schema"][1], nlohmann::json({{"name", "amount"}, {"type", "int"}}));

    EXPECT_EQ(cli("data import " + m_data + " --name tx" + store()).status, 1); // immutable: the name is taken
    EXPECT_EQ(cli("data import " + m_data + " --name 'bad name'" + store()).status, 1);
    const auto sampled = parse(cli("data import --json " + m_data + " --name s1 --sample 0.5 --seed 7" + store()));
    const auto again = parse(cli("data import --json " + m_data + " --name s2 --sample 0.5 --seed 7" + store()));
    EXPECT_EQ(sampled["sha256"], again["sha256"]);
    EXPECT_EQ(sampled["rows"], again["rows"]);
    EXPECT_EQ(parse(cli("data import --json " + m_data + " --name m --max-rows 2" + store()))["rows"], 2);

    const auto list = parse(cli("data list --json" + store()));
    ASSERT_TRUE(list.is_array());
    ASSERT_EQ(list.size(), 4u);
    EXPECT_EQ(list[0]["name"], "m");
    const auto show = parse(cli("data show tx --json" + store()));
    EXPECT_EQ(show["name"], "tx");
    EXPECT_EQ(show["rows"], 6);
    EXPECT_EQ(show["sha256"], i["sha256"]);
    EXPECT_EQ(show["schema"].size(), 5u);
    EXPECT_EQ(cli("data show nope" + store()).status, 1);
    const auto showText = cli("data show tx" + store());
    EXPECT_NE(showText.out.find("sha256"), std::string::npos);

    // A stored dataset is used by name; an int column declared double is widened.
    const auto j = parse(cli("rules eval --json --rules " + m_baseline + " --data tx" + store()));
    EXPECT_EQ(j["total"], 6);
    EXPECT_EQ(j["distribution"]["block"], 2);
    EXPECT_EQ(j["data"]["kind"], "dataset");

    const auto audit = parse(cli("audit list --json --operation dataset.import" + store()));
    EXPECT_EQ(audit.size(), 4u);
}

TEST_F(CliRules, DataImportOfHostileFiles)
{
    std::string binary = "\x89PNG\r\n\x1a\n";
    binary += std::string(100, '\0');
    const auto bin = cli("data import " + write("img.csv", binary) + " --name img" + store(), true);
    EXPECT_EQ(bin.status, 1);
    EXPECT_NE(bin.out.find("img.csv:3: binary content (a NUL byte): not CSV text"), std::string::npos) << bin.out;
    const auto unknown = cli("data import " + write("x.xlsx", "PK") + " --name x" + store(), true);
    EXPECT_EQ(unknown.status, 1);
    EXPECT_NE(unknown.out.find("unknown data format"), std::string::npos);
    const auto jsonl = cli("data import --json " + write("x.jsonl", "{\"id\": 1, \"v\": 2}\nnot json\n")
                               + " --name j --on-bad-row skip" + store(),
                           true);
    EXPECT_EQ(jsonl.status, 0) << jsonl.out;
    EXPECT_NE(jsonl.out.find("skipped 1 bad row"), std::string::npos) << jsonl.out;
    EXPECT_EQ(cli("data list --json" + store()).out.find("\"img\""), std::string::npos);
}

TEST_F(CliRules, DataGenerateIsDeterministic)
{
    const std::string a = (m_dir / "a.csv").string(), b = (m_dir / "b.csv").string();
    ASSERT_EQ(cli("data generate --rows 300 --seed 5 " + a).status, 0);
    ASSERT_EQ(cli("data generate --rows 300 --seed 5 " + b).status, 0);
    std::ifstream fa(a), fb(b);
    const std::string ta((std::istreambuf_iterator<char>(fa)), {}), tb((std::istreambuf_iterator<char>(fb)), {});
    EXPECT_EQ(ta, tb);
    EXPECT_EQ(std::count(ta.begin(), ta.end(), '\n'), 301);
    const auto out = cli("data generate --rows 2 -");
    EXPECT_EQ(out.status, 0);
    EXPECT_EQ(out.out.rfind("id,created,amount", 0), 0u);
    const auto j = parse(cli("data generate --json --rows 10 " + a));
    EXPECT_EQ(j["rows"], 10);
    // The demo data with the demo rules, end to end.
    const auto demo = cli("rules ab --json --baseline " + (kDemo / "rules" / "current.yaml").string() + " --variant "
                          + (kDemo / "rules" / "variant_a.yaml").string() + " --variant "
                          + (kDemo / "rules" / "variant_b.yaml").string() + " --data "
                          + (kDemo / "transactions.csv").string() + " --label-column is_fraud --amount-column amount");
    ASSERT_EQ(demo.status, 0);
    const auto dj = parse(demo);
    EXPECT_EQ(dj["variants"][0]["total"], 5000);
    EXPECT_GT(dj["variants"][0]["affected"].get<int>(), 0);
}

} // namespace

namespace {

// The data's rows without an id column, as CSV text with its header.
std::string withoutIds(const std::string& csv)
{
    std::string out;
    std::size_t at = 0;
    while (at < csv.size()) {
        const auto end = csv.find('\n', at);
        const std::string line = csv.substr(at, end - at);
        out += line.substr(line.find(',') + 1) + "\n";
        at = end + 1;
    }
    return out;
}

} // namespace

TEST_F(CliRules, AFolderIsItsFilesReadAsOneDataset)
{
    // The six records in three files (and what is not read: a hidden file, a subfolder, a marker).
    const std::string data = kData;
    const std::string header = data.substr(0, data.find('\n') + 1);
    std::vector<std::string> rows;
    for (std::size_t at = header.size(); at < data.size();) {
        const auto end = data.find('\n', at);
        rows.push_back(data.substr(at, end + 1 - at));
        at = end + 1;
    }
    fs::create_directories(m_dir / "parts" / "old");
    write("parts/part-000.csv", header + rows[0] + rows[1]);
    write("parts/part-001.csv", header + rows[2]);
    write("parts/part-002.csv", header + rows[3] + rows[4] + rows[5]);
    write("parts/.part-003.csv", "not,read\n");
    write("parts/old/part-004.csv", "not,read\n");
    write("parts/_SUCCESS", "");
    const std::string args = " --baseline " + m_baseline + " --candidate " + m_candidate +
                             " --label-column is_fraud --amount-column amount --json";
    const auto file = cli("rules impact --data " + m_data + args);
    const auto folder = cli("rules impact --data " + (m_dir / "parts").string() + args);
    ASSERT_EQ(folder.status, 0) << folder.out;
    auto a = parse(file), b = parse(folder);
    EXPECT_EQ(b["data"]["source"], (m_dir / "parts").string());
    EXPECT_EQ(b["data"]["kind"], "folder");
    for (auto* j : {&a, &b}) {
        (*j)["data"].erase("source");
        (*j)["data"].erase("kind");
        j->erase("timing");
    }
    EXPECT_EQ(a, b);

    // Without ids, records are numbered across the files; a bad row names its file and line there.
    fs::create_directories(m_dir / "noids");
    write("noids/a.csv", withoutIds(header + rows[0] + rows[1] + rows[2]));
    write("noids/b.csv", withoutIds(header + rows[3] + rows[4] + rows[5]) + "x,US,1,false\n");
    const std::string noids = (m_dir / "noids").string();
    const auto refused = cli("rules impact --data " + noids + args, true);
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.out.find(noids + "/b.csv:5: field 'amount': 'x' is not a double"), std::string::npos)
        << refused.out;
    const auto skipped = cli("rules impact --data " + noids + args + " --on-bad-row skip");
    ASSERT_EQ(skipped.status, 0) << skipped.out;
    const auto j = parse(skipped);
    EXPECT_EQ(j["total"], 6);
    EXPECT_EQ(j["changed"][0]["record_id"], "2"); // r2, the second record of a.csv
    EXPECT_EQ(j["data"]["bad_rows"]["skipped"], 1);
    EXPECT_EQ(j["data"]["bad_rows"]["examples"][0]["file"], noids + "/b.csv");
    EXPECT_EQ(j["data"]["bad_rows"]["examples"][0]["line"], 5);

    // Two headers, two formats, no data files: refused, naming what is wrong.
    write("noids/c.csv", "amount,country\n1,US\n");
    const auto headers = cli("rules impact --data " + noids + args, true);
    EXPECT_EQ(headers.status, 1);
    EXPECT_NE(headers.out.find(noids + "/c.csv: its header differs from " + noids + "/a.csv's: column 3 'hour'"),
              std::string::npos)
        << headers.out;
    write("noids/c.jsonl", "{}\n");
    fs::remove(m_dir / "noids" / "c.csv");
    const auto formats = cli("rules impact --data " + noids + args, true);
    EXPECT_NE(formats.out.find("a.csv is CSV but c.jsonl is JSON Lines"), std::string::npos) << formats.out;
    fs::create_directories(m_dir / "empty");
    const auto empty = cli("rules impact --data " + (m_dir / "empty").string() + args, true);
    EXPECT_EQ(empty.status, 1);
    EXPECT_NE(empty.out.find("a folder with no data files"), std::string::npos) << empty.out;
}
