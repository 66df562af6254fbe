#pragma once

// A dataset being read: its input (a file read in blocks, or text in memory) and what both formats share
// (the options, the report, bad rows, sampling, the row limit, cancelling and progress).

#include "rules/dataset.h"
#include "util/input_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb::rules::datafile {

// ---- Input: a file read in blocks, or text in memory --------------------------------------------------------

class Input {
public:
    static Result<Input> openFile(const std::filesystem::path& path, std::size_t maxRecordBytes)
    {
        auto file = InputFile::open(path, input::kDataFile);
        if (!file)
            return std::unexpected(file.error());
        Input in;
        in.m_size = file->size();
        in.m_file = std::move(*file);
        in.m_buffer.resize(std::max<std::size_t>(kBlock * 2, maxRecordBytes + kBlock));
        in.m_name = path.string();
        return in;
    }

    static Input fromText(std::string_view text, std::string_view name)
    {
        Input in;
        in.m_text = text;
        in.m_size = text.size();
        in.m_end = text.size();
        in.m_eof = true;
        in.m_name = std::string(name);
        return in;
    }

    std::string_view window() const
    {
        const char* base = m_file ? m_buffer.data() : m_text.data();
        return {base + m_begin, m_end - m_begin};
    }
    bool eof() const { return m_eof; }
    void consume(std::size_t n)
    {
        m_begin += n;
        m_consumed += n;
    }
    std::uint64_t consumed() const { return m_consumed; }
    std::uint64_t size() const { return m_size; }

    // Reads more after the window (moving it to the buffer's start first). False at the end of the input.
    Result<bool> more()
    {
        if (m_eof)
            return false;
        if (m_begin > 0) {
            std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
            m_end -= m_begin;
            m_begin = 0;
        }
        if (m_end == m_buffer.size())
            return false; // full: the caller's record is longer than the limit
        const std::size_t want = std::min(kBlock, m_buffer.size() - m_end);
        auto n = m_file->read(m_buffer.data() + m_end, want);
        if (!n)
            return std::unexpected(n.error());
        if (*n == 0) {
            m_eof = true;
            return false;
        }
        m_end += *n;
        return true;
    }

    Result<void> rewind()
    {
        m_begin = 0;
        m_consumed = 0;
        if (!m_file) {
            m_end = m_text.size();
            return {};
        }
        if (auto ok = m_file->rewind(); !ok)
            return ok;
        m_end = 0;
        m_eof = false;
        return {};
    }

private:
    static constexpr std::size_t kBlock = 1u << 20;
    std::optional<InputFile> m_file; // none: text in memory
    std::vector<char> m_buffer;
    std::string_view m_text;
    std::string m_name;
    std::size_t m_begin = 0, m_end = 0;
    std::uint64_t m_consumed = 0;
    std::uint64_t m_size = 0;
    bool m_eof = false;
};

// ---- The reading common to both formats ------------------------------------------------------------------

class Reading {
public:
    Reading(const ReadOptions& options, std::string source, Input& input, ReadReport& report)
        : m_o(options), m_source(std::move(source)), m_input(input), m_report(report)
    {
    }

    const ReadOptions& options() const { return m_o; }
    const std::string& source() const { return m_source; }
    Input& input() { return m_input; }
    ReadReport& report() { return m_report; }

    std::unexpected<Error> fatal(std::int64_t line, std::string_view message) const
    {
        m_fatalLine = line;
        return fail(fmt::format("{}:{}: {}", m_source, line, message));
    }
    // The line of the last fatal() error (0: none).
    std::int64_t fatalLine() const { return m_fatalLine; }

    // A record that cannot be read: refused (the error), or skipped and counted.
    Result<void> badRow(std::int64_t line, std::string message)
    {
        if (m_o.onBadRow == BadRowPolicy::Fail)
            return fail(fmt::format("{}:{}: {} (bad row; --on-bad-row skip skips such rows)", m_source, line, message));
        ++m_report.badRows;
        if (m_report.badRowExamples.size() < m_o.maxBadRowExamples)
            m_report.badRowExamples.push_back(BadRow{line, std::move(message), {}});
        return {};
    }

    // Sampling and the row limit: whether to read the next record, and whether to stop.
    bool select()
    {
        const std::uint64_t ordinal = m_ordinal++;
        ++m_report.records;
        if (!sampleKeeps(m_o.seed, ordinal, m_o.sample)) {
            ++m_report.sampledOut;
            return false;
        }
        return true;
    }
    void kept() { ++m_report.kept; }
    bool full() const { return m_o.maxRows > 0 && static_cast<std::uint64_t>(m_report.kept) >= m_o.maxRows; }

    Result<void> tick()
    {
        if ((++m_ticks & 4095) != 0)
            return {};
        if (m_o.cancel && m_o.cancel->load(std::memory_order_relaxed))
            return fail(fmt::format("{}: reading cancelled", m_source));
        if (m_o.progress) {
            const std::uint64_t total = m_input.size();
            m_o.progress(m_progressBase + m_input.consumed() / m_progressDivisor, total);
        }
        return {};
    }
    // Two passes: each counts for half the progress.
    void setPass(int pass, bool twoPasses)
    {
        m_progressDivisor = twoPasses ? 2 : 1;
        m_progressBase = twoPasses && pass == 2 ? m_input.size() / 2 : 0;
    }

    void restart()
    {
        m_ordinal = 0;
        m_report = ReadReport{};
    }

    // Reading in parts (readDatasetInParts): the consumer, and whether the reader handed the records to it in
    // parts itself (else the caller hands on the dataset read whole).
    void setConsumer(PartConsumer* consumer) { m_consumer = consumer; }
    PartConsumer* consumer() const { return m_consumer; }
    void handedOn() { m_handedOn = true; }
    bool wasHandedOn() const { return m_handedOn; }

private:
    const ReadOptions& m_o;
    std::string m_source;
    Input& m_input;
    ReadReport& m_report;
    std::uint64_t m_ordinal = 0;
    std::uint64_t m_ticks = 0;
    std::uint64_t m_progressBase = 0;
    std::uint64_t m_progressDivisor = 1;
    mutable std::int64_t m_fatalLine = 0;
    PartConsumer* m_consumer = nullptr;
    bool m_handedOn = false;
};

inline std::string_view stripBom(std::string_view s)
{
    return s.starts_with("\xEF\xBB\xBF") ? s.substr(3) : s;
}

// The column that identifies records: --id-column, or a column named "id" when there is one (-1: none). An
// --id-column the data does not have is an error, in `error`.
int resolveIdColumn(const ReadOptions& o, const std::vector<std::string>& names, std::string& error);

// The two formats, from after the byte-order mark to the last record.
Result<Dataset> readCsv(Reading& r);
Result<Dataset> readJsonLines(Reading& r);
// Their first pass alone (ColumnScan); a CSV file's header only, when headerOnly.
Result<ColumnScan> scanCsv(Reading& r, bool headerOnly);
Result<ColumnScan> scanJsonLines(Reading& r);
// A JSON Lines column's type from the kinds of value its scan saw.
FieldType jsonTypeFromKinds(std::uint8_t kinds);

} // namespace sb::rules::datafile
