// The hostile probe on the audit log, through the real `sandbench`: someone who can write the store appends a
// row with a correctly computed hash and moves the head (which passed `audit verify`, with --anchor of the old
// head too), or cuts the tail and moves the head back; and a store whose key is not where it is looked for.

#include "cli_fixture.h"

#include "store/audit.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

using sb::clitest::Cli;
using sb::clitest::cli;
using sb::clitest::editStore;
namespace fs = std::filesystem;

namespace {

// An environment variable for the commands run while it lives.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : m_name(name) { ::setenv(name, value.c_str(), 1); }
    ~ScopedEnv() { ::unsetenv(m_name); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* m_name;
};

class AuditForgery : public Cli {
protected:
    nlohmann::json verify(const std::string& extra, int expectStatus)
    {
        const auto r = cli("audit verify --json" + extra + store());
        EXPECT_EQ(r.status, expectStatus) << extra << "\n" << r.out;
        return nlohmann::json::parse(r.out, nullptr, false);
    }

    void recordRuns(int count)
    {
        const auto script = write("p.py", "print(7)\n");
        for (int i = 0; i < count; ++i)
            ASSERT_EQ(cli("run --level process" + store() + " " + script).status, 0);
    }

    // The last entry, as `audit list --json` prints it, back as a record.
    sb::AuditRecord lastEntry()
    {
        const auto entries = nlohmann::json::parse(cli("audit list --json" + store()).out);
        const auto& e = entries.back();
        sb::AuditRecord record;
        record.seq = e["seq"];
        record.atMs = e["at_ms"];
        record.actor = e["actor"];
        record.operation = e["operation"];
        record.subject = e["subject"];
        record.details = e["details"].dump();
        record.prevHash = e["prev_hash"];
        record.hash = e["hash"];
        return record;
    }
};

TEST_F(AuditForgery, AnAppendedRowWithACorrectHashAndTheHeadMovedIsCaught)
{
    recordRuns(2);
    const sb::AuditRecord last = lastEntry();
    ASSERT_EQ(verify("", 0)["intact"], true);

    sb::AuditRecord forged = last;
    forged.seq = last.seq + 1;
    forged.subject = "a run that never happened";
    forged.prevHash = last.hash;
    forged.hash = sb::auditHash(forged).value();
    ASSERT_EQ(sb::auditHashInput(forged).find(forged.subject) != std::string::npos, true);
    // Only the columns any schema has: what the probe wrote.
    editStore(m_store, "INSERT INTO audit_log (seq, at_ms, actor, operation, subject, details, prev_hash, hash) "
                       "VALUES ("
                           + std::to_string(forged.seq) + ", " + std::to_string(forged.atMs) + ", '" + forged.actor
                           + "', '" + forged.operation + "', '" + forged.subject + "', '" + forged.details + "', '"
                           + forged.prevHash + "', '" + forged.hash + "'); UPDATE log_heads SET seq = "
                           + std::to_string(forged.seq) + ", hash = '" + forged.hash + "'");

    for (const std::string& extra : {std::string(), " --anchor " + last.hash}) {
        SCOPED_TRACE(extra);
        const auto j = verify(extra, 1);
        EXPECT_EQ(j["intact"], false);
        EXPECT_EQ(j["first_broken"]["kind"], "forged") << j.dump();
        EXPECT_EQ(j["first_broken"]["seq"], forged.seq);
    }
    const auto text = cli("audit verify" + store());
    EXPECT_EQ(text.status, 1);
    EXPECT_NE(text.out.find("BROKEN (forged)"), std::string::npos) << text.out;

    // Nothing is recorded on top of it: the run is printed and exits 1.
    const auto script = write("q.py", "print(8)\n");
    const auto next = cli("run --level process" + store() + " " + script, true);
    EXPECT_EQ(next.status, 1) << next.out;
    EXPECT_NE(next.out.find("could not be recorded"), std::string::npos) << next.out;
    EXPECT_NE(next.out.find("not signed by the store's key"), std::string::npos) << next.out;
}

TEST_F(AuditForgery, TheTailCutAndTheHeadMovedBackIsCaught)
{
    recordRuns(3);
    const auto entries = nlohmann::json::parse(cli("audit list --json" + store()).out);
    ASSERT_EQ(entries.size(), 4u);
    const std::string third = entries[2]["hash"];
    editStore(m_store, "DELETE FROM audit_log WHERE seq = 4; UPDATE log_heads SET seq = 3, hash = '" + third + "'");
    const auto j = verify("", 1);
    EXPECT_EQ(j["first_broken"]["kind"], "truncated") << j.dump();
    EXPECT_EQ(j["first_broken"]["seq"], 4);
}

TEST_F(AuditForgery, AKeyThatIsNotThereIsReportedNotPassed)
{
    recordRuns(1);
    const fs::path keys = m_dir / "config" / "sandbench" / "audit-keys";
    ASSERT_TRUE(fs::is_directory(keys));
    {
        const ScopedEnv elsewhere("SANDBENCH_AUDIT_KEYS", (m_dir / "no-keys-here").string());
        const auto j = verify("", 1);
        EXPECT_EQ(j["intact"], false);
        EXPECT_EQ(j["first_broken"]["kind"], "key_missing") << j.dump();
        EXPECT_EQ(j["key"]["found"], false);
        EXPECT_EQ(j["signed_entries"], 0);
        const auto text = cli("audit verify" + store());
        EXPECT_EQ(text.status, 1);
        EXPECT_NE(text.out.find("NOT VERIFIED (key_missing)"), std::string::npos) << text.out;
        EXPECT_NE(text.out.find((m_dir / "no-keys-here").string()), std::string::npos) << text.out;

        // --keys points at a copy of the key.
        EXPECT_EQ(verify(" --keys " + keys.string(), 0)["intact"], true);

        // Nothing is recorded without the key.
        const auto script = write("r.py", "print(9)\n");
        const auto run = cli("run --level process --json" + store() + " " + script, true);
        EXPECT_EQ(run.status, 1) << run.out;
        EXPECT_NE(run.out.find("SANDBENCH_AUDIT_KEYS"), std::string::npos) << run.out;
    }
    EXPECT_EQ(verify("", 0)["intact"], true);
}

} // namespace
