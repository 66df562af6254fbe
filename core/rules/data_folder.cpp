#include "rules/data_folder.h"

#include <fmt/format.h>

#include <algorithm>

namespace sb::rules {

namespace {

std::string_view formatName(DataFormat format)
{
    return format == DataFormat::Csv ? "CSV" : "JSON Lines";
}

// How `header` differs from `first`'s, the first column that differs: "" when it does not.
std::string headerDifference(const ColumnScan& first, const ColumnScan& header, const std::string& firstFile)
{
    const auto& a = first.columns;
    const auto& b = header.columns;
    for (std::size_t c = 0; c < std::max(a.size(), b.size()); ++c) {
        if (c >= b.size())
            return fmt::format("column {} '{}' of {} is missing", c + 1, a[c].name, firstFile);
        if (c >= a.size())
            return fmt::format("column {} '{}' is not in {}", c + 1, b[c].name, firstFile);
        if (a[c].name != b[c].name)
            return fmt::format("column {} is '{}', but '{}' in {}", c + 1, b[c].name, a[c].name, firstFile);
    }
    return {};
}

} // namespace

Result<DataFolder> listDataFolder(const std::filesystem::path& folder)
{
    DataFolder out;
    out.path = folder;
    std::vector<std::string> names;
    std::error_code ec;
    std::filesystem::directory_iterator it(folder, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.starts_with('.') || !formatForPath(name))
            continue;
        std::error_code typeError;
        if (it->is_directory(typeError))
            continue;
        names.push_back(name);
    }
    if (ec)
        return fail(fmt::format("{}: cannot list the folder: {}", folder.string(), ec.message()));
    if (names.empty())
        return fail(fmt::format("{}: a folder with no data files (.csv, .jsonl or .ndjson files directly in it; "
                                "subfolders and hidden files are not read)",
                                folder.string()));
    std::sort(names.begin(), names.end()); // byte order: std::char_traits<char> compares as unsigned char
    out.format = *formatForPath(names.front());
    for (const auto& name : names) {
        const DataFormat format = *formatForPath(name);
        if (format != out.format)
            return fail(fmt::format("{}: {} is {} but {} is {}: a folder's files are one dataset of one format",
                                    folder.string(), names.front(), formatName(out.format), name,
                                    formatName(format)));
        out.files.push_back(folder / name);
    }
    return out;
}

Result<ColumnScan> scanFolderHeads(const DataFolder& folder, const ReadOptions& options)
{
    std::optional<ColumnScan> first;
    for (const auto& file : folder.files) {
        ReadOptions o = options;
        o.format = folder.format;
        o.sourceName = file.string();
        auto head = scanColumns(file, o, true);
        if (!head)
            return std::unexpected(head.error());
        if (!first) {
            first = std::move(*head);
            continue;
        }
        if (folder.format != DataFormat::Csv)
            continue;
        const std::string firstFile = folder.files.front().string();
        if (const auto difference = headerDifference(*first, *head, firstFile); !difference.empty())
            return fail(fmt::format("{}: its header differs from {}'s: {} (a folder's CSV files have one header)",
                                    file.string(), firstFile, difference));
    }
    return *first;
}

std::vector<Shard> wholeFiles(const DataFolder& folder)
{
    std::vector<Shard> out;
    for (const auto& file : folder.files) {
        Shard shard;
        shard.path = file;
        shard.atInputStart = true;
        shard.source = file.string();
        out.push_back(std::move(shard));
    }
    return out;
}

Result<Dataset> readDataFolder(const DataFolder& folder, const ReadOptions& options, const std::string& source,
                               ReadReport* report)
{
    ReadOptions o = options;
    o.format = folder.format;
    if (auto heads = scanFolderHeads(folder, o); !heads)
        return std::unexpected(heads.error());
    return readShards(wholeFiles(folder), o, source, report);
}

} // namespace sb::rules
