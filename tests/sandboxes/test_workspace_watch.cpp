// The watch of a workspace (inotify): which directories it reports after which changes, what it reports at
// every take(), and how it starts over when it cannot say.

#include "checkpoints/workspace_watch.h"
#include "folder_walk.h"
#include "workspace_fixture.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sb::workspacetest {
namespace {

using Directories = std::set<std::string>;

// A watch started on `root`, its first take() (everything) done.
std::unique_ptr<WorkspaceWatch> started(const fs::path& root)
{
    auto watch = WorkspaceWatch::start(root);
    EXPECT_TRUE(watch) << watch.error().message;
    if (!watch)
        return nullptr;
    EXPECT_TRUE((*watch)->take().everything);
    return std::move(*watch);
}

// The directories of a take() that can say what changed.
Directories changed(WorkspaceWatch& watch)
{
    const auto changes = watch.take();
    EXPECT_FALSE(changes.everything);
    return changes.directories;
}

// A regular file made with no descriptor open for writing (which would make its directory written).
void makeUnwritten(const fs::path& path)
{
    ASSERT_EQ(::mknod(path.c_str(), S_IFREG | 0644, 0), 0) << path << ": " << std::strerror(errno);
}

void append(const fs::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << bytes;
}

TEST(WorkspaceWatch, FirstTakeSaysEverythingThenNothingWhenNothingChanged)
{
    TempDir dir;
    writeFile(dir.path() / "a/b/f", "1");
    auto watch = WorkspaceWatch::start(dir.path());
    ASSERT_TRUE(watch) << watch.error().message;
    const auto first = (*watch)->take();
    EXPECT_TRUE(first.everything);
    const auto second = (*watch)->take();
    EXPECT_FALSE(second.everything);
    EXPECT_TRUE(second.directories.empty());
    EXPECT_EQ(changed(**watch), Directories{});
}

TEST(WorkspaceWatch, WriteReportsItsDirectoryAtEveryTakeFromThen)
{
    TempDir dir;
    writeFile(dir.path() / "a/b/f", "1");
    writeFile(dir.path() / "a/c/g", "2");
    writeFile(dir.path() / "d/h", "3");
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);
    EXPECT_EQ(changed(*watch), Directories{});
    append(dir.path() / "a/b/f", "more");
    EXPECT_EQ(changed(*watch), Directories{"a/b"});
    // Written: a shared mapping could write it again with no event.
    EXPECT_EQ(changed(*watch), Directories{"a/b"});
    EXPECT_EQ(changed(*watch), Directories{"a/b"});
}

TEST(WorkspaceWatch, CreateRemoveAndRenameReportTheirDirectories)
{
    TempDir dir;
    writeFile(dir.path() / "x/f", "1");
    writeFile(dir.path() / "y/g", "2");
    fs::create_directories(dir.path() / "z");
    fs::create_directories(dir.path() / "z-sibling/inner");
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);

    fs::remove(dir.path() / "x/f");
    EXPECT_EQ(changed(*watch), Directories{"x"});
    EXPECT_EQ(changed(*watch), Directories{});

    fs::rename(dir.path() / "y/g", dir.path() / "z/g");
    EXPECT_EQ(changed(*watch), (Directories{"y", "z"}));
    EXPECT_EQ(changed(*watch), Directories{});

    fs::rename(dir.path() / "z/g", dir.path() / "z/h");
    EXPECT_EQ(changed(*watch), Directories{"z"});

    makeUnwritten(dir.path() / "x/new");
    EXPECT_EQ(changed(*watch), Directories{"x"});
    EXPECT_EQ(changed(*watch), Directories{});

    writeFile(dir.path() / "z-sibling/inner/written", "w");
    EXPECT_EQ(changed(*watch), Directories{"z-sibling/inner"});
    EXPECT_EQ(changed(*watch), Directories{"z-sibling/inner"});
}

TEST(WorkspaceWatch, NewDirectoryIsReportedWholeAndWatched)
{
    TempDir dir;
    fs::create_directories(dir.path() / "old");
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);
    fs::create_directories(dir.path() / "x/y");
    makeUnwritten(dir.path() / "x/f");
    makeUnwritten(dir.path() / "x/y/g");
    EXPECT_EQ(changed(*watch), (Directories{"", "x", "x/y"}));
    EXPECT_EQ(changed(*watch), Directories{});
    append(dir.path() / "x/y/g", "later");
    EXPECT_EQ(changed(*watch), Directories{"x/y"});
}

