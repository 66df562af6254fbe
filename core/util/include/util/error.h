#pragma once

#include <expected>
#include <string>
#include <utility>

namespace sb {

// An error is a value: a message a person can act on. The data layer never shows dialogs or exits.
struct Error {
    std::string message;
};

template <typename T>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(std::string message)
{
    return std::unexpected<Error>(Error{std::move(message)});
}

} // namespace sb
