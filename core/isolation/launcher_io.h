#pragma once

// sandbench-launcher's own descriptors: whole writes and reads on its pipes, the spec fd read a line at a
// time, the markers a pooled sandbox's program process sends, the record the container's pid 1 sends at the
// program's end, and the run's result on fd 4. Shared by the launcher's child side (launcher_child.h) and
// its supervisor side (launcher_supervisor.h).

#include "isolation/launch_spec.h"
// writeFully: the launcher's whole writes. Their result is not looked at: a pipe whose reader has gone has
// no one left to tell.
#include "util/fd_io.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace sb::launcher {

// Everything until EOF.
std::string readAll(int fd);

// The spec fd, a line at a time: the sandbox line at once, the job line then or (pooled) when a run comes.
class LineReader {
public:
    explicit LineReader(int fd) : m_fd(fd) {}
    int fd() const { return m_fd; }
    // Goes on reading from `fd` (what it read ahead stays).
    void adopt(int fd) { m_fd = fd; }
    // Reads lines of at most `bytes` without allocating any more memory: a pooled sandbox's program process
    // waits for its job under its seccomp filter, whose large mappings go to a launcher that does not answer
    // until the job has come (seccomp_filter.h, kSupervisedMappingBytes).
    void reserve(std::size_t bytes)
    {
        m_buffer.reserve(bytes);
        m_capacity = bytes;
    }
    // A line was longer than reserve() allows: next() gave nothing.
    bool overflowed() const { return m_overflowed; }
    // The next line without its newline; nothing at EOF (a last line without newline counts).
    std::optional<std::string> next();

private:
    int m_fd;
    std::string m_buffer;
    std::size_t m_capacity = 0;
    bool m_overflowed = false;
};

// Markers on the error channel, which never carries these bytes otherwise.
inline constexpr char kReadyMarker = '\0';   // a pooled sandbox is prepared and waits for its job
inline constexpr char kStartedMarker = '\1'; // its job came

// How the program ended, from the container's pid 1: its wait status, and the CPU time and peak memory of
// the run's processes as wait4 gave them when each was reaped (the program's own, with its reaped children),
// not pid 1's or its network helper's. Sent when every process of the run but pid 1 is gone.
struct ProgramEnd {
    int status = 0;
    std::int64_t cpuUs = 0;
    std::int64_t peakRssKb = 0;
    bool sigkilled = false; // a process of the run ended by SIGKILL (the OOM killer's, or pid 1's at the end)
};

// The result, newline-terminated: a complete line tells the Runner that the run is over without waiting
// for this process to end. The run's output pipes are closed first, so their EOF comes with it; what is
// left to this process (a cgroup to remove, its exit, a mount namespace to tear down) is off the caller's
// path.
void report(const LaunchResult& result);

// Reports a run whose setup failed with `message`, and exits.
[[noreturn]] void finishWithError(const std::string& message);

} // namespace sb::launcher
