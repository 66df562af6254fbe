#include "agents/framing.h"

#include "util/utf8.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace sb::agents {

namespace {

// JSON's whitespace but the newline, which ends the line: a line of nothing else carries no message.
bool isBlank(std::string_view line)
{
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

} // namespace

// The cap leaves room for the "\r" the line may hold beyond it.
FrameReader::FrameReader(std::size_t maxFrameBytes)
    : m_maxFrameBytes(std::min(maxFrameBytes, std::numeric_limits<std::size_t>::max() - 1))
{
}

std::vector<ReadFrame> FrameReader::feed(std::string_view bytes)
{
    std::vector<ReadFrame> out;
    while (!bytes.empty()) {
        const std::size_t newline = bytes.find('\n');
        appendToLine(bytes.substr(0, newline), out);
        if (newline == std::string_view::npos)
            break;
        endLine(out);
        bytes.remove_prefix(newline + 1);
    }
    return out;
}

std::optional<FrameError> FrameReader::finish()
{
    std::optional<FrameError> error;
    if (!m_skippingLine && !isBlank(m_line))
        error = FrameError{FrameError::Kind::Truncated, m_lineNumber,
                           "line " + std::to_string(m_lineNumber) + ": the stream ended inside a frame, after "
                               + std::to_string(m_line.size()) + " bytes without a newline"};
    std::string().swap(m_line);
    m_skippingLine = false;
    m_lineNumber = 1;
    return error;
}

// The line may hold one byte more than the cap: a "\r" of a "\r\n" ending, which is not the frame's.
void FrameReader::appendToLine(std::string_view piece, std::vector<ReadFrame>& out)
{
    if (m_skippingLine || piece.empty())
        return;
    if (piece.size() > m_maxFrameBytes + 1 - m_line.size()) {
        out.emplace_back(std::unexpected(tooLong()));
        std::string().swap(m_line); // give the memory back: the rest of the line is never held
        m_skippingLine = true;
        return;
    }
    m_line.append(piece);
}

void FrameReader::endLine(std::vector<ReadFrame>& out)
{
    if (!m_skippingLine) {
        if (!m_line.empty() && m_line.back() == '\r')
            m_line.pop_back();
        if (m_line.size() > m_maxFrameBytes) {
            out.emplace_back(std::unexpected(tooLong()));
        } else if (isBlank(m_line)) {
            // Nothing to read: blank lines between frames are skipped.
        } else if (const std::size_t bad = utf8::firstInvalid(m_line); bad != std::string_view::npos) {
            out.emplace_back(std::unexpected(FrameError{
                FrameError::Kind::NotUtf8, m_lineNumber,
                "line " + std::to_string(m_lineNumber) + ": not UTF-8 at byte " + std::to_string(bad + 1)}));
        } else {
            out.emplace_back(std::exchange(m_line, {}));
        }
    }
    m_line.clear();
    m_skippingLine = false;
    ++m_lineNumber;
}

FrameError FrameReader::tooLong() const
{
    return FrameError{FrameError::Kind::TooLong, m_lineNumber,
                      "line " + std::to_string(m_lineNumber) + ": a frame longer than "
                          + std::to_string(m_maxFrameBytes) + " bytes; it is skipped up to its newline"};
}

std::string encodeFrame(const Json& message)
{
    std::string line = message.dump(-1, ' ', false, Json::error_handler_t::replace);
    line += '\n';
    return line;
}

} // namespace sb::agents
