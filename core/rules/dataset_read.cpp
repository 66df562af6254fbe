#include "cell_types.h"
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

// What both formats share before reading: the options checked, and binary content refused up front.
Result<void> prepare(Input& input, const std::string& source, const ReadOptions& options)
{
    if (!(options.sample > 0.0 && options.sample <= 1.0))
        return fail(fmt::format("sampling ratio {} is not in (0, 1]", options.sample));
    if (!options.atInputStart)
        return {};
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
    return {};
}

Result<Dataset> read(Input& input, std::string source, const ReadOptions& options, ReadReport* report)
{
    ReadReport local;
    ReadReport& rep = report ? *report : local;
    rep = ReadReport{};
    if (auto ok = prepare(input, source, options); !ok)
        return std::unexpected(ok.error());
    Reading reading(options, std::move(source), input, rep);
    auto data = options.format == DataFormat::Csv ? readCsv(reading) : readJsonLines(reading);
    if (data && rep.columns.empty())
        rep.columns = data->schema().fields;
    return data;
}

} // namespace

Result<Dataset> readDataset(const std::filesystem::path& path, const ReadOptions& options, ReadReport* report)
{
    auto input = Input::openFile(path, options.maxRecordBytes);
    if (!input)
        return std::unexpected(input.error());
    return read(*input, options.sourceName.empty() ? path.string() : options.sourceName, options, report);
}

Result<Dataset> readDatasetInParts(const std::filesystem::path& path, const ReadOptions& options,
                                   PartConsumer& consumer, ReadReport* report)
{
    auto input = Input::openFile(path, options.maxRecordBytes);
    if (!input)
        return std::unexpected(input.error());
    ReadReport local;
    ReadReport& rep = report ? *report : local;
    rep = ReadReport{};
    std::string source = options.sourceName.empty() ? path.string() : options.sourceName;
    if (auto ok = prepare(*input, source, options); !ok)
        return std::unexpected(ok.error());
    Reading reading(options, source, *input, rep);
    reading.setConsumer(&consumer);
    auto data = options.format == DataFormat::Csv ? datafile::readCsv(reading) : datafile::readJsonLines(reading);
    if (!data)
        return data;
    if (rep.columns.empty())
        rep.columns = data->schema().fields;
    if (reading.wasHandedOn())
        return data;
    // Read whole: handed on as one part.
    if (auto ok = consumer.start(data->schema(), data->idColumn()); !ok)
        return std::unexpected(ok.error());
    if (auto ok = consumer.merge(consumer.process(*data), 0); !ok)
        return std::unexpected(ok.error());
    return DatasetBuilder(data->schema(), data->idColumn(), data->source()).finish();
}

Result<ColumnScan> scanColumns(const std::filesystem::path& path, const ReadOptions& options, bool headerOnly)
{
    auto input = Input::openFile(path, options.maxRecordBytes);
    if (!input)
        return std::unexpected(input.error());
    const std::string source = options.sourceName.empty() ? path.string() : options.sourceName;
    if (auto ok = prepare(*input, source, options); !ok)
        return std::unexpected(ok.error());
    ReadReport report;
    Reading reading(options, source, *input, report);
    Result<ColumnScan> scan;
    if (options.format == DataFormat::JsonLines && headerOnly) {
        scan = ColumnScan{}; // every column of JSON Lines is found by reading every line
        scan->format = DataFormat::JsonLines;
    } else {
        scan = options.format == DataFormat::JsonLines ? datafile::scanJsonLines(reading)
                                                       : datafile::scanCsv(reading, headerOnly);
    }
    if (scan)
        scan->source = source;
    return scan;
}

namespace {

// After a JSON Lines shard's columns joined the whole input's: too many columns by now (the line the first
// one too many appears on comes before the shard's own error, if any, since its columns were seen before it),
// else the shard's error. `origins`: the scan each column was first seen in, whose source names its line.
Result<void> tooManyOrError(const ColumnScan& merged, const std::vector<const ColumnScan*>& origins,
                            const ColumnScan& part, const ReadOptions& options, std::string_view source)
{
    if (merged.columns.size() > options.maxColumns) {
        const std::string& file = origins[options.maxColumns]->source;
        return fail(fmt::format("{}:{}: more than {} distinct fields", file.empty() ? source : file,
                                merged.columns[options.maxColumns].firstLine, options.maxColumns));
    }
    if (!part.error.empty())
        return fail(part.error);
    return {};
}

} // namespace

Result<ColumnScan> mergeScans(const std::vector<ColumnScan>& parts, const ReadOptions& options, std::string_view source)
{
    if (parts.empty())
        return fail(fmt::format("{}: no scans to merge", source));
    ColumnScan out = parts.front();
    std::vector<const ColumnScan*> origins(out.columns.size(), &parts.front());
    if (out.format == DataFormat::JsonLines) {
        if (auto ok = tooManyOrError(out, origins, parts.front(), options, source); !ok)
            return std::unexpected(ok.error());
    }
    for (std::size_t p = 1; p < parts.size(); ++p) {
        const ColumnScan& part = parts[p];
        if (part.format != out.format || part.needed != out.needed)
            return fail(fmt::format("{}: the scans of its shards do not agree", source));
        if (out.format == DataFormat::Csv) {
            // Every shard has the whole input's header: the same columns, whose values must all allow a type.
            if (part.columns.size() != out.columns.size())
                return fail(fmt::format("{}: the scans of its shards do not agree", source));
            for (std::size_t c = 0; c < out.columns.size(); ++c) {
                if (part.columns[c].name != out.columns[c].name || part.columns[c].declared != out.columns[c].declared)
                    return fail(fmt::format("{}: the scans of its shards do not agree", source));
                out.columns[c].allowed &= part.columns[c].allowed;
                out.columns[c].sawValue = out.columns[c].sawValue || part.columns[c].sawValue;
            }
            continue;
        }
        // JSON Lines: the columns in order of first appearance in the whole input, the kinds of value seen.
        for (const auto& column : part.columns) {
            auto it = std::find_if(out.columns.begin(), out.columns.end(),
                                   [&](const ColumnScan::Column& c) { return c.name == column.name; });
            if (it == out.columns.end()) {
                out.columns.push_back(column);
                origins.push_back(&part);
            } else {
                it->allowed |= column.allowed;
            }
        }
        if (auto ok = tooManyOrError(out, origins, part, options, source); !ok)
            return std::unexpected(ok.error());
    }
    return out;
}

std::vector<Field> settleColumns(const ColumnScan& scan)
{
    std::vector<Field> fields;
    for (const auto& c : scan.columns) {
        FieldType type = FieldType::String;
        if (c.declared)
            type = *c.declared;
        else if (scan.format == DataFormat::Csv)
            type = datafile::typeFromMask(c.allowed, c.sawValue);
        else
            type = datafile::jsonTypeFromKinds(c.allowed);
        fields.push_back(Field{c.name, type});
    }
    return fields;
}

Result<Dataset> readDatasetText(std::string_view text, std::string_view sourceName, const ReadOptions& options,
                                ReadReport* report)
{
    Input input = Input::fromText(text, sourceName);
    return read(input, std::string(sourceName), options, report);
}

} // namespace sb::rules
