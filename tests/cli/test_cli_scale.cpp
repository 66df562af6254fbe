// Rule sets of tens of thousands of rules are read, checked and evaluated in time proportional to their size:
// `rules check` of a 40 000-rule file (just under the 4 MiB a rule set may hold) takes well under a second
// here. Each command runs under timeout(1) with a limit a quadratic reading cannot meet (it took minutes),
// so a regression fails the test instead of stalling it.

#include "cli_fixture.h"

#include "rules/demo_data.h"

namespace sb::clitest {

TEST_F(Cli, FortyThousandRulesAreCheckedAndEvaluatedInLinearTime)
{
    constexpr std::size_t kRules = 40000;
    const std::string rules = write("many.yaml", sb::rules::generatedRuleSetYaml(kRules));
    ASSERT_LE(fs::file_size(rules), 4u << 20);
    const std::string data = write("tx.csv", "id,amount,country,hour\nt1,25000.5,US,3\nt2,10,FR,12\nt3,19999,NG,0\n");

    const auto check = cliWithin(120, "rules check " + rules, true);
    EXPECT_NE(check.status, 124) << "rules check of 40 000 rules did not end within 120 s";
    EXPECT_EQ(check.status, 0) << check.out.substr(0, 2000);
    // Every tenth rule is disabled: 4000 warnings that point at their rule's line, the last one at the file's end.
    EXPECT_NE(check.out.find(rules + ": ok, 4000 warnings (40000 rules, first_match"), std::string::npos)
        << check.out.substr(check.out.size() - std::min<std::size_t>(check.out.size(), 2000));
    // Rule i starts on line 7 + 4 i + (the disabled rules before it), after "- ".
    EXPECT_NE(check.out.find(rules + ":" + std::to_string(7 + 4 * 39999 + 3999)
                             + ":3: warning: rule 'r39999' can never fire: it is disabled"),
              std::string::npos);

    // With data: every rule compiled against the columns and run on every record (coverage for each rule).
    const auto withData = cliWithin(120, "rules check --json " + rules + " --data " + data);
    EXPECT_NE(withData.status, 124) << "rules check --data of 40 000 rules did not end within 120 s";
    const auto checked = nlohmann::json::parse(withData.out, nullptr, false);
    ASSERT_FALSE(checked.is_discarded()) << withData.out.substr(0, 2000);
    EXPECT_EQ(checked["ruleset"]["rules"], kRules);
    ASSERT_EQ(checked["coverage"].size(), kRules);
    // A warning about the last rule (it matches none of the records) points at its lines, at the file's end.
    bool lastRuleWarned = false;
    for (const auto& w : checked["warnings"]) {
        if (w["rule"] == "r39999") {
            lastRuleWarned = true;
            EXPECT_GT(w["line"].get<int>(), 4 * 39999) << w;
        }
    }
    EXPECT_TRUE(lastRuleWarned) << checked["warnings"].size() << " warnings";

    const auto eval = cliWithin(120, "rules eval --json --rules " + rules + " --data " + data);
    EXPECT_NE(eval.status, 124) << "rules eval of 40 000 rules did not end within 120 s";
    EXPECT_EQ(eval.status, 0) << eval.out.substr(0, 2000);
    const auto impact = cliWithin(120, "rules impact --json --baseline " + rules + " --candidate " + rules + " --data "
                                           + data);
    EXPECT_NE(impact.status, 124) << "rules impact of 40 000 rules did not end within 120 s";
    EXPECT_EQ(impact.status, 0) << impact.out.substr(0, 2000);
}

} // namespace sb::clitest
