#include "rules/dataset_store.h"

#include "store/audit.h"
#include "store/sqlite_db.h"
#include "store/store.h"
#include "util/hash.h"
#include "util/time_text.h"
#include "util/varint.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <zstd.h>

#include <algorithm>
#include <cstring>

namespace sb::rules {

namespace {

constexpr std::string_view kMagic = "SBDS1\n";
// A snapshot larger than this (uncompressed) is refused on load: beyond what this machine could hold anyway,
// and a damaged header must not make us allocate without bound.
constexpr std::uint64_t kMaxSnapshotBytes = 16ull << 30;

// ---- Encoding ---------------------------------------------------------------------------------------------
//
//   "SBDS1\n", u32 header length, header JSON {"rows", "id_column", "columns": [{"name", "type"}]},
//   the source lines (varints of the zig-zag deltas), then per column: a byte 0 (no value missing) or 1
//   followed by a bitmap of the missing ones (bit set: missing), then the values: int64 (Int, Timestamp
//   seconds, then int32 nanos for Timestamp), the IEEE bits of Double, a byte per Bool, and for String a u32
//   length per row followed by the bytes. Integers little-endian.

template <typename T> void put(std::string& out, T v)
{
    char buf[sizeof(T)];
    std::memcpy(buf, &v, sizeof(T));
    out.append(buf, sizeof(T));
}

class Cursor {
public:
    explicit Cursor(std::string_view bytes) : m_bytes(bytes) {}
    template <typename T> bool get(T& v)
    {
        if (m_pos + sizeof(T) > m_bytes.size())
            return false;
        std::memcpy(&v, m_bytes.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return true;
    }
    bool varint(std::uint64_t& v)
    {
        v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_pos >= m_bytes.size())
                return false;
            const auto b = static_cast<std::uint8_t>(m_bytes[m_pos++]);
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80))
                return true;
        }
        return false;
    }
    bool take(std::size_t n, std::string_view& out)
    {
        if (n > m_bytes.size() - m_pos)
            return false;
        out = m_bytes.substr(m_pos, n);
        m_pos += n;
        return true;
    }
    bool atEnd() const { return m_pos == m_bytes.size(); }

private:
    std::string_view m_bytes;
    std::size_t m_pos = 0;
};

} // namespace

std::string encodeSnapshot(const Dataset& data)
{
    return encodeSnapshot(data, 0, data.rowCount());
}

std::string encodeSnapshot(const Dataset& data, std::size_t first, std::size_t count)
{
    first = std::min(first, data.rowCount());
    const std::size_t n = std::min(count, data.rowCount() - first);
    nlohmann::ordered_json columns = nlohmann::ordered_json::array();
    for (const Field& f : data.schema().fields)
        columns.push_back({{"name", f.name}, {"type", toString(f.type)}});
    const std::string header =
        nlohmann::ordered_json{{"rows", n}, {"id_column", data.idColumn()}, {"columns", columns}}.dump();
    std::string out(kMagic);
    put(out, static_cast<std::uint32_t>(header.size()));
    out += header;
    std::int64_t previous = 0;
    for (std::size_t row = first; row < first + n; ++row) {
        const std::int64_t delta = data.sourceLine(row) - previous;
        previous = data.sourceLine(row);
        putVarint(out, (static_cast<std::uint64_t>(delta) << 1) ^ static_cast<std::uint64_t>(delta >> 63));
    }
    for (std::size_t c = 0; c < data.columnCount(); ++c) {
        const auto cells = data.column(c).subspan(first, n);
        const bool anyMissing =
            std::any_of(cells.begin(), cells.end(), [](const cel::Value& v) { return v.isError(); });
        out.push_back(anyMissing ? 1 : 0);
        if (anyMissing) {
            std::string bitmap((n + 7) / 8, '\0');
            for (std::size_t row = 0; row < n; ++row) {
                if (cells[row].isError())
                    bitmap[row / 8] = static_cast<char>(bitmap[row / 8] | (1 << (row % 8)));
            }
            out += bitmap;
        }
        switch (data.schema().fields[c].type) {
        case FieldType::Int:
            for (const auto& v : cells)
                put<std::int64_t>(out, v.isError() ? 0 : v.asInt());
            break;
        case FieldType::Double:
            for (const auto& v : cells)
                put<double>(out, v.isError() ? 0.0 : v.asDouble());
            break;
        case FieldType::Bool:
            for (const auto& v : cells)
                out.push_back(!v.isError() && v.asBool() ? 1 : 0);
            break;
        case FieldType::Timestamp:
            for (const auto& v : cells)
                put<std::int64_t>(out, v.isError() ? 0 : v.seconds());
            for (const auto& v : cells)
                put<std::int32_t>(out, v.isError() ? 0 : v.nanos());
            break;
        case FieldType::String:
            for (const auto& v : cells)
                put<std::uint32_t>(out, v.isError() ? 0 : static_cast<std::uint32_t>(v.asString().size()));
            for (const auto& v : cells) {
                if (!v.isError())
                    out += v.asString();
            }
            break;
        }
    }
    return out;
}

