#include "rules/dataset.h"

#include "cel/time.h"
#include "cel/utf8.h"
#include "util/threads.h"
#include "util/input_file.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace sb::rules {

std::string_view toString(DataFormat format)
{
    return format == DataFormat::Csv ? "csv" : "jsonl";
}

std::optional<DataFormat> formatForPath(const std::filesystem::path& path)
{
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
    if (ext == ".csv")
        return DataFormat::Csv;
    if (ext == ".jsonl" || ext == ".ndjson")
        return DataFormat::JsonLines;
    return std::nullopt;
}

std::string_view toString(BadRowPolicy policy)
{
    return policy == BadRowPolicy::Fail ? "fail" : "skip";
}

bool sampleKeeps(std::uint64_t seed, std::uint64_t ordinal, double ratio)
{
    if (ratio >= 1.0)
        return true;
    if (!(ratio > 0.0))
        return false;
    // SplitMix64 of the seed, then of the ordinal mixed in: uniform, and independent of reading order.
    auto mix = [](std::uint64_t z) {
        z += 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    };
    const std::uint64_t h = mix(mix(seed) ^ ordinal);
    return static_cast<double>(h >> 11) * 0x1.0p-53 < ratio;
}

std::string cellText(const cel::Value& v)
{
    switch (v.kind()) {
    case cel::Kind::Int: return std::to_string(v.asInt());
    case cel::Kind::Uint: return std::to_string(v.asUint());
    case cel::Kind::Double: {
        char buf[64];
        const auto r = std::to_chars(buf, buf + sizeof buf, v.asDouble());
        return std::string(buf, r.ptr);
    }
    case cel::Kind::Bool: return v.asBool() ? "true" : "false";
    case cel::Kind::String: return std::string(v.asString());
    case cel::Kind::Timestamp: return cel::formatTimestamp(v.seconds(), v.nanos());
    case cel::Kind::Error:
    case cel::Kind::Null: return {};
    default: return cel::toDebugString(v);
    }
}

// ---- Dataset ----------------------------------------------------------------------------------------------

std::string Dataset::recordId(std::size_t row) const
{
    if (m_idColumn < 0)
        return std::to_string(row + 1);
    return cellText(value(row, static_cast<std::size_t>(m_idColumn)));
}

std::optional<std::size_t> Dataset::findRecord(std::string_view id) const
{
    if (m_idColumn < 0) {
        std::size_t n = 0;
        const auto r = std::from_chars(id.data(), id.data() + id.size(), n);
        if (r.ec != std::errc() || r.ptr != id.data() + id.size() || n == 0 || n > rowCount())
            return std::nullopt;
        return n - 1;
    }
    const auto cells = column(static_cast<std::size_t>(m_idColumn));
    for (std::size_t row = 0; row < cells.size(); ++row) {
        const cel::Value& v = cells[row];
        if (v.kind() == cel::Kind::String ? v.asString() == id : cellText(v) == id)
            return row;
    }
    return std::nullopt;
}

Result<void> Dataset::adaptTo(const std::vector<Field>& declared)
{
    for (const Field& f : declared) {
        const int c = m_schema.find(f.name);
        if (c < 0)
            continue;
        Field& have = m_schema.fields[static_cast<std::size_t>(c)];
        if (have.type == f.type)
            continue;
        if (have.type == FieldType::Int && f.type == FieldType::Double) {
            for (cel::Value& v : m_columns[static_cast<std::size_t>(c)]) {
                if (!v.isError())
                    v = cel::Value::real(static_cast<double>(v.asInt()));
            }
            have.type = FieldType::Double;
            continue;
        }
        return fail(fmt::format("{}: field '{}' is declared {} but the data has it as {}", m_source, f.name,
                                toString(f.type), toString(have.type)));
    }
    return {};
}

// Repeated strings (countries, currencies, categories) are stored once per column. Columns of mostly distinct
// values (ids) stop interning after a while: the set would cost more than it saves.
struct DatasetBuilder::Interner {
    static constexpr std::size_t kMaxDistinct = 1u << 16;
    std::unordered_set<std::string_view> seen;
    bool active = true;
    std::size_t lookups = 0;
    // The strings met lately, by a cheap hash: categories repeat, so most lookups end here without hashing the
    // whole string or probing the set.
    std::array<std::string_view, 256> recent{};

    static std::size_t slot(std::string_view s)
    {
        const auto n = s.size();
        const auto b = [&](std::size_t i) { return static_cast<std::size_t>(static_cast<unsigned char>(s[i])); };
        return (n * 31 + b(0) * 7 + b(n - 1) * 13 + b(n / 2)) & 255;
    }
};

DatasetBuilder::DatasetBuilder(Schema schema, int idColumn, std::string source)
{
    m_data.m_schema = std::move(schema);
    m_data.m_idColumn = idColumn;
    m_data.m_source = std::move(source);
    const std::size_t n = m_data.m_schema.size();
    m_data.m_columns.resize(n);
    m_data.m_missing.reserve(n);
    for (const Field& f : m_data.m_schema.fields)
        m_data.m_missing.push_back(cel::makeError(m_data.m_strings, "no value for '" + f.name + "'"));
    m_interners.resize(n);
    for (auto& i : m_interners)
        i = std::make_unique<Interner>();
}

