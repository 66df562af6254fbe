#pragma once

// Sockets between Sandbench's own processes. Handing file descriptors to another process over a UNIX socket (SCM_RIGHTS): the seccomp notification
// fd from the program to the launcher, proxied connections from the network gate to the launcher, and a
// run's pipes from the Runner to the launcher zygote (zygote.h) with the launcher's pidfd back.

#include <span>
#include <string>
#include <string_view>

namespace sb {

// Writes all of `data` to a socket without ever raising SIGPIPE (MSG_NOSIGNAL); false when the peer is gone.
bool sendAll(int socket, std::string_view data);

// Sends `fd` with a one-byte message; false when the peer is gone.
bool sendFd(int socket, int fd);
// Receives a descriptor sent by sendFd (close-on-exec); -1 when the peer is gone or sent none.
int receiveFd(int socket);

// A descriptor sent by sendFds with the one-byte message `marker`, if that is what comes next on the stream
// socket (it waits for the first byte); -1, with nothing read, when something else comes or the peer is gone.
int receiveMarkedFd(int socket, char marker);

inline constexpr std::size_t kMaxPassedFds = 8;

// Sends a message (not empty) with up to kMaxPassedFds descriptors; false when the peer is gone.
bool sendFds(int socket, std::string_view message, std::span<const int> fds);
// Receives one such message into `message` and its descriptors (close-on-exec) into `fds`; returns how many
// descriptors came, or -1 when the peer is gone (EOF) or the message was not one of these.
int receiveFds(int socket, std::string& message, std::span<int> fds);

} // namespace sb
