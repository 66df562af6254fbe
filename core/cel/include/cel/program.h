#pragma once

// A compiled CEL expression. compile() parses, checks against the declared fields and lowers the tree into
// a flat array of instructions with constants folded and every name resolved: a record field to its slot
// in the Activation, an iteration variable to a local slot. A Program is immutable and cheap to copy;
// any number of threads may evaluate it at once, each with its own EvalContext.
//
//   sb::cel::Declarations decls;
//   decls.add("amount", sb::cel::Type::real());
//   auto program = sb::cel::compile("amount > 1000.0", decls);     // errors carry line:column
//   sb::cel::EvalContext ctx;                                        // one per thread, reused per record
//   sb::cel::Value slots[] = {sb::cel::Value::real(1500)};
//   sb::cel::Value v = program->eval(sb::cel::Activation{slots}, ctx); // true; valid until ctx's next eval

#include "cel/ast.h"
#include "cel/diagnostic.h"
#include "cel/lexer.h"
#include "cel/parser.h"
#include "cel/types.h"
#include "cel/value.h"

#include <expected>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace sb::cel {

// The values of the declared variables, by slot (Variable::slot). Strings may view the record's storage.
struct Activation {
    std::span<const Value> values;
};

// What one evaluation may spend. Conditions cannot loop forever, but macros nest: [..].map(a, [..].map(b,
// ...)) multiplies, so an expression can ask for more work or memory than any record is worth. Past
// either limit the evaluation is an error, checked at every macro iteration.
struct EvalLimits {
    std::int64_t maxIterations = 10'000'000; // macro iterations (all, exists, map, filter, ...), nested ones too
    std::size_t maxBytes = 64u << 20;        // values created by the evaluation (the context's arena)
};

// Per-thread scratch of evaluations: the arena that holds the values an evaluation creates, the
// iteration variables, compiled regular expressions that were not constants. Reset by every eval().
class EvalContext {
public:
    explicit EvalContext(const EvalLimits& limits);
    EvalContext();
    ~EvalContext();
    EvalContext(const EvalContext&) = delete;
    EvalContext& operator=(const EvalContext&) = delete;

    Arena& arena() { return m_arena; }
    const EvalLimits& limits() const { return m_limits; }

private:
    friend class Evaluator;
    friend class Program;
    friend const re2::RE2* contextRegex(EvalContext& ctx, std::string_view pattern);
    friend const re2::RE2* contextRegexCopy(EvalContext& ctx, std::uint64_t programId, std::uint32_t index,
                                            const re2::RE2& shared);
    struct RegexCache;
    EvalLimits m_limits;
    std::int64_t m_iterationsLeft = 0;
    Arena m_arena;
    std::vector<Value> m_locals;
    std::unique_ptr<RegexCache> m_regexes;
};

// One evaluated sub-expression, for explanations: the node, its source text span and its value.
struct TraceStep {
    std::int32_t node = -1;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    Value value;
};
struct Trace {
    std::vector<TraceStep> steps; // in the order evaluated; a node inside a macro appears once per iteration
    bool truncated = false;       // more than kMaxSteps were evaluated; the first ones are kept
    static constexpr std::size_t kMaxSteps = 1'000'000;
};

struct CompileOptions {
    // false: CEL's unchecked mode. Names and calls nothing declares, and calls no overload accepts, compile
    // and fail when evaluated, as the conformance suite's "disableCheck" cases expect.
    bool check = true;
    ParseLimits limits;
};

class BatchProgram;

class Program {
public:
    // The result lives in ctx's arena (or the program's constants, or the activation's storage): valid
    // until the next evaluation with ctx. Errors are values (Kind::Error); errorMessage() places them.
    Value eval(const Activation& activation, EvalContext& ctx) const;
    // The same, recording every sub-expression's value (slower: for explaining one record at a time).
    Value evalTraced(const Activation& activation, EvalContext& ctx, Trace& trace) const;

    const Type& resultType() const;
    const Ast& ast() const;
    std::string_view source() const { return ast().source; }
    // The slots of the declared variables the expression reads.
    std::span<const int> referencedSlots() const;
    // "1:7: division by zero" for an error value this program produced (positions of its source).
    std::string errorMessage(const Value& error) const;
    // Instructions after folding: how much work one evaluation is (for benchmarks and tests).
    std::size_t instructionCount() const;
    // The value when it does not depend on the record at all (folded at compile time): a rule whose
    // condition is constantly false can never fire. Lives as long as the program.
    std::optional<Value> constant() const;

    struct Impl;

private:
    friend class BatchProgram;
    friend std::expected<Program, CompileError> compile(std::string_view, const Declarations&, const CompileOptions&);
    explicit Program(std::shared_ptr<const Impl> impl) : m_impl(std::move(impl)) {}
    std::shared_ptr<const Impl> m_impl;
};

std::expected<Program, CompileError> compile(std::string_view source, const Declarations& declarations,
                                             const CompileOptions& options = {});

} // namespace sb::cel
