// Crash safety: a child process loops restores and checkpoints (and, in a second test, promotions) and is
// killed with SIGKILL at random moments.
// After each kill, before anything repairs it, the workspace is wholly one of the states the loop restores; after the next open (which finishes or undoes an interrupted restore) the store passes
// PRAGMA integrity_check, every checkpoint the child reported committed is there and whole, the workspace is
// what its sandbox's head says, and no staging folder is left.
//
// SANDBENCH_CRASH_ROUNDS sets the number of kills (default 25); SANDBENCH_CRASH_SEED replays a run.

#include "workspace_fixture.h"

#include "store/audit.h"
#include "checkpoints/files.h"

#include <gtest/gtest.h>

#include <csignal>
#include <functional>
#include <map>
#include <fcntl.h>
#include <poll.h>
#include <random>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

namespace sb::workspacetest {
namespace {

int envInt(const char* name, int fallback)
{
    const char* value = std::getenv(name);
    return value && *value ? std::atoi(value) : fallback;
}

class CrashTest : public WorkspaceTest {
protected:
    // State A and state B differ deep in one folder, at the top and in a large file, so restores swap the
    // whole workspace.
    void writeState(const fs::path& root, int version)
    {
        for (int d = 0; d < 6; ++d)
            for (int f = 0; f < 8; ++f)
                writeFile(root / ("dir" + std::to_string(d)) / ("sub" + std::to_string(f % 2)) / ("f" + std::to_string(f)),
                          noise(3000 + static_cast<std::size_t>(f) * 100, static_cast<std::uint64_t>(d * 10 + f)));
        writeFile(root / "dir3/sub1/f5", "version " + std::to_string(version) + "\n");
        writeFile(root / "top.txt", version == 1 ? "first\n" : "second, longer\n");
        std::string large = noise(1 << 20, 77);
        large[500'000] = static_cast<char>(version);
        writeFile(root / "large.bin", large);
        if (version == 2)
            writeFile(root / "only-in-b/new.txt", "b\n");
        else
            fs::remove_all(root / "only-in-b");
    }

    // The child: loops forever, reporting each committed checkpoint id on `out`, errors as "ERR ...".
    [[noreturn]] void child(int out, const std::string& a, const std::string& b, const std::string& c)
    {
        auto report = [&](const std::string& line) {
            const std::string text = line + "\n";
            (void)!::write(out, text.data(), text.size());
        };
        auto store = Store::open(storePath());
        if (!store) {
            report("ERR " + store.error().message);
            ::_exit(1);
        }
        auto engine = SandboxEngine::open(*store);
        if (!engine) {
            report("ERR " + engine.error().message);
            ::_exit(1);
        }
        const fs::path scratch = (*engine)->sandbox("scratch")->workspace;
        std::mt19937_64 random(static_cast<std::uint64_t>(::getpid()));
        for (std::uint64_t round = 0;; ++round) {
            for (const std::string* target : {&a, &b, &c, &b}) {
                if (auto restored = (*engine)->restore(*target); !restored) {
                    report("ERR restore: " + restored.error().message);
                    ::_exit(1);
                }
                writeFile(scratch / ("s" + std::to_string(round % 7)), noise(20'000 + random() % 300'000, random()));
                for (const char* sandbox : {"scratch", "main"}) {
                    auto made = (*engine)->checkpoint(CheckpointRequest{sandbox, "crash", "", ""});
                    if (!made) {
                        report("ERR checkpoint: " + made.error().message);
                        ::_exit(1);
                    }
                    report(made->checkpoint.id);
                }
            }
        }
    }

    // Runs `operation` in a child whose engine kills it (SIGKILL) at `step`; true when it died there.
    bool killedAt(const std::string& step, const std::function<void(SandboxEngine&)>& operation)
    {
        m_engine.reset();
        m_store.reset();
        const pid_t pid = ::fork();
        if (pid < 0)
            return false;
        if (pid == 0) {
            auto store = Store::open(storePath());
            if (!store)
                ::_exit(2);
            auto engine = SandboxEngine::open(*store);
            if (!engine)
                ::_exit(2);
            (*engine)->setFaultHook([&](std::string_view at) {
                if (at == step)
                    ::raise(SIGKILL);
            });
            operation(**engine);
            ::_exit(3); // the step was never reached
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    }

    static std::string drain(int fd)
    {
        std::string text;
        char buffer[4096];
        for (;;) {
            const ssize_t n = ::read(fd, buffer, sizeof buffer);
            if (n <= 0)
                break;
            text.append(buffer, static_cast<std::size_t>(n));
        }
        return text;
    }
};

TEST_F(CrashTest, KilledAtRandomMomentsLeavesEverythingWhole)
{
    const fs::path main = workspace("main");
    writeState(main, 1);
    const std::string a = checkpoint("main", "A");
    const auto stateA = snapshot(main);
    writeState(main, 2);
    const std::string b = checkpoint("main", "B");
    const auto stateB = snapshot(main);
    ASSERT_NE(stateA, stateB);
    writeFile(main / "dir2/sub1/f3", "one file apart from B\n"); // C: restored to and from by one file's swap
    const std::string c = checkpoint("main", "C");
    const auto stateC = snapshot(main);
    create("scratch");

    const int rounds = envInt("SANDBENCH_CRASH_ROUNDS", 25);
    const unsigned seed = static_cast<unsigned>(envInt("SANDBENCH_CRASH_SEED", static_cast<int>(std::random_device{}())));
    std::mt19937 random(seed);
    SCOPED_TRACE("SANDBENCH_CRASH_SEED=" + std::to_string(seed));
    std::set<std::string> committed;
    int killedMidRestore = 0;

    for (int round = 0; round < rounds; ++round) {
        // The child opens its own store: close ours, as another process would not share it.
        m_engine.reset();
        m_store.reset();
        int pipe[2];
        ASSERT_EQ(::pipe2(pipe, O_CLOEXEC), 0);
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ::close(pipe[0]);
            child(pipe[1], a, b, c);
        }
        ::close(pipe[1]);
        ::usleep(static_cast<useconds_t>(std::uniform_int_distribution<int>(5'000, 400'000)(random)));
        ::kill(pid, SIGKILL);
        int status = 0;
        ::waitpid(pid, &status, 0);
        const std::string reported = drain(pipe[0]);
        ::close(pipe[0]);
        ASSERT_EQ(reported.find("ERR"), std::string::npos) << reported;
        for (std::size_t start = 0; start < reported.size();) {
            const std::size_t end = reported.find('\n', start);
            if (end == std::string::npos)
                break; // a line cut by the kill was not reported
            committed.insert(reported.substr(start, end - start));
            start = end + 1;
        }

        // Before anything repairs it: wholly one of the states.
        const auto now = snapshot(main);
        ASSERT_TRUE(now == stateA || now == stateB || now == stateC) << "round " << round << ": the workspace is no state";

        // The next open settles what the kill interrupted.
        bool journaled = false;
        {
            auto raw = Store::open(storePath());
            ASSERT_TRUE(raw) << raw.error().message;
            sqlite3_stmt* statement = nullptr;
            sqlite3_prepare_v2(sqlite::connectionOf(*raw).value().handle(), "SELECT count(*) FROM workspace_journal", -1, &statement, nullptr);
            journaled = sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_int64(statement, 0) > 0;
            sqlite3_finalize(statement);
        }
        killedMidRestore += journaled ? 1 : 0;
        SetUp();
        EXPECT_EQ(count("SELECT count(*) FROM workspace_journal"), 0);
        const auto settled = snapshot(main);
        ASSERT_TRUE(settled == stateA || settled == stateB || settled == stateC) << "round " << round;
        auto head = engine().sandbox("main")->head;
        auto drift = engine().diff(head, "");
        ASSERT_TRUE(drift) << drift.error().message;
        EXPECT_TRUE(drift->files.empty()) << "round " << round << ": the head does not match the workspace";
        for (const auto& entry : fs::directory_iterator(SandboxEngine::dataFolder(storePath()) / "sandboxes" / "main"))
            EXPECT_EQ(entry.path().filename(), "workspace") << "left behind: " << entry.path();
    }

    sqlite3_stmt* statement = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(sqlite::connectionOf(*m_store).value().handle(), "PRAGMA integrity_check", -1, &statement, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0))), "ok");
    sqlite3_finalize(statement);
    EXPECT_EQ(count("SELECT count(*) FROM pragma_foreign_key_check"), 0);
    EXPECT_GT(committed.size(), 0u);
    for (const auto& id : committed) {
        auto ok = engine().verifyCheckpoint(id);
        EXPECT_TRUE(ok) << id << ": " << (ok ? "" : ok.error().message);
    }
    // Whatever the kills left unreferenced is reclaimed, and what is referenced stays whole.
    ASSERT_TRUE(engine().collectGarbage());
    for (const auto& id : committed)
        EXPECT_TRUE(engine().verifyCheckpoint(id)) << id;
    std::cout << "[crash] " << rounds << " kills, " << committed.size() << " checkpoints reported committed, "
              << killedMidRestore << " kills between a restore's journal and its record\n";
}

