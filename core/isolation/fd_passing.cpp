#include "fd_passing.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <sys/socket.h>
#include <unistd.h>

namespace sb {

bool sendAll(int socket, std::string_view data)
{
    while (!data.empty()) {
        const ssize_t n = ::send(socket, data.data(), data.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool sendFd(int socket, int fd)
{
    return sendFds(socket, "f", std::span<const int>(&fd, 1));
}

int receiveFd(int socket)
{
    std::string message;
    int fd = -1;
    return receiveFds(socket, message, std::span<int>(&fd, 1)) == 1 ? fd : -1;
}

bool sendFds(int socket, std::string_view message, std::span<const int> fds)
{
    if (message.empty() || fds.size() > kMaxPassedFds)
        return false;
    iovec iov{const_cast<char*>(message.data()), message.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxPassedFds)]{};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (!fds.empty()) {
        msg.msg_control = control;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
        cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
        std::memcpy(CMSG_DATA(cmsg), fds.data(), sizeof(int) * fds.size());
    }
    for (;;) {
        const ssize_t n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        return n == static_cast<ssize_t>(message.size());
    }
}

namespace {

// As receiveFds, reading at most `maxBytes` of the stream.
int receiveFdsInto(int socket, std::string& message, std::span<int> fds, std::size_t maxBytes)
{
    char buf[8192]; // the largest message: the zygote request with a run folder (PATH_MAX)
    iovec iov{buf, std::min(maxBytes, sizeof buf)};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxPassedFds)]{};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n = -1;
    do {
        n = ::recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n <= 0)
        return -1;
    message.assign(buf, static_cast<std::size_t>(n));
    std::size_t count = 0;
    for (cmsghdr* cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
        if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS)
            continue;
        const std::size_t got = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < got; ++i) {
            int fd = -1;
            std::memcpy(&fd, CMSG_DATA(cmsg) + i * sizeof(int), sizeof(int));
            if (count < fds.size())
                fds[count++] = fd;
            else
                ::close(fd); // more than the caller takes: never leak one
        }
    }
    if ((msg.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) != 0) {
        for (std::size_t i = 0; i < count; ++i)
            ::close(fds[i]);
        return -1;
    }
    return static_cast<int>(count);
}

} // namespace

int receiveFds(int socket, std::string& message, std::span<int> fds)
{
    return receiveFdsInto(socket, message, fds, std::numeric_limits<std::size_t>::max());
}

int receiveMarkedFd(int socket, char marker)
{
    char first = 0;
    ssize_t n = -1;
    do {
        n = ::recv(socket, &first, 1, MSG_PEEK);
    } while (n < 0 && errno == EINTR);
    if (n != 1 || first != marker)
        return -1;
    // Exactly the marker's byte: what follows on the stream stays for its next reader.
    std::string message;
    int fd = -1;
    return receiveFdsInto(socket, message, std::span<int>(&fd, 1), 1) == 1 ? fd : -1;
}

} // namespace sb
