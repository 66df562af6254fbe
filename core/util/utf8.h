#pragma once

#include <string>
#include <string_view>

namespace sb {

// True when `text` is well-formed UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF) and holds
// no NUL byte: text that every reader (SQLite's string functions, JSON, a terminal) takes as it is. Outputs
// of untrusted programs and names of files they made need not be.
bool isPlainUtf8(std::string_view text);

// `text` made safe to print on one line of a terminal: control characters, DEL, backslash and bytes that are
// not well-formed UTF-8 become C-style escapes (\n, \t, \\, \xHH); everything else is kept. A file name
// holding a newline or an escape sequence is shown as such, never acted on by the terminal.
std::string printableText(std::string_view text);

} // namespace sb
