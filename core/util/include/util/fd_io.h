#pragma once

// Writing a whole buffer to a file descriptor: the one loop over short writes and EINTR.

#include "util/errno_text.h"
#include "util/error.h"

#include <cerrno>
#include <string_view>
#include <unistd.h>

namespace sb {

// Writes all of `bytes` to `fd`, continuing short writes and retrying EINTR. Returns 0, or the errno of the
// write that failed (EIO for a write that wrote nothing). Allocates nothing, so a process that has just
// forked (the launcher's child) may call it.
inline int writeFully(int fd, std::string_view bytes) noexcept
{
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            return EIO;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

// writeFully with errno's text as the error.
inline Result<void> writeAll(int fd, std::string_view bytes)
{
    if (const int error = writeFully(fd, bytes); error != 0)
        return fail(errnoText(error));
    return {};
}

} // namespace sb
