#pragma once

// UTF-8, as CEL strings are: well-formedness (shortest forms only, no surrogates, at most U+10FFFF, decided
// by util's one decoder), length in code points, encoding a code point. One home for the parser (source
// text, escapes) and the functions (size, string(bytes)).

#include "util/utf8.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sb::cel {

inline bool isValidUtf8(std::string_view s)
{
    return utf8::firstInvalid(s) == std::string_view::npos;
}

// Code points of well-formed UTF-8 (continuation bytes are not counted).
inline std::size_t codePoints(std::string_view s)
{
    std::size_t n = 0;
    for (const char c : s)
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

void appendUtf8(std::string& out, std::uint32_t codePoint);

} // namespace sb::cel