Result<Dataset> decodeSnapshot(std::string_view bytes, std::string source)
{
    auto damaged = [&](std::string_view what) {
        return fail(fmt::format("{}: the stored snapshot is damaged ({})", source, what));
    };
    if (!bytes.starts_with(kMagic))
        return damaged("not a Sandbench snapshot");
    Cursor in(bytes.substr(kMagic.size()));
    std::uint32_t headerSize = 0;
    std::string_view headerText;
    if (!in.get(headerSize) || !in.take(headerSize, headerText))
        return damaged("header");
    const auto header = nlohmann::json::parse(headerText, nullptr, false);
    if (!header.is_object() || !header.contains("rows") || !header["rows"].is_number_unsigned()
        || !header.contains("columns") || !header["columns"].is_array() || !header.contains("id_column")
        || !header["id_column"].is_number_integer())
        return damaged("header");
    const auto n = header["rows"].get<std::uint64_t>();
    if (n > bytes.size()) // every row takes at least a byte (its line)
        return damaged("row count");
    Schema schema;
    for (const auto& c : header["columns"]) {
        if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("type")
            || !c["type"].is_string())
            return damaged("columns");
        const auto type = fieldTypeFromString(c["type"].get<std::string>());
        if (!type)
            return damaged("column type");
        schema.fields.push_back(Field{c["name"].get<std::string>(), *type});
    }
    const auto idColumn = header["id_column"].get<std::int64_t>();
    if (idColumn < -1 || idColumn >= static_cast<std::int64_t>(schema.size()))
        return damaged("id column");
    DatasetBuilder builder(schema, static_cast<int>(idColumn), std::move(source));
    std::vector<std::int64_t>& lines = builder.lines();
    lines.resize(n);
    std::int64_t line = 0;
    for (std::uint64_t row = 0; row < n; ++row) {
        std::uint64_t z = 0;
        if (!in.varint(z))
            return damaged("lines");
        line += static_cast<std::int64_t>((z >> 1) ^ (~(z & 1) + 1));
        lines[row] = line;
    }
    for (std::size_t c = 0; c < schema.size(); ++c) {
        std::uint8_t flag = 0;
        if (!in.get(flag) || flag > 1)
            return damaged("column " + schema.fields[c].name);
        std::string_view bitmap;
        if (flag && !in.take((n + 7) / 8, bitmap))
            return damaged("column " + schema.fields[c].name);
        auto missing = [&](std::uint64_t row) {
            return flag && (static_cast<std::uint8_t>(bitmap[row / 8]) >> (row % 8)) & 1;
        };
        std::vector<cel::Value>& cells = builder.columnCells(c);
        cells.resize(n);
        const cel::Value none = builder.missing(c);
        bool ok = true;
        switch (schema.fields[c].type) {
        case FieldType::Int:
            for (std::uint64_t row = 0; row < n && ok; ++row) {
                std::int64_t v = 0;
                ok = in.get(v);
                cells[row] = missing(row) ? none : cel::Value::integer(v);
            }
            break;
        case FieldType::Double:
            for (std::uint64_t row = 0; row < n && ok; ++row) {
                double v = 0;
                ok = in.get(v);
                cells[row] = missing(row) ? none : cel::Value::real(v);
            }
            break;
        case FieldType::Bool:
            for (std::uint64_t row = 0; row < n && ok; ++row) {
                std::uint8_t v = 0;
                ok = in.get(v);
                cells[row] = missing(row) ? none : cel::Value::boolean(v != 0);
            }
            break;
        case FieldType::Timestamp: {
            std::vector<std::int64_t> seconds(n);
            for (std::uint64_t row = 0; row < n && ok; ++row)
                ok = in.get(seconds[row]);
            for (std::uint64_t row = 0; row < n && ok; ++row) {
                std::int32_t nanos = 0;
                ok = in.get(nanos) && nanos >= 0 && nanos < 1'000'000'000;
                cells[row] = missing(row) ? none : cel::Value::timestamp(seconds[row], nanos);
            }
            break;
        }
        case FieldType::String: {
            std::vector<std::uint32_t> sizes(n);
            for (std::uint64_t row = 0; row < n && ok; ++row)
                ok = in.get(sizes[row]);
            for (std::uint64_t row = 0; row < n && ok; ++row) {
                std::string_view text;
                ok = in.take(sizes[row], text);
                cells[row] = missing(row) ? none : builder.string(c, text);
            }
            break;
        }
        }
        if (!ok)
            return damaged("column " + schema.fields[c].name);
    }
    if (!in.atEnd())
        return damaged("trailing bytes");
    return builder.finish();
}

