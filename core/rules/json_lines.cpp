#include "cell_types.h"
#include "dataset_reading.h"

#include "cel/utf8.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unordered_map>
#include <unordered_set>

namespace sb::rules::datafile {

namespace {

// ---- JSON Lines -------------------------------------------------------------------------------------------

class LineReader {
public:
    explicit LineReader(Reading& reading) : m_r(reading) { restart(); }

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

    // At the input's first line: a shard's is the whole input's line lineOffset + 1, with a byte-order mark to
    // skip only where the whole input starts.
    void restart()
    {
        m_pending = 0;
        m_line = 1 + m_r.options().lineOffset;
        m_first = m_r.options().atInputStart;
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
    std::int64_t firstLine = 0;
};

// An undeclared column's type: the one kind of value it holds (ints and doubles together make a double,
// strings that all read as timestamps a timestamp), else a string.
FieldType typeFromKinds(std::uint8_t kinds)
{
    const std::uint8_t k = kinds & ~kJsonNotTime;
    if (k == 0)
        return FieldType::String;
    if (k == kJsonInt)
        return FieldType::Int;
    if ((k & ~(kJsonInt | kJsonDouble)) == 0)
        return FieldType::Double;
    if (k == kJsonBool)
        return FieldType::Bool;
    if (k == kJsonString && !(kinds & kJsonNotTime))
        return FieldType::Timestamp;
    return FieldType::String;
}

// Two passes over the lines: the first finds the columns (in order of first appearance) and their types, the
// second converts the records.
class JsonLinesRead {
public:
    explicit JsonLinesRead(Reading& r) : m_r(r), m_reader(r) {}

    Result<Dataset> run()
    {
        std::int64_t keptInPass1 = 0;
        if (const auto& settled = m_r.options().columns) {
            for (const Field& f : *settled) {
                m_index.emplace(f.name, m_columns.size());
                m_columns.push_back(JsonColumn{f.name, f.type, true, 0, 0});
            }
        } else {
            auto kept = findColumns();
            if (!kept)
                return std::unexpected(kept.error());
            keptInPass1 = *kept;
            settleTypes();
        }
        std::vector<std::string> names;
        for (const auto& c : m_columns)
            names.push_back(c.name);
        std::string idError;
        const int idColumn = resolveIdColumn(m_r.options(), names, idError);
        if (!idError.empty())
            return fail(fmt::format("{}: {}", m_r.source(), idError));

        if (!m_r.options().columns) {
            if (auto ok = m_r.input().rewind(); !ok)
                return std::unexpected(ok.error());
            m_r.restart();
            m_reader.restart();
        }
        return readRecords(idColumn, keptInPass1);
    }

    // The first pass alone. Stopped by an error at a line (a line too long, binary content), it keeps the columns
    // seen before that line and the error; past maxColumns distinct fields it stops with them and one more:
    // what a merge of shards' scans needs to tell which came first in the whole input (mergeScans).
    Result<ColumnScan> scan()
    {
        m_scanning = true;
        ColumnScan out;
        out.format = DataFormat::JsonLines;
        auto kept = findColumns();
        if (!kept) {
            if (m_r.fatalLine() == 0)
                return std::unexpected(kept.error());
            out.error = kept.error().message;
            out.errorLine = m_r.fatalLine();
        }
        for (const auto& c : m_columns) {
            ColumnScan::Column column;
            column.name = c.name;
            if (c.declared)
                column.declared = c.type;
            column.allowed = c.kinds;
            column.firstLine = c.firstLine;
            out.columns.push_back(std::move(column));
        }
        return out;
    }

private:
    std::optional<FieldType> declaredType(const std::string& name) const
    {
        for (const Field& f : m_r.options().declared) {
            if (f.name == name)
                return f.type;
        }
        if (name == (m_r.options().idColumn.empty() ? "id" : m_r.options().idColumn))
            return FieldType::String;
        return std::nullopt;
    }

    // Whether the record's declared fields all hold values of their type (else why not).
    std::optional<std::string> checkDeclared() const
    {
        for (const FlatField& f : m_fields) {
            if (auto t = declaredType(f.name)) {
                const Converted v = convertJson(*f.value, *t, 0, nullptr);
                if (v.problem)
                    return fmt::format("field '{}': {} is not {}", f.name, quoteForMessage(f.value->dump()), v.problem);
            }
        }
        return std::nullopt;
    }

