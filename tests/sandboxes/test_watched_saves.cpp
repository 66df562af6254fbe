// Saves of watched workspaces (SandboxEngine::watchWorkspaces): a walk that follows the watch records exactly
// the tree a full walk of the workspace sees, after every kind of change, including those inotify does not
// report (a write through a hard link outside the workspace, through a memory mapping); another writer to the
// store, and a restore, are followed by the right walk.

#include "workspace_fixture.h"

#include "checkpoints/scan.h"
#include "checkpoints/tree.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <thread>
#include <random>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace sb::workspacetest {
namespace {

class WatchedSaves : public WorkspaceTest {
protected:
    void SetUp() override
    {
        WorkspaceTest::SetUp();
        engine().watchWorkspaces();
        create("work");
        m_ws = workspace("work");
        for (int a = 0; a < 4; ++a) {
            for (int b = 0; b < 4; ++b) {
                for (int f = 0; f < 3; ++f)
                    writeFile(m_ws / named("d{}/e{}/f{}.txt", a, b, f), named("file {} {} {}\n", a, b, f));
            }
        }
    }

    template <typename... Args>
    static std::string named(const char* pattern, Args... args)
    {
        std::string out = pattern;
        for (const long value : {static_cast<long>(args)...})
            out.replace(out.find("{}"), 2, std::to_string(value));
        return out;
    }

    // The tree a full walk of the workspace sees, with no cache and nothing stored.
    ContentHash fullWalk()
    {
        auto scan = scanFolder(m_ws, ScanOptions{});
        EXPECT_TRUE(scan) << scan.error().message;
        return scan ? scan->root : ContentHash{};
    }

    // A checkpoint of the workspace; checks that it records what a full walk sees.
    CheckpointResult save(const std::string& what)
    {
        auto made = engine().checkpoint(CheckpointRequest{"work", what, {}, {}});
        EXPECT_TRUE(made) << what << ": " << made.error().message;
        if (!made)
            return {};
        EXPECT_EQ(hashHex(made->checkpoint.tree), hashHex(fullWalk())) << "after: " << what;
        return *made;
    }

