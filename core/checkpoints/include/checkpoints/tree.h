#pragma once

#include "util/error.h"
#include "util/hash.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

// The SHA-256 of a stored piece's uncompressed bytes: its address in the blobs table.
using ContentHash = Sha256::Digest;

std::string hashHex(const ContentHash& hash);
// Parses 64 hex digits (either case); nullopt-like error otherwise.
Result<ContentHash> hashFromHex(std::string_view hex);

enum class EntryType : std::uint8_t { File = 1, Symlink = 2, Directory = 3 };

// How a file's bytes are kept. Tiny files live in their directory's listing (a blob row would be larger than
// they are); files up to kWholeMax are one blob; larger ones are cut into content-defined chunks (chunker.h)
// and their blob is the list of those chunks.
enum class Storage : std::uint8_t { Inline = 0, Whole = 1, Chunked = 2 };

inline constexpr std::uint64_t kInlineMax = 32;
inline constexpr std::uint64_t kWholeMax = 128 * 1024;

std::string_view toString(EntryType type);

// A path in a tree, relative to its root: `name` inside the folder `prefix` ("" is the root).
inline std::string treePath(const std::string& prefix, std::string_view name)
{
    std::string path = prefix;
    if (!path.empty())
        path += '/';
    path += name;
    return path;
}

// One name in a directory listing. Only what makes the content is kept: type, permission bits and bytes.
// Owners and times are not (a restore writes files as the restoring user, with the current time), and
// set-id and sticky bits are dropped so that a restore never creates a set-uid file from untrusted content.
struct TreeEntry {
    std::string name;
    EntryType type = EntryType::File;
    std::uint32_t mode = 0;   // permission bits, at most 0777
    std::uint64_t size = 0;   // file: its bytes; symlink: the target's length; directory: bytes of all files below
    Storage storage = Storage::Inline; // files only
    ContentHash hash{};       // file (Whole, Chunked): its blob; directory: its listing's blob
    std::string data;         // file (Inline): its bytes; symlink: its target, never followed
    std::uint64_t files = 0;  // directory: files and symlinks below

    // Same type, mode and content (for a directory: the same listing).
    bool sameAs(const TreeEntry& other) const;
    // Same content, whatever the mode.
    bool sameContent(const TreeEntry& other) const;
};

// A file, symlink or directory of a tree, by its '/'-separated path (promotion, the checkpoint browser).
struct PathEntry {
    std::string path;
    TreeEntry entry;
};

// A directory listing, sorted by name (bytewise), names unique.
struct Tree {
    std::vector<TreeEntry> entries;
};

// The stored form: "SBT1", a count, then each entry (type, mode, name, size and its content or reference),
// integers as LEB128 varints. The listing's hash is the SHA-256 of these bytes.
std::string serializeTree(const Tree& tree);
// Refuses anything serializeTree cannot have written: unknown types, names that are empty, "." or "..", or
// hold '/' or NUL, names out of order or repeated, modes above 0777, lengths past the end. A tree read from
// a damaged or edited store never makes a restore write outside the workspace.
Result<Tree> parseTree(std::string_view bytes);

// The empty directory's listing.
const std::string& emptyTreeBytes();
const ContentHash& emptyTreeHash();

// Checks a single path component as stored in a tree.
bool isValidName(std::string_view name);

} // namespace sb

namespace sb {

// For unordered containers keyed by a hash: its first bytes are already uniformly spread.
struct ContentHashHasher {
    std::size_t operator()(const ContentHash& hash) const noexcept
    {
        std::size_t value = 0;
        for (std::size_t i = 0; i < sizeof value; ++i)
            value = (value << 8) | hash[i];
        return value;
    }
};

} // namespace sb
