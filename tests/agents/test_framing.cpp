// FrameReader and encodeFrame (agents/framing.h): newline-delimited frames from chunks of any size.

#include "agents/framing.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

using namespace std::string_literals;
using sb::agents::FrameError;
using sb::agents::FrameReader;
using sb::agents::ReadFrame;

namespace {

// What a reader made of a stream: each frame's text, or "error K@LINE" for an error of kind K.
std::vector<std::string> describe(const std::vector<ReadFrame>& read)
{
    std::vector<std::string> out;
    for (const auto& item : read) {
        if (item)
            out.push_back(*item);
        else
            out.push_back("error " + std::to_string(static_cast<int>(item.error().kind)) + "@"
                          + std::to_string(item.error().line));
    }
    return out;
}

std::vector<std::string> feedAll(FrameReader& reader, const std::vector<std::string>& chunks)
{
    std::vector<std::string> out;
    for (const auto& chunk : chunks) {
        const auto more = describe(reader.feed(chunk));
        out.insert(out.end(), more.begin(), more.end());
    }
    return out;
}

std::string errorOf(FrameError::Kind kind, int line)
{
    return "error " + std::to_string(static_cast<int>(kind)) + "@" + std::to_string(line);
}

const std::string kA = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
const std::string kB = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
const std::string kC = R"({"jsonrpc":"2.0","id":"x","result":{"text":"Grüße 🙂"}})";

} // namespace

TEST(FrameReader, ReadsOneFrameWithoutItsNewline)
{
    FrameReader reader;
    EXPECT_EQ(feedAll(reader, {kA + "\n"}), std::vector<std::string>{kA});
    EXPECT_EQ(reader.pendingBytes(), 0u);
}

TEST(FrameReader, HoldsAFrameUntilItsNewlineArrives)
{
    FrameReader reader;
    EXPECT_TRUE(reader.feed(kA).empty());
    EXPECT_EQ(reader.pendingBytes(), kA.size());
    EXPECT_EQ(describe(reader.feed("\n")), std::vector<std::string>{kA});
}

TEST(FrameReader, GivesTheSameFramesWhereverTheStreamIsSplit)
{
    const std::string stream = kA + "\n" + kB + "\r\n\n  \r\n" + kC + "\n";
    const std::vector<std::string> expected = {kA, kB, kC};
    for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
        FrameReader reader;
        EXPECT_EQ(feedAll(reader, {stream.substr(0, cut), stream.substr(cut)}), expected) << "split at " << cut;
    }
    for (std::size_t first = 0; first <= stream.size(); first += 7) {
        for (std::size_t second = first; second <= stream.size(); second += 5) {
            FrameReader reader;
            EXPECT_EQ(feedAll(reader, {stream.substr(0, first), stream.substr(first, second - first),
                                       stream.substr(second)}),
                      expected)
                << "split at " << first << " and " << second;
        }
    }
}

TEST(FrameReader, ReadsAStreamOneByteAtATime)
{
    const std::string stream = kA + "\r\n" + kC + "\n" + kB + "\n";
    FrameReader reader;
    std::vector<std::string> chunks;
    for (const char c : stream)
        chunks.emplace_back(1, c);
    EXPECT_EQ(feedAll(reader, chunks), (std::vector<std::string>{kA, kC, kB}));
}

TEST(FrameReader, ReadsManyFramesFromOneChunk)
{
    std::string stream;
    std::vector<std::string> expected;
    for (int i = 0; i < 1000; ++i) {
        expected.push_back(R"({"jsonrpc":"2.0","id":)" + std::to_string(i) + R"(,"method":"tools/list"})");
        stream += expected.back() + (i % 2 ? "\r\n" : "\n");
    }
    FrameReader reader;
    EXPECT_EQ(feedAll(reader, {stream}), expected);
}

TEST(FrameReader, DropsTheCarriageReturnOfACrLfEnding)
{
    FrameReader reader;
    EXPECT_EQ(feedAll(reader, {kA + "\r", "\n"}), std::vector<std::string>{kA});
}