DatasetBuilder::~DatasetBuilder() = default;

void DatasetBuilder::reserve(std::size_t rows)
{
    for (auto& c : m_data.m_columns)
        c.reserve(rows);
    m_data.m_lines.reserve(rows);
}

void DatasetBuilder::addRow(std::span<const cel::Value> cells, std::int64_t line)
{
    for (std::size_t c = 0; c < m_data.m_columns.size(); ++c)
        m_data.m_columns[c].push_back(c < cells.size() ? cells[c] : m_data.m_missing[c]);
    m_data.m_lines.push_back(line);
}

cel::Value DatasetBuilder::string(std::size_t column, std::string_view text)
{
    if (text.empty())
        return cel::Value::string({});
    Interner& in = *m_interners[column];
    if (!in.active)
        return cel::Value::string(m_data.m_strings.copy(text));
    ++in.lookups;
    std::string_view& recent = in.recent[Interner::slot(text)];
    if (cel::sameBytes(recent, text))
        return cel::Value::string(recent);
    if (const auto it = in.seen.find(text); it != in.seen.end()) {
        recent = *it;
        return cel::Value::string(*it);
    }
    const std::string_view stored = m_data.m_strings.copy(text);
    in.seen.insert(stored);
    recent = stored;
    // Mostly distinct values (ids, notes): the set would only cost.
    if (in.seen.size() > Interner::kMaxDistinct || (in.lookups >= 1024 && in.seen.size() * 2 > in.lookups)) {
        in.active = false;
        in.seen = {};
        in.recent = {};
    }
    return cel::Value::string(stored);
}

void DatasetBuilder::append(DatasetBuilder&& part)
{
    for (std::size_t c = 0; c < m_data.m_columns.size(); ++c) {
        auto& from = part.m_data.m_columns[c];
        m_data.m_columns[c].insert(m_data.m_columns[c].end(), from.begin(), from.end());
        from = {};
    }
    m_data.m_lines.insert(m_data.m_lines.end(), part.m_data.m_lines.begin(), part.m_data.m_lines.end());
    m_data.m_moreStrings.push_back(std::move(part.m_data.m_strings));
    for (auto& more : part.m_data.m_moreStrings)
        m_data.m_moreStrings.push_back(std::move(more));
}

Dataset DatasetBuilder::finish()
{
    m_interners.clear();
    return std::move(m_data);
}

namespace {

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

// ---- Values as text ---------------------------------------------------------------------------------------

bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t';
}

std::string_view trimSpaces(std::string_view s)
{
    while (!s.empty() && isAsciiSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isAsciiSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (lower(a[i]) != lower(b[i]))
            return false;
    }
    return true;
}

// Numbers as inference accepts them: an optional '-', an integer part without leading zeros (zip codes and
// account numbers such as 01234 stay strings), then for doubles a fraction and/or an exponent.
struct NumberShape {
    bool isInt = false;
    bool isDouble = false;
};

NumberShape numberShape(std::string_view s)
{
    std::size_t i = 0;
    const std::size_t n = s.size();
    if (i < n && s[i] == '-')
        ++i;
    const std::size_t digits = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        ++i;
    const std::size_t intDigits = i - digits;
    if (intDigits == 0)
        return {};
    if (intDigits > 1 && s[digits] == '0')
        return {};
    if (i == n)
        return {true, true};
    bool fraction = false;
    if (s[i] == '.') {
        ++i;
        const std::size_t f = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            ++i;
        if (i == f)
            return {};
        fraction = true;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            ++i;
        const std::size_t e = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            ++i;
        if (i == e)
            return {};
        fraction = true;
    }
    if (i != n || !fraction)
        return {};
    return {false, true};
}