TEST(WorkspaceWatch, DirectoryMovedWithinIsWatchedAtItsNewPath)
{
    TempDir dir;
    writeFile(dir.path() / "a/b/f", "1");
    writeFile(dir.path() / "a/b/s/f2", "2");
    fs::create_directories(dir.path() / "c");
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);
    fs::rename(dir.path() / "a/b", dir.path() / "c/b");
    EXPECT_EQ(changed(*watch), (Directories{"a", "c", "c/b", "c/b/s"}));
    EXPECT_EQ(changed(*watch), Directories{});
    append(dir.path() / "c/b/s/f2", "x");
    EXPECT_EQ(changed(*watch), Directories{"c/b/s"});
    append(dir.path() / "c/b/f", "y");
    EXPECT_EQ(changed(*watch), (Directories{"c/b", "c/b/s"}));
}

TEST(WorkspaceWatch, WrittenDirectoryMovedStaysReportedUnderItsNewPath)
{
    TempDir dir;
    writeFile(dir.path() / "a/b/f", "1");
    writeFile(dir.path() / "a/b/s/g", "2");
    fs::create_directories(dir.path() / "c");
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);
    append(dir.path() / "a/b/s/g", "x");
    EXPECT_EQ(changed(*watch), Directories{"a/b/s"});
    fs::rename(dir.path() / "a/b", dir.path() / "c/b");
    EXPECT_EQ(changed(*watch), (Directories{"a", "c", "c/b", "c/b/s"}));
    EXPECT_EQ(changed(*watch), Directories{"c/b/s"});
    // A written file moved to another directory: its mapping, if any, writes it there now.
    fs::rename(dir.path() / "c/b/s/g", dir.path() / "a/g");
    EXPECT_EQ(changed(*watch), (Directories{"a", "c/b/s"}));
    EXPECT_EQ(changed(*watch), (Directories{"a", "c/b/s"}));
}

TEST(WorkspaceWatch, DirectoryMovedOutIsNoLongerReported)
{
    TempDir dir;
    TempDir outside;
    writeFile(dir.path() / "a/b/f", "1");
    writeFile(dir.path() / "a/b/s/g", "2");
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);
    fs::rename(dir.path() / "a/b", outside.path() / "b");
    EXPECT_EQ(changed(*watch), Directories{"a"});
    append(outside.path() / "b/f", "x");
    append(outside.path() / "b/s/g", "y");
    fs::create_directories(outside.path() / "b/new");
    EXPECT_EQ(changed(*watch), Directories{});
}

TEST(WorkspaceWatch, FileLinkedFromOutsideIsReportedAtEveryTake)
{
    TempDir dir;
    TempDir outside;
    writeFile(dir.path() / "l/f", "1");
    writeFile(dir.path() / "other/g", "2");
    writeFile(outside.path() / "h", "3");
    fs::create_hard_link(dir.path() / "l/f", outside.path() / "f");
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);
    // Written through its other name with no event here.
    EXPECT_EQ(changed(*watch), Directories{"l"});
    append(outside.path() / "f", "x");
    EXPECT_EQ(changed(*watch), Directories{"l"});
    EXPECT_EQ(changed(*watch), Directories{"l"});

    // The other link's removal is no event here (an unlink notifies the file's own watches only): the file is
    // taken for linked until an event names it, such as a change of its attributes.
    fs::remove(outside.path() / "f");
    EXPECT_EQ(changed(*watch), Directories{"l"});
    fs::permissions(dir.path() / "l/f", fs::perms::owner_read, fs::perm_options::replace);
    EXPECT_EQ(changed(*watch), Directories{"l"});
    EXPECT_EQ(changed(*watch), Directories{});

    // A file linked in from outside after the start: where its other name is, the watch cannot tell.
    fs::create_hard_link(outside.path() / "h", dir.path() / "other/h");
    EXPECT_TRUE(watch->take().everything);
    EXPECT_EQ(changed(*watch), Directories{"other"});
    EXPECT_EQ(changed(*watch), Directories{"other"});
    fs::remove(dir.path() / "other/h");
    EXPECT_EQ(changed(*watch), Directories{"other"});
    EXPECT_EQ(changed(*watch), Directories{});
}

