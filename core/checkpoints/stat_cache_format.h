#pragma once

// The stat cache's row format: one directory's stats packed into bytes (DirectoryStat), read in place
// by a walk without copying and written entry by entry in name order.

#include "checkpoints/scan.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace sb::statcache {

// Packed stat rows use fixed-width fields in the machine's byte order: read and written with memcpy, they
// cost a walk next to nothing per file. (A store moved to a machine of the other byte order reads its files
// once: the stats no longer match.)
constexpr std::string_view kStatMagic = "SBS3";

template <typename T> void putFixed(std::string& out, T value)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

inline void putStatFixed(std::string& out, const FileStat& stat)
{
    putFixed(out, stat.inode);
    putFixed(out, stat.size);
    putFixed(out, stat.mtimeNs);
    putFixed(out, stat.ctimeNs);
    putFixed(out, stat.mode);
}

class FixedReader {
public:
    explicit FixedReader(std::string_view bytes) : m_bytes(bytes) {}
    template <typename T> bool get(T& value)
    {
        if (m_bytes.size() - m_pos < sizeof(T))
            return false;
        std::memcpy(&value, m_bytes.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return true;
    }
    bool stat(FileStat& out)
    {
        return get(out.inode) && get(out.size) && get(out.mtimeNs) && get(out.ctimeNs) && get(out.mode);
    }
    bool view(std::size_t length, std::string_view& out)
    {
        if (m_bytes.size() - m_pos < length)
            return false;
        out = m_bytes.substr(m_pos, length);
        m_pos += length;
        return true;
    }
    bool done() const { return m_pos == m_bytes.size(); }

private:
    std::string_view m_bytes;
    std::size_t m_pos = 0;
};

// One entry of a packed directory, pointing into the packed bytes.
struct StatView {
    std::string_view name;
    StatEntry::Kind kind = StatEntry::Kind::File;
    FileStat stat;
    bool trusted = false;
    Storage storage = Storage::Inline;
    std::string_view content;
};

// Reads a packed DirectoryStat front to back without copying: a walk merges it with the sorted names it
// stats, so it never needs more than the next entry.
class PackedReader {
public:
    explicit PackedReader(std::string_view bytes) : m_in(bytes.substr(std::min(bytes.size(), kStatMagic.size())))
    {
        std::uint8_t flag = 0;
        std::uint8_t hasListing = 0;
        m_valid = bytes.starts_with(kStatMagic) && m_in.stat(self) && m_in.get(flag) && m_in.get(hasListing);
        if (m_valid && hasListing) {
            DirectoryStat::Listing read;
            std::string_view hash;
            m_valid = m_in.view(read.hash.size(), hash) && m_in.get(read.files) && m_in.get(read.bytes)
                      && m_in.get(read.entries);
            if (m_valid) {
                std::copy(hash.begin(), hash.end(), read.hash.begin());
                listing = read;
            }
        }
        std::uint32_t entries = 0;
        m_valid = m_valid && m_in.get(entries) && entries <= bytes.size();
        count = entries;
        trusted = flag != 0;
    }

    bool valid() const { return m_valid; }
    // Every entry was read and nothing is left over.
    bool complete() const { return m_valid && m_read == count && m_in.done(); }

    bool next(StatView& out)
    {
        if (!m_valid || m_read == count)
            return false;
        std::uint16_t length = 0;
        std::uint8_t kind = 0;
        if (!m_in.get(length) || !m_in.view(length, out.name) || !m_in.get(kind) || kind < 1 || kind > 4
            || !isValidName(out.name) || (m_read > 0 && !(m_last < out.name)))
            return invalid();
        out.kind = static_cast<StatEntry::Kind>(kind);
        out.trusted = false;
        out.content = {};
        if (out.kind == StatEntry::Kind::File) {
            std::uint8_t flag = 0;
            std::uint8_t storage = 0;
            std::uint8_t contentLength = 0;
            if (!m_in.stat(out.stat) || !m_in.get(flag) || !m_in.get(storage) || storage > 2 || !m_in.get(contentLength)
                || !m_in.view(contentLength, out.content))
                return invalid();
            out.trusted = flag != 0;
            out.storage = static_cast<Storage>(storage);
            if (out.trusted && out.storage != Storage::Inline && out.content.size() != sizeof(ContentHash))
                return invalid();
        }
        m_last = out.name;
        ++m_read;
        return true;
    }

    FileStat self;
    bool trusted = false;
    std::optional<DirectoryStat::Listing> listing;
    std::uint64_t count = 0;

private:
    bool invalid()
    {
        m_valid = false;
        return false;
    }

    FixedReader m_in;
    bool m_valid = false;
    std::uint64_t m_read = 0;
    std::string_view m_last;
};

// Packs a DirectoryStat entry by entry, in name order.
class PackedWriter {
public:
    PackedWriter() { m_body.reserve(2048); }
    void name(std::string_view entryName, StatEntry::Kind kind)
    {
        putFixed(m_body, static_cast<std::uint16_t>(entryName.size()));
        m_body += entryName;
        m_body.push_back(static_cast<char>(kind));
        ++m_count;
    }
    void file(std::string_view entryName, const FileStat& stat, bool trusted, Storage storage, std::string_view content)
    {
        name(entryName, StatEntry::Kind::File);
        putStatFixed(m_body, stat);
        m_body.push_back(trusted ? 1 : 0);
        m_body.push_back(static_cast<char>(storage));
        m_body.push_back(static_cast<char>(static_cast<std::uint8_t>(content.size())));
        m_body += content;
    }
    std::string finish(const FileStat& self, bool trusted, const std::optional<DirectoryStat::Listing>& listing) const
    {
        std::string out(kStatMagic);
        out.reserve(m_body.size() + 128);
        putStatFixed(out, self);
        out.push_back(trusted ? 1 : 0);
        out.push_back(listing ? 1 : 0);
        if (listing) {
            out.append(reinterpret_cast<const char*>(listing->hash.data()), listing->hash.size());
            putFixed(out, listing->files);
            putFixed(out, listing->bytes);
            putFixed(out, listing->entries);
        }
        putFixed(out, static_cast<std::uint32_t>(m_count));
        out += m_body;
        return out;
    }

private:
    std::string m_body;
    std::uint64_t m_count = 0;
};

} // namespace sb::statcache
