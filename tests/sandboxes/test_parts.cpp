// The pieces under the engine: durations, path filters, chunking, listings, blobs and text diffs.

#include "checkpoints/blob_store.h"
#include "chunker.h"
#include "checkpoints/diff.h"
#include "checkpoints/path_filter.h"
#include "checkpoints/scan.h"
#include "checkpoints/tree.h"
#include "workspace_fixture.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace sb::workspacetest {
namespace {

using namespace std::string_literals;

TEST(PathFilter, IncludesExcludesAndDepth)
{
    auto filter = PathFilter::make({"src", "*.md"}, {"*.log", "src/gen/**", "build"});
    ASSERT_TRUE(filter) << filter.error().message;
    EXPECT_TRUE(filter->takes("src/a.cpp"));
    EXPECT_TRUE(filter->takes("src/deep/er/b.h"));
    EXPECT_TRUE(filter->takes("README.md"));
    EXPECT_TRUE(filter->takes("docs/x/guide.md"));
    EXPECT_FALSE(filter->takes("docs/x/guide.txt"));
    EXPECT_FALSE(filter->takes("src/debug.log"));
    EXPECT_FALSE(filter->takes("src/gen/out.cpp"));
    EXPECT_FALSE(filter->takes("x/build/a.md"));
    EXPECT_TRUE(filter->skipsDirectory("x/build"));
    EXPECT_TRUE(filter->skipsDirectory("src/gen/sub"));
    EXPECT_FALSE(filter->skipsDirectory("src"));

    auto anchored = PathFilter::make({"/docs/*.txt", "a/**/z"}, {});
    ASSERT_TRUE(anchored);
    EXPECT_TRUE(anchored->takes("docs/x.txt"));
    EXPECT_FALSE(anchored->takes("other/docs/x.txt"));
    EXPECT_TRUE(anchored->takes("a/z"));
    EXPECT_TRUE(anchored->takes("a/b/c/z/inner"));
    EXPECT_FALSE(anchored->takes("a/b/c"));
    EXPECT_TRUE(PathFilter().takes("anything/at/all"));
}

TEST(PathFilter, RefusesBadPatternsAndStaysFastOnHostileOnes)
{
    EXPECT_FALSE(PathFilter::make({""}, {}));
    EXPECT_FALSE(PathFilter::make({}, {"../x"}));
    EXPECT_FALSE(PathFilter::make({"/"}, {}));
    EXPECT_FALSE(PathFilter::make({"a\0b"s}, {}));
    auto hostile = PathFilter::make({"**/a/**/a/**/a/**/a/**/a/**/a/**/b"}, {});
    ASSERT_TRUE(hostile);
    std::string deep;
    for (int i = 0; i < 200; ++i)
        deep += "a/";
    deep += "c";
    EXPECT_FALSE(hostile->takes(deep)); // quadratic at worst, not exponential
}

std::vector<std::string> chunksOfBytes(const std::string& bytes)
{
    std::vector<std::string> chunks;
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        const std::size_t length = nextChunkLength(
            std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()) + pos, bytes.size() - pos));
        chunks.push_back(bytes.substr(pos, length));
        pos += length;
    }
    return chunks;
}

TEST(Chunker, SizesStayInBoundsAndCutsFollowContent)
{
    const std::string data = noise(8 << 20, 7);
    const auto chunks = chunksOfBytes(data);
    std::size_t total = 0;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        total += chunks[i].size();
        EXPECT_LE(chunks[i].size(), ChunkSizes::kMax);
        if (i + 1 < chunks.size()) {
            EXPECT_GE(chunks[i].size(), ChunkSizes::kMin);
        }
    }
    EXPECT_EQ(total, data.size());
    const double average = static_cast<double>(data.size()) / static_cast<double>(chunks.size());
    EXPECT_GT(average, ChunkSizes::kAverage * 0.5);
    EXPECT_LT(average, ChunkSizes::kAverage * 2.0);

    // Bytes inserted in the middle change the chunks around them only.
    std::string edited = data;
    edited.insert(4 << 20, "a few inserted bytes");
    const auto after = chunksOfBytes(edited);
    std::set<std::string> before(chunks.begin(), chunks.end());
    std::size_t fresh = 0;
    for (const auto& chunk : after)
        fresh += before.contains(chunk) ? 0 : 1;
    EXPECT_LE(fresh, 2u) << "of " << after.size() << " chunks";
}

