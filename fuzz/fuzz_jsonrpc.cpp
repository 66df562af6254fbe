// libFuzzer target for the protocol layer of agent sessions (core/agents): the frames of MCP's stdio transport
// and the JSON-RPC 2.0 messages in them come from a sandboxed agent or server, so reading them must survive
// any bytes — no crash, no hang, no sanitizer report, never more memory than one frame's cap — and what it
// returns must hold together:
// - the frames are the same however the stream is cut into reads (here: chunks of pseudo-random sizes, and
//   the whole input at once);
// - the reader never holds more than the cap and one byte; a frame is at most the cap, has no newline and is
//   UTF-8;
// - a frame read as a message writes back (encodeFrame) as one frame that reads as the same JSON and kind;
// - a line that is not a frame, and a frame that is not a message, get -32700 or -32600, and the error
//   response is itself a valid error message with the same id; an initialize request negotiates a supported
//   version or is refused with -32602.
//
// The first byte picks the frame cap (16 << (bits 0-2) bytes: 16 B to 2 KiB, so that inputs reach it), the
// second seeds the chunk sizes; the rest is the stream.

#include "agents/framing.h"
#include "agents/jsonrpc.h"
#include "agents/mcp_version.h"
#include "util/utf8.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace agents = sb::agents;

[[noreturn]] void die(const char* what, std::string_view input, const std::string& detail)
{
    std::fprintf(stderr, "%s\n--- input (%zu bytes) ---\n%.*s\n--- detail ---\n%s\n", what, input.size(),
                 static_cast<int>(input.size() > 2000 ? 2000 : input.size()), input.data(), detail.c_str());
    std::abort();
}

// Frames and errors as text, to compare two readings of one stream.
std::string describe(const agents::ReadFrame& item)
{
    return item ? "frame " + *item : "error " + item.error().message;
}

std::vector<std::string> readInChunks(std::string_view stream, std::size_t cap, std::uint8_t seed)
{
    agents::FrameReader reader(cap);
    std::vector<std::string> out;
    std::uint32_t state = seed * 2654435761u + 1;
    while (!stream.empty()) {
        state = state * 1103515245u + 12345u;
        const std::size_t size = std::min<std::size_t>(stream.size(), 1 + (state >> 16) % (2 * cap + 3));
        for (const auto& item : reader.feed(stream.substr(0, size)))
            out.push_back(describe(item));
        if (reader.pendingBytes() > cap + 1)
            die("the reader holds more than the cap", stream, std::to_string(reader.pendingBytes()));
        stream.remove_prefix(size);
    }
    if (const auto end = reader.finish())
        out.push_back("error " + end->message);
    return out;
}

void checkFrame(std::string_view input, const std::string& frame, std::size_t cap)
{
    if (frame.size() > cap)
        die("a frame longer than the cap", input, frame);
    if (frame.find('\n') != std::string::npos)
        die("a frame with a newline", input, frame);
    if (sb::utf8::firstInvalid(frame) != std::string_view::npos)
        die("a frame that is not UTF-8", input, frame);
}

void checkMessage(std::string_view input, const agents::Message& message)
{
    const std::string line = agents::encodeFrame(message.json());
    agents::FrameReader reader(line.size());
    const auto frames = reader.feed(line);
    if (frames.size() != 1 || !frames[0])
        die("a message that does not write back as one frame", input, line);
    const auto again = agents::Message::parse(*frames[0]);
    if (!again)
        die("a message written back does not read", input, line + "\n" + again.error().message);
    if (again->json() != message.json() || again->kind() != message.kind())
        die("a message written back reads otherwise", input, line);
    if (message.isRequest() && !agents::isRequestId(message.id()))
        die("a request without a valid id", input, line);
    if (message.isRequest() && message.method() == "initialize") {
        const auto version = agents::negotiateInitialize(message);
        if (version ? !agents::isSupportedMcpVersion(*version) : version.error().code != agents::kInvalidParams)
            die("initialize negotiated something unsupported", input, line);
    }
}

void checkRefusal(std::string_view input, const agents::RpcError& error)
{
    if (error.code != agents::kParseError && error.code != agents::kInvalidRequest)
        die("a refusal with another code than -32700 or -32600", input, std::to_string(error.code));
    if (error.message.empty())
        die("a refusal that does not say why", input, "");
    if (!error.id.is_null() && !agents::isRequestId(error.id))
        die("a refusal answering an invalid id", input, error.id.dump());
    const std::string line = agents::encodeFrame(agents::errorResponse(error));
    const auto answer = agents::Message::parse(std::string_view(line).substr(0, line.size() - 1));
    if (!answer || answer->kind() != agents::MessageKind::Error || answer->id() != error.id)
        die("an error response that does not read as one", input, line);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2 || size > 64 * 1024)
        return 0;
    const std::size_t cap = std::size_t{16} << (data[0] & 7);
    const std::string_view stream(reinterpret_cast<const char*>(data) + 2, size - 2);

    agents::FrameReader reader(cap);
    const auto frames = reader.feed(stream);
    std::vector<std::string> whole;
    for (const auto& item : frames)
        whole.push_back(describe(item));
    if (const auto end = reader.finish())
        whole.push_back("error " + end->message);
    if (readInChunks(stream, cap, data[1]) != whole)
        die("the frames depend on how the stream was cut", stream, std::to_string(whole.size()));

    for (const auto& item : frames) {
        if (!item) {
            checkRefusal(stream, agents::errorForFrame(item.error()));
            continue;
        }
        checkFrame(stream, *item, cap);
        const auto message = agents::Message::parse(*item);
        if (message)
            checkMessage(stream, *message);
        else
            checkRefusal(stream, message.error());
    }
    return 0;
}
