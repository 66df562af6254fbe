// The one reader of files a person names (util/input_file.h): what is not a regular file is refused, named
// for what it is, without blocking and without reading; a file larger than its kind's cap is refused, naming
// the cap; stdin is read within the cap.

#include "util/input_file.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

constexpr sb::InputKind kSmall{"test input", 1024};

class InputFileTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "sandbench-input-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        m_dir = pattern;
    }
    void TearDown() override
    {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    fs::path write(const std::string& name, const std::string& bytes) const
    {
        const fs::path path = m_dir / name;
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }

    fs::path m_dir;
};

std::string errorOf(const sb::Result<std::string>& r)
{
    return r ? std::string("(no error)") : r.error().message;
}

// Reads `path` on another thread; a read still blocked after 20 s fails the test, and the FIFO is then opened
// for writing so that the blocked reader returns and the test binary ends instead of hanging.
sb::Result<std::string> readWithoutBlocking(const fs::path& path, const sb::InputKind& kind)
{
    auto pending = std::async(std::launch::async, [&] { return sb::readInputFile(path, kind); });
    if (pending.wait_for(std::chrono::seconds(20)) == std::future_status::timeout) {
        ADD_FAILURE() << path << ": the read blocked";
        const int unblock = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (unblock >= 0)
            ::close(unblock);
    }
    return pending.get();
}

} // namespace

TEST_F(InputFileTest, ReadsARegularFileWhole)
{
    const auto path = write("a.txt", "line one\nline two\n");
    auto r = sb::readInputFile(path, kSmall);
    ASSERT_TRUE(r) << errorOf(r);
    EXPECT_EQ(*r, "line one\nline two\n");

    const auto empty = write("empty.txt", "");
    auto e = sb::readInputFile(empty, kSmall);
    ASSERT_TRUE(e) << errorOf(e);
    EXPECT_TRUE(e->empty());

    const auto atCap = write("cap.txt", std::string(kSmall.maxBytes, 'x'));
    auto c = sb::readInputFile(atCap, kSmall);
    ASSERT_TRUE(c) << errorOf(c);
    EXPECT_EQ(c->size(), kSmall.maxBytes);
}

TEST_F(InputFileTest, AFileLargerThanItsKindsCapIsRefusedNamingTheCap)
{
    const auto big = write("big.txt", std::string(kSmall.maxBytes + 1, 'x'));
    auto r = sb::readInputFile(big, kSmall);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, big.string() + ": the test input is larger than 1 KiB");

    // A sparse file far beyond the cap is refused by its size, not read.
    const auto huge = m_dir / "huge.csv";
    { std::ofstream touch(huge); }
    fs::resize_file(huge, sb::input::kDataFile.maxBytes + 1);
    auto h = sb::InputFile::open(huge, sb::input::kDataFile);
    ASSERT_FALSE(h);
    EXPECT_EQ(h.error().message, huge.string() + ": the data file is larger than 16 GiB");
}

TEST_F(InputFileTest, AFileThatGrowsPastTheCapWhileReadIsRefused)
{
    const auto path = write("grows.txt", std::string(kSmall.maxBytes, 'x'));
    auto file = sb::InputFile::open(path, kSmall);
    ASSERT_TRUE(file) << file.error().message;
    std::ofstream(path, std::ios::binary | std::ios::app) << "more";
    std::string buffer(4096, '\0');
    std::string error;
    for (;;) {
        auto n = file->read(buffer.data(), buffer.size());
        if (!n) {
            error = n.error().message;
            break;
        }
        if (*n == 0)
            break;
    }
    EXPECT_EQ(error, path.string() + ": the test input is larger than 1 KiB");
}

TEST_F(InputFileTest, ADeviceIsRefusedWithoutBeingRead)
{
    auto r = sb::readInputFile("/dev/zero", sb::input::kRuleSet);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "/dev/zero: the rule set is not a regular file but a character device");
}

TEST_F(InputFileTest, AFifoWithoutAWriterIsRefusedAtOnce)
{
    const auto fifo = m_dir / "pipe.yaml";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto r = readWithoutBlocking(fifo, sb::input::kRuleSet);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, fifo.string() + ": the rule set is not a regular file but a FIFO");
}

TEST_F(InputFileTest, AFolderAndASocketAreNamedForWhatTheyAre)
{
    auto folder = sb::readInputFile(m_dir, sb::input::kPolicy);
    ASSERT_FALSE(folder);
    EXPECT_EQ(folder.error().message, m_dir.string() + ": the policy file is not a regular file but a folder");

    const auto socketPath = m_dir / "s.sock";
    const int s = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(s, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    ASSERT_LT(socketPath.string().size(), sizeof address.sun_path);
    std::copy_n(socketPath.c_str(), socketPath.string().size(), address.sun_path);
    ASSERT_EQ(::bind(s, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
    auto socket = sb::readInputFile(socketPath, sb::input::kSnippet);
    ::close(s);
    ASSERT_FALSE(socket);
    EXPECT_EQ(socket.error().message, socketPath.string() + ": the snippet is not a regular file but a socket");
}

TEST_F(InputFileTest, AMissingFileIsNamed)
{
    const auto missing = m_dir / "missing.yaml";
    auto r = sb::readInputFile(missing, sb::input::kRuleSet);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, missing.string() + ": cannot read the rule set: no such file");
}

TEST_F(InputFileTest, TextWithANulByteIsBinaryContentOnItsLine)
{
    const auto path = write("bin.py", std::string("print(1)\nprint(2)\n\x01\0\x02", 21));
    auto r = sb::readInputText(path, sb::input::kSnippet);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, path.string() + ": binary content (a NUL byte on line 3); a snippet is text");
    auto bytes = sb::readInputFile(path, sb::input::kSnippet);
    ASSERT_TRUE(bytes) << errorOf(bytes);
    EXPECT_EQ(bytes->size(), 21u);
}

// stdin is read within the cap: an endless one ends in an error, never in exhausted memory.
TEST_F(InputFileTest, StdinIsReadWithinTheCap)
{
    const int saved = ::dup(STDIN_FILENO);
    ASSERT_GE(saved, 0);
    auto readFrom = [&](const fs::path& path) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        EXPECT_GE(fd, 0) << path;
        ::dup2(fd, STDIN_FILENO);
        ::close(fd);
        auto r = sb::readStdinText(kSmall);
        ::dup2(saved, STDIN_FILENO);
        return r;
    };
    auto small = readFrom(write("in.txt", "echo hi\n"));
    ASSERT_TRUE(small) << errorOf(small);
    EXPECT_EQ(*small, "echo hi\n");
    auto endless = readFrom("/dev/zero");
    ASSERT_FALSE(endless);
    EXPECT_EQ(endless.error().message, "stdin: the test input is larger than 1 KiB");
    ::close(saved);
}

TEST(InputCap, IsWrittenInTheLargestWholeUnit)
{
    EXPECT_EQ(sb::capText(4ULL << 20), "4 MiB");
    EXPECT_EQ(sb::capText(16ULL << 30), "16 GiB");
    EXPECT_EQ(sb::capText(1536), "1536 bytes");
    EXPECT_EQ(sb::capText(2048), "2 KiB");
}