Result<std::string> compressSnapshot(std::string_view snapshot)
{
    std::string compressed(ZSTD_compressBound(snapshot.size()), '\0');
    const std::size_t packed = ZSTD_compress(compressed.data(), compressed.size(), snapshot.data(), snapshot.size(), 3);
    if (ZSTD_isError(packed))
        return fail(fmt::format("cannot compress the snapshot: {}", ZSTD_getErrorName(packed)));
    compressed.resize(packed);
    return compressed;
}

Result<std::string> decompressSnapshot(std::string_view packed, std::uint64_t size, const std::string& source)
{
    const unsigned long long framed =
        packed.empty() ? ZSTD_CONTENTSIZE_ERROR : ZSTD_getFrameContentSize(packed.data(), packed.size());
    if (framed == ZSTD_CONTENTSIZE_ERROR || framed == ZSTD_CONTENTSIZE_UNKNOWN || framed > kMaxSnapshotBytes
        || framed != size)
        return fail(fmt::format("{}: the stored snapshot is damaged (its size)", source));
    std::string snapshot(framed, '\0');
    const std::size_t unpacked = ZSTD_decompress(snapshot.data(), snapshot.size(), packed.data(), packed.size());
    if (ZSTD_isError(unpacked) || unpacked != framed)
        return fail(fmt::format("{}: the stored snapshot is damaged (it does not decompress)", source));
    return snapshot;
}

bool isValidDatasetName(std::string_view name)
{
    if (name.empty() || name.size() > 100 || name.front() == '.' || name.front() == '-')
        return false;
    const bool chars = std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
               || c == '.';
    });
    return chars && !formatForPath(std::string(name));
}

namespace {

nlohmann::json schemaToJson(const Schema& schema)
{
    nlohmann::json columns = nlohmann::json::array();
    for (const Field& f : schema.fields)
        columns.push_back({{"name", f.name}, {"type", toString(f.type)}});
    return columns;
}

Schema schemaFromJson(const std::string& text)
{
    Schema schema;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_array())
        return schema;
    for (const auto& c : j) {
        if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("type")
            || !c["type"].is_string())
            continue;
        schema.fields.push_back(Field{c["name"].get<std::string>(),
                                      fieldTypeFromString(c["type"].get<std::string>()).value_or(FieldType::String)});
    }
    return schema;
}

