#include "util/utf8.h"

#include <cstdint>

namespace sb {

namespace {

// Length of the well-formed UTF-8 sequence at `p` (1 to 4), or 0 when there is none there.
int sequenceLength(const unsigned char* p, const unsigned char* end)
{
    const unsigned char c = *p;
    if (c < 0x80)
        return 1;
    int length = 0;
    std::uint32_t codePoint = 0;
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
    if (end - p < length)
        return 0;
    for (int i = 1; i < length; ++i) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        codePoint = (codePoint << 6) | (p[i] & 0x3F);
    }
    const bool overlong = (length == 2 && codePoint < 0x80) || (length == 3 && codePoint < 0x800)
                          || (length == 4 && codePoint < 0x10000);
    if (overlong || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF))
        return 0;
    return length;
}

} // namespace

bool isPlainUtf8(std::string_view text)
{
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    while (p < end) {
        if (*p == 0)
            return false;
        const int length = sequenceLength(p, end);
        if (length == 0)
            return false;
        p += length;
    }
    return true;
}

std::string printableText(std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    while (p < end) {
        const unsigned char c = *p;
        const int length = sequenceLength(p, end);
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else if (length == 0 || c < 0x20 || c == 0x7f
                   || (length == 2 && c == 0xC2 && p[1] < 0xA0)) { // C1 controls (U+0080..U+009F) too
            const int bytes = length == 0 ? 1 : length;
            for (int i = 0; i < bytes; ++i) {
                out += "\\x";
                out += kHex[p[i] >> 4];
                out += kHex[p[i] & 0xF];
            }
            p += bytes;
            continue;
        } else {
            out.append(reinterpret_cast<const char*>(p), static_cast<std::size_t>(length));
            p += length;
            continue;
        }
        ++p;
    }
    return out;
}

} // namespace sb
