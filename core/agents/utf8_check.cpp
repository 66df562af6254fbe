#include "utf8_check.h"

#include "util/utf8.h"

#include <cstdint>

namespace sb::agents {

std::optional<std::size_t> firstInvalidUtf8(std::string_view text)
{
    for (std::size_t at = 0; at < text.size();) {
        if (static_cast<unsigned char>(text[at]) < 0x80) {
            ++at;
            continue;
        }
        std::uint32_t codePoint = 0;
        const std::size_t length = utf8::decodeMultiByte(text, at, codePoint);
        if (length == 0)
            return at;
        at += length;
    }
    return std::nullopt;
}

} // namespace sb::agents