constexpr std::string_view kColumns = "id, name, sha256, row_count, schema, id_column, source, source_format, "
                                      "sample_ratio, seed, max_rows, bad_rows, created_at_ms, size, length(data)";

DatasetInfo infoFromRow(sqlite3_stmt* s)
{
    DatasetInfo info;
    info.id = sqlite3_column_int64(s, 0);
    info.name = sqlite::columnString(s, 1);
    info.sha256 = sqlite::columnString(s, 2);
    info.rows = sqlite3_column_int64(s, 3);
    info.schema = schemaFromJson(sqlite::columnString(s, 4));
    info.idColumn = sqlite::columnString(s, 5);
    info.source = sqlite::columnString(s, 6);
    info.sourceFormat = sqlite::columnString(s, 7);
    info.sampleRatio = sqlite3_column_double(s, 8);
    info.seed = static_cast<std::uint64_t>(sqlite3_column_int64(s, 9));
    info.maxRows = static_cast<std::uint64_t>(sqlite3_column_int64(s, 10));
    info.badRows = sqlite3_column_int64(s, 11);
    info.createdAtMs = sqlite3_column_int64(s, 12);
    info.size = sqlite3_column_int64(s, 13);
    info.storedSize = sqlite3_column_int64(s, 14);
    return info;
}

// Stores `data` as the snapshot `info.name` (info's content fields are filled here) and audits it, in one
// transaction.
Result<void> storeSnapshot(Store& store, const Dataset& data, DatasetInfo& info, std::string_view operation,
                           nlohmann::json details)
{
    const std::string snapshot = encodeSnapshot(data);
    auto hash = sha256Hex(snapshot);
    if (!hash)
        return std::unexpected(hash.error());
    auto packed = compressSnapshot(snapshot);
    if (!packed)
        return std::unexpected(packed.error());
    const std::string& compressed = *packed;

    info.sha256 = *hash;
    info.rows = static_cast<std::int64_t>(data.rowCount());
    info.schema = data.schema();
    info.idColumn = data.idColumn() >= 0 ? data.schema().fields[static_cast<std::size_t>(data.idColumn())].name : "";
    info.createdAtMs = nowEpochMs();
    info.size = static_cast<std::int64_t>(snapshot.size());
    info.storedSize = static_cast<std::int64_t>(compressed.size());

    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    sqlite::Transaction transaction(*db);
    if (auto ok = transaction.begin(); !ok)
        return std::unexpected(ok.error());
    auto insert = db->prepare("INSERT INTO datasets (name, sha256, row_count, schema, id_column, source, "
                              "source_format, sample_ratio, seed, max_rows, bad_rows, created_at_ms, codec, size, "
                              "data) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, 'zstd', ?13, ?14)");
    if (!insert)
        return std::unexpected(insert.error());
    const std::string schema = schemaToJson(info.schema).dump();
    sqlite::Binder bind(insert->get());
    bind.text(1, info.name)
        .text(2, info.sha256)
        .integer(3, info.rows)
        .text(4, schema)
        .text(5, info.idColumn)
        .text(6, info.source)
        .text(7, info.sourceFormat)
        .real(8, info.sampleRatio)
        .integer(9, static_cast<std::int64_t>(info.seed))
        .integer(10, static_cast<std::int64_t>(info.maxRows))
        .integer(11, info.badRows)
        .integer(12, info.createdAtMs)
        .integer(13, info.size);
    const int blob = sqlite3_bind_blob64(insert->get(), 14, compressed.data(), compressed.size(), SQLITE_STATIC);
    if (!bind.ok() || blob != SQLITE_OK)
        return db->error("cannot store the dataset (too large?)");
    if (sqlite3_step(insert->get()) != SQLITE_DONE)
        return db->error(fmt::format("cannot store the dataset '{}'", info.name));
    info.id = sqlite3_last_insert_rowid(db->handle());
    details["sha256"] = info.sha256;
    details["rows"] = info.rows;
    details["columns"] = info.schema.size();
    if (auto audited = appendAudit(*db, AuditEntry(operation, info.name, std::move(details))); !audited)
        return std::unexpected(audited.error());
    return transaction.commit();
}

} // namespace