TEST(Tree, RoundTripsAndRefusesDamage)
{
    Tree tree;
    TreeEntry dir{"a-dir", EntryType::Directory, 0755, 10, Storage::Inline, {}, {}, 3};
    dir.hash[0] = 1;
    TreeEntry file{"b.txt", EntryType::File, 0644, 5, Storage::Inline, {}, "hello", 0};
    TreeEntry big{"c.bin", EntryType::File, 0600, 1 << 20, Storage::Chunked, {}, {}, 0};
    big.hash[5] = 9;
    TreeEntry link{"d", EntryType::Symlink, 0777, 11, Storage::Inline, {}, "/etc/passwd", 0};
    TreeEntry odd{"\xff\xfe name", EntryType::File, 0755, 0, Storage::Inline, {}, "", 0};
    tree.entries = {dir, file, big, link, odd};
    const std::string bytes = serializeTree(tree);
    auto parsed = parseTree(bytes);
    ASSERT_TRUE(parsed) << parsed.error().message;
    ASSERT_EQ(parsed->entries.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i)
        EXPECT_TRUE(parsed->entries[i].sameAs(tree.entries[i])) << i;
    EXPECT_EQ(parsed->entries[0].files, 3u);

    // Every cut is refused, as are names that would lead outside.
    for (std::size_t cut = 0; cut < bytes.size(); ++cut)
        EXPECT_FALSE(parseTree(bytes.substr(0, cut))) << cut;
    for (const char* name : {"..", ".", "a/b", ""}) {
        Tree evil;
        evil.entries = {TreeEntry{name, EntryType::File, 0644, 1, Storage::Inline, {}, "x", 0}};
        EXPECT_FALSE(parseTree(serializeTree(evil))) << name;
    }
    Tree unsorted;
    unsorted.entries = {file, dir};
    EXPECT_FALSE(parseTree(serializeTree(unsorted)));
}

class BlobTest : public WorkspaceTest {};