std::optional<std::int64_t> parseInt(std::string_view s)
{
    s = trimSpaces(s);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    std::int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<double> parseDouble(std::string_view s)
{
    s = trimSpaces(s);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<bool> parseBool(std::string_view s, bool strict)
{
    if (s == "true")
        return true;
    if (s == "false")
        return false;
    s = trimSpaces(s);
    if (equalsIgnoreCase(s, "true"))
        return true;
    if (equalsIgnoreCase(s, "false"))
        return false;
    if (strict)
        return std::nullopt;
    for (std::string_view t : {"1", "yes", "y", "t"}) {
        if (equalsIgnoreCase(s, t))
            return true;
    }
    for (std::string_view f : {"0", "no", "n", "f"}) {
        if (equalsIgnoreCase(s, f))
            return false;
    }
    return std::nullopt;
}

// RFC 3339; declared timestamp columns also take a date alone (midnight UTC) and a space for the 'T'
// with no zone (UTC), as spreadsheets write them.
std::optional<cel::Timestamp> parseTime(std::string_view s, bool strict)
{
    if (auto t = cel::parseTimestamp(s))
        return t;
    if (strict)
        return std::nullopt;
    s = trimSpaces(s);
    std::string text(s);
    if (text.size() == 10)
        text += "T00:00:00Z";
    else if (text.size() >= 19 && text[10] == ' ')
        text[10] = 'T';
    if (auto t = cel::parseTimestamp(text))
        return t;
    if (text.size() >= 19 && text.back() != 'Z' && text.find('+', 19) == std::string::npos
        && text.find('-', 19) == std::string::npos)
        return cel::parseTimestamp(text + "Z");
    return std::nullopt;
}

// What a cell may be, for inference: a bit per type.
enum : std::uint8_t { kMayInt = 1, kMayDouble = 2, kMayBool = 4, kMayTimestamp = 8, kMayAll = 15 };

std::uint8_t possibleTypes(std::string_view s, std::uint8_t mask)
{
    std::uint8_t out = 0;
    const char c = s.front();
    if ((mask & (kMayInt | kMayDouble)) && (c == '-' || (c >= '0' && c <= '9'))) {
        const NumberShape shape = numberShape(s);
        if (shape.isInt && parseInt(s))
            out |= kMayInt;
        if (shape.isDouble)
            out |= kMayDouble;
    }
    if ((mask & kMayBool) && (c == 't' || c == 'T' || c == 'f' || c == 'F') && parseBool(s, true))
        out |= kMayBool;
    if ((mask & kMayTimestamp) && s.size() >= 20 && c >= '0' && c <= '9' && cel::parseTimestamp(s))
        out |= kMayTimestamp;
    return out & mask;
}

FieldType typeFromMask(std::uint8_t mask, bool sawValue)
{
    if (!sawValue)
        return FieldType::String;
    if (mask & kMayInt)
        return FieldType::Int;
    if (mask & kMayDouble)
        return FieldType::Double;
    if (mask & kMayBool)
        return FieldType::Bool;
    if (mask & kMayTimestamp)
        return FieldType::Timestamp;
    return FieldType::String;
}

std::string quoteForMessage(std::string_view s)
{
    std::string out = "'";
    std::size_t n = 0;
    for (const char c : s) {
        if (++n > 40) {
            out += "…";
            break;
        }
        out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
    if (!cel::isValidUtf8(out))
        return "(not UTF-8)";
    return out + "'";
}

// The value of a cell of a column of type `type`; an error message when it is not one.
struct Converted {
    cel::Value value;
    const char* problem = nullptr; // "an int", "a double", ...
};

Converted convertText(std::string_view text, FieldType type, std::size_t column, DatasetBuilder* builder)
{
    if (type != FieldType::String)
        text = trimSpaces(text);
    if (text.empty() && type != FieldType::String)
        return {builder ? builder->missing(column) : cel::Value::null()};
    switch (type) {
    case FieldType::Int:
        if (auto v = parseInt(text))
            return {cel::Value::integer(*v)};
        return {{}, "an int"};
    case FieldType::Double:
        if (auto v = parseDouble(text))
            return {cel::Value::real(*v)};
        return {{}, "a double"};
    case FieldType::Bool:
        if (auto v = parseBool(text, false))
            return {cel::Value::boolean(*v)};
        return {{}, "a bool (true or false)"};
    case FieldType::Timestamp:
        if (auto v = parseTime(text, false))
            return {cel::Value::timestamp(v->seconds, v->nanos)};
        return {{}, "a timestamp (RFC 3339, such as 2024-05-01T12:00:00Z)"};
    case FieldType::String: return {builder ? builder->string(column, text) : cel::Value::null()};
    }
    return {{}, "a value"};
}

// ASCII first, 8 bytes at a time: most data is, and the full decoder is only needed where it is not.
bool isValidUtf8Fast(std::string_view s)
{
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, s.data() + i, 8);
        if (w & 0x8080808080808080ULL)
            return cel::isValidUtf8(s.substr(i));
    }
    for (; i < s.size(); ++i) {
        if (static_cast<unsigned char>(s[i]) & 0x80)
            return cel::isValidUtf8(s.substr(i));
    }
    return true;
}

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
        return fail(fmt::format("{}:{}: {}", m_source, line, message));
    }

    // A record that cannot be read: refused (the error), or skipped and counted.
    Result<void> badRow(std::int64_t line, std::string message)
    {
        if (m_o.onBadRow == BadRowPolicy::Fail)
            return fail(fmt::format("{}:{}: {} (bad row; --on-bad-row skip skips such rows)", m_source, line, message));
        ++m_report.badRows;
        if (m_report.badRowExamples.size() < m_o.maxBadRowExamples)
            m_report.badRowExamples.push_back(BadRow{line, std::move(message)});
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

private:
    const ReadOptions& m_o;
    std::string m_source;
    Input& m_input;
    ReadReport& m_report;
    std::uint64_t m_ordinal = 0;
    std::uint64_t m_ticks = 0;
    std::uint64_t m_progressBase = 0;
    std::uint64_t m_progressDivisor = 1;
};

std::string_view stripBom(std::string_view s)
{
    return s.starts_with("\xEF\xBB\xBF") ? s.substr(3) : s;
}

// ---- CSV --------------------------------------------------------------------------------------------------

struct CsvRecord {
    std::vector<std::string_view> cells; // views into the input's window or `scratch`
    std::string scratch;                 // cells with "" inside, unescaped
    std::int64_t line = 0;               // where it starts
    std::string_view raw;                // the record's bytes as read (quotes and separators included)
};

// The bytes that end an unquoted field.
constexpr std::array<bool, 256> kEndsField = [] {
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
                    break; // consume it and read on
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
    bool declared = false;
    std::uint8_t mask = kMayAll;
    bool sawValue = false;
};

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
    return columns;
}

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

