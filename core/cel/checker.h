#pragma once

// The type checker: resolves every name (declared variables, including dotted names by their longest
// declared prefix; iteration variables of macros; type names such as int or google.protobuf.Timestamp),
// picks the overloads each call can use and gives every node a static type. In strict mode a call no
// overload accepts, an undeclared name or a field selected on a non-map is a compile error with its
// line:column; in lenient mode (CEL's "unchecked" evaluation) they become errors at run time instead.

#include "cel/ast.h"
#include "cel/diagnostic.h"
#include "functions.h"
#include "cel/types.h"

#include <expected>
#include <vector>

namespace sb::cel {

struct Reference {
    enum class Kind : std::uint8_t { None, Variable, IterVar, TypeName, Unbound };
    Kind kind = Kind::None;
    int index = 0;    // Variable: slot; IterVar: local slot; TypeName: the sb::cel::Kind it denotes
    std::string name; // Variable, Unbound: the (dotted) name
};

struct CheckedAst {
    std::vector<Type> types;     // per node
    std::vector<Reference> refs; // per node: Ident, or a Select chain read as one dotted name
    std::vector<Fn> functions;   // per node: Call
    std::vector<int> iterSlots;  // per node: Comprehension: the local slot of its first variable
    int localCount = 0;          // local slots the comprehensions need at most at once
    Type resultType;
};

std::expected<CheckedAst, CompileError> check(const Ast& ast, const Declarations& decls, bool strict);

} // namespace sb::cel
