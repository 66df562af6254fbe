#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sb {

// Text from a file or an untrusted program, made safe to print on a terminal or show in a table: control
// characters (C0, DEL, C1), bidirectional overrides and bytes that are not UTF-8 become visible escapes
// (\x1b, \u{202e}); a backslash is doubled so that an escape cannot be faked. Longer than `maxChars` code
// points, it is cut and ends in "…".
std::string printable(std::string_view text, std::size_t maxChars = std::string_view::npos);

} // namespace sb