// A record's cells checked against the columns; converted into `cells` when a builder is given.
std::optional<std::string> checkCsvRecord(const CsvRecord& record, std::vector<CsvColumn>& columns,
                                          DatasetBuilder* builder, std::vector<cel::Value>& cells, bool infer)
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
    if (infer) {
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
    }
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const CsvColumn& col = columns[c];
        if (!col.declared && infer)
            continue;
        const Converted v = convertText(record.cells[c], col.type, c, builder);
        if (v.problem)
            return fmt::format("field '{}': {} is not {}", col.name, quoteForMessage(record.cells[c]), v.problem);
        if (builder)
            cells[c] = v.value;
    }
    return std::nullopt;
}

// ---- CSV on every core -----------------------------------------------------------------------------------
//
// Quoting makes splitting a file into records sequential, so the calling thread splits and copies the
// records' cells into batches; worker threads check and convert the batches (or, in the first pass, infer
// types from them), each into a part with its own strings; the calling thread appends the parts in order and
// reports their bad rows in order. The result, the report and the first error are those of one thread.

struct CsvBatch {
    std::uint64_t seq = 0;
    std::string bytes;                    // the cells of every record, each followed by a ','
    std::vector<std::uint32_t> cellEnd;   // where each cell ends in `bytes`
    std::vector<std::uint32_t> firstCell; // per record, the index of its first cell; one more at the end
    std::vector<std::int64_t> lines;      // per record
    std::vector<std::pair<std::uint32_t, std::string>> broken; // records the splitter found broken: index, why

    std::size_t records() const { return lines.size(); }
    void add(const CsvRecord& record)
    {
        firstCell.push_back(static_cast<std::uint32_t>(cellEnd.size()));
        for (const std::string_view cell : record.cells) {
            bytes += cell;
            cellEnd.push_back(static_cast<std::uint32_t>(bytes.size()));
            bytes += ','; // keeps cells apart for the UTF-8 check, as in the file
        }
        lines.push_back(record.line);
    }
    void addBroken(std::int64_t line, std::string why)
    {
        broken.emplace_back(static_cast<std::uint32_t>(lines.size()), std::move(why));
        firstCell.push_back(static_cast<std::uint32_t>(cellEnd.size()));
        lines.push_back(line);
    }
};

enum class CsvPass { Infer, Convert };

struct CsvPart {
    std::uint64_t seq = 0;
    std::unique_ptr<DatasetBuilder> rows; // Convert
    std::vector<CsvColumn> columns;       // Infer: what this batch allows
    std::vector<BadRow> bad;              // Convert, in record order
    std::int64_t kept = 0;
};

CsvPart processBatch(const CsvBatch& b, const std::vector<CsvColumn>& columns, const Schema* schema, CsvPass pass)
{
    CsvPart part;
    part.seq = b.seq;
    part.columns = columns;
    if (pass == CsvPass::Convert) {
        part.rows = std::make_unique<DatasetBuilder>(*schema, -1, std::string());
        part.rows->reserve(b.records());
    }
    CsvRecord record;
    std::vector<cel::Value> cells(columns.size());
    std::size_t broken = 0;
    const std::string_view bytes = b.bytes;
    for (std::uint32_t i = 0; i < b.records(); ++i) {
        if (broken < b.broken.size() && b.broken[broken].first == i) {
            if (pass == CsvPass::Convert)
                part.bad.push_back(BadRow{b.lines[i], b.broken[broken].second});
            ++broken;
            continue;
        }
        const std::uint32_t first = b.firstCell[i];
        const std::uint32_t last =
            i + 1 < b.firstCell.size() ? b.firstCell[i + 1] : static_cast<std::uint32_t>(b.cellEnd.size());
        std::uint32_t begin = first == 0 ? 0 : b.cellEnd[first - 1] + 1;
        const std::uint32_t start = begin;
        record.cells.clear();
        for (std::uint32_t c = first; c < last; ++c) {
            record.cells.push_back(bytes.substr(begin, b.cellEnd[c] - begin));
            begin = b.cellEnd[c] + 1;
        }
        record.raw = bytes.substr(start, begin > start ? begin - start : 0);
        record.line = b.lines[i];
        const auto bad = checkCsvRecord(record, part.columns, part.rows.get(), cells, pass == CsvPass::Infer);
        if (bad) {
            if (pass == CsvPass::Convert)
                part.bad.push_back(BadRow{record.line, *bad});
            continue;
        }
        ++part.kept;
        if (part.rows)
            part.rows->addRow(cells, record.line);
    }
    return part;
}

unsigned readThreads(Reading& r)
{
    const ReadOptions& o = r.options();
    if (o.maxRows > 0 || o.threads == 1 || o.format != DataFormat::Csv)
        return 1;
    const std::uint64_t size = r.input().size();
    if (size < o.parallelMinBytes)
        return 1;
    return o.threads ? std::min(o.threads, 64u) : std::clamp(std::thread::hardware_concurrency(), 1u, 64u);
}