Result<ImportResult> importDataset(Store& store, const std::filesystem::path& file, const std::string& name,
                                   const ReadOptions& options)
{
    if (!isValidDatasetName(name))
        return fail(fmt::format("'{}' is not a valid dataset name: 1 to 100 letters, digits, '_', '-' or '.', not "
                                "ending in .csv, .jsonl or .ndjson",
                                name));
    if (auto existing = findDataset(store, name); !existing)
        return std::unexpected(existing.error());
    else if (*existing)
        return fail(
            fmt::format("a dataset named '{}' exists already (snapshots are immutable: choose another name)", name));

    ImportResult result;
    auto data = readDataset(file, options, &result.report);
    if (!data)
        return std::unexpected(data.error());
    DatasetInfo& info = result.info;
    info.name = name;
    info.source = file.string();
    info.sourceFormat = std::string(toString(options.format));
    info.sampleRatio = options.sample;
    info.seed = options.seed;
    info.maxRows = options.maxRows;
    info.badRows = result.report.badRows;
    nlohmann::json details = {{"source", info.source}, {"format", info.sourceFormat}, {"bad_rows_skipped", info.badRows}};
    if (info.sampleRatio < 1.0) {
        details["sample"] = info.sampleRatio;
        details["seed"] = info.seed;
    }
    if (info.maxRows > 0)
        details["max_rows"] = info.maxRows;
    if (auto ok = storeSnapshot(store, *data, info, audit_op::kDatasetImport, std::move(details)); !ok)
        return std::unexpected(ok.error());
    return result;
}

Result<DatasetInfo> sampleDataset(Store& store, std::string_view from, const std::string& name, double ratio,
                                  std::uint64_t seed)
{
    if (!isValidDatasetName(name))
        return fail(fmt::format("'{}' is not a valid dataset name: 1 to 100 letters, digits, '_', '-' or '.', not "
                                "ending in .csv, .jsonl or .ndjson",
                                name));
    if (!(ratio > 0.0 && ratio <= 1.0))
        return fail(fmt::format("sampling ratio {} is not in (0, 1]", ratio));
    if (auto existing = findDataset(store, name); !existing)
        return std::unexpected(existing.error());
    else if (*existing)
        return fail(
            fmt::format("a dataset named '{}' exists already (snapshots are immutable: choose another name)", name));
    DatasetInfo source;
    auto data = loadDataset(store, from, &source);
    if (!data)
        return std::unexpected(data.error());
    // The records sampling keeps, by their place in the snapshot (counted from 0, as an import counts them).
    DatasetBuilder builder(data->schema(), data->idColumn(), fmt::format("dataset {}", name));
    std::vector<cel::Value> cells(data->columnCount());
    for (std::size_t row = 0; row < data->rowCount(); ++row) {
        if (!sampleKeeps(seed, row, ratio))
            continue;
        for (std::size_t c = 0; c < cells.size(); ++c)
            cells[c] = data->value(row, c);
        builder.addRow(cells, data->sourceLine(row));
    }
    const Dataset sampled = builder.finish();
    DatasetInfo info;
    info.name = name;
    info.source = fmt::format("dataset {}", source.name);
    info.sourceFormat = source.sourceFormat;
    info.sampleRatio = source.sampleRatio * ratio;
    info.seed = seed;
    nlohmann::json details = {{"from", source.name}, {"from_sha256", source.sha256}, {"sample", ratio}, {"seed", seed}};
    if (auto ok = storeSnapshot(store, sampled, info, audit_op::kDatasetSample, std::move(details)); !ok)
        return std::unexpected(ok.error());
    return info;
}

