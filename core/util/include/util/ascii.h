#pragma once

// ASCII case folding for protocol text (host names, header names, hex digests), where the locale must not
// matter.

#include <string>
#include <string_view>

namespace sb {

inline std::string asciiLower(std::string_view text)
{
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

} // namespace sb
