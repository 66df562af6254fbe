#pragma once

#include "util/error.h"
#include "checkpoints/blob_store.h"
#include "checkpoints/tree.h"

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace sb {

// Reads directory listings by hash, from listings not stored yet (a walk of a live folder) or else from the
// store, and keeps what it parsed: a diff or restore reads each listing once.
class TreeReader {
public:
    using Listings = std::unordered_map<ContentHash, std::string, ContentHashHasher>;

    explicit TreeReader(BlobStore& blobs) : m_blobs(blobs) {}
    // Listings to look in before the store; must outlive this reader.
    void addUnstored(const Listings* listings) { m_unstored.push_back(listings); }

    Result<const Tree*> read(const ContentHash& hash);
    BlobStore& blobs() { return m_blobs; }

    // The entry at a '/'-separated path below the tree `root`; nullopt when there is none. "" is the root
    // itself, as a directory entry.
    Result<std::optional<TreeEntry>> find(const ContentHash& root, std::string_view path);

    // Calls `visit` for every entry below `root`, parents before children, in path order. Returning false
    // from `visit` for a directory skips what is below it.
    using Visitor = std::function<Result<bool>(const std::string& path, const TreeEntry& entry)>;
    Result<void> walk(const ContentHash& root, const Visitor& visit, const std::string& prefix = {});

private:
    BlobStore& m_blobs;
    std::vector<const Listings*> m_unstored;
    std::unordered_map<ContentHash, Tree, ContentHashHasher> m_parsed;
};

} // namespace sb