    fs::path m_ws;
};

TEST_F(WatchedSaves, EveryGuidedSaveRecordsWhatAFullWalkSees)
{
    EXPECT_FALSE(save("first").watched); // the watch starts: everything is walked
    EXPECT_TRUE(save("nothing changed").watched);

    std::mt19937 random(20261204);
    std::vector<std::string> made;
    const auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
    for (int step = 0; step < 60; ++step) {
        const fs::path dir = m_ws / named("d{}/e{}", pick(4), pick(4));
        const fs::path file = dir / named("f{}.txt", pick(4));
        std::error_code ec;
        std::string what;
        switch (pick(10)) {
        case 0:
            what = "write " + file.string();
            writeFile(file, named("step {} {}\n", step, pick(1000)));
            break;
        case 1:
            what = "remove " + file.string();
            fs::remove(file, ec);
            break;
        case 2: {
            const fs::path to = m_ws / named("d{}/e{}/moved{}.txt", pick(4), pick(4), step);
            what = "rename " + file.string() + " to " + to.string();
            fs::create_directories(to.parent_path(), ec);
            fs::rename(file, to, ec);
            break;
        }
        case 3: {
            const fs::path fresh = m_ws / named("new{}/deep{}", step, step);
            what = "new folders " + fresh.string();
            writeFile(fresh / "a.txt", "a");
            writeFile(fresh / "b/c.txt", "c");
            break;
        }
        case 4: {
            const fs::path to = m_ws / named("d{}/renamed{}", pick(4), step);
            what = "rename folder " + dir.string() + " to " + to.string();
            fs::rename(dir, to, ec);
            break;
        }
        case 5:
            what = "remove folder " + dir.string();
            fs::remove_all(dir, ec);
            break;
        case 6:
            what = "chmod " + file.string();
            ::chmod(file.c_str(), 0600 | static_cast<mode_t>(pick(2) * 0100));
            break;
        case 7:
            what = "symlink in " + dir.string();
            fs::create_directories(dir, ec);
            fs::create_symlink(named("target{}", step), dir / named("link{}", step), ec);
            break;
        case 8: {
            // The same size and modification time: only the change time says it changed.
            what = "same size, same mtime " + file.string();
            struct stat before {};
            if (::stat(file.c_str(), &before) == 0) {
                std::string bytes = readFile(file);
                if (!bytes.empty())
                    bytes[0] = bytes[0] == 'x' ? 'y' : 'x';
                writeFile(file, bytes);
                const timespec times[2] = {before.st_atim, before.st_mtim};
                ::utimensat(AT_FDCWD, file.c_str(), times, 0);
            }
            break;
        }
        default:
            what = "append " + file.string();
            if (fs::exists(file))
                writeFile(file, readFile(file) + "more\n");
            break;
        }
        const CheckpointResult result = save(what);
        EXPECT_TRUE(result.watched) << what;
        if (::testing::Test::HasFailure())
            return;
    }
}

TEST_F(WatchedSaves, AWriteThroughAHardLinkIsSeen)
{
    // A name outside the workspace, given before the watch started.
    const fs::path outside = m_dir.path() / "outside.txt";
    fs::create_hard_link(m_ws / "d1/e1/f1.txt", outside);
    save("first");
    save("linked");
    {
        std::ofstream out(outside, std::ios::app);
        out << "written through the other name\n";
    }
    CheckpointResult result = save("written outside");
    EXPECT_TRUE(result.watched);
    EXPECT_EQ(result.changes.modified, 1u);

    // A second name inside the workspace, given while watched: a write through either name is seen.
    fs::create_hard_link(m_ws / "d2/e2/f2.txt", m_ws / "d3/e3/twin.txt");
    result = save("linked inside");
    EXPECT_EQ(result.changes.added, 1u);
    for (const char* name : {"d3/e3/twin.txt", "d2/e2/f2.txt"}) {
        std::ofstream(m_ws / name, std::ios::app) << "through " << name << '\n';
        result = save(std::string("written through ") + name);
        EXPECT_TRUE(result.watched) << name;
        EXPECT_EQ(result.changes.modified, 2u) << name; // both names
    }
}

TEST_F(WatchedSaves, AWriteThroughAMemoryMappingIsSeenOnceTheMappingGoes)
{
    save("first");
    const fs::path file = m_ws / "d2/e2/f2.txt";
    const int fd = ::open(file.c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    const std::size_t size = static_cast<std::size_t>(fs::file_size(file));
    void* map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ASSERT_NE(map, MAP_FAILED);
    ::close(fd);
    save("mapped");
    static_cast<char*>(map)[0] = 'M';
    ::msync(map, size, MS_SYNC);
    // The kernel reports the close of a file opened for writing when its last reference goes: the mapping's.
    ::munmap(map, size);
    const CheckpointResult result = save("written through the mapping, unmapped");
    EXPECT_TRUE(result.watched);
    EXPECT_EQ(result.changes.modified, 1u);
    EXPECT_EQ(readFile(file)[0], 'M');
}

TEST_F(WatchedSaves, AnotherWriterToTheStoreMeansAFullWalk)
{
    save("first");
    EXPECT_TRUE(save("guided").watched);
    // Another connection (another process, as far as the store can tell) writes to the store.
    {
        auto other = Store::open(storePath());
        ASSERT_TRUE(other) << other.error().message;
        auto otherEngine = SandboxEngine::open(*other);
        ASSERT_TRUE(otherEngine) << otherEngine.error().message;
        writeFile(m_ws / "d0/e0/f0.txt", "written while the other engine checkpoints\n");
        auto made = (*otherEngine)->checkpoint(CheckpointRequest{"work", "by the other", {}, {}});
        ASSERT_TRUE(made) << made.error().message;
    }
    EXPECT_FALSE(save("after the other writer").watched);
    writeFile(m_ws / "d0/e0/f0.txt", "and again\n");
    EXPECT_TRUE(save("guided again").watched);
}

TEST_F(WatchedSaves, ARestoreIsFollowedByGuidedSavesOfWhatItLeft)
{
    const std::string first = save("first").checkpoint.id;
    // Two changes in one folder: a restore swaps that folder whole.
    writeFile(m_ws / "d3/e3/f0.txt", "changed\n");
    writeFile(m_ws / "d3/e3/new.txt", "new\n");
    const auto before = snapshot(m_ws);
    const std::string second = save("second").checkpoint.id;
    // A save guided by the watch that finds `modified` files changed and nothing else.
    const auto guided = [&](const std::string& what, std::uint64_t modified) {
        const CheckpointResult after = save(what);
        EXPECT_TRUE(after.watched) << what;
        EXPECT_EQ(after.changes.added + after.changes.removed, 0u) << what;
        EXPECT_EQ(after.changes.modified, modified) << what;
    };

    auto restored = engine().restore(first);
    ASSERT_TRUE(restored) << restored.error().message;
    EXPECT_EQ(restored->swapped, "d3/e3");
    EXPECT_EQ(hashHex(fullWalk()), hashHex(restored->restored.tree));
    guided("after the restore", 0);

    writeFile(m_ws / "d3/e3/f1.txt", "in the swapped-in folder\n");
    guided("changed in the swapped-in folder", 1);

    // Unsaved changes are checkpointed first.
    writeFile(m_ws / "d3/e3/f2.txt", "unsaved\n");
    restored = engine().restore(second);
    ASSERT_TRUE(restored) << restored.error().message;
    ASSERT_TRUE(restored->saved);
    EXPECT_EQ(snapshot(m_ws), before);
    guided("after the second restore", 0);

    // One file changed: a restore swaps that file alone.
    writeFile(m_ws / "d3/e3/new.txt", "newer\n");
    guided("one file changed", 1);
    restored = engine().restore(second);
    ASSERT_TRUE(restored) << restored.error().message;
    EXPECT_EQ(restored->swapped, "d3/e3/new.txt");
    EXPECT_EQ(snapshot(m_ws), before);
    guided("after the third restore", 0);
}

} // namespace
} // namespace sb::workspacetest
