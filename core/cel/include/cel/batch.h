#pragma once

// A compiled program evaluated over a batch of records at once, column by column: each sub-expression is one
// tight loop over the batch's rows (those that need it: the right side of && only where the left is not
// false, ...) instead of one dispatch per record. Built from a Program when every instruction is in the typed
// subset below; otherwise build() returns nothing and the caller keeps the interpreter for that program.
//
// A row's result is true, false, or "ask the interpreter": whenever a sub-expression would be an error (a
// missing field, an integer overflow, a division by zero) or a value of another kind than the declared one,
// the row is deferred, and deferral flows up exactly as CEL's errors do: `&&` and `||` absorb it when the
// other side decides, everything else passes it on. The interpreter then evaluates the deferred rows, so
// their value and error message are its own. A row that is not deferred has the value the interpreter would
// give it (tests/rules/test_batch_eval.cpp checks this against the interpreter).
//
// The subset: fields of type bool, int, double, string and timestamp; constants; comparisons (==, !=, <,
// <=, >, >=) of operands of the same kind; `in` a constant list (of an int, double or string); &&, ||, !,
// the conditional; + - * / on ints and doubles; size, contains, startsWith, endsWith, matches (a constant
// pattern), lowerAscii, upperAscii, trim on strings; the timestamp accessors (getHours, getDayOfWeek, ...,
// with or without a time zone); % on ints; unary minus; double(int), int(double), int(timestamp). Not in
// it (the interpreter's): macros, maps, indexing, lists that are not constants, string concatenation,
// comparisons across kinds (an int with a double), uint and bytes, durations, fields of type dyn.
//
//   auto batch = sb::cel::BatchProgram::build(program, declarations); // empty: outside the subset
//   sb::cel::BatchScratch scratch;                                    // one per thread
//   std::uint8_t result[sb::cel::kBatchRows];
//   batch->eval(columnsBySlot, firstRow, rows, scratch, result);      // kBatchTrue, kBatchFalse, kBatchDefer

#include "cel/program.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace sb::cel {

inline constexpr std::size_t kBatchRows = 512;
// Ordered so that && is the minimum and || the maximum of two results.
inline constexpr std::uint8_t kBatchFalse = 0;
inline constexpr std::uint8_t kBatchDefer = 1; // evaluate this row with the interpreter
inline constexpr std::uint8_t kBatchTrue = 2;

// Per-thread scratch of batch evaluations: the sub-expressions' values, an evaluation context for the
// functions, and the regular expressions' results per distinct string (a batch scratch serves one dataset:
// the cache is keyed by where the strings are stored).
class BatchScratch {
public:
    BatchScratch();
    ~BatchScratch();
    BatchScratch(const BatchScratch&) = delete;
    BatchScratch& operator=(const BatchScratch&) = delete;

private:
    friend class BatchProgram;
    friend class BatchRun;
    struct MatchKey {
        const void* regex;
        const char* chars;
        std::size_t size;
        bool operator==(const MatchKey&) const = default;
    };
    struct MatchHash {
        std::size_t operator()(const MatchKey& k) const;
    };
    std::vector<Value> m_values;
    std::vector<std::uint8_t> m_bits;
    std::vector<std::uint16_t> m_rows; // selections of rows, two per node
    std::vector<const Value*> m_src;
    std::vector<const std::uint8_t*> m_srcBits;
    EvalContext m_ctx;
    std::unordered_map<MatchKey, bool, MatchHash> m_matches;
};

class BatchProgram {
public:
    // Empty when the program reads or computes something outside the subset (see above).
    static std::optional<BatchProgram> build(const Program& program, const Declarations& declarations);

    // Rows [first, first + rows) of the columns, rows <= kBatchRows. columns[slot]: the values of the
    // variable with that slot, by row (nullptr: a field the data does not have, every row deferred).
    // out[i]: the result of row first + i.
    void eval(std::span<const Value* const> columns, std::size_t first, std::size_t rows, BatchScratch& scratch,
              std::uint8_t* out) const;

    struct Plan;

private:
    friend class BatchRun;
    explicit BatchProgram(std::shared_ptr<const Plan> plan) : m_plan(std::move(plan)) {}
    std::shared_ptr<const Plan> m_plan;
};

} // namespace sb::cel
