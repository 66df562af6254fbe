#pragma once

// UTF-8 as the standard defines it (no overlong forms, no surrogates, nothing past U+10FFFF): the one
// decoder for text read from files and untrusted programs.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sb::utf8 {

// The length (2-4) of the valid multi-byte sequence starting at text[at], with its code point in
// `codePoint`; 0 when the bytes there are not one. ASCII is the caller's (one byte, below 0x80).
std::size_t decodeMultiByte(std::string_view text, std::size_t at, std::uint32_t& codePoint);

// The offset of the first byte that does not start a well-formed sequence; npos when all of `text` is UTF-8.
// ASCII control characters, NUL included, are UTF-8: whether a format allows them is its reader's to say.
std::size_t firstInvalid(std::string_view text);

// Valid UTF-8 with no NUL byte: text that any reader of a TEXT column takes as it is.
bool isPlainText(std::string_view text);

} // namespace sb::utf8