// One pass over the records after the header, on `threads` threads (the calling one splits and merges).
Result<void> csvPassInParallel(Reading& r, CsvReader& reader, std::vector<CsvColumn>& columns, CsvPass pass,
                               DatasetBuilder* out, unsigned threads)
{
    const std::vector<CsvColumn> snapshot = columns;
    const Schema* schema = out ? &out->schema() : nullptr;
    std::mutex mutex;
    std::condition_variable todoChanged, doneChanged;
    std::deque<CsvBatch> todo;
    std::map<std::uint64_t, CsvPart> done;
    bool finished = false;
    bool stop = false;
    const std::size_t maxQueued = 2 * threads;

    auto take = [&](CsvBatch& batch, bool wait) {
        std::unique_lock lock(mutex);
        if (wait)
            todoChanged.wait(lock, [&] { return stop || finished || !todo.empty(); });
        if (stop || todo.empty())
            return false;
        batch = std::move(todo.front());
        todo.pop_front();
        todoChanged.notify_all();
        return true;
    };
    auto work = [&](CsvBatch& batch) {
        CsvPart part = processBatch(batch, snapshot, schema, pass);
        {
            std::lock_guard lock(mutex);
            done.emplace(part.seq, std::move(part));
        }
        doneChanged.notify_all();
    };
    std::vector<std::thread> workers; // on the other cores at once: this thread reads meanwhile (threads.h)
    for (unsigned t = 1; t < threads; ++t) {
        workers.push_back(startThreadElsewhere([&] {
            CsvBatch batch;
            while (take(batch, true))
                work(batch);
        }));
    }
    auto shutDown = [&] {
        {
            std::lock_guard lock(mutex);
            stop = true;
        }
        todoChanged.notify_all();
        for (auto& w : workers)
            w.join();
        workers.clear();
    };

    std::uint64_t nextSeq = 0, nextMerge = 0;
    auto merge = [&](CsvPart& part) -> Result<void> {
        for (auto& bad : part.bad) {
            if (auto ok = r.badRow(bad.line, std::move(bad.message)); !ok)
                return ok;
        }
        r.report().kept += part.kept;
        if (pass == CsvPass::Convert) {
            out->append(std::move(*part.rows));
        } else {
            for (std::size_t c = 0; c < columns.size(); ++c) {
                columns[c].mask &= part.columns[c].mask;
                columns[c].sawValue = columns[c].sawValue || part.columns[c].sawValue;
            }
        }
        return {};
    };
    // Merges the parts that are ready, in order; with `all`, waits for every one handed out.
    auto drain = [&](bool all) -> Result<void> {
        for (;;) {
            CsvPart part;
            {
                std::unique_lock lock(mutex);
                if (all)
                    doneChanged.wait(lock, [&] { return nextMerge == nextSeq || done.contains(nextMerge); });
                const auto it = done.find(nextMerge);
                if (it == done.end())
                    return {};
                part = std::move(it->second);
                done.erase(it);
            }
            ++nextMerge;
            if (auto ok = merge(part); !ok)
                return ok;
        }
    };
    auto hand = [&](CsvBatch&& batch) {
        batch.seq = nextSeq++;
        std::unique_lock lock(mutex);
        todoChanged.wait(lock, [&] { return todo.size() < maxQueued; });
        todo.push_back(std::move(batch));
        lock.unlock();
        todoChanged.notify_all();
    };

    // No more batches: the calling thread converts what is left too.
    auto finishAll = [&] {
        {
            std::lock_guard lock(mutex);
            finished = true;
        }
        todoChanged.notify_all();
        CsvBatch left;
        while (take(left, false))
            work(left);
    };

    CsvBatch batch;
    CsvRecord record;
    std::string problem;
    const std::size_t batchRecords = std::max<std::size_t>(r.options().batchRecords, 1);
    for (;;) {
        if (auto ok = r.tick(); !ok) {
            shutDown();
            return ok;
        }
        auto status = reader.next(record, problem);
        if (!status) {
            // A bad row before this point is what one thread would have stopped at: finish what was read.
            if (batch.records() > 0)
                hand(std::move(batch));
            finishAll();
            if (auto ok = drain(true); !ok) {
                shutDown();
                return ok;
            }
            shutDown();
            return std::unexpected(status.error());
        }
        if (*status == CsvReader::Status::End)
            break;
        if (!r.select())
            continue;
        if (*status == CsvReader::Status::Bad)
            batch.addBroken(record.line, problem);
        else
            batch.add(record);
        if (batch.records() >= batchRecords || batch.bytes.size() >= (4u << 20)) {
            const std::size_t bytes = batch.bytes.size(), cells = batch.cellEnd.size();
            hand(std::move(batch));
            batch = CsvBatch{};
            batch.bytes.reserve(bytes + bytes / 4);
            batch.cellEnd.reserve(cells + cells / 4);
            batch.firstCell.reserve(batchRecords);
            batch.lines.reserve(batchRecords);
            if (auto ok = drain(false); !ok) {
                shutDown();
                return ok;
            }
        }
    }
    if (batch.records() > 0)
        hand(std::move(batch));
    finishAll();
    auto ok = drain(true);
    shutDown();
    return ok;
}

