#include "isolation/outcome.h"

namespace sb {

std::string_view toString(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Ok: return "ok";
    case Outcome::Error: return "error";
    case Outcome::Blocked: return "blocked";
    case Outcome::Timeout: return "timeout";
    case Outcome::MemoryLimit: return "memory_limit";
    case Outcome::Crashed: return "crashed";
    case Outcome::InternalError: return "internal_error";
    }
    return "internal_error";
}

std::optional<Outcome> outcomeFromString(std::string_view name)
{
    for (Outcome o : kAllOutcomes) {
        if (toString(o) == name)
            return o;
    }
    return std::nullopt;
}

int exitStatusFor(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Ok: return 0;
    case Outcome::Error: return 10;
    case Outcome::Blocked: return 11;
    case Outcome::Timeout: return 12;
    case Outcome::MemoryLimit: return 13;
    case Outcome::Crashed: return 14;
    case Outcome::InternalError: return 15;
    }
    return 15;
}

} // namespace sb
