#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace sb {

// Every run ends in exactly one outcome. The names are a contract (CLI JSON, store, UI).
enum class Outcome {
    Ok,
    Error,         // non-zero exit, exception, syntax error
    Blocked,       // the policy refused something: import, syscall, path, host
    Timeout,       // wall-clock or CPU time limit
    MemoryLimit,   // the memory limit was hit
    Crashed,       // killed by a signal of its own
    InternalError, // the engine itself failed; the run was refused (fail closed)
};

inline constexpr std::array kAllOutcomes = {Outcome::Ok,          Outcome::Error,   Outcome::Blocked,
                                            Outcome::Timeout,     Outcome::MemoryLimit, Outcome::Crashed,
                                            Outcome::InternalError};

std::string_view toString(Outcome outcome);
std::optional<Outcome> outcomeFromString(std::string_view name);

// The documented exit status of `sandbench run`/`demo` for each outcome (2 is reserved for usage errors).
int exitStatusFor(Outcome outcome);

} // namespace sb
