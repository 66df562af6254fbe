// Hostile workspaces: symlinks out of the sandbox, special files, unreadable and huge files, names that are
// not UTF-8, a symlink planted where a folder was, a damaged store. Each gives a clear message; nothing is
// followed out of the sandbox.

#include "workspace_fixture.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

namespace sb::workspacetest {
namespace {

using namespace std::string_literals;

const Skipped* findSkipped(const std::vector<Skipped>& skipped, const std::string& path)
{
    for (const auto& s : skipped) {
        if (s.path == path)
            return &s;
    }
    return nullptr;
}

TEST_F(WorkspaceTest, SymlinksOutsideAreKeptAsLinksNeverFollowed)
{
    const fs::path outside = m_dir.path() / "outside";
    writeFile(outside / "secret.txt", "secret\n");
    const fs::path main = workspace("main");
    fs::create_symlink(outside / "secret.txt", main / "abs-link");
    fs::create_symlink("../../../../../../../../etc/passwd", main / "rel-link");
    fs::create_directory_symlink(outside, main / "dir-link");
    auto made = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(made) << made.error().message;
    EXPECT_EQ(made->checkpoint.files, 3u); // three links, none of what they point at
    auto files = engine().files(made->checkpoint.id).value();
    for (const auto& f : files)
        EXPECT_EQ(f.entry.type, EntryType::Symlink) << f.path;

    // Restored as links with the same targets.
    fs::remove(main / "abs-link");
    fs::remove(main / "dir-link");
    ASSERT_TRUE(engine().restore(made->checkpoint.id));
    EXPECT_EQ(fs::read_symlink(main / "abs-link"), outside / "secret.txt");
    EXPECT_TRUE(fs::is_symlink(main / "dir-link"));
    EXPECT_EQ(readFile(outside / "secret.txt"), "secret\n");

    // Importing a folder with a link out takes the link, not the target.
    const fs::path source = m_dir.path() / "src";
    writeFile(source / "a.txt", "a");
    fs::create_directory_symlink(outside, source / "escape");
    CreateSandboxRequest import;
    import.name = "imp";
    import.importFrom = source;
    auto imported = engine().createSandbox(import);
    ASSERT_TRUE(imported) << imported.error().message;
    EXPECT_TRUE(fs::is_symlink(workspace("imp") / "escape"));
    EXPECT_EQ(imported->checkpoint.files, 2u);
}

TEST_F(WorkspaceTest, ARestoreNeverWritesThroughAPlantedSymlink)
{
    const fs::path main = workspace("main");
    writeFile(main / "d/inner/f.txt", "mine\n");
    writeFile(main / "top.txt", "1");
    const std::string v1 = checkpoint("main");
    // A sandboxed program swaps a folder for a link to somewhere else.
    const fs::path outside = m_dir.path() / "victim";
    writeFile(outside / "inner/f.txt", "victim's\n");
    fs::remove_all(main / "d");
    fs::create_directory_symlink(outside, main / "d");
    auto restored = engine().restore(v1);
    ASSERT_TRUE(restored) << restored.error().message;
    EXPECT_FALSE(fs::is_symlink(main / "d"));
    EXPECT_EQ(readFile(main / "d/inner/f.txt"), "mine\n");
    EXPECT_EQ(readFile(outside / "inner/f.txt"), "victim's\n");
    EXPECT_EQ(snapshot(outside).size(), 2u);
    // The link itself was saved as unsaved work, as a link.
    ASSERT_TRUE(restored->saved);
    auto entry = engine().entryAt(restored->saved->id, "d");
    ASSERT_TRUE(entry && *entry);
    EXPECT_EQ((*entry)->type, EntryType::Symlink);
}

TEST_F(WorkspaceTest, AWorkspaceReplacedByASymlinkIsRefusedNotFollowed)
{
    const fs::path outside = m_dir.path() / "elsewhere";
    writeFile(outside / "secret.txt", "secret\n");
    create("box");
    const fs::path box = workspace("box");
    fs::remove_all(box);
    fs::create_directory_symlink(outside, box);
    auto made = engine().checkpoint(CheckpointRequest{"box", "", "", ""});
    ASSERT_FALSE(made);
    EXPECT_NE(made.error().message.find("is a symlink, not a folder"), std::string::npos) << made.error().message;
    EXPECT_EQ(count("SELECT count(*) FROM blobs WHERE size = 7"), 0); // "secret\n" was never read
}

TEST_F(WorkspaceTest, SpecialFilesAreSkippedWithAMessage)
{
    const fs::path main = workspace("main");
    writeFile(main / "plain.txt", "p");
    ASSERT_EQ(::mkfifo((main / "pipe").c_str(), 0600), 0);
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string socketPath = (main / "sock").string();
    ASSERT_LT(socketPath.size(), sizeof address.sun_path);
    std::copy(socketPath.begin(), socketPath.end(), address.sun_path);
    ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    auto made = engine().checkpoint(CheckpointRequest{"main", "", "", ""}); // must not hang on the FIFO
    ::close(sock);
    ASSERT_TRUE(made) << made.error().message;
    EXPECT_EQ(made->checkpoint.files, 1u);
    const Skipped* pipe = findSkipped(made->skipped, "pipe");
    ASSERT_NE(pipe, nullptr);
    EXPECT_NE(pipe->reason.find("a FIFO; special files are not kept"), std::string::npos) << pipe->reason;
    const Skipped* socketSkip = findSkipped(made->skipped, "sock");
    ASSERT_NE(socketSkip, nullptr);
    EXPECT_NE(socketSkip->reason.find("a socket"), std::string::npos);
}

TEST_F(WorkspaceTest, HugeAndUnreadableFilesAreSkippedWithAMessage)
{
    const fs::path main = workspace("main");
    engine().setMaxFileSize(1 << 20);
    writeFile(main / "fits.bin", noise(1 << 20, 1));
    writeFile(main / "huge.bin", noise((1 << 20) + 1, 2));
    // A sparse file far beyond any limit costs nothing to skip.
    {
        std::ofstream sparse(main / "sparse.img", std::ios::binary);
        sparse.seekp((64LL << 30) - 1);
        sparse.put('\0');
    }
    writeFile(main / "locked.txt", "no access");
    fs::permissions(main / "locked.txt", fs::perms::none);
    auto made = engine().checkpoint(CheckpointRequest{"main", "", "", ""});
    ASSERT_TRUE(made) << made.error().message;
    const Skipped* huge = findSkipped(made->skipped, "huge.bin");
    ASSERT_NE(huge, nullptr);
    EXPECT_NE(huge->reason.find("larger than the limit of 1 MiB"), std::string::npos) << huge->reason;
    ASSERT_NE(findSkipped(made->skipped, "sparse.img"), nullptr);
    EXPECT_EQ(findSkipped(made->skipped, "fits.bin"), nullptr);
    if (::geteuid() != 0) {
        const Skipped* locked = findSkipped(made->skipped, "locked.txt");
        ASSERT_NE(locked, nullptr);
        EXPECT_NE(locked->reason.find("Permission denied"), std::string::npos) << locked->reason;
    } else {
        EXPECT_EQ(findSkipped(made->skipped, "locked.txt"), nullptr); // root reads it
    }
}

TEST_F(WorkspaceTest, NamesThatAreNotUtf8RoundTrip)
{
    const fs::path main = workspace("main");
    const std::string odd = "bad\xff\xfe name";
    const std::string newline = "line\nbreak";
    writeFile(main / odd, "odd\n");
    writeFile(main / newline / "inside", "in\n");
    writeFile(main / "\x1b[31mred", "ansi\n");
    const std::string v1 = checkpoint("main");
    const auto state = snapshot(main);
    writeFile(main / odd, "changed\n");
    auto diff = engine().diff(v1, "");
    ASSERT_TRUE(diff) << diff.error().message;
    ASSERT_EQ(diff->files.size(), 1u);
    EXPECT_EQ(diff->files[0].change.path, odd);
    fs::remove_all(main / newline);
    ASSERT_TRUE(engine().restore(v1));
    EXPECT_EQ(snapshot(main), state);
}

TEST_F(WorkspaceTest, ADamagedStoreIsReportedAndTheWorkspaceLeftAlone)
{
    const fs::path main = workspace("main");
    writeFile(main / "f.txt", std::string(1000, 'a'));
    const std::string v1 = checkpoint("main");
    writeFile(main / "f.txt", std::string(1000, 'b'));
    checkpoint("main");
    const auto state = snapshot(main);
    // Every stored file's bytes are damaged below the engine.
    sqlite::connectionOf(*m_store).value().exec("UPDATE blobs SET codec = 0, data = X'0102' WHERE kind = 0", "edit").value();
    auto restored = engine().restore(v1);
    ASSERT_FALSE(restored);
    EXPECT_NE(restored.error().message.find("damaged"), std::string::npos) << restored.error().message;
    EXPECT_EQ(snapshot(main), state);
    EXPECT_FALSE(engine().verifyCheckpoint(v1));
}

} // namespace
} // namespace sb::workspacetest
