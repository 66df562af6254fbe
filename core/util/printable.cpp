#include "util/printable.h"

#include "util/utf8.h"

#include <fmt/format.h>

#include <cstdint>

namespace sb {

namespace {

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
        const std::size_t length = utf8::decodeMultiByte(text, at, codePoint);
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
