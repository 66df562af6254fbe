#pragma once

// Inside a Program: the instruction array the evaluator walks. Private to core/cel.

#include "checker.h"
#include "functions.h"
#include "cel/program.h"

#include <re2/re2.h>

namespace sb::cel {

enum class Op : std::uint8_t {
    Const,        // a: constant
    Slot,         // a: slot of a declared variable
    Local,        // a: local slot of an iteration variable
    Unbound,      // a: constant (the error to return): a name nothing declares, in unchecked mode
    Select,       // a: operand, b: constant (the field name, a string)
    Has,          // a: operand, b: constant (the field name)
    And,          // a, b (commutative error semantics)
    Or,           // a, b
    Not,          // a
    Cond,         // a ? b : c
    Call1,        // fn(a)
    Call2,        // fn(a, b)
    CallN,        // fn(operands[a .. a+n))
    List,         // operands[a .. a+n)
    Map,          // operands[a .. a+2n): key, value, ...
    Loop,         // a: loop descriptor
    MatchesConst, // a: string operand, b: regex index
    // Binary operators with the common cases (int, double, string operands) inline; anything else goes
    // through callFunction(fn, ...), so they are right whatever the operands turn out to be.
    Add,
    Sub,
    Mul,
    Div,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Index,
    // A comparison of anything with a constant, `x OP constant` (a constant on the left is mirrored: 5 < x
    // is x > 5). a and b stay the original operands (n: 1 when the constant is a, else 0) and fn the
    // original function, so the generic path and traces see the expression as written.
    EqC,
    NeC,
    LtC,
    LeC,
    GtC,
    GeC,
};

// How an instruction reads an operand: by evaluating the operand's instruction, or, when that instruction
// is a constant or a record field, by reading it directly (no dispatch: most rule conditions compare a field
// with a constant, and this makes such a comparison one step instead of three).
enum class Operand : std::uint8_t { Eval, Const, Slot };

class Evaluator;
struct Instr;
// What evaluates an instruction (not traced): chosen per instruction when the program is built, so that the
// common shapes (a field compared with a constant of a known kind, && and ||) run a small function of their
// own instead of the general switch.
using Handler = Value (*)(Evaluator&, const Instr&);
// The general one: the evaluator's switch over every instruction.
Value stepHandler(Evaluator& ev, const Instr& in);

struct Instr {
    Handler handler = &stepHandler;
    Op op = Op::Const;
    Fn fn = Fn::Unknown;
    Operand ma = Operand::Eval; // how to read a
    Operand mb = Operand::Eval; // how to read b
    std::uint16_t n = 0;
    std::uint32_t a = 0, b = 0, c = 0;
    std::int32_t node = -1; // AST node: positions of errors, trace entries
    Value k;                // the constant of the *C comparisons, in place
};

struct LoopDesc {
    Macro macro = Macro::None;
    bool twoVars = false;
    std::uint32_t range = 0;
    std::uint32_t local = 0;
    std::int32_t filter = -1; // instruction, or -1
    std::uint32_t body = 0;   // instruction: predicate or transform
};

struct Program::Impl {
    std::uint64_t id = 0; // unique per compiled program in this process (keys per-context regex copies)
    Ast ast;
    Type resultType;
    std::vector<Instr> code;
    std::uint32_t root = 0;
    std::vector<std::uint32_t> operands;
    std::vector<LoopDesc> loops;
    std::vector<Value> constants;
    std::vector<std::unique_ptr<RE2>> regexes;
    std::vector<int> slots;
    int localCount = 0;
    Arena arena{1024}; // constants' storage: most conditions have a few
};

// Gives every instruction of a finished program its handler (see Handler).
void assignHandlers(Program::Impl& p);

// Calls a standard function on evaluated arguments (none of them an error: the caller returns errors first).
Value callFunction(Fn fn, std::span<const Value> args, Arena& arena, std::int32_t node, EvalContext* ctx);
// The regular expression cache of a context (for patterns that are not constants).
const RE2* contextRegex(EvalContext& ctx, std::string_view pattern);
// The context's own copy of a program's constant pattern. RE2 objects are thread-safe, but every match
// takes a lock inside the shared object: threads evaluating one program would contend on it.
const RE2* contextRegexCopy(EvalContext& ctx, std::uint64_t programId, std::uint32_t index, const RE2& shared);

} // namespace sb::cel
