#pragma once

// The one way Sandbench reads a file a person names (a snippet, a policy, a rule set, a data file, …): a
// path that is not a regular file — a FIFO, a device, a folder, a socket — is refused, named for what it is,
// before a byte is read (a FIFO without a writer would block for ever, /dev/zero never ends); a file larger
// than the cap of its kind is refused, naming the cap. Opened with O_NONBLOCK so that even a path swapped for
// a FIFO after the check cannot block the open; checked again with fstat on the opened descriptor.

#include "util/error.h"
#include "util/unique_fd.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace sb {

// What a file is read as: its name in messages and the most bytes a file of that kind may hold.
struct InputKind {
    std::string_view what; // "rule set": messages say "the rule set is larger than 4 MiB"
    std::uint64_t maxBytes;
};

// Every kind of file Sandbench reads, with its cap (README, "Files Sandbench reads").
namespace input {
inline constexpr InputKind kSnippet{"snippet", 1ULL << 20};
inline constexpr InputKind kPolicy{"policy file", 1ULL << 20};
inline constexpr InputKind kSeccompProfile{"seccomp profile", 4ULL << 20};
inline constexpr InputKind kRuleSet{"rule set", 4ULL << 20};
inline constexpr InputKind kRecord{"record file", 1ULL << 20};
inline constexpr InputKind kRiskConfig{"risk configuration", 1ULL << 20};
inline constexpr InputKind kClusterConfig{"configuration", 1ULL << 20};
inline constexpr InputKind kTimeZone{"time zone file", 1ULL << 20};
// A key or witness file is a few hundred bytes (store/audit_key.h).
inline constexpr InputKind kAuditKey{"audit key", 64ULL << 10};
inline constexpr InputKind kAuditWitness{"audit witness", 64ULL << 10};
// Datasets of hundreds of megabytes and more are what backtests run on: read in blocks, never whole; the cap
// is the largest snapshot the store takes.
inline constexpr InputKind kDataFile{"data file", 16ULL << 30};
} // namespace input

// What a file that is not a regular one is, as messages name it: "a folder", "a FIFO", "a socket", "a character
// device", "a block device", else "a special file".
std::string_view fileKindName(mode_t mode);

// A cap as messages give it: "4 MiB", "16 GiB", "1500 bytes".
std::string capText(std::uint64_t bytes);

// An opened input file, checked to be a regular file within its kind's cap. For readers that read in
// blocks (datasets); readInputFile() reads a small one whole.
class InputFile {
public:
    static Result<InputFile> open(const std::filesystem::path& path, const InputKind& kind);

    int fd() const { return m_fd.get(); }
    std::uint64_t size() const { return m_size; } // at open; a file may grow while read (see read())
    const std::string& name() const { return m_name; }
    const InputKind& kind() const { return m_kind; }

    // Up to `size` bytes into `buffer`; 0 at the end. An error once more than the kind's cap has been read
    // (a file that grows while it is read) or when the read fails.
    Result<std::size_t> read(char* buffer, std::size_t size);
    // Back to the first byte, for a second pass.
    Result<void> rewind();

private:
    InputFile(UniqueFd fd, std::uint64_t size, std::string name, const InputKind& kind)
        : m_fd(std::move(fd)), m_size(size), m_name(std::move(name)), m_kind(kind)
    {
    }

    UniqueFd m_fd;
    std::uint64_t m_size = 0;
    std::uint64_t m_read = 0;
    std::string m_name;
    InputKind m_kind;
};

// The whole file, bounded by its kind's cap.
Result<std::string> readInputFile(const std::filesystem::path& path, const InputKind& kind);

// The whole file as text: as readInputFile, and a NUL byte is refused as binary content, naming its line.
Result<std::string> readInputText(const std::filesystem::path& path, const InputKind& kind);

// Standard input ("-" on a command line) as text, at most the kind's cap: what lies beyond is never read, so
// an endless stdin ends in an error, not in exhausted memory. Messages name it "stdin".
Result<std::string> readStdinText(const InputKind& kind);

} // namespace sb