Result<Dataset> readCsv(Reading& r)
{
    CsvReader reader(r);
    CsvRecord record;
    auto header = readCsvHeader(r, reader, record);
    if (!header)
        return std::unexpected(header.error());
    std::vector<CsvColumn> columns = std::move(*header);
    std::vector<std::string> names;
    for (const auto& c : columns)
        names.push_back(c.name);
    std::string idError;
    const int idColumn = resolveIdColumn(r.options(), names, idError);
    if (!idError.empty())
        return fail(fmt::format("{}: {}", r.source(), idError));
    if (idColumn >= 0 && !columns[static_cast<std::size_t>(idColumn)].declared)
        columns[static_cast<std::size_t>(idColumn)].declared = true; // ids are text: 007 stays 007

    const bool twoPasses = std::any_of(columns.begin(), columns.end(), [](const CsvColumn& c) { return !c.declared; });
    std::vector<cel::Value> cells(columns.size());
    std::string problem;
    std::int64_t keptInPass1 = 0;
    const unsigned threads = readThreads(r);
    if (twoPasses) {
        // Pass 1: the types of the undeclared columns, from exactly the records pass 2 keeps.
        r.setPass(1, true);
        if (threads > 1) {
            if (auto ok = csvPassInParallel(r, reader, columns, CsvPass::Infer, nullptr, threads); !ok)
                return std::unexpected(ok.error());
        } else {
            for (;;) {
                if (auto ok = r.tick(); !ok)
                    return std::unexpected(ok.error());
                auto status = reader.next(record, problem);
                if (!status)
                    return std::unexpected(status.error());
                if (*status == CsvReader::Status::End)
                    break;
                if (!r.select() || *status == CsvReader::Status::Bad)
                    continue;
                if (checkCsvRecord(record, columns, nullptr, cells, true))
                    continue;
                r.kept();
                if (r.full())
                    break;
            }
        }
        keptInPass1 = r.report().kept;
        for (auto& c : columns) {
            if (!c.declared)
                c.type = typeFromMask(c.mask, c.sawValue);
            c.declared = true;
        }
        if (auto ok = r.input().rewind(); !ok)
            return std::unexpected(ok.error());
        r.restart();
        reader.restart();
        if (auto again = readCsvHeader(r, reader, record); !again)
            return std::unexpected(again.error());
    }

    Schema schema;
    for (const auto& c : columns)
        schema.fields.push_back(Field{c.name, c.type});
    DatasetBuilder builder(std::move(schema), idColumn, r.source());
    if (twoPasses) {
        builder.reserve(static_cast<std::size_t>(keptInPass1));
    } else if (r.input().size() > 0 && r.options().sample >= 1.0) {
        // One pass: guess the rows from the first block's lines, so the columns grow once or not at all.
        const std::string_view w = r.input().window();
        const auto lines = static_cast<std::uint64_t>(std::count(w.begin(), w.end(), '\n'));
        if (lines > 0 && !w.empty()) {
            std::uint64_t rows = r.input().size() * lines / w.size() + lines / 8 + 16;
            if (r.options().maxRows > 0)
                rows = std::min<std::uint64_t>(rows, r.options().maxRows);
            builder.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(rows, 1u << 27)));
        }
    }
    r.setPass(2, twoPasses);
    if (threads > 1) {
        if (auto ok = csvPassInParallel(r, reader, columns, CsvPass::Convert, &builder, threads); !ok)
            return std::unexpected(ok.error());
    } else {
        for (;;) {
            if (auto ok = r.tick(); !ok)
                return std::unexpected(ok.error());
            auto status = reader.next(record, problem);
            if (!status)
                return std::unexpected(status.error());
            if (*status == CsvReader::Status::End)
                break;
            if (!r.select())
                continue;
            if (*status == CsvReader::Status::Bad) {
                if (auto ok = r.badRow(record.line, problem); !ok)
                    return std::unexpected(ok.error());
                continue;
            }
            if (auto bad = checkCsvRecord(record, columns, &builder, cells, false)) {
                if (auto ok = r.badRow(record.line, *bad); !ok)
                    return std::unexpected(ok.error());
                continue;
            }
            builder.addRow(cells, record.line);
            r.kept();
            if (r.full()) {
                r.report().stoppedAtMaxRows = true;
                break;
            }
        }
    }
    return builder.finish();
}

// ---- JSON Lines -------------------------------------------------------------------------------------------

class LineReader {
public:
    explicit LineReader(Reading& reading) : m_r(reading) {}

    // The next line that is not blank; false at the end.
    Result<bool> next(std::string_view& line, std::int64_t& number)
    {
        Input& in = m_r.input();
        for (;;) {
            in.consume(m_pending);
            m_pending = 0;
            std::string_view w = in.window();
            const void* nl = std::memchr(w.data(), '\n', w.size());
            if (!nl && !in.eof()) {
                if (w.size() >= m_r.options().maxRecordBytes)
                    return m_r.fatal(m_line, fmt::format("a line longer than {} bytes: not JSON Lines text",
                                                         m_r.options().maxRecordBytes));
                auto more = in.more();
                if (!more)
                    return std::unexpected(more.error());
                if (!*more && !in.eof())
                    return m_r.fatal(m_line, fmt::format("a line longer than {} bytes: not JSON Lines text",
                                                         m_r.options().maxRecordBytes));
                continue;
            }
            if (w.empty())
                return false;
            const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - w.data()) : w.size();
            if (end > m_r.options().maxRecordBytes)
                return m_r.fatal(m_line, fmt::format("a line longer than {} bytes: not JSON Lines text",
                                                     m_r.options().maxRecordBytes));
            m_pending = nl ? end + 1 : end;
            std::string_view text = w.substr(0, end);
            if (m_first) {
                m_first = false;
                text = stripBom(text);
            }
            if (!text.empty() && text.back() == '\r')
                text.remove_suffix(1);
            number = m_line++;
            if (std::memchr(text.data(), 0, text.size()) != nullptr)
                return m_r.fatal(number, "binary content (a NUL byte): not JSON Lines text");
            if (text.find_first_not_of(" \t\r") == std::string_view::npos)
                continue;
            line = text;
            return true;
        }
    }

    void restart()
    {
        m_pending = 0;
        m_line = 1;
        m_first = true;
    }

