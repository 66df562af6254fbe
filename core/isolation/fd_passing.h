#pragma once

// Handing a file descriptor to another process over a UNIX socket (SCM_RIGHTS): the seccomp notification
// fd from the program to the launcher, and proxied connections from the network gate to the launcher.

namespace sb {

// Sends `fd` with a one-byte message; false when the peer is gone.
bool sendFd(int socket, int fd);
// Receives a descriptor sent by sendFd (close-on-exec); -1 when the peer is gone or sent none.
int receiveFd(int socket);

} // namespace sb