TEST(WorkspaceWatch, FileLinkedInsideIsReportedUnderBothNames)
{
    TempDir dir;
    writeFile(dir.path() / "a/f", "1");
    writeFile(dir.path() / "b/g", "2");
    fs::create_directories(dir.path() / "c");
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);
    // link(2) reports the new name only; the first one's link count changes unseen.
    fs::create_hard_link(dir.path() / "a/f", dir.path() / "c/twin");
    EXPECT_TRUE(watch->take().everything);
    EXPECT_EQ(changed(*watch), (Directories{"a", "c"}));
    append(dir.path() / "c/twin", "x");
    EXPECT_EQ(changed(*watch), (Directories{"a", "c"}));

    // Renamed within the workspace: its names are known, nothing to start over for. Written in c, it takes
    // that along to b.
    fs::rename(dir.path() / "c/twin", dir.path() / "b/twin");
    EXPECT_EQ(changed(*watch), (Directories{"a", "b", "c"}));
    EXPECT_EQ(changed(*watch), (Directories{"a", "b", "c"}));
    fs::remove(dir.path() / "b/twin");
    EXPECT_EQ(changed(*watch), (Directories{"a", "b", "c"}));
    // The other name's link count went down unseen: it stays reported until an event names it.
    fs::permissions(dir.path() / "a/f", fs::perms::owner_read, fs::perm_options::replace);
    EXPECT_EQ(changed(*watch), (Directories{"a", "b", "c"}));
    EXPECT_EQ(changed(*watch), (Directories{"b", "c"}));
}

TEST(WorkspaceWatch, ChmodReportsTheFilesDirectoryAndTheDirectoryWithItsParent)
{
    TempDir dir;
    writeFile(dir.path() / "a/f", "1");
    fs::create_directories(dir.path() / "a/b");
    writeFile(dir.path() / "a/locked/inside", "2");
    fs::permissions(dir.path() / "a/locked", fs::perms::none, fs::perm_options::replace);
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);

    fs::permissions(dir.path() / "a/f", fs::perms::owner_read, fs::perm_options::replace);
    EXPECT_EQ(changed(*watch), Directories{"a"});
    EXPECT_EQ(changed(*watch), Directories{});
    fs::permissions(dir.path() / "a/b", fs::perms::owner_read | fs::perms::owner_exec, fs::perm_options::replace);
    EXPECT_EQ(changed(*watch), (Directories{"a", "a/b"}));
    EXPECT_EQ(changed(*watch), Directories{});

    // A directory closed to this user when the watch started is watched once it opens.
    fs::permissions(dir.path() / "a/locked", fs::perms::owner_all, fs::perm_options::replace);
    EXPECT_EQ(changed(*watch), (Directories{"a", "a/locked"}));
    append(dir.path() / "a/locked/inside", "x");
    EXPECT_EQ(changed(*watch), Directories{"a/locked"});
}

TEST(WorkspaceWatch, OverflowSaysEverythingThenWatchesAgain)
{
    std::ifstream limitFile("/proc/sys/fs/inotify/max_queued_events");
    long limit = 0;
    if (!(limitFile >> limit) || limit <= 0)
        GTEST_SKIP() << "/proc/sys/fs/inotify/max_queued_events cannot be read";
    if (limit > 200000)
        GTEST_SKIP() << "max_queued_events is " << limit << ": overflowing the queue would take too long";
    TempDir dir;
    writeFile(dir.path() / "a/b/f", "1");
    writeFile(dir.path() / "many/one", "1");
    writeFile(dir.path() / "many/two", "2");
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);
    // One IN_ATTRIB each; two files in turn, as the kernel merges an event with the same one queued last.
    const std::string one = (dir.path() / "many/one").string();
    const std::string two = (dir.path() / "many/two").string();
    for (long i = 0; i <= limit + 100; ++i)
        ASSERT_EQ(::chmod(i % 2 == 0 ? one.c_str() : two.c_str(), (i / 2) % 2 == 0 ? 0600 : 0644), 0);
    EXPECT_TRUE(watch->take().everything);
    EXPECT_EQ(changed(*watch), Directories{});
    append(dir.path() / "a/b/f", "x");
    EXPECT_EQ(changed(*watch), Directories{"a/b"});
}

TEST(WorkspaceWatch, RootRemovedSaysEverythingUntilItIsBack)
{
    TempDir parent;
    const fs::path root = parent.path() / "ws";
    writeFile(root / "a/f", "1");
    auto watch = started(root);
    ASSERT_TRUE(watch);
    fs::remove_all(root);
    EXPECT_TRUE(watch->take().everything);
    EXPECT_TRUE(watch->take().everything);
    writeFile(root / "b/g", "2");
    EXPECT_TRUE(watch->take().everything); // started over on the folder now there
    EXPECT_EQ(changed(*watch), Directories{});
    append(root / "b/g", "x");
    EXPECT_EQ(changed(*watch), Directories{"b"});
}

