#pragma once

// The run helper's wire, shared by its two sides (helper_client.cpp, run_helper.cpp): frames of a 4-byte
// little-endian length, a kind byte and a payload; the checks of the process at the other end.

#include "usecases/helper_client.h"
#include "util/error.h"
#include "util/unique_fd.h"

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <sys/types.h>
#include <vector>

namespace sb::helper::wire {

using Clock = std::chrono::steady_clock;

// Frame kinds.
inline constexpr char kHello = 'H';
inline constexpr char kRequest = 'Q';
inline constexpr char kCommandLine = 'C'; // a command line, with the command's working folder as a descriptor
inline constexpr char kAccepted = 'A';
inline constexpr char kDeclined = 'D';
inline constexpr char kOut = 'O';
inline constexpr char kErr = 'E';
inline constexpr char kStatus = 'X';
inline constexpr std::uint32_t kMaxFrame = 64u << 20;
inline constexpr std::string_view kSocketName = "helper.sock";

struct Frame {
    char kind = 0;
    std::string payload;
};

// `passFd`, when there is one, goes with the frame's first bytes (SCM_RIGHTS).
Result<void> writeFrame(int fd, char kind, std::string_view payload, int passFd = -1);
// Output of any size, in frames of at most 16 MiB (the reader appends them).
bool writeChunks(int fd, char kind, std::string_view bytes);
// Reads exactly `size` bytes; by `deadline` when it has one. Errors: "ended" at end of file, "timed out".
Result<void> readExactly(int fd, char* into, std::size_t size, std::optional<Clock::time_point> deadline);
Result<Frame> readFrame(int fd, std::optional<Clock::time_point> deadline = std::nullopt);
// A frame whose first bytes may come with ancillary data (the writer's credentials, a descriptor): `onControl`
// sees each control message that came. By `deadline`; errors as readFrame's.
Result<Frame> readFrameWithControl(int fd, Clock::time_point deadline, std::uint32_t maxSize,
                                   const std::function<void(const cmsghdr&)>& onControl);
// The descriptors a control message passed (none unless it is SCM_RIGHTS), owned.
std::vector<UniqueFd> descriptorsOf(const cmsghdr& c);
// The first frame of a connection, and the one descriptor that came with its first bytes, if any: more than one
// are all closed.
Result<Frame> readFirstFrame(int fd, Clock::time_point deadline, UniqueFd& passed);

// A file as the checks see it (an executable, a namespace).
struct FileId {
    dev_t dev = 0;
    ino_t ino = 0;
    bool operator==(const FileId&) const = default;
};
std::optional<FileId> fileId(const std::string& path);

// Why the process `pid` (of `uid`) is not one to trust with this side's work, or nullopt when it is: it must run
// one of `programs`, in this process's mount and user namespaces and root. `mustBeUnconfined`: a process with
// no_new_privs or a seccomp filter is refused.
std::optional<std::string> whyNotTrusted(pid_t pid, uid_t uid, bool mustBeUnconfined,
                                         const std::vector<FileId>& programs);

nlohmann::json environmentToJson(const Environment& environment);
Result<Environment> environmentFromJson(const nlohmann::json& in);

} // namespace sb::helper::wire
