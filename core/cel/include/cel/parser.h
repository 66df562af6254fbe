#pragma once

#include "cel/ast.h"
#include "cel/diagnostic.h"

#include <expected>
#include <string_view>

namespace sb::cel {

struct ParseLimits {
    // Expressions are rules people write, not data: 100 KB is far beyond any real one.
    std::size_t maxSourceBytes = 100 * 1024;
    // How deeply sub-expressions may nest (parentheses, calls, operands of a chain of '+'). Bounding it
    // bounds the recursion of the parser, the checker and the evaluator, so no input overflows the stack.
    // Chains of && and || are balanced, so thousands of conditions stay shallow.
    int maxDepth = 250;
};

std::expected<Ast, CompileError> parse(std::string_view source, const ParseLimits& limits = {});

} // namespace sb::cel
