#pragma once

#include "util/error.h"

#include <string>
#include <string_view>

namespace sb {

// A random UUID (RFC 9562 version 4) in its canonical text: 36 lower-case characters, "8-4-4-4-12" hex digits.
// Its 122 random bits come from the kernel (getrandom); when it cannot give them, an error says so, rather
// than an id that could repeat.
Result<std::string> randomUuid();

// Whether `text` is a UUID in canonical text, lower case (as randomUuid writes one).
bool isCanonicalUuid(std::string_view text);

} // namespace sb