TEST(FrameReader, SkipsBlankLinesButCountsThem)
{
    FrameReader reader;
    const auto read = reader.feed("\n\r\n \t \n" + "\xff"s + "\n");
    ASSERT_EQ(read.size(), 1u);
    ASSERT_FALSE(read[0]);
    EXPECT_EQ(read[0].error().line, 4u);
    EXPECT_NE(read[0].error().message.find("line 4"), std::string::npos) << read[0].error().message;
}

TEST(FrameReader, TakesAFrameOfExactlyTheCap)
{
    const std::string frame(16, 'x');
    FrameReader lf(16);
    EXPECT_EQ(feedAll(lf, {frame + "\n"}), std::vector<std::string>{frame});
    FrameReader crlf(16);
    EXPECT_EQ(feedAll(crlf, {frame + "\r\n"}), std::vector<std::string>{frame});
}

TEST(FrameReader, TakesTheLargestCapThereIs)
{
    FrameReader reader(std::numeric_limits<std::size_t>::max());
    EXPECT_EQ(feedAll(reader, {kA + "\r\n"}), std::vector<std::string>{kA});
}

TEST(FrameReader, RefusesAFrameOneByteOverTheCap)
{
    const std::string frame(17, 'x');
    FrameReader lf(16);
    EXPECT_EQ(feedAll(lf, {frame + "\n"}), std::vector<std::string>{errorOf(FrameError::Kind::TooLong, 1)});
    FrameReader crlf(16);
    EXPECT_EQ(feedAll(crlf, {frame + "\r\n"}), std::vector<std::string>{errorOf(FrameError::Kind::TooLong, 1)});
}

TEST(FrameReader, ReportsAnOversizedFrameOnceAndReadsOnAfterItsNewline)
{
    FrameReader reader(16);
    const std::string huge(1000, 'y');
    std::vector<std::string> out;
    for (std::size_t at = 0; at < huge.size(); at += 10) {
        const auto more = describe(reader.feed(huge.substr(at, 10)));
        out.insert(out.end(), more.begin(), more.end());
        EXPECT_LE(reader.pendingBytes(), 17u) << "holds the oversized frame's bytes";
    }
    const auto more = feedAll(reader, {"yy\n{\"a\":1}\n"});
    out.insert(out.end(), more.begin(), more.end());
    EXPECT_EQ(out, (std::vector<std::string>{errorOf(FrameError::Kind::TooLong, 1), R"({"a":1})"}));
}

TEST(FrameReader, ReportsAnOversizedFrameBeforeItsNewlineArrives)
{
    FrameReader reader(16);
    EXPECT_EQ(describe(reader.feed(std::string(40, 'z'))),
              std::vector<std::string>{errorOf(FrameError::Kind::TooLong, 1)});
    EXPECT_EQ(reader.pendingBytes(), 0u);
    EXPECT_TRUE(reader.feed(std::string(40, 'z')).empty()) << "reported once";
    EXPECT_EQ(describe(reader.feed("\n{\"a\":1}\n")), std::vector<std::string>{R"({"a":1})"});
}

TEST(FrameReader, ReportsAnOversizedFrameInOneChunkOnce)
{
    FrameReader reader(16);
    EXPECT_EQ(feedAll(reader, {kA + "\n" + std::string(5000, 'q') + "\n" + kB.substr(0, 10)}),
              (std::vector<std::string>{errorOf(FrameError::Kind::TooLong, 1), errorOf(FrameError::Kind::TooLong, 2)}))
        << "kA is over 16 bytes too";
    FrameReader wide(100);
    EXPECT_EQ(feedAll(wide, {kA + "\n" + std::string(5000, 'q') + "\n" + kB + "\n"}),
              (std::vector<std::string>{kA, errorOf(FrameError::Kind::TooLong, 2), kB}));
}