Result<void> removeDataset(Store& store, std::string_view name, std::string_view why)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    sqlite::Transaction transaction(*db);
    if (auto ok = transaction.begin(); !ok)
        return ok;
    auto remove = db->prepare("DELETE FROM datasets WHERE name = ?1");
    if (!remove)
        return std::unexpected(remove.error());
    sqlite::Binder bind(remove->get());
    bind.text(1, name);
    if (!bind.ok() || sqlite3_step(remove->get()) != SQLITE_DONE)
        return db->error(fmt::format("cannot remove the dataset '{}'", name));
    if (db->changes() == 0)
        return fail(fmt::format("no dataset named '{}'", name));
    if (auto audited = appendAudit(*db, AuditEntry(audit_op::kDatasetRemove, std::string(name), {{"why", why}}));
        !audited)
        return std::unexpected(audited.error());
    return transaction.commit();
}

Result<std::vector<DatasetInfo>> listDatasets(const Store& store)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    auto statement = db->prepare(fmt::format("SELECT {} FROM datasets ORDER BY name", kColumns));
    if (!statement)
        return std::unexpected(statement.error());
    std::vector<DatasetInfo> out;
    int rc = 0;
    while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
        out.push_back(infoFromRow(statement->get()));
    if (rc != SQLITE_DONE)
        return db->error("cannot list the datasets");
    return out;
}

Result<std::optional<DatasetInfo>> findDataset(const Store& store, std::string_view name)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    auto statement = db->prepare(fmt::format("SELECT {} FROM datasets WHERE name = ?1", kColumns));
    if (!statement)
        return std::unexpected(statement.error());
    sqlite::Binder bind(statement->get());
    bind.text(1, name);
    const int rc = sqlite3_step(statement->get());
    if (rc == SQLITE_ROW)
        return std::optional<DatasetInfo>(infoFromRow(statement->get()));
    if (rc != SQLITE_DONE)
        return db->error("cannot read the datasets");
    return std::optional<DatasetInfo>();
}

Result<Dataset> loadDataset(const Store& store, std::string_view name, DatasetInfo* infoOut)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    auto statement = db->prepare(fmt::format("SELECT {}, codec, data FROM datasets WHERE name = ?1", kColumns));
    if (!statement)
        return std::unexpected(statement.error());
    sqlite::Binder bind(statement->get());
    bind.text(1, name);
    const int rc = sqlite3_step(statement->get());
    if (rc == SQLITE_DONE)
        return fail(
            fmt::format("no dataset named '{}' in store {} (see: sandbench data list)", name, store.path().string()));
    if (rc != SQLITE_ROW)
        return db->error("cannot read the datasets");
    DatasetInfo info = infoFromRow(statement->get());
    const std::string source = fmt::format("dataset {}", info.name);
    if (sqlite::columnString(statement->get(), 15) != "zstd")
        return fail(fmt::format("{}: unknown codec", source));
    const auto* blob = static_cast<const char*>(sqlite3_column_blob(statement->get(), 16));
    const auto blobSize = static_cast<std::size_t>(sqlite3_column_bytes(statement->get(), 16));
    if (info.size < 0)
        return fail(fmt::format("{}: the stored snapshot is damaged (its size)", source));
    auto unpacked = decompressSnapshot(blob ? std::string_view(blob, blobSize) : std::string_view(),
                                       static_cast<std::uint64_t>(info.size), source);
    if (!unpacked)
        return std::unexpected(unpacked.error());
    const std::string& snapshot = *unpacked;
    auto hash = sha256Hex(snapshot);
    if (!hash)
        return std::unexpected(hash.error());
    if (*hash != info.sha256)
        return fail(
            fmt::format("{}: the stored snapshot does not match its SHA-256 (altered since the import)", source));
    auto data = decodeSnapshot(snapshot, source);
    if (!data)
        return data;
    if (infoOut)
        *infoOut = std::move(info);
    return data;
}

} // namespace sb::rules
