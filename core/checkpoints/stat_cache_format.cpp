#include "stat_cache_format.h"

#include <algorithm>

namespace sb {

using statcache::PackedReader;
using statcache::PackedWriter;
using statcache::StatView;

std::string packDirectoryStat(const DirectoryStat& directory)
{
    PackedWriter writer;
    for (const auto& entry : directory.entries) {
        if (entry.kind == StatEntry::Kind::File)
            writer.file(entry.name, entry.stat, entry.trusted, entry.storage, entry.content);
        else
            writer.name(entry.name, entry.kind);
    }
    return writer.finish(directory.self, directory.trusted, directory.listing);
}

Result<DirectoryStat> unpackDirectoryStat(std::string_view bytes)
{
    PackedReader reader(bytes);
    if (!reader.valid())
        return fail("a stat cache row is damaged");
    DirectoryStat directory;
    directory.self = reader.self;
    directory.trusted = reader.trusted;
    directory.listing = reader.listing;
    directory.entries.reserve(static_cast<std::size_t>(reader.count));
    StatView view;
    while (reader.next(view)) {
        StatEntry entry;
        entry.name = std::string(view.name);
        entry.kind = view.kind;
        entry.stat = view.stat;
        entry.trusted = view.trusted;
        entry.storage = view.storage;
        entry.content = std::string(view.content);
        directory.entries.push_back(std::move(entry));
    }
    if (!reader.complete())
        return fail("a stat cache row is damaged");
    return directory;
}

const StatEntry* DirectoryStat::find(std::string_view name) const
{
    auto it = std::lower_bound(entries.begin(), entries.end(), name,
                               [](const StatEntry& e, std::string_view n) { return std::string_view(e.name) < n; });
    return it != entries.end() && it->name == name ? &*it : nullptr;
}

} // namespace sb
