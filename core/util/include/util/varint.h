#pragma once

// LEB128 unsigned integers (seven bits a byte, low bits first): the length prefix of the binary formats
// the store keeps (trees, chunk lists, dataset columns).

#include <cstdint>
#include <string>

namespace sb {

inline void putVarint(std::string& out, std::uint64_t value)
{
    while (value >= 0x80) {
        out.push_back(static_cast<char>((value & 0x7F) | 0x80));
        value >>= 7;
    }
    out.push_back(static_cast<char>(value));
}

} // namespace sb
