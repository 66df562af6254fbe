#include "util/printable.h"

#include <fmt/format.h>

#include <cstdint>

namespace sb {

namespace {

// The length of the valid UTF-8 sequence at `p` and its code point, or 0 when it is not one.
std::size_t decode(std::string_view text, std::size_t at, std::uint32_t& codePoint)
{
    const auto c = static_cast<unsigned char>(text[at]);
    std::size_t length = 0;
    if ((c & 0xE0) == 0xC0) {
        length = 2;
        codePoint = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        length = 3;
        codePoint = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        length = 4;
        codePoint = c & 0x07;
    } else {
        return 0;
    }
    if (text.size() - at < length)
        return 0;
    for (std::size_t i = 1; i < length; ++i) {
        const auto next = static_cast<unsigned char>(text[at + i]);
        if ((next & 0xC0) != 0x80)
            return 0;
        codePoint = (codePoint << 6) | (next & 0x3F);
    }
    const bool overlong =
        (length == 2 && codePoint < 0x80) || (length == 3 && codePoint < 0x800) || (length == 4 && codePoint < 0x10000);
    if (overlong || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF))
        return 0;
    return length;
}

bool isInvisibleControl(std::uint32_t codePoint)
{
    return (codePoint >= 0x80 && codePoint <= 0x9F)         // C1 controls
           || (codePoint >= 0x202A && codePoint <= 0x202E)  // bidi embeddings and overrides
           || (codePoint >= 0x2066 && codePoint <= 0x2069); // bidi isolates
}

} // namespace

std::string printable(std::string_view text, std::size_t maxChars)
{
    std::string out;
    out.reserve(text.size());
    std::size_t chars = 0;
    for (std::size_t at = 0; at < text.size();) {
        if (chars == maxChars) {
            out += "…";
            break;
        }
        ++chars;
        const auto c = static_cast<unsigned char>(text[at]);
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7F)
                out += fmt::format("\\x{:02x}", c);
            else if (c == '\\')
                out += "\\\\";
            else
                out += static_cast<char>(c);
            ++at;
            continue;
        }
        std::uint32_t codePoint = 0;
        const std::size_t length = decode(text, at, codePoint);
        if (length == 0) {
            out += fmt::format("\\x{:02x}", c);
            ++at;
        } else if (isInvisibleControl(codePoint)) {
            out += fmt::format("\\u{{{:04x}}}", codePoint);
            at += length;
        } else {
            out.append(text.substr(at, length));
            at += length;
        }
    }
    return out;
}

} // namespace sb
