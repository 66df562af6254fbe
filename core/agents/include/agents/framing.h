#pragma once

// Frames of MCP's stdio transport: one JSON-RPC message per line of UTF-8 text, delimited by "\n", never
// holding a newline itself (MCP 2025-11-25, basic/transports, "stdio").
//
// FrameReader cuts a byte stream into frames as the bytes arrive, in chunks of any size: a frame split
// across reads, several frames in one read, "\r\n" endings, and blank lines (nothing but spaces, tabs and
// "\r") between frames, which it skips. It never holds more than one frame's worth of bytes: a line longer
// than the cap is reported once, as soon as it is seen to be too long, and the rest of it is dropped unread
// up to its newline, where reading starts again.

#include "agents/json.h"

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb::agents {

// The largest frame read by default: far above any message an MCP SDK sends (a tools/list of a big server
// is a few hundred KiB), far below what would strain memory once parsed.
inline constexpr std::size_t kDefaultMaxFrameBytes = std::size_t{4} << 20;

// A line of the stream that is not a frame, with a message naming its line and what is wrong.
struct FrameError {
    enum class Kind : std::uint8_t {
        TooLong,   // longer than the reader's cap (its "\r\n" or "\n" not counted)
        NotUtf8,   // a byte sequence that is not UTF-8
        Truncated, // the stream ended inside a line
    };
    Kind kind = Kind::TooLong;
    std::uint64_t line = 0; // 1-based line of the stream, blank lines counted
    std::string message;
};

// A complete frame's text (without its line ending), or why a line is not one.
using ReadFrame = std::expected<std::string, FrameError>;

class FrameReader {
public:
    explicit FrameReader(std::size_t maxFrameBytes = kDefaultMaxFrameBytes);

    // Reads the next bytes of the stream; returns the frames and errors they complete, in stream order.
    std::vector<ReadFrame> feed(std::string_view bytes);

    // The stream ended: the error for a last line without its newline, if there is one. The reader then
    // starts over, as on a new stream.
    std::optional<FrameError> finish();

    std::size_t maxFrameBytes() const { return m_maxFrameBytes; }
    // Bytes held for the line being read (never more than the cap and one byte).
    std::size_t pendingBytes() const { return m_line.size(); }

private:
    void appendToLine(std::string_view piece, std::vector<ReadFrame>& out);
    void endLine(std::vector<ReadFrame>& out);
    FrameError tooLong() const;

    std::size_t m_maxFrameBytes;
    std::string m_line;            // the line being read
    bool m_skippingLine = false;   // the line is too long: its bytes are dropped up to its newline
    std::uint64_t m_lineNumber = 1;
};

// A message as one frame: its JSON on one line (control characters, newlines included, escaped) and "\n".
// Strings that are not UTF-8 are written with U+FFFD in place of the bad bytes, never refused.
std::string encodeFrame(const Json& message);

} // namespace sb::agents