private:
    Reading& m_r;
    std::size_t m_pending = 0;
    std::int64_t m_line = 1;
    bool m_first = true;
};

using Json = nlohmann::ordered_json; // fields in the order the line has them

// The fields of one JSON object, nested objects flattened to dotted names.
struct FlatField {
    std::string name;
    const Json* value = nullptr;
};

std::optional<std::string> flatten(const Json& object, const std::string& prefix, std::vector<FlatField>& out,
                                   int depth)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        std::string name = prefix.empty() ? it.key() : prefix + "." + it.key();
        const Json& v = it.value();
        if (v.is_object()) {
            if (depth >= 8)
                return fmt::format("field '{}' nests objects deeper than 8 levels", name);
            if (auto bad = flatten(v, name, out, depth + 1))
                return bad;
            continue;
        }
        if (v.is_array())
            return fmt::format("field '{}' is an array; dataset fields are int, double, bool, string or timestamp",
                               name);
        if (v.is_binary())
            return fmt::format("field '{}' is binary", name);
        out.push_back(FlatField{std::move(name), &v});
    }
    return std::nullopt;
}

std::optional<std::string> parseJsonLine(std::string_view line, Json& json, std::vector<FlatField>& fields)
{
    if (!isValidUtf8Fast(line))
        return std::string("not UTF-8 text");
    bool tooDeep = false;
    json = Json::parse(
        line,
        [&](int depth, Json::parse_event_t, Json&) {
            tooDeep = tooDeep || depth > 16;
            return !tooDeep;
        },
        false);
    if (tooDeep)
        return std::string("nests deeper than 16 levels");
    if (json.is_discarded())
        return std::string("not valid JSON");
    if (!json.is_object())
        return std::string("not a JSON object ({\"field\": value, ...})");
    fields.clear();
    return flatten(json, "", fields, 0);
}

enum : std::uint8_t { kJsonInt = 1, kJsonDouble = 2, kJsonBool = 4, kJsonString = 8, kJsonNotTime = 16 };

std::string jsonText(const Json& v)
{
    if (v.is_string())
        return v.get<std::string>();
    return v.dump();
}