TEST(WorkspaceWatch, RootMovedAwaySaysEverything)
{
    TempDir parent;
    const fs::path root = parent.path() / "ws";
    writeFile(root / "a/f", "1");
    auto watch = started(root);
    ASSERT_TRUE(watch);
    fs::rename(root, parent.path() / "elsewhere");
    EXPECT_TRUE(watch->take().everything);
    EXPECT_TRUE(watch->take().everything);
}

TEST(WorkspaceWatch, RefusesWhatIsNotALocalFolder)
{
    TempDir dir;
    fs::create_directories(dir.path() / "real");
    fs::create_directory_symlink(dir.path() / "real", dir.path() / "link");
    writeFile(dir.path() / "file", "1");

    const auto link = WorkspaceWatch::start(dir.path() / "link");
    ASSERT_FALSE(link);
    EXPECT_NE(link.error().message.find("symlink"), std::string::npos) << link.error().message;
    EXPECT_FALSE(WorkspaceWatch::start(dir.path() / "file"));
    EXPECT_FALSE(WorkspaceWatch::start(dir.path() / "missing"));

    const auto proc = WorkspaceWatch::start("/proc");
    ASSERT_FALSE(proc);
    EXPECT_NE(proc.error().message.find("(0x9fa0)"), std::string::npos) << proc.error().message;
}

TEST(WorkspaceWatch, WatchesNoDeeperThanTheWalk)
{
    TempDir dir;
    fs::path deepest = dir.path();
    for (int i = 0; i <= scanning::kMaxDepth; ++i)
        deepest /= "d";
    fs::create_directories(deepest);
    writeFile(deepest.parent_path() / "f", "1"); // at the deepest level the walk lists
    writeFile(deepest / "g", "2");               // one level below
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);
    std::string last;
    for (int i = 0; i < scanning::kMaxDepth; ++i)
        last += i == 0 ? "d" : "/d";
    append(deepest / "g", "x");
    EXPECT_EQ(changed(*watch), Directories{});
    append(deepest.parent_path() / "f", "x");
    EXPECT_EQ(changed(*watch), Directories{last});

    // The same for a tree made after the start.
    fs::path made = dir.path() / "e";
    std::string madeLast = "e";
    for (int i = 1; i <= scanning::kMaxDepth; ++i) {
        made /= "e";
        if (i < scanning::kMaxDepth)
            madeLast += "/e";
    }
    fs::create_directories(made);
    const auto reported = changed(*watch);
    EXPECT_TRUE(reported.contains(madeLast));
    EXPECT_FALSE(reported.contains(madeLast + "/e"));
    EXPECT_EQ(reported.size(), static_cast<std::size_t>(scanning::kMaxDepth) + 2); // "", e ... madeLast, and `last`
}

// A shared mapping writes with no event. A file written with write(2) before is reported from then on; a file
// opened for writing, mapped and closed is reported once the mapping goes too (the kernel releases the
// descriptor, IN_CLOSE_WRITE, only then).
TEST(WorkspaceWatch, FileWrittenOrMappedForWritingKeepsItsDirectoryReported)
{
    TempDir dir;
    writeFile(dir.path() / "m/f", std::string(4096, 'a'));
    writeFile(dir.path() / "n/g", std::string(4096, 'b'));
    fs::create_directories(dir.path() / "other");
    auto watch = started(dir.path());
    ASSERT_TRUE(watch);

    const int written = ::open((dir.path() / "n/g").c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(written, 0) << std::strerror(errno);
    ASSERT_EQ(::pwrite(written, "w", 1, 0), 1);
    void* writtenMap = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, written, 0);
    ASSERT_NE(writtenMap, MAP_FAILED) << std::strerror(errno);
    ::close(written);
    EXPECT_EQ(changed(*watch), Directories{"n"});
    std::memcpy(writtenMap, "changed", 7); // no event
    EXPECT_EQ(changed(*watch), Directories{"n"});
    EXPECT_EQ(changed(*watch), Directories{"n"});

    const int mapped = ::open((dir.path() / "m/f").c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(mapped, 0) << std::strerror(errno);
    void* map = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mapped, 0);
    ASSERT_NE(map, MAP_FAILED) << std::strerror(errno);
    ::close(mapped);
    std::memcpy(map, "changed", 7);
    ::munmap(map, 4096);
    EXPECT_EQ(changed(*watch), (Directories{"m", "n"}));
    EXPECT_EQ(changed(*watch), (Directories{"m", "n"}));
    ::munmap(writtenMap, 4096);
    EXPECT_EQ(changed(*watch), (Directories{"m", "n"}));
}

} // namespace
} // namespace sb::workspacetest
