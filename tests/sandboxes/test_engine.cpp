// Sandboxes and checkpoints through the engine: content addressing, dedup, chunking, the stat cache, diff,
// restore, fork, expiry and sweep, prune and garbage collection, the operation seam.

#include "workspace_fixture.h"

#include "store/audit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace sb::workspacetest {
namespace {

using namespace std::string_literals;

TEST_F(WorkspaceTest, MainExistsFromFirstUse)
{
    auto list = engine().sandboxes();
    ASSERT_TRUE(list) << list.error().message;
    ASSERT_EQ(list->size(), 1u);
    const SandboxInfo& main = list->front();
    EXPECT_EQ(main.name, "main");
    EXPECT_FALSE(main.expiresAtMs);
    EXPECT_EQ(main.checkpoints, 1);
    EXPECT_EQ(main.head.size(), 64u);
    EXPECT_TRUE(fs::is_directory(main.workspace));
    EXPECT_EQ(main.workspace, SandboxEngine::dataFolder(storePath()) / "sandboxes" / "main" / "workspace");

    EXPECT_FALSE(engine().destroySandbox("main"));
    CreateSandboxRequest again;
    again.name = "main";
    EXPECT_FALSE(engine().createSandbox(again));
}

TEST_F(WorkspaceTest, NamesAreChecked)
{
    for (const char* bad : {"", "../x", "a/b", ".hidden", "-dash", "with space", "x\n", "ünï",
                            "a123456789012345678901234567890123456789012345678901234567890123456789"}) {
        CreateSandboxRequest request;
        request.name = bad;
        auto made = engine().createSandbox(request);
        EXPECT_FALSE(made) << bad;
        if (!made) {
            EXPECT_NE(made.error().message.find("not a valid sandbox name"), std::string::npos) << made.error().message;
        }
    }
    EXPECT_TRUE(SandboxEngine::validateName("exp-1.2_b"));
    auto missing = engine().sandbox("nope");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("no sandbox named 'nope'"), std::string::npos);
}

TEST_F(WorkspaceTest, CheckpointsAreContentAddressedAndShareBlobs)
{
    const fs::path main = workspace("main");
    writeFile(main / "README.md", "# project\n");
    writeFile(main / "src/app.py", "print('hello')\n" + std::string(5000, '#'));
    writeFile(main / "data/big.bin", noise(2 << 20, 1));
    const std::string first = checkpoint("main", "first");
    const auto blobsAfterFirst = count("SELECT count(*) FROM blobs");

    // Nothing changed: a new checkpoint, the same tree, no new blobs.
    const std::string second = checkpoint("main");
    EXPECT_NE(first, second);
    EXPECT_EQ(engine().findCheckpoint(first)->tree, engine().findCheckpoint(second)->tree);
    EXPECT_EQ(count("SELECT count(*) FROM blobs"), blobsAfterFirst);

    // One small file changed: the file, its folder's listing and the root's listing are new; nothing else.
    writeFile(main / "src/app.py", "print('bye')\n" + std::string(5000, '#'));
    auto third = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(third) << third.error().message;
    EXPECT_EQ(third->changes.modified, 1u);
    EXPECT_EQ(third->changes.added + third->changes.removed, 0u);
    EXPECT_EQ(third->newBlobs, 1u); // the file; listings are counted apart
    EXPECT_EQ(count("SELECT count(*) FROM blobs"), blobsAfterFirst + 3);
    EXPECT_EQ(third->checkpoint.parents, std::vector<std::string>{second});

    // An identical tree elsewhere shares everything.
    const fs::path copy = m_dir.path() / "copy";
    fs::copy(main, copy, fs::copy_options::recursive);
    CreateSandboxRequest import;
    import.name = "imported";
    import.importFrom = copy;
    auto imported = engine().createSandbox(import);
    ASSERT_TRUE(imported) << imported.error().message;
    EXPECT_EQ(imported->checkpoint.tree, third->checkpoint.tree);
    EXPECT_EQ(count("SELECT count(*) FROM blobs"), blobsAfterFirst + 3);
    EXPECT_EQ(snapshot(workspace("imported")), snapshot(main));
}