Converted convertJson(const Json& v, FieldType type, std::size_t column, DatasetBuilder* builder)
{
    if (v.is_null())
        return {builder ? builder->missing(column) : cel::Value::null()};
    switch (type) {
    case FieldType::Int:
        if (v.is_number_integer()) {
            if (v.is_number_unsigned()
                && v.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
                return {{}, "an int (it is out of range)"};
            return {cel::Value::integer(v.get<std::int64_t>())};
        }
        if (v.is_number_float()) {
            const double d = v.get<double>();
            if (std::trunc(d) == d && std::fabs(d) < 9.2e18)
                return {cel::Value::integer(static_cast<std::int64_t>(d))};
        }
        if (v.is_string()) {
            if (auto i = parseInt(v.get_ref<const std::string&>()))
                return {cel::Value::integer(*i)};
        }
        return {{}, "an int"};
    case FieldType::Double:
        if (v.is_number())
            return {cel::Value::real(v.get<double>())};
        if (v.is_string()) {
            if (auto d = parseDouble(v.get_ref<const std::string&>()))
                return {cel::Value::real(*d)};
        }
        return {{}, "a double"};
    case FieldType::Bool:
        if (v.is_boolean())
            return {cel::Value::boolean(v.get<bool>())};
        if (v.is_string()) {
            if (auto b = parseBool(v.get_ref<const std::string&>(), false))
                return {cel::Value::boolean(*b)};
        }
        return {{}, "a bool"};
    case FieldType::Timestamp:
        if (v.is_string()) {
            if (auto t = parseTime(v.get_ref<const std::string&>(), false))
                return {cel::Value::timestamp(t->seconds, t->nanos)};
        }
        return {{}, "a timestamp (RFC 3339, such as 2024-05-01T12:00:00Z)"};
    case FieldType::String:
        if (!builder)
            return {cel::Value::null()};
        if (v.is_string())
            return {builder->string(column, v.get_ref<const std::string&>())};
        return {builder->string(column, jsonText(v))};
    }
    return {{}, "a value"};
}

struct JsonColumn {
    std::string name;
    FieldType type = FieldType::String;
    bool declared = false;
    std::uint8_t kinds = 0;
};

Result<Dataset> readJsonLines(Reading& r)
{
    LineReader reader(r);
    std::vector<JsonColumn> columns;
    std::unordered_map<std::string, std::size_t> index;
    Json json;
    std::vector<FlatField> fields;
    std::string_view line;
    std::int64_t number = 0;

    auto declaredType = [&](const std::string& name) -> std::optional<FieldType> {
        for (const Field& f : r.options().declared) {
            if (f.name == name)
                return f.type;
        }
        if (name == (r.options().idColumn.empty() ? "id" : r.options().idColumn))
            return FieldType::String;
        return std::nullopt;
    };

    // Whether the record's declared fields all hold values of their type (else why not).
    auto checkDeclared = [&]() -> std::optional<std::string> {
        for (const FlatField& f : fields) {
            if (auto t = declaredType(f.name)) {
                const Converted v = convertJson(*f.value, *t, 0, nullptr);
                if (v.problem)
                    return fmt::format("field '{}': {} is not {}", f.name, quoteForMessage(f.value->dump()), v.problem);
            }
        }
        return std::nullopt;
    };

    // Pass 1: the columns (in order of first appearance) and their types.
    r.setPass(1, true);
    for (;;) {
        if (auto ok = r.tick(); !ok)
            return std::unexpected(ok.error());
        auto got = reader.next(line, number);
        if (!got)
            return std::unexpected(got.error());
        if (!*got)
            break;
        if (!r.select())
            continue;
        if (parseJsonLine(line, json, fields) || checkDeclared())
            continue;
        for (const FlatField& f : fields) {
            auto [it, inserted] = index.emplace(f.name, columns.size());
            if (inserted) {
                if (columns.size() >= r.options().maxColumns)
                    return r.fatal(number, fmt::format("more than {} distinct fields", r.options().maxColumns));
                JsonColumn c;
                c.name = f.name;
                if (auto t = declaredType(f.name)) {
                    c.type = *t;
                    c.declared = true;
                }
                columns.push_back(std::move(c));
            }
            JsonColumn& c = columns[it->second];
            const Json& v = *f.value;
            if (v.is_number_integer())
                c.kinds |= kJsonInt;
            else if (v.is_number_float())
                c.kinds |= kJsonDouble;
            else if (v.is_boolean())
                c.kinds |= kJsonBool;
            else if (v.is_string()) {
                c.kinds |= kJsonString;
                if (!(c.kinds & kJsonNotTime) && !cel::parseTimestamp(v.get_ref<const std::string&>()))
                    c.kinds |= kJsonNotTime;
            }
        }
        r.kept();
        if (r.full())
            break;
    }
    const std::int64_t keptInPass1 = r.report().kept;
    for (auto& c : columns) {
        if (c.declared)
            continue;
        const std::uint8_t k = c.kinds & ~kJsonNotTime;
        if (k == 0)
            c.type = FieldType::String;
        else if (k == kJsonInt)
            c.type = FieldType::Int;
        else if ((k & ~(kJsonInt | kJsonDouble)) == 0)
            c.type = FieldType::Double;
        else if (k == kJsonBool)
            c.type = FieldType::Bool;
        else if (k == kJsonString && !(c.kinds & kJsonNotTime))
            c.type = FieldType::Timestamp;
        else
            c.type = FieldType::String;
    }
    std::vector<std::string> names;
    for (const auto& c : columns)
        names.push_back(c.name);
    std::string idError;
    const int idColumn = resolveIdColumn(r.options(), names, idError);
    if (!idError.empty())
        return fail(fmt::format("{}: {}", r.source(), idError));

    if (auto ok = r.input().rewind(); !ok)
        return std::unexpected(ok.error());
    r.restart();
    reader.restart();

    Schema schema;
    for (const auto& c : columns)
        schema.fields.push_back(Field{c.name, c.type});
    DatasetBuilder builder(std::move(schema), idColumn, r.source());
    builder.reserve(static_cast<std::size_t>(keptInPass1));
    std::vector<cel::Value> cells(columns.size());
    r.setPass(2, true);
    for (;;) {
        if (auto ok = r.tick(); !ok)
            return std::unexpected(ok.error());
        auto got = reader.next(line, number);
        if (!got)
            return std::unexpected(got.error());
        if (!*got)
            break;
        if (!r.select())
            continue;
        auto bad = parseJsonLine(line, json, fields);
        if (!bad)
            bad = checkDeclared();
        if (!bad) {
            for (std::size_t c = 0; c < columns.size(); ++c)
                cells[c] = builder.missing(c);
            for (const FlatField& f : fields) {
                const auto it = index.find(f.name);
                if (it == index.end()) {
                    bad = fmt::format("field '{}' was not seen when the columns were read", f.name);
                    break;
                }
                const std::size_t c = it->second;
                const Converted v = convertJson(*f.value, columns[c].type, c, &builder);
                if (v.problem) {
                    bad = fmt::format("field '{}': {} is not {}", f.name, quoteForMessage(f.value->dump()), v.problem);
                    break;
                }
                cells[c] = v.value;
            }
        }
        if (bad) {
            if (auto ok = r.badRow(number, *bad); !ok)
                return std::unexpected(ok.error());
            continue;
        }
        builder.addRow(cells, number);
        r.kept();
        if (r.full()) {
            r.report().stoppedAtMaxRows = true;
            break;
        }
    }
    return builder.finish();
}

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
