#pragma once

// CSV as RFC 4180 writes it: records split into cells (quotes, "" inside quotes, CRLF), the header row,
// and a record's cells checked against the columns.

#include "cell_types.h"
#include "dataset_reading.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb::rules::datafile {

struct CsvRecord {
    std::vector<std::string_view> cells; // views into the input's window or `scratch`
    std::string scratch;                 // cells with "" inside, unescaped
    std::int64_t line = 0;               // where it starts
    std::string_view raw;                // the record's bytes as read (quotes and separators included)
};

// The bytes that end an unquoted field.
inline constexpr std::array<bool, 256> kEndsField = [] {
    std::array<bool, 256> t{};
    t[static_cast<unsigned char>(',')] = true;
    t[static_cast<unsigned char>('\n')] = true;
    return t;
}();

class CsvReader {
public:
    explicit CsvReader(Reading& reading) : m_r(reading) {}

    enum class Status { Record, Bad, End };

    // The next non-blank record. Bad: a record with broken quoting (message in `problem`), already skipped.
    Result<Status> next(CsvRecord& record, std::string& problem)
    {
        Input& in = m_r.input();
        for (;;) {
            in.consume(m_pending);
            m_pending = 0;
            for (;;) {
                const std::string_view w = in.window();
                if (w.empty() && in.eof())
                    return Status::End;
                std::size_t used = 0;
                int newlines = 0;
                const Parse p = parse(w, in.eof(), record, used, newlines, problem);
                if (p == Parse::NeedMore) {
                    if (w.size() >= m_r.options().maxRecordBytes)
                        return m_r.fatal(m_line, fmt::format("a record longer than {} bytes: not CSV text, or a "
                                                             "quote opened here is never closed",
                                                             m_r.options().maxRecordBytes));
                    auto more = in.more();
                    if (!more)
                        return std::unexpected(more.error());
                    if (!*more && !in.eof())
                        return m_r.fatal(m_line, fmt::format("a record longer than {} bytes: not CSV text, or a "
                                                             "quote opened here is never closed",
                                                             m_r.options().maxRecordBytes));
                    continue;
                }
                if (p == Parse::Unclosed)
                    return m_r.fatal(m_line, "a quoted field opened on this line is never closed");
                if (std::memchr(w.data(), 0, used) != nullptr)
                    return m_r.fatal(m_line, "binary content (a NUL byte): not CSV text");
                if (used > m_r.options().maxRecordBytes)
                    return m_r.fatal(m_line, fmt::format("a record longer than {} bytes: not CSV text, or a "
                                                         "quote opened here is never closed",
                                                         m_r.options().maxRecordBytes));
                record.line = m_line;
                record.raw = w.substr(0, used);
                m_line += newlines;
                m_pending = used;
                if (p == Parse::Blank)
                    break;       // consume it and read on
                m_first = false; // parse() skipped a BOM at the very start
                if (p == Parse::Bad) {
                    record.cells.clear(); // some may not view their bytes yet: only `problem` tells
                    return Status::Bad;
                }
                return Status::Record;
            }
        }
    }

    void restart()
    {
        m_pending = 0;
        m_line = 1;
        m_first = true;
    }

    // The records after this point are numbered `lines` further on (a shard's, after its header).
    void skipLineNumbers(std::int64_t lines) { m_line += lines; }

private:
    enum class Parse { Record, Blank, Bad, NeedMore, Unclosed };

