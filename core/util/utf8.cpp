#include "util/utf8.h"

namespace sb::utf8 {

std::size_t decodeMultiByte(std::string_view text, std::size_t at, std::uint32_t& codePoint)
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

std::size_t firstInvalid(std::string_view text)
{
    for (std::size_t at = 0; at < text.size();) {
        if (static_cast<unsigned char>(text[at]) < 0x80) {
            ++at;
            continue;
        }
        std::uint32_t codePoint = 0;
        const std::size_t length = decodeMultiByte(text, at, codePoint);
        if (length == 0)
            return at;
        at += length;
    }
    return std::string_view::npos;
}

bool isPlainText(std::string_view text)
{
    return text.find('\0') == std::string_view::npos && firstInvalid(text) == std::string_view::npos;
}

} // namespace sb::utf8
