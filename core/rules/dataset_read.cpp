#include "dataset_reading.h"

#include <fmt/format.h>

#include <algorithm>

namespace sb::rules::datafile {

int resolveIdColumn(const ReadOptions& o, const std::vector<std::string>& names, std::string& error)
{
    const std::string wanted = o.idColumn.empty() ? "id" : o.idColumn;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == wanted)
            return static_cast<int>(i);
    }
    if (!o.idColumn.empty()) {
        std::string list;
        for (const auto& n : names)
            list += (list.empty() ? "" : ", ") + n;
        error = fmt::format("no column named '{}' to identify records (columns: {})", o.idColumn, list);
    }
    return -1;
}

} // namespace sb::rules::datafile

namespace sb::rules {

namespace {

using datafile::Input;
using datafile::Reading;

// Which format, after one check both share: binary content is refused up front.
Result<Dataset> read(Input& input, std::string source, const ReadOptions& options, ReadReport* report)
{
    if (!(options.sample > 0.0 && options.sample <= 1.0))
        return fail(fmt::format("sampling ratio {} is not in (0, 1]", options.sample));
    ReadReport local;
    ReadReport& rep = report ? *report : local;
    rep = ReadReport{};
    // Binary files are named as such up front, wherever their first NUL byte is in the first block (a PNG's
    // header line would otherwise be reported as a header that is not UTF-8).
    if (input.window().empty() && !input.eof()) {
        if (auto more = input.more(); !more)
            return std::unexpected(more.error());
    }
    const std::string_view head = input.window().substr(0, 1u << 16);
    if (const auto nul = head.find('\0'); nul != std::string_view::npos)
        return fail(fmt::format("{}:{}: binary content (a NUL byte): not {} text", source,
                                1 + std::count(head.begin(), head.begin() + static_cast<std::ptrdiff_t>(nul), '\n'),
                                options.format == DataFormat::Csv ? "CSV" : "JSON Lines"));
    Reading reading(options, std::move(source), input, rep);
    return options.format == DataFormat::Csv ? readCsv(reading) : readJsonLines(reading);
}

} // namespace

Result<Dataset> readDataset(const std::filesystem::path& path, const ReadOptions& options, ReadReport* report)
{
    auto input = Input::openFile(path, options.maxRecordBytes);
    if (!input)
        return std::unexpected(input.error());
    return read(*input, path.string(), options, report);
}

Result<Dataset> readDatasetText(std::string_view text, std::string_view sourceName, const ReadOptions& options,
                                ReadReport* report)
{
    Input input = Input::fromText(text, sourceName);
    return read(input, std::string(sourceName), options, report);
}

} // namespace sb::rules