TEST_F(BlobTest, StoresOnceCompressesAndChecksOnRead)
{
    BlobStore blobs(sqlite::connectionOf(*m_store).value());
    const std::string text(100'000, 'x');
    ContentHash hash{};
    auto first = blobs.put(BlobKind::Bytes, text, &hash);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_TRUE(first->added);
    EXPECT_LT(first->stored, 1000u); // compressed
    auto second = blobs.put(BlobKind::Bytes, text);
    ASSERT_TRUE(second);
    EXPECT_FALSE(second->added);
    EXPECT_EQ(blobs.get(hash).value(), text);

    // Incompressible bytes are kept as they are.
    const std::string random = noise(50'000, 3);
    auto raw = blobs.put(BlobKind::Bytes, random);
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->stored, random.size());

    // Edited below the engine: reported, never returned.
    const std::string hex = hashHex(hash);
    sqlite::connectionOf(*m_store).value().exec("UPDATE blobs SET codec = 0, data = X'00' WHERE hex(hash) = upper('" + hex + "')", "edit").value();
    auto damaged = blobs.get(hash);
    ASSERT_FALSE(damaged);
    EXPECT_NE(damaged.error().message.find("damaged"), std::string::npos) << damaged.error().message;
}

TEST_F(BlobTest, LargeFilesAreChunkedAndReadBack)
{
    BlobStore blobs(sqlite::connectionOf(*m_store).value());
    const std::string data = noise(3 << 20, 11);
    auto stored = storeBytes(data, &blobs);
    ASSERT_TRUE(stored) << stored.error().message;
    EXPECT_EQ(stored->storage, Storage::Chunked);
    EXPECT_GT(stored->newBlobs, 20u);
    TreeEntry entry{"big", EntryType::File, 0644, data.size(), Storage::Chunked, stored->hash, {}, 0};
    EXPECT_EQ(readFileBytes(blobs, entry, 1 << 30).value(), data);

    // Hash only: the same reference, nothing written.
    const auto before = count("SELECT count(*) FROM blobs");
    auto hashed = storeBytes(data, nullptr);
    ASSERT_TRUE(hashed);
    EXPECT_EQ(hashed->hash, stored->hash);
    EXPECT_EQ(count("SELECT count(*) FROM blobs"), before);

    // Tiny files live in their listing.
    auto tiny = storeBytes("hi", &blobs);
    ASSERT_TRUE(tiny);
    EXPECT_EQ(tiny->storage, Storage::Inline);
    EXPECT_EQ(tiny->inlineBytes, "hi");
}

TEST(TextDiff, UnifiedLikeDiffU)
{
    std::string a;
    for (int i = 1; i <= 12; ++i)
        a += "l" + std::to_string(i) + "\n";
    std::string b = a;
    b.replace(b.find("l2\n"), 3, "L2\n");
    b += "l13\n";
    EXPECT_EQ(unifiedDiff(a, b, "a/f", "b/f"), "--- a/f\n+++ b/f\n"
                                                "@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n"
                                                "@@ -10,3 +10,4 @@\n l10\n l11\n l12\n+l13\n");
    EXPECT_EQ(unifiedDiff(a, a, "a", "b"), "");
    EXPECT_EQ(unifiedDiff("", "new\n", "/dev/null", "b/n"), "--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+new\n");
    EXPECT_EQ(unifiedDiff("x", "x\n", "a", "b"), "--- a\n+++ b\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n");
    EXPECT_TRUE(looksBinary("abc\0def"s));
    EXPECT_FALSE(looksBinary("plain text\n"));
}

TEST(TextDiff, ManyChangesStillGiveACorrectDiff)
{
    std::string a;
    std::string b;
    for (int i = 0; i < 6000; ++i) {
        a += std::to_string(i) + "\n";
        b += std::to_string(i % 2 == 0 ? i : -i) + "\n";
    }
    const std::string diff = unifiedDiff(a, b, "a", "b", 0);
    EXPECT_NE(diff.find("-1\n"), std::string::npos);
    EXPECT_NE(diff.find("+-1\n"), std::string::npos);
}

} // namespace
} // namespace sb::workspacetest

