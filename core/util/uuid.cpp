#include "util/uuid.h"

#include "util/errno_text.h"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <sys/random.h>

namespace sb {

Result<std::string> randomUuid()
{
    std::array<unsigned char, 16> b{};
    std::size_t got = 0;
    while (got < b.size()) {
        const ssize_t n = ::getrandom(b.data() + got, b.size() - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail(fmt::format("cannot make a random id: getrandom: {}", n < 0 ? errnoText(errno) : "no bytes"));
        got += static_cast<std::size_t>(n);
    }
    b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40); // version 4
    b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80); // the RFC's variant
    return fmt::format("{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}"
                       "{:02x}",
                       b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                       b[15]);
}

bool isCanonicalUuid(std::string_view text)
{
    if (text.size() != 36)
        return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return true;
}

} // namespace sb