    // The next line sampling selects; false at the end.
    Result<bool> nextSelected()
    {
        for (;;) {
            if (auto ok = m_r.tick(); !ok)
                return std::unexpected(ok.error());
            auto got = m_reader.next(m_line, m_number);
            if (!got || !*got)
                return got;
            if (m_r.select())
                return true;
        }
    }

    // Pass 1: the columns and the kinds of value each holds. The records kept.
    Result<std::int64_t> findColumns()
    {
        m_r.setPass(1, true);
        for (;;) {
            auto got = nextSelected();
            if (!got)
                return std::unexpected(got.error());
            if (!*got)
                break;
            if (parseJsonLine(m_line, m_json, m_fields) || checkDeclared())
                continue;
            for (const FlatField& f : m_fields) {
                auto [it, inserted] = m_index.emplace(f.name, m_columns.size());
                if (inserted) {
                    if (m_columns.size() >= m_r.options().maxColumns && !m_scanning)
                        return m_r.fatal(m_number, fmt::format("more than {} distinct fields", m_r.options().maxColumns));
                    JsonColumn c;
                    c.name = f.name;
                    c.firstLine = m_number;
                    if (auto t = declaredType(f.name)) {
                        c.type = *t;
                        c.declared = true;
                    }
                    m_columns.push_back(std::move(c));
                    if (m_columns.size() > m_r.options().maxColumns)
                        return m_r.report().kept; // scanning: one column too many, where it appears
                }
                noteKind(m_columns[it->second], *f.value);
            }
            m_r.kept();
            if (m_r.full())
                break;
        }
        return m_r.report().kept;
    }

    static void noteKind(JsonColumn& c, const Json& v)
    {
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

    void settleTypes()
    {
        for (auto& c : m_columns) {
            if (!c.declared)
                c.type = typeFromKinds(c.kinds);
        }
    }

    // The current line's record as cells of the columns; why not, when it is a bad row.
    std::optional<std::string> convertRecord(DatasetBuilder& builder, std::vector<cel::Value>& cells)
    {
        if (auto bad = parseJsonLine(m_line, m_json, m_fields))
            return bad;
        if (auto bad = checkDeclared())
            return bad;
        for (std::size_t c = 0; c < m_columns.size(); ++c)
            cells[c] = builder.missing(c);
        for (const FlatField& f : m_fields) {
            const auto it = m_index.find(f.name);
            if (it == m_index.end())
                return fmt::format("field '{}' was not seen when the columns were read", f.name);
            const std::size_t c = it->second;
            const Converted v = convertJson(*f.value, m_columns[c].type, c, &builder);
            if (v.problem)
                return fmt::format("field '{}': {} is not {}", f.name, quoteForMessage(f.value->dump()), v.problem);
            cells[c] = v.value;
        }
        return std::nullopt;
    }

    // Pass 2: the records, converted to the columns' types.
    Result<Dataset> readRecords(int idColumn, std::int64_t keptInPass1)
    {
        Schema schema;
        for (const auto& c : m_columns)
            schema.fields.push_back(Field{c.name, c.type});
        DatasetBuilder builder(std::move(schema), idColumn, m_r.source());
        builder.reserve(static_cast<std::size_t>(keptInPass1));
        std::vector<cel::Value> cells(m_columns.size());
        m_r.setPass(2, true);
        for (;;) {
            auto got = nextSelected();
            if (!got)
                return std::unexpected(got.error());
            if (!*got)
                break;
            if (auto bad = convertRecord(builder, cells)) {
                if (auto ok = m_r.badRow(m_number, *bad); !ok)
                    return std::unexpected(ok.error());
                continue;
            }
            builder.addRow(cells, m_number);
            m_r.kept();
            if (m_r.full()) {
                m_r.report().stoppedAtMaxRows = true;
                break;
            }
        }
        return builder.finish();
    }

    Reading& m_r;
    LineReader m_reader;
    std::vector<JsonColumn> m_columns;
    std::unordered_map<std::string, std::size_t> m_index;
    Json m_json;
    std::vector<FlatField> m_fields;
    std::string_view m_line;
    std::int64_t m_number = 0;
    bool m_scanning = false;
};

} // namespace

Result<Dataset> readJsonLines(Reading& r)
{
    return JsonLinesRead(r).run();
}

Result<ColumnScan> scanJsonLines(Reading& r)
{
    return JsonLinesRead(r).scan();
}

FieldType jsonTypeFromKinds(std::uint8_t kinds)
{
    return typeFromKinds(kinds);
}

} // namespace sb::rules::datafile