namespace sb::workspacetest {
namespace {

// The stat cache, the names and listings it lends and the helpers that stat ahead must never change what a
// walk sees: after any change to a workspace, a walk through the cache gives the tree a walk without one
// gives.
enum class Prefetch { Own, Early, OfAnotherFolder };

void walkThroughTheCacheSeesWhatAFullWalkSees(int folders, int filesPerFolder, int rounds,
                                              Prefetch prefetch = Prefetch::Own)
{
    TempDir dir;
    const fs::path root = dir.path() / "ws";
    for (int d = 0; d < folders; ++d)
        for (int f = 0; f < filesPerFolder; ++f)
            writeFile(root / ("d" + std::to_string(d)) / ("f" + std::to_string(f)), noise(100 + (f % 5) * 50, d * 10 + f));
    // The same paths in other directories, each file there a folder: a walk that took its stats would see folders.
    const fs::path twin = dir.path() / "twin";
    if (prefetch == Prefetch::OfAnotherFolder) {
        for (int d = 0; d < folders; ++d)
            for (int f = 0; f < filesPerFolder; ++f)
                writeFile(twin / ("d" + std::to_string(d)) / ("f" + std::to_string(f)) / "x", "x");
    }
    ::usleep(60'000);
    auto first = scanFolder(root, ScanOptions{});
    ASSERT_TRUE(first) << first.error().message;
    StatCache cache = first->directories;

    std::mt19937 random(4);
    auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
    for (int round = 0; round < rounds; ++round) {
        const fs::path folder = root / ("d" + std::to_string(pick(folders)));
        const fs::path file = folder / ("f" + std::to_string(pick(filesPerFolder)));
        std::error_code ec;
        switch (pick(11)) {
        case 0: // same size, new bytes
            if (fs::is_regular_file(file))
                writeFile(file, noise(fs::file_size(file), static_cast<std::uint64_t>(round) + 1000));
            break;
        case 1:
            writeFile(file, "appended " + std::to_string(round));
            break;
        case 2:
            fs::remove_all(file, ec);
            break;
        case 3:
            writeFile(folder / ("new" + std::to_string(round)), "new");
            break;
        case 4:
            writeFile(root / ("extra" + std::to_string(round)) / "x", "x");
            break;
        case 5:
            fs::remove_all(folder, ec);
            break;
        case 6:
            if (fs::is_regular_file(file))
                fs::permissions(file, fs::perms::owner_exec, fs::perm_options::add, ec);
            break;
        case 7:
            fs::remove_all(file, ec);
            writeFile(file / "inside", "now a folder");
            break;
        case 8:
            fs::remove_all(file, ec);
            fs::create_symlink("../elsewhere", file, ec);
            break;
        case 9: { // a folder moved away and a symlink to it in its place: never walked (nor stated) through
            const fs::path moved = root / ("moved" + std::to_string(round));
            fs::rename(folder, moved, ec);
            if (!ec)
                fs::create_directory_symlink(moved.filename(), folder, ec);
            break;
        }
        case 10: { // two folders swap places: each keeps its files under the other's name
            const fs::path other = root / ("d" + std::to_string(pick(folders)));
            const fs::path swap = root / "swap";
            if (fs::is_directory(folder) && fs::is_directory(other) && folder != other) {
                fs::rename(folder, swap, ec);
                fs::rename(other, folder, ec);
                fs::rename(swap, other, ec);
            }
            break;
        }
        }
        if (round % 3 == 0)
            ::usleep(60'000); // sometimes past the racy margin, so that cached stats are trusted
        ScanOptions cached;
        cached.cache = &cache;
        std::unique_ptr<StatPrefetch> early;
        if (prefetch == Prefetch::Early) {
            early = StatPrefetch::start(root);
            ASSERT_TRUE(early);
        } else if (prefetch == Prefetch::OfAnotherFolder) {
            early = StatPrefetch::start(twin);
        }
        cached.prefetch = early.get();
        auto through = scanFolder(root, cached);
        early.reset();
        auto full = scanFolder(root, ScanOptions{});
        ASSERT_TRUE(through && full);
        EXPECT_EQ(hashHex(through->root), hashHex(full->root)) << "round " << round;
        EXPECT_EQ(through->files, full->files) << "round " << round;
        cache = through->directories;
    }
}

TEST(Walk, ThroughTheCacheItSeesWhatAFullWalkSees)
{
    walkThroughTheCacheSeesWhatAFullWalkSees(40, 5, 40);
}

// Large enough (2 400 files) that a second thread stats ahead of the walk through the cache.
TEST(Walk, ThroughALargeCacheItSeesWhatAFullWalkSees)
{
    walkThroughTheCacheSeesWhatAFullWalkSees(40, 60, 30);
}

// As the engine does it: the prefetch started before the walk, here before the stat cache is even looked at.
TEST(Walk, APrefetchStartedEarlyChangesNothing)
{
    walkThroughTheCacheSeesWhatAFullWalkSees(40, 60, 20, Prefetch::Early);
}

// Its stats are taken only where it stat'ed in the very directory the walk is in.
TEST(Walk, APrefetchOfAnotherFolderChangesNothing)
{
    walkThroughTheCacheSeesWhatAFullWalkSees(40, 60, 10, Prefetch::OfAnotherFolder);
}

TEST(Walk, APrefetchNeverStartsThroughASymlink)
{
    TempDir dir;
    writeFile(dir.path() / "real" / "f", "x");
    fs::create_directory_symlink("real", dir.path() / "link");
    EXPECT_FALSE(StatPrefetch::start(dir.path() / "link"));
    EXPECT_FALSE(StatPrefetch::start(dir.path() / "missing"));
    EXPECT_TRUE(StatPrefetch::start(dir.path() / "real"));
}

} // namespace
} // namespace sb::workspacetest