TEST(FrameReader, NamesTheLineAndTheCapOfAnOversizedFrame)
{
    FrameReader reader(16);
    const auto read = reader.feed(kA.substr(0, 5) + "\n\n" + std::string(20, 'x'));
    ASSERT_EQ(read.size(), 2u);
    ASSERT_FALSE(read[1]);
    EXPECT_EQ(read[1].error().kind, FrameError::Kind::TooLong);
    EXPECT_NE(read[1].error().message.find("line 3"), std::string::npos) << read[1].error().message;
    EXPECT_NE(read[1].error().message.find("16 bytes"), std::string::npos) << read[1].error().message;
}

TEST(FrameReader, RefusesAFrameThatIsNotUtf8AndReadsOn)
{
    for (const std::string& bad : {"\xff"s, "\xc0\xaf"s, "\xed\xa0\x80"s, "\xf4\x90\x80\x80"s, "\xe2\x82"s}) {
        FrameReader reader;
        const auto read = reader.feed(R"({"a":")" + bad + "\"}\n" + kA + "\n");
        ASSERT_EQ(read.size(), 2u);
        ASSERT_FALSE(read[0]);
        EXPECT_EQ(read[0].error().kind, FrameError::Kind::NotUtf8);
        EXPECT_NE(read[0].error().message.find("byte 7"), std::string::npos) << read[0].error().message;
        EXPECT_EQ(describe({read[1]}), std::vector<std::string>{kA});
    }
}

TEST(FrameReader, TakesACharacterSplitAcrossChunks)
{
    FrameReader reader;
    const std::string frame = R"({"t":"🙂"})";
    const std::size_t emoji = frame.find("\xf0");
    EXPECT_EQ(feedAll(reader, {frame.substr(0, emoji + 2), frame.substr(emoji + 2) + "\n"}),
              std::vector<std::string>{frame});
}

TEST(FrameReader, ReportsAStreamThatEndsInsideAFrame)
{
    FrameReader reader;
    EXPECT_EQ(reader.feed(kA + "\n" + kB.substr(0, 9)).size(), 1u);
    const auto end = reader.finish();
    ASSERT_TRUE(end);
    EXPECT_EQ(end->kind, FrameError::Kind::Truncated);
    EXPECT_EQ(end->line, 2u);
    EXPECT_EQ(reader.pendingBytes(), 0u);
    EXPECT_FALSE(reader.finish()) << "the reader starts over";
}

TEST(FrameReader, EndsCleanlyAfterAWholeFrameOrABlankTail)
{
    FrameReader reader;
    reader.feed(kA + "\n");
    EXPECT_FALSE(reader.finish());
    reader.feed(kA + "\n  ");
    EXPECT_FALSE(reader.finish());
}

TEST(FrameReader, DoesNotReportAnOversizedTailTwiceAtTheEnd)
{
    FrameReader reader(8);
    EXPECT_EQ(reader.feed(std::string(20, 'x')).size(), 1u);
    EXPECT_FALSE(reader.finish());
}

TEST(EncodeFrame, WritesOneLineEndingInANewline)
{
    const sb::agents::Json message = {{"jsonrpc", "2.0"}, {"method", "log"}, {"params", {{"text", "a\nb\r\nc\u2028"}}}};
    const std::string frame = sb::agents::encodeFrame(message);
    ASSERT_FALSE(frame.empty());
    EXPECT_EQ(frame.back(), '\n');
    EXPECT_EQ(frame.find('\n'), frame.size() - 1) << frame;
    EXPECT_EQ(frame.find('\r'), std::string::npos) << frame;
    FrameReader reader;
    const auto read = reader.feed(frame);
    ASSERT_EQ(read.size(), 1u);
    ASSERT_TRUE(read[0]);
    EXPECT_EQ(sb::agents::Json::parse(*read[0]), message);
}

TEST(EncodeFrame, ReplacesBytesThatAreNotUtf8InsteadOfFailing)
{
    const sb::agents::Json message = {{"text", "bad \xff byte"}};
    const std::string frame = sb::agents::encodeFrame(message);
    EXPECT_NE(frame.find("\xef\xbf\xbd"), std::string::npos) << frame;
}