TEST_F(CrashTest, KilledAtEveryStepSettlesToBeforeOrAfter)
{
    const fs::path main = workspace("main");
    writeState(main, 1);
    const std::string a = checkpoint("main", "A");
    const auto stateA = snapshot(main);
    writeState(main, 2);
    const std::string b = checkpoint("main", "B");
    const auto stateB = snapshot(main);
    const ContentHash treeA = engine().findCheckpoint(a)->tree;

    // Each kind of swap: the whole workspace (A and B differ in several places at the top), one file
    // rewritten, one file added, one removed.
    struct Scenario {
        std::string name;
        std::string from; // restored from this state ...
        std::string to;   // ... to this one
        std::map<std::string, std::string> fromState;
        std::map<std::string, std::string> toState;
    };
    std::vector<Scenario> scenarios = {{"whole workspace", b, a, stateB, stateA}};
    ASSERT_TRUE(engine().restore(b));
    writeFile(main / "dir1/sub0/f0", "rewritten\n");
    const std::string rewritten = checkpoint("main");
    scenarios.push_back({"one file rewritten", rewritten, b, snapshot(main), stateB});
    ASSERT_TRUE(engine().restore(b));
    writeFile(main / "dir1/sub0/added.txt", "added\n");
    const std::string added = checkpoint("main");
    scenarios.push_back({"one file added", b, added, stateB, snapshot(main)});
    scenarios.push_back({"one file removed", added, b, snapshot(main), stateB});
    const ContentHash treeB = engine().findCheckpoint(b)->tree;
    (void)treeA;
    (void)treeB;

    for (const auto& scenario : scenarios) {
        for (const auto& [step, after] : {std::pair{"restore.staged", false}, std::pair{"restore.journaled", false},
                                          std::pair{"restore.swapped", true}, std::pair{"restore.recorded", true}}) {
            SCOPED_TRACE(scenario.name + " killed at " + step);
            ASSERT_TRUE(engine().restore(scenario.from));
            ASSERT_TRUE(snapshot(main) == scenario.fromState);
            const std::string headBefore = engine().sandbox("main")->head;
            const auto checkpointsBefore = count("SELECT count(*) FROM checkpoints");
            const std::string target = scenario.to;
            ASSERT_TRUE(killedAt(step, [&](SandboxEngine& e) { (void)e.restore(target); }));
            const auto& expected = after ? scenario.toState : scenario.fromState;
            EXPECT_TRUE(snapshot(main) == expected) << "before the next open";
            SetUp(); // the next open settles it
            EXPECT_TRUE(snapshot(main) == expected);
            EXPECT_EQ(count("SELECT count(*) FROM workspace_journal"), 0);
            const auto head = engine().findCheckpoint(engine().sandbox("main")->head).value();
            if (after) {
                EXPECT_EQ(head.tree, engine().findCheckpoint(target)->tree);
                EXPECT_EQ(head.kind, "restore");
                EXPECT_EQ(head.source, engine().findCheckpoint(target)->id);
                EXPECT_EQ(count("SELECT count(*) FROM checkpoints"), checkpointsBefore + 1);
            } else {
                EXPECT_EQ(head.id, headBefore);
                EXPECT_EQ(count("SELECT count(*) FROM checkpoints"), checkpointsBefore);
            }
            for (const auto& entry : fs::directory_iterator(SandboxEngine::dataFolder(storePath()) / "sandboxes" / "main"))
                EXPECT_EQ(entry.path().filename(), "workspace") << "left behind: " << entry.path();
        }
    }
    ASSERT_TRUE(engine().restore(b));

    // A checkpoint killed after storing its content and before recording it: no checkpoint, and the content is
    // garbage for the next collection.
    writeFile(main / "fresh.bin", noise(400'000, 42));
    const auto checkpointsBefore = count("SELECT count(*) FROM checkpoints");
    const auto blobsBefore = count("SELECT count(*) FROM blobs");
    ASSERT_TRUE(killedAt("checkpoint.stored", [](SandboxEngine& e) { (void)e.checkpoint(CheckpointRequest{"main", "", "", ""}); }));
    SetUp();
    EXPECT_EQ(count("SELECT count(*) FROM checkpoints"), checkpointsBefore);
    EXPECT_GT(count("SELECT count(*) FROM blobs"), blobsBefore);
    ASSERT_TRUE(engine().collectGarbage());
    EXPECT_EQ(count("SELECT count(*) FROM blobs"), blobsBefore);
    EXPECT_TRUE(engine().checkpoint(CheckpointRequest{"main", "", "", ""}));

    // A sandbox killed while being made does not exist, and its name can be used.
    ASSERT_TRUE(killedAt("create.written", [](SandboxEngine& e) {
        (void)e.createSandbox(CreateSandboxRequest{"half", "", {}, {}, {}, {}, {}, {}, {}, {}, {}});
    }));
    SetUp();
    EXPECT_FALSE(engine().sandbox("half"));
    auto made = engine().createSandbox(CreateSandboxRequest{"half", "", {}, {}, {}, {}, {}, {}, {}, {}, {}});
    ASSERT_TRUE(made) << made.error().message;
    EXPECT_EQ(snapshot(made->sandbox.workspace), snapshot(main));

    // A sandbox killed while being destroyed is gone, and its folder goes with the next sweep.
    ASSERT_TRUE(killedAt("destroy.recorded", [](SandboxEngine& e) { (void)e.destroySandbox("half"); }));
    SetUp();
    EXPECT_FALSE(engine().sandbox("half"));
    ASSERT_TRUE(engine().sweep());
    EXPECT_FALSE(fs::exists(SandboxEngine::dataFolder(storePath()) / "sandboxes" / "half"));
    EXPECT_TRUE(fs::is_empty(SandboxEngine::dataFolder(storePath()) / "trash"));

    // An archive killed after it was recorded, before the folder went: archived, and the next use writes the
    // head back over what was left.
    CreateSandboxRequest idle;
    idle.name = "idler";
    idle.idleTimeoutMs = 1;
    ASSERT_TRUE(engine().createSandbox(idle));
    writeFile(workspace("idler") / "notes/unsaved.txt", "work\n");
    const auto idleBefore = snapshot(workspace("idler"));
    ::usleep(5000);
    ASSERT_TRUE(killedAt("archive.recorded", [](SandboxEngine& e) { (void)e.sweep(); }));
    SetUp();
    EXPECT_TRUE(engine().sandbox("idler")->archived);
    auto revived = engine().use("idler");
    ASSERT_TRUE(revived) << revived.error().message;
    EXPECT_EQ(snapshot(revived->workspace), idleBefore);

    // A revive killed after writing the workspace, before recording it: still archived; the next use revives.
    ::usleep(5000);
    ASSERT_TRUE(engine().sweep());
    ASSERT_TRUE(engine().sandbox("idler")->archived);
    ASSERT_TRUE(killedAt("revive.written", [](SandboxEngine& e) { (void)e.use("idler"); }));
    SetUp();
    EXPECT_TRUE(engine().sandbox("idler")->archived);
    revived = engine().use("idler");
    ASSERT_TRUE(revived) << revived.error().message;
    EXPECT_FALSE(revived->archived);
    EXPECT_EQ(snapshot(revived->workspace), idleBefore);
}

// Promotion applies with the restore machinery: killed at each step it settles to wholly before or wholly
// after, recorded (promote checkpoint, audit entries) exactly when after.
TEST_F(CrashTest, PromotionKilledAtEveryStepSettlesToBeforeOrAfter)
{
    const fs::path main = workspace("main");
    writeState(main, 1);
    const std::string a = checkpoint("main", "A");
    const auto stateA = snapshot(main);
    struct Scenario {
        std::string name;
        std::function<void(const fs::path&)> change;
    };
    const std::vector<Scenario> scenarios = {
        {"whole workspace", [&](const fs::path& ws) { writeState(ws, 2); }},
        {"one file", [&](const fs::path& ws) { writeFile(ws / "dir4/sub1/f3", "one file changed\n"); }},
        {"one file added", [&](const fs::path& ws) { writeFile(ws / "dir4/sub1/new", "added\n"); }},
        {"one file removed", [&](const fs::path& ws) { fs::remove(ws / "dir4/sub1/f3"); }},
    };
    int round = 0;
    for (const auto& scenario : scenarios) {
        for (const auto& [step, after] : {std::pair{"promote.staged", false}, std::pair{"promote.journaled", false},
                                          std::pair{"promote.swapped", true}, std::pair{"promote.recorded", true}}) {
            SCOPED_TRACE(scenario.name + " killed at " + step);
            ASSERT_TRUE(engine().restore(a, {}, "main"));
            ASSERT_TRUE(snapshot(main) == stateA);
            const std::string name = "f" + std::to_string(round++);
            create(name);
            scenario.change(workspace(name));
            const std::string sourceHead = checkpoint(name);
            const auto stateAfter = snapshot(workspace(name));
            const std::string headBefore = engine().sandbox("main")->head;
            const auto checkpointsBefore = count("SELECT count(*) FROM checkpoints");
            const auto promotionsBefore = listAudit(*m_store, AuditFilter{.operation = "promote"})->size();
            ASSERT_TRUE(killedAt(step, [&](SandboxEngine& e) {
                PromotionRequest request;
                request.source = name;
                request.approval = Approval{"carol", "crash test"}; // recorded by the recovery too
                (void)e.promote(request);
            }));
            const auto& expected = after ? stateAfter : stateA;
            EXPECT_TRUE(snapshot(main) == expected) << "before the next open";
            SetUp(); // the next open settles it
            EXPECT_TRUE(snapshot(main) == expected);
            EXPECT_EQ(count("SELECT count(*) FROM workspace_journal"), 0);
            const auto head = engine().findCheckpoint(engine().sandbox("main")->head).value();
            const auto promotions = listAudit(*m_store, AuditFilter{.operation = "promote"})->size();
            if (after) {
                EXPECT_EQ(head.kind, "promote");
                EXPECT_EQ(head.parents, (std::vector<std::string>{headBefore, sourceHead}));
                EXPECT_EQ(count("SELECT count(*) FROM checkpoints"), checkpointsBefore + 1);
                EXPECT_EQ(promotions, promotionsBefore + 1);
                EXPECT_TRUE(engine().verifyCheckpoint(head.id));
                const auto approvals = listAudit(*m_store, AuditFilter{.operation = "approve"}).value();
                ASSERT_FALSE(approvals.empty());
                EXPECT_EQ(approvals.back().actor, "carol");
                EXPECT_NE(approvals.back().details.find(head.id), std::string::npos);
                const auto promoted = listAudit(*m_store, AuditFilter{.operation = "promote"}).value().back();
                EXPECT_EQ(nlohmann::json::parse(promoted.details)["recovered"], std::string(step) == "promote.swapped");
            } else {
                EXPECT_EQ(head.id, headBefore);
                EXPECT_EQ(count("SELECT count(*) FROM checkpoints"), checkpointsBefore);
                EXPECT_EQ(promotions, promotionsBefore);
            }
            auto drift = engine().diff(head.id, "");
            ASSERT_TRUE(drift) << drift.error().message;
            EXPECT_TRUE(drift->files.empty());
            for (const auto& entry :
                 fs::directory_iterator(SandboxEngine::dataFolder(storePath()) / "sandboxes" / "main"))
                EXPECT_EQ(entry.path().filename(), "workspace") << "left behind: " << entry.path();
            // Whatever the kill left unreferenced goes; what is referenced stays whole.
            ASSERT_TRUE(engine().collectGarbage());
            EXPECT_TRUE(engine().verifyCheckpoint(head.id));
        }
    }
    EXPECT_TRUE(verifyAudit(*m_store)->intact());
}

TEST_F(CrashTest, PromotionsKilledAtRandomMomentsLeaveEverythingWhole)
{
    const fs::path main = workspace("main");
    writeState(main, 1);
    checkpoint("main", "A");
    const auto stateA = snapshot(main);
    create("feature");
    const fs::path feature = workspace("feature");
    writeState(feature, 2);
    const auto stateB = snapshot(feature);

    const int rounds = envInt("SANDBENCH_CRASH_ROUNDS", 25);
    const unsigned seed =
        static_cast<unsigned>(envInt("SANDBENCH_CRASH_SEED", static_cast<int>(std::random_device{}())));
    std::mt19937 random(seed);
    SCOPED_TRACE("SANDBENCH_CRASH_SEED=" + std::to_string(seed));
    std::set<std::string> committed;
    int applied = 0;
    int killedMidPromotion = 0;
    for (int round = 0; round < rounds; ++round) {
        m_engine.reset();
        m_store.reset();
        int pipe[2];
        ASSERT_EQ(::pipe2(pipe, O_CLOEXEC), 0);
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ::close(pipe[0]);
            auto report = [&](const std::string& line) {
                const std::string text = line + "\n";
                (void)!::write(pipe[1], text.data(), text.size());
            };
            auto store = Store::open(storePath());
            if (!store) {
                report("ERR " + store.error().message);
                ::_exit(1);
            }
            auto engine = SandboxEngine::open(*store);
            if (!engine) {
                report("ERR " + engine.error().message);
                ::_exit(1);
            }
            for (int version = 2;; version = 3 - version) {
                writeState(feature, version);
                PromotionRequest request;
                request.source = "feature";
                request.approval = Approval{"dave", "crash test"}; // large.bin is binary: medium risk
                auto promoted = (*engine)->promote(request);
                if (!promoted || !promoted->conflicts.empty() || promoted->status == "blocked") {
                    report("ERR promote: " + (promoted ? promoted->status : promoted.error().message));
                    ::_exit(1);
                }
                for (const auto& id : promoted->saved)
                    report(id);
                if (!promoted->checkpoint.empty())
                    report(promoted->checkpoint);
            }
        }
        ::close(pipe[1]);
        ::usleep(static_cast<useconds_t>(std::uniform_int_distribution<int>(5'000, 400'000)(random)));
        ::kill(pid, SIGKILL);
        int status = 0;
        ::waitpid(pid, &status, 0);
        const std::string reported = drain(pipe[0]);
        ::close(pipe[0]);
        ASSERT_EQ(reported.find("ERR"), std::string::npos) << reported;
        for (std::size_t start = 0; start < reported.size();) {
            const std::size_t end = reported.find('\n', start);
            if (end == std::string::npos)
                break;
            committed.insert(reported.substr(start, end - start));
            start = end + 1;
        }
        const auto now = snapshot(main);
        ASSERT_TRUE(now == stateA || now == stateB) << "round " << round << ": main is no state";
        {
            auto raw = Store::open(storePath());
            ASSERT_TRUE(raw) << raw.error().message;
            sqlite3_stmt* journal = nullptr;
            sqlite3_prepare_v2(sqlite::connectionOf(*raw).value().handle(), "SELECT count(*) FROM workspace_journal",
                               -1, &journal, nullptr);
            killedMidPromotion += sqlite3_step(journal) == SQLITE_ROW && sqlite3_column_int64(journal, 0) > 0 ? 1 : 0;
            sqlite3_finalize(journal);
        }
        SetUp();
        EXPECT_EQ(count("SELECT count(*) FROM workspace_journal"), 0);
        const auto settled = snapshot(main);
        ASSERT_TRUE(settled == stateA || settled == stateB) << "round " << round;
        auto head = engine().sandbox("main")->head;
        auto drift = engine().diff(head, "");
        ASSERT_TRUE(drift) << drift.error().message;
        EXPECT_TRUE(drift->files.empty()) << "round " << round << ": the head does not match the workspace";
        applied += engine().findCheckpoint(head)->kind == "promote" ? 1 : 0;
    }
    sqlite3_stmt* statement = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(sqlite::connectionOf(*m_store).value().handle(), "PRAGMA integrity_check", -1,
                                 &statement, nullptr),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0))), "ok");
    sqlite3_finalize(statement);
    ASSERT_TRUE(engine().collectGarbage());
    for (const auto& id : committed) {
        auto ok = engine().verifyCheckpoint(id);
        EXPECT_TRUE(ok) << id << ": " << (ok ? "" : ok.error().message);
    }
    EXPECT_TRUE(verifyAudit(*m_store)->intact());
    std::cout << "[crash] " << rounds << " kills during promotions, " << committed.size()
              << " checkpoints reported committed, main's head a promotion after " << applied << " of them, "
              << killedMidPromotion << " kills between a promotion's journal and its record\n";
}