// Asked only when changed (an agent session's checkpoints around its calls), an unchanged workspace makes no
// checkpoint and no audit entry: the head is the answer. A change, even one that keeps the file's size, makes one.
TEST_F(WorkspaceTest, ACheckpointOnlyWhenChangedReusesTheHeadOfAnUnchangedWorkspace)
{
    const fs::path main = workspace("main");
    writeFile(main / "notes.txt", "one\n");
    const std::string head = checkpoint("main", "head");
    const auto checkpointsBefore = count("SELECT count(*) FROM checkpoints");
    const auto auditBefore = count("SELECT count(*) FROM audit_log");

    const CheckpointRequest onlyWhenChanged{
        .sandbox = "main", .label = "before", .message = "", .author = "", .onlyWhenChanged = true};
    auto same = engine().checkpoint(onlyWhenChanged);
    ASSERT_TRUE(same) << same.error().message;
    EXPECT_FALSE(same->created);
    EXPECT_EQ(same->checkpoint.id, head);
    EXPECT_EQ(count("SELECT count(*) FROM checkpoints"), checkpointsBefore);
    EXPECT_EQ(count("SELECT count(*) FROM audit_log"), auditBefore);

    writeFile(main / "notes.txt", "two\n");
    auto changed = engine().checkpoint(onlyWhenChanged);
    ASSERT_TRUE(changed) << changed.error().message;
    EXPECT_TRUE(changed->created);
    EXPECT_NE(changed->checkpoint.id, head);
    EXPECT_EQ(changed->checkpoint.label, "before");
    EXPECT_EQ(changed->changes.modified, 1u);
    EXPECT_EQ(engine().sandbox("main")->head, changed->checkpoint.id);

    // Asked as always, the same unchanged workspace gets a checkpoint of its own.
    auto always = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(always) << always.error().message;
    EXPECT_TRUE(always->created);
    EXPECT_NE(always->checkpoint.id, changed->checkpoint.id);
}

TEST_F(WorkspaceTest, AChangeInTheMiddleOfALargeFileAddsAboutOneChunk)
{
    const fs::path main = workspace("main");
    std::string data = noise(8 << 20, 5);
    writeFile(main / "large.bin", data);
    checkpoint("main");
    const auto before = count("SELECT count(*) FROM blobs");
    const auto bytesBefore = count("SELECT sum(length(data)) FROM blobs");
    data[4 << 20] ^= 0x5a;
    data.insert(5 << 20, "inserted");
    writeFile(main / "large.bin", data);
    auto after = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(after) << after.error().message;
    // Two edits: at most two chunks each side of a cut, the chunk list and two listings.
    const auto added = count("SELECT count(*) FROM blobs") - before;
    EXPECT_LE(added, 7) << added;
    EXPECT_LE(count("SELECT sum(length(data)) FROM blobs") - bytesBefore, 5 * 256 * 1024);
    EXPECT_TRUE(engine().verifyCheckpoint(after->checkpoint.id));
}

