#pragma once

// The parsed form of a CEL expression: a flat array of nodes (children by index), each with its source
// span, so errors, traces and editors can point at any sub-expression. Operators are calls with CEL's
// internal names ("_+_", "_&&_", "@in", "_[_]", "_?_:_"); the macros (has, all, exists, exists_one, map,
// filter and the two-variable forms) are expanded by the parser into Select (has) and Comprehension nodes.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sb::cel {

enum class NodeKind : std::uint8_t { Literal, Ident, Select, Call, List, Map, Comprehension };

enum class LiteralKind : std::uint8_t { Null, Bool, Int, Uint, Double, String, Bytes };

struct Literal {
    LiteralKind kind = LiteralKind::Null;
    bool boolValue = false;
    std::int64_t intValue = 0;
    std::uint64_t uintValue = 0;
    double doubleValue = 0;
    std::string text; // String (UTF-8) and Bytes
};

enum class Macro : std::uint8_t {
    None,
    All,           // r.all(x, p)         r.all(i, v, p)
    Exists,        // r.exists(x, p)      r.exists(i, v, p)
    ExistsOne,     // r.exists_one(x, p)  r.existsOne(i, v, p)
    Map,           // r.map(x, t)
    MapFilter,     // r.map(x, f, t)
    Filter,        // r.filter(x, p)
    TransformList, // r.transformList(i, v, t)  r.transformList(i, v, f, t)
    TransformMap,  // r.transformMap(k, v, t)   r.transformMap(k, v, f, t)
};

struct Node {
    NodeKind kind = NodeKind::Literal;
    std::uint32_t begin = 0; // source span [begin, end) in bytes
    std::uint32_t end = 0;
    std::uint32_t pos = 0; // where a message about this node points (an operator, a '.', a name)
    std::uint16_t height = 1;
    bool testOnly = false; // Select made by has()
    Macro macro = Macro::None;
    Literal literal;
    std::string name;               // Ident and Select: the name; Call: the function
    std::int32_t target = -1;       // Select: operand; Call: receiver (-1 for global calls); Comprehension: range
    std::vector<std::int32_t> args; // Call: arguments; List: elements; Map: key, value, key, value, ...
                                    // Comprehension: [predicate or transform] or [filter, transform]
    std::string var;                // Comprehension: the (first) iteration variable
    std::string var2;               // Comprehension: the second variable of the two-variable forms, else empty
};

struct Ast {
    std::string source;
    std::vector<Node> nodes;
    std::int32_t root = -1;

    const Node& node(std::int32_t i) const { return nodes[static_cast<std::size_t>(i)]; }
    std::string_view text(std::int32_t i) const
    {
        const Node& n = node(i);
        return std::string_view(source).substr(n.begin, n.end - n.begin);
    }
};

} // namespace sb::cel
