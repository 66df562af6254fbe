#include "checkpoints/tree.h"

#include "util/varint.h"

#include <fmt/format.h>

#include <algorithm>

namespace sb {

namespace {

constexpr std::string_view kMagic = "SBT1";

class Reader {
public:
    explicit Reader(std::string_view bytes) : m_bytes(bytes) {}
    bool varint(std::uint64_t& value)
    {
        value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_pos >= m_bytes.size())
                return false;
            const auto byte = static_cast<std::uint8_t>(m_bytes[m_pos++]);
            value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
            if ((byte & 0x80) == 0)
                return shift < 63 || byte <= 1;
        }
        return false;
    }
    bool bytes(std::size_t count, std::string_view& out)
    {
        if (count > m_bytes.size() - m_pos)
            return false;
        out = m_bytes.substr(m_pos, count);
        m_pos += count;
        return true;
    }
    bool byte(std::uint8_t& out)
    {
        if (m_pos >= m_bytes.size())
            return false;
        out = static_cast<std::uint8_t>(m_bytes[m_pos++]);
        return true;
    }
    bool done() const { return m_pos == m_bytes.size(); }

private:
    std::string_view m_bytes;
    std::size_t m_pos = 0;
};

} // namespace

std::string hashHex(const ContentHash& hash)
{
    return toHex(hash);
}

Result<ContentHash> hashFromHex(std::string_view hex)
{
    if (hex.size() != 64)
        return fail(fmt::format("'{}' is not a hash (64 hex digits)", hex));
    ContentHash hash{};
    auto digit = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < hash.size(); ++i) {
        const int high = digit(hex[2 * i]);
        const int low = digit(hex[2 * i + 1]);
        if (high < 0 || low < 0)
            return fail(fmt::format("'{}' is not a hash (64 hex digits)", hex));
        hash[i] = static_cast<std::uint8_t>(high * 16 + low);
    }
    return hash;
}

std::string_view toString(EntryType type)
{
    switch (type) {
    case EntryType::File:
        return "file";
    case EntryType::Symlink:
        return "symlink";
    case EntryType::Directory:
        return "directory";
    }
    return "?";
}

bool TreeEntry::sameContent(const TreeEntry& other) const
{
    if (type != other.type || size != other.size)
        return false;
    switch (type) {
    case EntryType::File:
        if (storage != other.storage)
            return false;
        return storage == Storage::Inline ? data == other.data : hash == other.hash;
    case EntryType::Symlink:
        return data == other.data;
    case EntryType::Directory:
        return hash == other.hash;
    }
    return false;
}

bool TreeEntry::sameAs(const TreeEntry& other) const
{
    return mode == other.mode && sameContent(other);
}

bool isValidName(std::string_view name)
{
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos
           && name.find('\0') == std::string_view::npos;
}

std::string serializeTree(const Tree& tree)
{
    std::string out(kMagic);
    putVarint(out, tree.entries.size());
    for (const auto& entry : tree.entries) {
        out.push_back(static_cast<char>(entry.type));
        putVarint(out, entry.mode);
        putVarint(out, entry.name.size());
        out += entry.name;
        putVarint(out, entry.size);
        switch (entry.type) {
        case EntryType::File:
            out.push_back(static_cast<char>(entry.storage));
            if (entry.storage == Storage::Inline)
                out += entry.data; // size bytes
            else
                out.append(reinterpret_cast<const char*>(entry.hash.data()), entry.hash.size());
            break;
        case EntryType::Symlink:
            out += entry.data; // size bytes
            break;
        case EntryType::Directory:
            out.append(reinterpret_cast<const char*>(entry.hash.data()), entry.hash.size());
            putVarint(out, entry.files);
            break;
        }
    }
    return out;
}

Result<Tree> parseTree(std::string_view bytes)
{
    auto damaged = [](std::string_view why) { return fail(fmt::format("a stored directory listing is damaged: {}", why)); };
    if (!bytes.starts_with(kMagic))
        return damaged("it does not start with SBT1");
    Reader in(bytes.substr(kMagic.size()));
    std::uint64_t count = 0;
    if (!in.varint(count) || count > bytes.size())
        return damaged("bad entry count");
    Tree tree;
    tree.entries.reserve(static_cast<std::size_t>(count));
    for (std::uint64_t i = 0; i < count; ++i) {
        TreeEntry entry;
        std::uint8_t type = 0;
        std::uint64_t mode = 0;
        std::uint64_t nameLength = 0;
        std::string_view name;
        if (!in.byte(type) || !in.varint(mode) || !in.varint(nameLength) || !in.bytes(nameLength, name)
            || !in.varint(entry.size))
            return damaged("an entry is cut short");
        if (type < 1 || type > 3)
            return damaged(fmt::format("unknown entry type {}", type));
        if (mode > 0777)
            return damaged(fmt::format("mode {:o} is more than permission bits", mode));
        if (!isValidName(name))
            return damaged("an entry's name is empty, '.', '..', or holds '/' or NUL");
        if (!tree.entries.empty() && !(tree.entries.back().name < name))
            return damaged("names are out of order or repeated");
        entry.type = static_cast<EntryType>(type);
        entry.mode = static_cast<std::uint32_t>(mode);
        entry.name = std::string(name);
        std::string_view raw;
        switch (entry.type) {
        case EntryType::File: {
            std::uint8_t storage = 0;
            if (!in.byte(storage) || storage > 2)
                return damaged("unknown file storage");
            entry.storage = static_cast<Storage>(storage);
            if (entry.storage == Storage::Inline) {
                if (entry.size > kInlineMax || !in.bytes(static_cast<std::size_t>(entry.size), raw))
                    return damaged("an inline file is cut short or too large");
                entry.data = std::string(raw);
            } else {
                if (!in.bytes(entry.hash.size(), raw))
                    return damaged("a file's hash is cut short");
                std::copy(raw.begin(), raw.end(), entry.hash.begin());
            }
            break;
        }
        case EntryType::Symlink:
            if (entry.size > 65536 || !in.bytes(static_cast<std::size_t>(entry.size), raw))
                return damaged("a symlink's target is cut short or too long");
            entry.data = std::string(raw);
            if (entry.data.empty() || entry.data.find('\0') != std::string::npos)
                return damaged("a symlink's target is empty or holds NUL");
            break;
        case EntryType::Directory:
            if (!in.bytes(entry.hash.size(), raw) || !in.varint(entry.files))
                return damaged("a directory's hash is cut short");
            std::copy(raw.begin(), raw.end(), entry.hash.begin());
            break;
        }
        tree.entries.push_back(std::move(entry));
    }
    if (!in.done())
        return damaged("bytes after the last entry");
    return tree;
}

const std::string& emptyTreeBytes()
{
    static const std::string bytes = serializeTree(Tree{});
    return bytes;
}

const ContentHash& emptyTreeHash()
{
    static const ContentHash hash = [] {
        auto digest = sha256(emptyTreeBytes());
        return digest ? *digest : ContentHash{};
    }();
    return hash;
}

} // namespace sb