TEST_F(WorkspaceTest, TheStatCacheReadsOnlyWhatChanged)
{
    const fs::path main = workspace("main");
    for (int i = 0; i < 50; ++i)
        writeFile(main / ("d" + std::to_string(i % 5)) / ("f" + std::to_string(i)), noise(1000, static_cast<std::uint64_t>(i)));
    // Past the racy margin (see below), so the stats can be trusted.
    ::usleep(60'000);
    auto first = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(first);
    EXPECT_EQ(first->filesRead, 50u);
    ::usleep(60'000); // past the racy margin of the stats just cached
    auto second = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(second);
    EXPECT_EQ(second->filesRead, 0u);
    // A restore that changes nothing keeps the cache.
    ASSERT_TRUE(engine().restore(second->checkpoint.id));
    auto afterRestore = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(afterRestore);
    EXPECT_EQ(afterRestore->filesRead, 0u);

    // Same size, mtime put back: the change time still tells.
    const fs::path victim = main / "d3" / "f13";
    const auto mtime = fs::last_write_time(victim);
    writeFile(victim, noise(1000, 999));
    fs::last_write_time(victim, mtime);
    auto third = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(third);
    EXPECT_EQ(third->filesRead, 1u);
    EXPECT_EQ(third->changes.modified, 1u);
    // The folders that did not change kept their cache entries through it (only the victim, cached within
    // the racy margin, is read again).
    ::usleep(60'000);
    auto fourth = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(fourth);
    EXPECT_LE(fourth->filesRead, 1u);

    // Changed right after a checkpoint read it, within the same clock tick: not trusted, so read again.
    writeFile(victim, noise(1000, 1));
    ASSERT_TRUE(engine().checkpoint(CheckpointRequest{"main", "", "", ""}));
    writeFile(victim, noise(1000, 2));
    auto racy = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(racy);
    EXPECT_EQ(racy->changes.modified, 1u);
}

TEST_F(WorkspaceTest, UnchangedFoldersKeepTheirListingAndAMissingOneIsBuiltAgain)
{
    const fs::path main = workspace("main");
    for (int i = 0; i < 30; ++i)
        writeFile(main / ("d" + std::to_string(i % 3)) / ("f" + std::to_string(i)), "file " + std::to_string(i));
    ::usleep(60'000);
    checkpoint("main");
    ::usleep(60'000);
    const std::string second = checkpoint("main"); // the walk takes every listing from the cache
    // A listing vanishes below the engine (as if collected), while its folder is unchanged and another one
    // changes: the next checkpoint notices and builds it again.
    auto listing = engine().entryAt(second, "d1");
    ASSERT_TRUE(listing && *listing);
    sqlite::connectionOf(*m_store).value()
        .exec("DELETE FROM blobs WHERE hex(hash) = upper('" + hashHex((*listing)->hash) + "')", "delete a listing")
        .value();
    writeFile(main / "d0" / "f0", "changed");
    auto third = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(third) << third.error().message;
    EXPECT_EQ(third->changes.modified, 1u);
    EXPECT_TRUE(engine().verifyCheckpoint(third->checkpoint.id));
    EXPECT_TRUE(engine().verifyCheckpoint(second)); // whole again: the listing is back
}

TEST_F(WorkspaceTest, DiffShowsTextAndBinaryChanges)
{
    const fs::path main = workspace("main");
    writeFile(main / "keep.txt", "same\n");
    writeFile(main / "edit.txt", "one\ntwo\nthree\n");
    writeFile(main / "gone.txt", "bye\n");
    writeFile(main / "image.bin", "\x89PNG\0\0\0"s + noise(500, 1));
    const std::string a = checkpoint("main");
    writeFile(main / "edit.txt", "one\n2\nthree\n");
    fs::remove(main / "gone.txt");
    writeFile(main / "new/born.txt", "hello\n");
    writeFile(main / "image.bin", "\x89PNG\0\0\0"s + noise(500, 2));

    // Against the live workspace: nothing stored for it.
    const auto blobs = count("SELECT count(*) FROM blobs");
    auto live = engine().diff(a, "");
    ASSERT_TRUE(live) << live.error().message;
    EXPECT_EQ(count("SELECT count(*) FROM blobs"), blobs);
    EXPECT_EQ(live->to, "workspace");
    EXPECT_EQ(live->counts.added, 1u);
    EXPECT_EQ(live->counts.removed, 1u);
    EXPECT_EQ(live->counts.modified, 2u);
    std::map<std::string, const FileDiff*> byPath;
    for (const auto& file : live->files)
        byPath[file.change.path] = &file;
    ASSERT_EQ(byPath.size(), 4u);
    EXPECT_EQ(byPath.at("edit.txt")->unified, "--- a/edit.txt\n+++ b/edit.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n");
    EXPECT_TRUE(byPath.at("image.bin")->binary);
    EXPECT_EQ(byPath.at("new/born.txt")->change.kind, ChangeKind::Added);
    EXPECT_EQ(byPath.at("new/born.txt")->unified, "--- /dev/null\n+++ b/new/born.txt\n@@ -0,0 +1 @@\n+hello\n");
    EXPECT_EQ(byPath.at("gone.txt")->change.kind, ChangeKind::Removed);

    // Between two checkpoints: the same.
    const std::string b = checkpoint("main");
    auto stored = engine().diff(a, b);
    ASSERT_TRUE(stored) << stored.error().message;
    ASSERT_EQ(stored->files.size(), 4u);
    EXPECT_EQ(stored->to, b);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(stored->files[i].change.path, live->files[i].change.path);
        EXPECT_EQ(stored->files[i].unified, live->files[i].unified);
        EXPECT_EQ(stored->files[i].binary, live->files[i].binary);
    }
    EXPECT_TRUE(engine().diff(b, b)->files.empty());
    EXPECT_FALSE(engine().diff("zzzz", ""));
    EXPECT_FALSE(engine().diff(a, "0000000"));
}

TEST_F(WorkspaceTest, RestoreIsRecordedAndKeepsUnsavedWork)
{
    const fs::path main = workspace("main");
    writeFile(main / "a/b/c.txt", "version 1\n");
    writeFile(main / "a/other.txt", "stays\n");
    writeFile(main / "top.txt", "top 1\n");
    const std::string v1 = checkpoint("main", "v1");
    const auto state1 = snapshot(main);
    writeFile(main / "a/b/c.txt", "version 2\n");
    const std::string v2 = checkpoint("main", "v2");
    const auto state2 = snapshot(main);

    // One file changed deep down: only that file is swapped.
    auto restored = engine().restore(v1);
    ASSERT_TRUE(restored) << restored.error().message;
    EXPECT_EQ(snapshot(main), state1);
    EXPECT_EQ(restored->swapped, "a/b/c.txt");
    EXPECT_EQ(restored->changes.modified, 1u);
    EXPECT_FALSE(restored->saved);
    EXPECT_EQ(restored->recorded.kind, "restore");
    EXPECT_EQ(restored->recorded.source, v1);
    EXPECT_EQ(restored->recorded.parents, std::vector<std::string>{v2});
    EXPECT_EQ(restored->recorded.tree, engine().findCheckpoint(v1)->tree);
    EXPECT_EQ(engine().sandbox("main")->head, restored->recorded.id);

    // Unsaved work is checkpointed before the restore replaces it; nothing is lost.
    writeFile(main / "top.txt", "unsaved edit\n");
    writeFile(main / "fresh.txt", "new\n");
    auto back = engine().restore(v2);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(snapshot(main), state2);
    ASSERT_TRUE(back->saved);
    EXPECT_EQ(back->saved->kind, "auto");
    EXPECT_EQ(back->swapped, "");
    auto unsaved = engine().diff(back->saved->id, v2);
    ASSERT_TRUE(unsaved);
    EXPECT_EQ(unsaved->counts.added + unsaved->counts.removed + unsaved->counts.modified, 3u);
    auto list = engine().checkpoints("main");
    ASSERT_TRUE(list);
    for (const auto& id : {v1, v2, restored->recorded.id, back->saved->id, back->recorded.id})
        EXPECT_TRUE(std::any_of(list->begin(), list->end(), [&](const CheckpointInfo& c) { return c.id == id; })) << id;

    // Types that change, symlinks, modes and empty folders come back exactly.
    fs::remove_all(main / "a");
    writeFile(main / "a", "now a file\n");
    fs::create_symlink("/etc/hostname", main / "link");
    fs::create_directories(main / "empty/dir");
    fs::permissions(main / "top.txt", fs::perms::owner_read | fs::perms::owner_exec);
    const std::string v3 = checkpoint("main");
    const auto state3 = snapshot(main);
    ASSERT_TRUE(engine().restore(v1));
    EXPECT_EQ(snapshot(main), state1);
    ASSERT_TRUE(engine().restore(v3));
    EXPECT_EQ(snapshot(main), state3);
    EXPECT_TRUE(fs::is_symlink(main / "link"));
    EXPECT_EQ((fs::status(main / "top.txt").permissions() & fs::perms::all), fs::perms::owner_read | fs::perms::owner_exec);

    // Restoring what is already there is still recorded.
    auto same = engine().restore(v3);
    ASSERT_TRUE(same);
    EXPECT_EQ(same->changes.added + same->changes.removed + same->changes.modified, 0u);
    EXPECT_EQ(engine().sandbox("main")->head, same->recorded.id);
}

TEST_F(WorkspaceTest, ARestoreSwapsTheSmallestPartThatHoldsEveryDifference)
{
    const fs::path main = workspace("main");
    writeFile(main / "x/y/one.txt", "1\n");
    writeFile(main / "x/y/two.txt", "2\n");
    writeFile(main / "x/z/keep.txt", "k\n");
    const std::string base = checkpoint("main");
    const auto baseState = snapshot(main);
    struct Case {
        std::string name;
        std::function<void()> change;
        std::string swapped; // what the restore back to `base` swaps
    };
    const std::vector<Case> cases = {
        {"a file added", [&] { writeFile(main / "x/y/three.txt", "3\n"); }, "x/y/three.txt"},
        {"a file removed", [&] { fs::remove(main / "x/y/one.txt"); }, "x/y/one.txt"},
        {"a folder added", [&] { writeFile(main / "x/new/deep/f", "f"); }, "x/new"},
        {"a folder removed", [&] { fs::remove_all(main / "x/z"); }, "x/z"},
        {"a file became a folder", [&] { fs::remove(main / "x/y/two.txt"); writeFile(main / "x/y/two.txt/in", "i"); },
         "x/y/two.txt"},
        {"a symlink", [&] { fs::remove(main / "x/y/one.txt"); fs::create_symlink("two.txt", main / "x/y/one.txt"); },
         "x/y/one.txt"},
        {"two files in one folder", [&] { writeFile(main / "x/y/one.txt", "A"); writeFile(main / "x/y/two.txt", "B"); },
         "x/y"},
        {"two folders", [&] { writeFile(main / "x/y/one.txt", "A"); writeFile(main / "x/z/keep.txt", "B"); }, "x"},
        {"a mode", [&] { fs::permissions(main / "x/z/keep.txt", fs::perms::owner_read); }, "x/z/keep.txt"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        c.change();
        const std::string changed = checkpoint("main");
        const auto changedState = snapshot(main);
        auto back = engine().restore(base);
        ASSERT_TRUE(back) << back.error().message;
        EXPECT_EQ(back->swapped, c.swapped);
        EXPECT_EQ(snapshot(main), baseState);
        auto again = engine().restore(changed);
        ASSERT_TRUE(again) << again.error().message;
        EXPECT_EQ(snapshot(main), changedState);
        ASSERT_TRUE(engine().restore(base));
        EXPECT_EQ(snapshot(main), baseState);
    }
    for (const auto& entry : fs::directory_iterator(main.parent_path()))
        EXPECT_EQ(entry.path().filename(), "workspace") << "left behind: " << entry.path();
}

TEST_F(WorkspaceTest, SandboxesComeFromMainCheckpointsOrFoldersWithFilters)
{
    const fs::path main = workspace("main");
    writeFile(main / "src/a.py", "a\n");
    writeFile(main / "src/gen/g.py", "g\n");
    writeFile(main / "notes.md", "n\n");
    writeFile(main / "build/out.o", "o\n");
    // From main's live state: its unsaved changes are saved first and are the new sandbox's parent.
    auto fromMain = create("exp");
    EXPECT_EQ(fromMain.sandbox.origin, "main");
    ASSERT_TRUE(fromMain.savedSource);
    EXPECT_EQ(fromMain.checkpoint.parents, std::vector<std::string>{fromMain.savedSource->id});
    EXPECT_EQ(snapshot(workspace("exp")), snapshot(main));
    EXPECT_NE(workspace("exp"), main);

    // Writing in the sandbox never touches main.
    writeFile(workspace("exp") / "src/a.py", "changed in exp\n");
    EXPECT_EQ(readFile(main / "src/a.py"), "a\n");

    // Selective: from another sandbox, with include and exclude patterns.
    CreateSandboxRequest selective;
    selective.name = "only-src";
    selective.from = "exp";
    selective.includes = {"src"};
    selective.excludes = {"gen"};
    auto filtered = engine().createSandbox(selective);
    ASSERT_TRUE(filtered) << filtered.error().message;
    EXPECT_EQ(snapshot(workspace("only-src")),
              (std::map<std::string, std::string>{{"src", "<dir>"}, {"src/a.py", "changed in exp\n"}}));
    EXPECT_EQ(filtered->sandbox.includes, std::vector<std::string>{"src"});

    // From a checkpoint, by a prefix of its id.
    const std::string id = fromMain.checkpoint.id;
    auto fromCheckpoint = create("from-cp", id.substr(0, 10));
    EXPECT_EQ(fromCheckpoint.sandbox.origin, "checkpoint " + id);
    EXPECT_EQ(fromCheckpoint.checkpoint.parents, std::vector<std::string>{id});

    // An imported folder is copied, never linked.
    const fs::path source = m_dir.path() / "outside";
    writeFile(source / "keep.txt", "k\n");
    writeFile(source / "skip.log", "l\n");
    CreateSandboxRequest import;
    import.name = "imp";
    import.importFrom = source;
    import.excludes = {"*.log"};
    auto imported = engine().createSandbox(import);
    ASSERT_TRUE(imported) << imported.error().message;
    EXPECT_EQ(snapshot(workspace("imp")), (std::map<std::string, std::string>{{"keep.txt", "k\n"}}));
    writeFile(workspace("imp") / "keep.txt", "edited\n");
    EXPECT_EQ(readFile(source / "keep.txt"), "k\n");
    EXPECT_TRUE(imported->checkpoint.parents.empty());

    EXPECT_FALSE(engine().createSandbox(CreateSandboxRequest{"exp", "", {}, {}, {}, {}, {}, {}, {}, {}, {}})); // exists
    auto unknown = engine().createSandbox(CreateSandboxRequest{"x", "no-such-thing", {}, {}, {}, {}, {}, {}, {}, {}, {}});
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("no sandbox or checkpoint named 'no-such-thing'"), std::string::npos);
    EXPECT_FALSE(engine().sandbox("x")); // nothing half-made
    EXPECT_FALSE(fs::exists(SandboxEngine::dataFolder(storePath()) / "sandboxes" / "x"));
}

TEST_F(WorkspaceTest, ForkMakesANewSandboxFromAnyCheckpoint)
{
    const fs::path main = workspace("main");
    writeFile(main / "f.txt", "1\n");
    const std::string one = checkpoint("main");
    writeFile(main / "f.txt", "2\n");
    checkpoint("main");
    auto forked = engine().fork(one, "branch");
    ASSERT_TRUE(forked) << forked.error().message;
    EXPECT_EQ(forked->checkpoint.kind, "fork");
    EXPECT_EQ(forked->checkpoint.source, one);
    EXPECT_EQ(readFile(workspace("branch") / "f.txt"), "1\n");
    EXPECT_EQ(readFile(main / "f.txt"), "2\n");
    EXPECT_FALSE(engine().fork(one, "branch")); // exists

    // Both branches know where they meet.
    writeFile(workspace("branch") / "f.txt", "3\n");
    const std::string onBranch = checkpoint("branch");
    writeFile(main / "f.txt", "4\n");
    const std::string onMain = checkpoint("main");
    auto ancestor = engine().commonAncestor(onBranch, onMain);
    ASSERT_TRUE(ancestor) << ancestor.error().message;
    ASSERT_TRUE(*ancestor);
    EXPECT_EQ((*ancestor)->id, one);
    auto entry = engine().entryAt(one, "f.txt");
    ASSERT_TRUE(entry && *entry);
    EXPECT_EQ(engine().readFile(**entry).value(), "1\n");
    auto listing = engine().files(onMain);
    ASSERT_TRUE(listing);
    ASSERT_EQ(listing->size(), 1u);
    EXPECT_EQ(listing->front().path, "f.txt");
}

TEST_F(WorkspaceTest, ExpiredSandboxesAreSweptAndTheirBlobsFreed)
{
    std::int64_t now = 1'000'000'000'000;
    engine().setClock([&] { return now; });
    writeFile(workspace("main") / "shared.txt", std::string(200, 's'));
    CreateSandboxRequest shortLived;
    shortLived.name = "short";
    shortLived.expiresInMs = 30 * 60'000;
    ASSERT_TRUE(engine().createSandbox(shortLived));
    CreateSandboxRequest longLived{"long", "", {}, {}, {}, 7LL * 86'400'000, {}, {}, {}, {}, {}};
    ASSERT_TRUE(engine().createSandbox(longLived));
    writeFile(workspace("short") / "only-here.bin", noise(300'000, 9));
    checkpoint("short");
    const auto blobs = count("SELECT count(*) FROM blobs");
    const fs::path folder = SandboxEngine::dataFolder(storePath()) / "sandboxes" / "short";
    ASSERT_TRUE(fs::exists(folder));

    now += 29 * 60'000;
    auto early = engine().sweep();
    ASSERT_TRUE(early);
    EXPECT_TRUE(early->destroyed.empty());

    now += 2 * 60'000;
    auto swept = engine().sweep();
    ASSERT_TRUE(swept) << swept.error().message;
    EXPECT_EQ(swept->destroyed, std::vector<std::string>{"short"});
    EXPECT_GE(swept->garbage.blobsRemoved, 3u); // the file's chunks, its list, listings
    EXPECT_LT(count("SELECT count(*) FROM blobs"), blobs);
    EXPECT_FALSE(fs::exists(folder));
    EXPECT_FALSE(engine().sandbox("short"));
    EXPECT_TRUE(engine().sandbox("long"));
    EXPECT_EQ(readFile(workspace("main") / "shared.txt"), std::string(200, 's'));
    EXPECT_EQ(count("SELECT count(*) FROM checkpoints WHERE sandbox_name = 'short'"), 0);
    // Everything left is whole.
    const auto sandboxes = engine().sandboxes().value();
    for (const auto& sandbox : sandboxes) {
        const auto checkpoints = engine().checkpoints(sandbox.name).value();
        for (const auto& c : checkpoints)
            EXPECT_TRUE(engine().verifyCheckpoint(c.id)) << c.id;
    }
}

TEST_F(WorkspaceTest, PruneKeepsWhatItsRulesSayAndReclaimsTheRest)
{
    std::int64_t now = 2'000'000'000'000;
    engine().setClock([&] { return now; });
    const fs::path main = workspace("main");
    std::vector<std::string> ids;
    for (int i = 0; i < 8; ++i) {
        writeFile(main / "f.bin", noise(200'000, static_cast<std::uint64_t>(100 + i)));
        ids.push_back(checkpoint("main", i == 2 ? "keep me" : ""));
        now += 3'600'000;
    }
    // A sandbox made from ids[4] keeps that one alive whatever the rules say.
    ASSERT_TRUE(engine().fork(ids[4], "child"));
    const auto bytes = count("SELECT sum(length(data)) FROM blobs");

    PrunePolicy policy;
    policy.keepLast = 2;
    policy.keepLabelled = true;
    auto pruned = engine().prune("main", policy);
    ASSERT_TRUE(pruned) << pruned.error().message;
    auto left = engine().checkpoints("main").value();
    std::set<std::string> kept;
    for (const auto& c : left)
        kept.insert(c.id);
    EXPECT_TRUE(kept.contains(ids[7]));
    EXPECT_TRUE(kept.contains(ids[6]));
    EXPECT_TRUE(kept.contains(ids[2]));  // labelled
    EXPECT_TRUE(kept.contains(ids[4]));  // a sandbox was made from it
    EXPECT_FALSE(kept.contains(ids[5]));
    EXPECT_FALSE(kept.contains(ids[0]));
    EXPECT_GT(pruned->garbage.bytesRemoved, 3u * 150'000);
    EXPECT_LT(count("SELECT sum(length(data)) FROM blobs"), bytes);

    // The graph stays connected: ids[6]'s parent was removed, so it now descends from ids[4].
    EXPECT_EQ(engine().findCheckpoint(ids[6])->parents, std::vector<std::string>{ids[4]});
    for (const auto& id : kept)
        EXPECT_TRUE(engine().verifyCheckpoint(id)) << id;
    EXPECT_EQ(snapshot(workspace("child")).at("f.bin"), noise(200'000, 104));

    // Younger than: an age rule alone.
    PrunePolicy young;
    young.youngerThanMs = 90 * 60'000;
    auto byAge = engine().prune("main", young);
    ASSERT_TRUE(byAge);
    kept.clear();
    const auto remaining = engine().checkpoints("main").value();
    for (const auto& c : remaining)
        kept.insert(c.id);
    EXPECT_TRUE(kept.contains(ids[7]));  // the head
    EXPECT_TRUE(kept.contains(ids[4]));  // the fork point
    EXPECT_FALSE(kept.contains(ids[6])); // 2 hours old
    EXPECT_FALSE(kept.contains(ids[2]));
}

TEST_F(WorkspaceTest, DestroyFreesWhatOnlyItHeld)
{
    writeFile(workspace("main") / "common.bin", noise(100'000, 1));
    create("tmp");
    writeFile(workspace("tmp") / "mine.bin", noise(100'000, 2));
    checkpoint("tmp");
    const auto blobs = count("SELECT count(*) FROM blobs");
    auto destroyed = engine().destroySandbox("tmp");
    ASSERT_TRUE(destroyed) << destroyed.error().message;
    EXPECT_EQ(destroyed->checkpointsRemoved, 2u);
    EXPECT_GE(destroyed->garbage.blobsRemoved, 2u);
    EXPECT_EQ(count("SELECT count(*) FROM blobs"), blobs - static_cast<std::int64_t>(destroyed->garbage.blobsRemoved));
    EXPECT_EQ(readFile(workspace("main") / "common.bin"), noise(100'000, 1));
    EXPECT_FALSE(engine().destroySandbox("tmp"));
    EXPECT_EQ(count("SELECT count(*) FROM pragma_foreign_key_check"), 0);
    create("tmp"); // the name is free again
}

class Recorder : public OperationObserver {
public:
    Result<void> committing(const sqlite::Db& db, const Operation& operation) override
    {
        if (failNext) {
            failNext = false;
            return fail("the audit log refused");
        }
        // Inside the operation's transaction: the store already shows its rows.
        inTransaction = sqlite3_get_autocommit(db.handle()) == 0;
        actions.push_back(operation.action);
        return {};
    }
    std::vector<std::string> actions;
    bool inTransaction = false;
    bool failNext = false;
};

TEST_F(WorkspaceTest, EveryOperationPassesTheObserverInsideItsTransaction)
{
    Recorder recorder;
    engine().setObserver(&recorder);
    writeFile(workspace("main") / "f", "1");
    const std::string one = checkpoint("main");
    create("s");
    ASSERT_TRUE(engine().fork(one, "f"));
    writeFile(workspace("main") / "f", "2");
    ASSERT_TRUE(engine().restore(one));
    ASSERT_TRUE(engine().prune("main", PrunePolicy{0, false, std::nullopt}));
    ASSERT_TRUE(engine().destroySandbox("s"));
    EXPECT_TRUE(recorder.inTransaction);
    EXPECT_EQ(recorder.actions,
              (std::vector<std::string>{"sandbox.create", "checkpoint.create", "sandbox.create", "checkpoint.fork",
                                        "checkpoint.create", "checkpoint.restore", "checkpoint.prune",
                                        "sandbox.destroy"}));

    // An observer that fails rolls the operation back.
    recorder.failNext = true;
    const auto before = count("SELECT count(*) FROM checkpoints");
    auto refused = engine().checkpoint(CheckpointRequest{"main", "x", "", ""});
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("audit log refused"), std::string::npos);
    EXPECT_EQ(count("SELECT count(*) FROM checkpoints"), before);
}

TEST_F(WorkspaceTest, ProgressCanCancelALongCheckpoint)
{
    for (int i = 0; i < 20; ++i)
        writeFile(workspace("main") / ("f" + std::to_string(i)), noise(10'000, static_cast<std::uint64_t>(i)));
    const auto before = count("SELECT count(*) FROM checkpoints");
    int calls = 0;
    auto cancelled = engine().checkpoint(CheckpointRequest{"main", "", "", ""}, [&](const Progress& p) {
        EXPECT_EQ(p.phase.pattern, "scanning");
        return ++calls < 5;
    });
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().message, "cancelled");
    EXPECT_EQ(count("SELECT count(*) FROM checkpoints"), before);
    ASSERT_TRUE(engine().collectGarbage()); // what the cancelled walk stored goes
    EXPECT_TRUE(engine().checkpoint(CheckpointRequest{"main", "", "", ""}));
}

TEST_F(WorkspaceTest, AMissingWorkspaceIsWrittenAgainFromItsHead)
{
    writeFile(workspace("main") / "x/y.txt", "y\n");
    checkpoint("main");
    const auto state = snapshot(workspace("main"));
    fs::remove_all(workspace("main"));
    reopen();
    EXPECT_EQ(snapshot(workspace("main")), state);
}

TEST_F(WorkspaceTest, EveryOperationIsInTheAuditLogAndTheChainHolds)
{
    writeFile(workspace("main") / "a.txt", "one\n");
    const std::string first = checkpoint("main", "first");
    writeFile(workspace("main") / "a.txt", "two\n");
    ASSERT_TRUE(engine().restore(first));
    create("exp");
    ASSERT_TRUE(engine().destroySandbox("exp"));

    auto entries = listAudit(*m_store, AuditFilter{});
    ASSERT_TRUE(entries) << entries.error().message;
    std::vector<std::string> operations;
    for (const auto& e : *entries)
        operations.push_back(e.operation + " " + e.subject);
    const std::vector<std::string> expected = {"sandbox.create main",    "checkpoint.create main",
                                               "checkpoint.create main", "checkpoint.restore main",
                                               "sandbox.create exp",     "sandbox.destroy exp"};
    EXPECT_EQ(operations, expected);
    // The restore names the checkpoint it restored.
    EXPECT_NE(entries->at(3).details.find(first), std::string::npos) << entries->at(3).details;
    auto verified = verifyAudit(*m_store);
    ASSERT_TRUE(verified) << verified.error().message;
    EXPECT_TRUE(verified->intact());
}

} // namespace
} // namespace sb::workspacetest
