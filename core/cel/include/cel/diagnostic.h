#pragma once

// What compiling an expression reports: each problem with where it is (1-based line and column in code
// points, and the byte offset for editors that underline it).

#include "util/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sb::cel {

struct Diagnostic {
    std::uint32_t offset = 0; // bytes from the start of the source
    std::uint32_t length = 0; // bytes to underline (at least 1 where the source has them)
    int line = 1;
    int column = 1;
    std::string message;

    // "2:7: undeclared reference to 'amout'"
    std::string format() const { return std::to_string(line) + ":" + std::to_string(column) + ": " + message; }
};

struct CompileError {
    std::vector<Diagnostic> diagnostics; // never empty

    // Every diagnostic, one per line.
    std::string message() const
    {
        std::string out;
        for (const auto& d : diagnostics) {
            if (!out.empty())
                out += '\n';
            out += d.format();
        }
        return out;
    }
};

} // namespace sb::cel