    // One record at the start of `w`. Cells with "" escapes are unescaped into record.scratch; their views
    // are made once the record is complete (scratch may grow meanwhile).
    Parse parse(std::string_view w, bool eof, CsvRecord& record, std::size_t& used, int& newlines, std::string& problem)
    {
        record.cells.clear();
        record.scratch.clear();
        m_escaped.clear();
        const std::size_t n = w.size();
        const char* d = w.data();
        std::size_t pos = 0;
        // A leading BOM belongs to no cell (only the input's very first bytes can be one).
        if (m_first && n >= 3 && std::memcmp(d, "\xEF\xBB\xBF", 3) == 0)
            pos = 3;
        newlines = 0;
        for (;;) {
            if (pos < n && d[pos] == '"') {
                std::size_t p = pos + 1;
                bool escaped = false;
                const std::size_t scratchStart = record.scratch.size();
                std::size_t cellBegin = p;
                for (;;) {
                    const void* q = std::memchr(d + p, '"', n - p);
                    if (!q)
                        return eof ? Parse::Unclosed : Parse::NeedMore;
                    const std::size_t qi = static_cast<std::size_t>(static_cast<const char*>(q) - d);
                    newlines += static_cast<int>(std::count(d + p, d + qi, '\n'));
                    if (qi + 1 == n && !eof)
                        return Parse::NeedMore; // "" split across blocks, or the closing quote
                    if (qi + 1 < n && d[qi + 1] == '"') {
                        escaped = true;
                        record.scratch.append(d + cellBegin, qi + 1 - cellBegin);
                        p = qi + 2;
                        cellBegin = p;
                        continue;
                    }
                    if (escaped) {
                        record.scratch.append(d + cellBegin, qi - cellBegin);
                        m_escaped.push_back({record.cells.size(), scratchStart});
                        record.cells.emplace_back(nullptr, record.scratch.size() - scratchStart);
                    } else {
                        record.cells.push_back(w.substr(pos + 1, qi - pos - 1));
                    }
                    pos = qi + 1;
                    break;
                }
                if (pos == n) {
                    if (!eof)
                        return Parse::NeedMore;
                    used = pos;
                    return finishRecord(w, record);
                }
                const char c = d[pos];
                if (c == ',') {
                    ++pos;
                    continue;
                }
                if (c == '\n' || (c == '\r' && pos + 1 < n && d[pos + 1] == '\n')) {
                    pos += c == '\n' ? 1 : 2;
                    ++newlines;
                    used = pos;
                    return finishRecord(w, record);
                }
                if (c == '\r' && pos + 1 == n && !eof)
                    return Parse::NeedMore;
                // Text after a closing quote: the record is broken; skip to the end of its line.
                const void* nl = std::memchr(d + pos, '\n', n - pos);
                if (!nl && !eof)
                    return Parse::NeedMore;
                used = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - d) + 1 : n;
                newlines += nl ? 1 : 0;
                problem = fmt::format("field {}: text after its closing quote (a quote inside a quoted field "
                                      "is written \"\")",
                                      record.cells.size());
                return Parse::Bad;
            }
            // Unquoted: up to the next comma or line end.
            std::size_t e = pos;
            while (e < n && !kEndsField[static_cast<unsigned char>(d[e])])
                ++e;
            if (e == n && !eof)
                return Parse::NeedMore;
            std::size_t cellEnd = e;
            if (e == n || d[e] == '\n') {
                if (cellEnd > pos && d[cellEnd - 1] == '\r')
                    --cellEnd;
                record.cells.push_back(w.substr(pos, cellEnd - pos));
                if (e < n) {
                    ++newlines;
                    used = e + 1;
                } else {
                    used = e;
                }
                if (record.cells.size() == 1 && record.cells[0].empty())
                    return Parse::Blank;
                return finishRecord(w, record);
            }
            record.cells.push_back(w.substr(pos, e - pos));
            pos = e + 1;
        }
    }

    // Cells with "" escapes view `scratch`, which may have grown (and moved) while the record was read.
    Parse finishRecord(std::string_view, CsvRecord& record)
    {
        for (const Escaped& e : m_escaped)
            record.cells[e.cell] = std::string_view(record.scratch).substr(e.offset, record.cells[e.cell].size());
        return Parse::Record;
    }

    struct Escaped {
        std::size_t cell = 0;
        std::size_t offset = 0; // in record.scratch
    };

    Reading& m_r;
    std::vector<Escaped> m_escaped;
    std::size_t m_pending = 0; // bytes of the record returned last, consumed at the next call
    std::int64_t m_line = 1;
    bool m_first = true;
};

struct CsvColumn {
    std::string name;
    FieldType type = FieldType::String;
    bool declared = false; // its type is known: declared, or settled by the first pass
    bool settled = false;  // its type was inferred by the first pass
    int kept = 0;          // its index among the dataset's columns; -1: checked, not kept (ReadOptions::keepColumn)
    std::uint8_t mask = kMayAll;
    bool sawValue = false;
};

// The header row: the columns' names, and their declared types.
Result<std::vector<CsvColumn>> readCsvHeader(Reading& r, CsvReader& reader, CsvRecord& record);

// A record's cells checked against the columns: the types of the columns not declared inferred, the others
// converted (into `cells`, by CsvColumn::kept, when a builder is given and the column is kept). Columns not kept
// whose type the first pass inferred are not looked at again.
std::optional<std::string> checkCsvRecord(const CsvRecord& record, std::vector<CsvColumn>& columns,
                                          DatasetBuilder* builder, std::vector<cel::Value>& cells);

} // namespace sb::rules::datafile
