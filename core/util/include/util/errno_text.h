#pragma once

// The text of an errno value, as the C library words it: one spelling for every module's error messages.

#include <string>
#include <system_error>

namespace sb {

inline std::string errnoText(int error)
{
    return std::generic_category().message(error);
}

} // namespace sb
