#include "rules/dataset.h"

#include "cel/time.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <iterator>
#include <memory>
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

const std::string& Dataset::recordSource(std::size_t row) const
{
    const auto after = std::upper_bound(m_parts.begin(), m_parts.end(), row,
                                        [](std::size_t r, const auto& part) { return r < part.first; });
    return after == m_parts.begin() ? m_source : std::prev(after)->second;
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

void DatasetBuilder::append(Dataset&& part)
{
    m_data.m_parts.emplace_back(rowCount(), std::move(part.m_source));
    for (std::size_t c = 0; c < m_data.m_columns.size(); ++c) {
        auto& from = part.m_columns[c];
        m_data.m_columns[c].insert(m_data.m_columns[c].end(), from.begin(), from.end());
        from = {};
    }
    m_data.m_lines.insert(m_data.m_lines.end(), part.m_lines.begin(), part.m_lines.end());
    part.m_lines = {};
    m_data.m_moreStrings.push_back(std::move(part.m_strings));
    for (auto& more : part.m_moreStrings)
        m_data.m_moreStrings.push_back(std::move(more));
}

Dataset DatasetBuilder::finish()
{
    m_interners.clear();
    return std::move(m_data);
}

} // namespace sb::rules
