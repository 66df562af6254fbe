#include "csv_reader.h"

#include "cel/utf8.h"

#include <fmt/format.h>

#include <unordered_map>

namespace sb::rules::datafile {

Result<std::vector<CsvColumn>> readCsvHeader(Reading& r, CsvReader& reader, CsvRecord& record)
{
    std::string problem;
    auto status = reader.next(record, problem);
    if (!status)
        return std::unexpected(status.error());
    if (*status == CsvReader::Status::End)
        return fail(fmt::format("{}: empty: a CSV file starts with a header row naming its columns", r.source()));
    if (*status == CsvReader::Status::Bad)
        return r.fatal(record.line, "the header row: " + problem);
    if (record.cells.size() > r.options().maxColumns)
        return r.fatal(record.line, fmt::format("the header row has {} columns; at most {} are read",
                                                record.cells.size(), r.options().maxColumns));
    std::vector<CsvColumn> columns;
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < record.cells.size(); ++i) {
        const std::string_view name = trimSpaces(record.cells[i]);
        if (!cel::isValidUtf8(name))
            return r.fatal(record.line, "the header row is not UTF-8 text");
        if (name.empty())
            return r.fatal(record.line, fmt::format("the header row: column {} has no name", i + 1));
        if (const auto it = seen.find(std::string(name)); it != seen.end())
            return r.fatal(record.line, fmt::format("the header row names column {} twice (columns {} and {})",
                                                    quoteForMessage(name), it->second + 1, i + 1));
        CsvColumn c;
        c.name = std::string(name);
        columns.push_back(std::move(c));
        seen.emplace(columns.back().name, i);
    }
    for (auto& c : columns) {
        for (const Field& f : r.options().declared) {
            if (f.name == c.name) {
                c.type = f.type;
                c.declared = true;
            }
        }
    }
    reader.skipLineNumbers(r.options().lineOffset);
    return columns;
}

std::optional<std::string> checkCsvRecord(const CsvRecord& record, std::vector<CsvColumn>& columns,
                                          DatasetBuilder* builder, std::vector<cel::Value>& cells)
{
    if (record.cells.size() != columns.size())
        return fmt::format("expected {} fields, found {}", columns.size(), record.cells.size());
    // The record as a whole first (unescaping "" changes no byte sequence), then which field, if it is not.
    if (!isValidUtf8Fast(record.raw)) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (!isValidUtf8Fast(record.cells[c]))
                return fmt::format("field '{}' is not UTF-8 text", columns[c].name);
        }
    }
    // Undeclared columns: in the first pass every one, in one pass those not kept (their types are reported).
    for (std::size_t c = 0; c < columns.size(); ++c) {
        CsvColumn& col = columns[c];
        if (col.declared)
            continue;
        // "1, 2": spaces around a value do not make it text.
        const std::string_view text = trimSpaces(record.cells[c]);
        if (text.empty())
            continue;
        col.sawValue = true;
        if (col.mask != 0)
            col.mask = possibleTypes(text, col.mask);
    }
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const CsvColumn& col = columns[c];
        if (!col.declared || (col.kept < 0 && col.settled))
            continue;
        const bool keep = builder && col.kept >= 0;
        const std::size_t into = keep ? static_cast<std::size_t>(col.kept) : 0;
        const Converted v = convertText(record.cells[c], col.type, into, keep ? builder : nullptr);
        if (v.problem)
            return fmt::format("field '{}': {} is not {}", col.name, quoteForMessage(record.cells[c]), v.problem);
        if (keep)
            cells[into] = v.value;
    }
    return std::nullopt;
}

} // namespace sb::rules::datafile