// A promotion killed after its swap whose source head is pruned before the recovery gets to it (the target
// was busy): the recovery records it with the parent that remains instead of failing every open.
TEST_F(CrashTest, APromotionRecoveredAfterItsSourceHeadWasPrunedKeepsTheOtherParent)
{
    const fs::path main = workspace("main");
    writeState(main, 1);
    checkpoint("main", "A");
    create("feature");
    writeFile(workspace("feature") / "dir1/sub0/f1", "promoted\n");
    const std::string sourceHead = checkpoint("feature");
    const std::string mainHead = engine().sandbox("main")->head;
    ASSERT_TRUE(killedAt("promote.swapped", [](SandboxEngine& e) {
        PromotionRequest request;
        request.source = "feature";
        (void)e.promote(request);
    }));
    {
        // main is busy (its lock held): this open leaves main's journal row alone, and the source moves on.
        auto busy = FileLock::acquire(SandboxEngine::dataFolder(storePath()) / "locks" / "main",
                                      FileLock::Mode::Exclusive, 1000, "main");
        ASSERT_TRUE(busy && busy->valid());
        SetUp();
        EXPECT_EQ(count("SELECT count(*) FROM workspace_journal"), 1);
        writeFile(workspace("feature") / "later.txt", "later\n");
        checkpoint("feature");
        auto pruned = engine().prune("feature", PrunePolicy{1, false, std::nullopt});
        ASSERT_TRUE(pruned) << pruned.error().message;
        EXPECT_FALSE(engine().findCheckpoint(sourceHead));
    }
    SetUp(); // main is free: its promotion is finished
    EXPECT_EQ(count("SELECT count(*) FROM workspace_journal"), 0);
    const auto head = engine().findCheckpoint(engine().sandbox("main")->head).value();
    EXPECT_EQ(head.kind, "promote");
    EXPECT_EQ(head.parents, std::vector<std::string>{mainHead});
    EXPECT_EQ(readFile(main / "dir1/sub0/f1"), "promoted\n");
    auto drift = engine().diff(head.id, "");
    ASSERT_TRUE(drift);
    EXPECT_TRUE(drift->files.empty());
    EXPECT_TRUE(verifyAudit(*m_store)->intact());
}

} // namespace
} // namespace sb::workspacetest
