#include "rules/shards.h"

#include "rules/dataset_store.h"
#include "rules/partials.h"

#include "util/errno_text.h"
#include "util/fd_io.h"
#include "util/hash.h"
#include "util/input_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace sb::rules {

namespace {

// Where records end, as the readers split them (see shards.h), fed a block at a time.
class RecordEnds {
public:
    explicit RecordEnds(DataFormat format) : m_csv(format == DataFormat::Csv) {}

    // Calls onEnd(offset just past the line end, the line ends up to it, whether the record was blank) for
    // every record that ends in `block`, which starts at byte `base` of the input.
    template <typename OnEnd> void feed(const char* block, std::size_t size, std::uint64_t base, OnEnd&& onEnd)
    {
        std::size_t i = 0;
        if (base == 0 && size >= 3 && std::memcmp(block, "\xEF\xBB\xBF", 3) == 0) {
            i = 3; // a byte-order mark belongs to no field
            m_recordStart = 3;
        }
        for (; i < size; ++i) {
            const char c = block[i];
            if (c == '\n')
                ++m_newlines;
            if (!m_csv) {
                if (c == '\n')
                    end(base + i + 1, onEnd);
                m_last = c;
                continue;
            }
            switch (m_state) {
            case State::FieldStart:
                if (c == '"')
                    m_state = State::Quoted;
                else if (c == '\n')
                    end(base + i + 1, onEnd);
                else if (c != ',')
                    m_state = State::Unquoted;
                break;
            case State::Unquoted:
                if (c == ',')
                    m_state = State::FieldStart;
                else if (c == '\n')
                    end(base + i + 1, onEnd);
                break;
            case State::Quoted:
                if (c == '"')
                    m_state = State::AfterQuote;
                break;
            case State::AfterQuote: // "" is a quote inside the field; else the field has ended
                if (c == '"')
                    m_state = State::Quoted;
                else if (c == ',')
                    m_state = State::FieldStart;
                else if (c == '\n')
                    end(base + i + 1, onEnd);
                else
                    m_state = c == '\r' ? State::CrAfterQuote : State::SkipToLineEnd;
                break;
            case State::CrAfterQuote:
                if (c == '\n')
                    end(base + i + 1, onEnd);
                else
                    m_state = State::SkipToLineEnd;
                break;
            case State::SkipToLineEnd: // a broken record ends at its line's end
                if (c == '\n')
                    end(base + i + 1, onEnd);
                break;
            }
            m_last = c;
        }
    }

private:
    enum class State { FieldStart, Unquoted, Quoted, AfterQuote, CrAfterQuote, SkipToLineEnd };

    template <typename OnEnd> void end(std::uint64_t next, OnEnd& onEnd)
    {
        // Blank: nothing but an optional \r before the line end (a CSV record of one empty unquoted field).
        const std::uint64_t length = next - 1 - m_recordStart;
        const bool blank = length == 0 || (length == 1 && m_last == '\r');
        m_state = State::FieldStart;
        m_recordStart = next;
        onEnd(next, m_newlines, blank);
    }

    bool m_csv;
    State m_state = State::FieldStart;
    std::uint64_t m_recordStart = 0;
    std::uint64_t m_newlines = 0;
    char m_last = 0;
};

Result<void> copyRange(int from, std::uint64_t offset, std::uint64_t length, int to, const std::string& name)
{
    auto in = static_cast<off_t>(offset);
    while (length > 0) {
        const ssize_t n = ::copy_file_range(from, &in, to, nullptr, length, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL)) {
            // No kernel copy between these files: through a buffer.
            std::vector<char> buffer(1u << 20);
            while (length > 0) {
                const ssize_t got = ::pread(from, buffer.data(), std::min<std::uint64_t>(length, buffer.size()), in);
                if (got < 0 && errno == EINTR)
                    continue;
                if (got <= 0)
                    return fail(fmt::format("{}: cannot read the input: {}", name, got < 0 ? errnoText(errno) : "it shrank"));
                for (ssize_t done = 0; done < got;) {
                    const ssize_t w = ::write(to, buffer.data() + done, static_cast<std::size_t>(got - done));
                    if (w < 0 && errno == EINTR)
                        continue;
                    if (w < 0)
                        return fail(fmt::format("{}: cannot write: {}", name, errnoText(errno)));
                    done += w;
                }
                in += got;
                length -= static_cast<std::uint64_t>(got);
            }
            return {};
        }
        if (n < 0)
            return fail(fmt::format("{}: cannot write: {}", name, errnoText(errno)));
        if (n == 0)
            return fail(fmt::format("{}: the input shrank while it was cut into shards", name));
        length -= static_cast<std::uint64_t>(n);
    }
    return {};
}

// Where one file is cut: into at most `pieces`, piece k (from 1) starting at the first record end at or after
// target(k, where the header ends, the file's size); each piece written to name(k).
struct Cutting {
    std::size_t pieces = 1;
    std::function<std::uint64_t(std::size_t, std::uint64_t, std::uint64_t)> target;
    std::function<std::filesystem::path(std::size_t)> name;
};

struct Piece {
    Shard shard;
    std::uint64_t from = 0; // where its records start in the file
};

Result<std::vector<Piece>> cutFile(const std::filesystem::path& input, const Cutting& cutting,
                                   const SplitOptions& options)
{
    auto file = InputFile::open(input, input::kDataFile);
    if (!file)
        return std::unexpected(file.error());
    const bool csv = options.format == DataFormat::Csv;
    const std::uint64_t total = file->size();

    // One pass: where the header ends (CSV: the first record that is not blank), then where each piece starts.
    struct Cut {
        std::uint64_t offset;
        std::uint64_t line; // 1-based
    };
    std::vector<Cut> cuts;
    std::uint64_t headerEnd = 0, headerLines = 0;
    bool haveHeader = !csv;
    RecordEnds ends(options.format);
    std::vector<char> block(1u << 20);
    std::uint64_t base = 0;
    std::size_t next = 1; // the next piece to find the start of
    for (;;) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            return fail(fmt::format("{}: cutting into shards cancelled", input.string()));
        auto got = file->read(block.data(), block.size());
        if (!got)
            return std::unexpected(got.error());
        if (*got == 0)
            break;
        ends.feed(block.data(), *got, base, [&](std::uint64_t recordEnd, std::uint64_t lines, bool blank) {
            if (!haveHeader) {
                if (!blank) {
                    haveHeader = true;
                    headerEnd = recordEnd;
                    headerLines = lines;
                }
                return;
            }
            while (next < cutting.pieces && recordEnd >= cutting.target(next, headerEnd, total) && recordEnd < total) {
                if (cuts.empty() || cuts.back().offset != recordEnd)
                    cuts.push_back({recordEnd, lines + 1});
                ++next;
            }
        });
        base += *got;
        if (options.progress)
            options.progress(base, total);
    }
    const std::uint64_t end = base;
    if (!haveHeader) // empty, or blank lines only: one piece, which fails to read as the whole input does
        headerEnd = csv ? end : 0;

    std::vector<Piece> pieces;
    std::vector<Cut> starts = {{headerEnd, headerLines + 1}};
    for (const Cut& c : cuts) {
        if (c.offset > starts.back().offset && c.offset < end)
            starts.push_back(c);
    }
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const std::uint64_t from = starts[k].offset;
        const std::uint64_t to = k + 1 < starts.size() ? starts[k + 1].offset : end;
        Shard shard;
        shard.path = cutting.name(k);
        shard.atInputStart = k == 0;
        shard.bytes = to - from;
        // A CSV piece's records follow the header's lines in its file; a JSON Lines piece's start at its line 1.
        shard.lineOffset = static_cast<std::int64_t>(starts[k].line) - static_cast<std::int64_t>(csv ? headerLines + 1 : 1);
        const int out = ::open(shard.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (out < 0)
            return fail(fmt::format("{}: cannot create: {}", shard.path.string(), errnoText(errno)));
        // The first piece is the input's bytes from its very start (header, blank lines and byte-order mark).
        const std::uint64_t copyFrom = k == 0 ? 0 : from;
        Result<void> copied;
        if (csv && headerEnd > 0 && k > 0)
            copied = copyRange(file->fd(), 0, headerEnd, out, shard.path.string());
        if (copied)
            copied = copyRange(file->fd(), copyFrom, to - copyFrom, out, shard.path.string());
        // Closed, not synced: the shards are read once and thrown away; a network file system shows a failed
        // write at close.
        if (::close(out) != 0 && copied)
            copied = fail(fmt::format("{}: cannot write: {}", shard.path.string(), errnoText(errno)));
        if (!copied)
            return std::unexpected(copied.error());
        pieces.push_back({std::move(shard), k == 0 ? 0 : from});
    }
    return pieces;
}

std::string_view extension(DataFormat format)
{
    return format == DataFormat::Csv ? "csv" : "jsonl";
}

} // namespace

Result<std::vector<Shard>> splitDataFile(const std::filesystem::path& input, const std::filesystem::path& folder,
                                         const SplitOptions& options)
{
    if (options.shards < 1)
        return fail("shards: at least 1");
    Cutting cutting;
    cutting.pieces = options.shards;
    cutting.target = [n = options.shards](std::size_t k, std::uint64_t headerEnd, std::uint64_t total) {
        return headerEnd + (total > headerEnd ? (total - headerEnd) * k / n : 0);
    };
    cutting.name = [&](std::size_t k) { return folder / fmt::format("shard-{:03}.{}", k, extension(options.format)); };
    auto pieces = cutFile(input, cutting, options);
    if (!pieces)
        return std::unexpected(pieces.error());
    std::vector<Shard> shards;
    for (Piece& p : *pieces)
        shards.push_back(std::move(p.shard));
    return shards;
}

Result<std::vector<std::vector<Shard>>> splitDataFiles(const std::vector<std::filesystem::path>& files,
                                                       const std::filesystem::path& folder,
                                                       const SplitOptions& options)
{
    if (options.shards < 1)
        return fail("shards: at least 1");
    if (files.empty())
        return fail("no files to cut into shards");
    // The files as one run of bytes, cut where shard k (from 1) should start: at byte total * k / shards. A cut
    // inside a file cuts it at the next record end; a file wholly between two cuts is one piece.
    std::vector<std::uint64_t> sizes;
    std::uint64_t total = 0;
    for (const auto& f : files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(f, ec);
        sizes.push_back(ec ? 0 : size); // opening it says what is wrong with it
        total += sizes.back();
    }
    const std::uint64_t n = options.shards;
    std::vector<std::uint64_t> bounds; // where shards 1, 2, ... start in the run
    for (std::uint64_t k = 1; k < n; ++k)
        bounds.push_back(total / n * k + total % n * k / n);
    auto shardAt = [&](std::uint64_t offset) {
        return static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), offset) - bounds.begin());
    };

    std::vector<std::vector<Shard>> shards;
    std::size_t lastShard = 0, named = 0;
    std::uint64_t fileStart = 0;
    for (std::size_t f = 0; f < files.size(); ++f) {
        std::vector<std::uint64_t> inner; // cuts inside this file, from its start
        for (const std::uint64_t b : bounds) {
            if (b > fileStart && b < fileStart + sizes[f])
                inner.push_back(b - fileStart);
        }
        Cutting cutting;
        cutting.pieces = inner.size() + 1;
        cutting.target = [&inner](std::size_t k, std::uint64_t, std::uint64_t) { return inner[k - 1]; };
        cutting.name = [&](std::size_t k) {
            return folder / fmt::format("piece-{:04}.{}", named + k, extension(options.format));
        };
        SplitOptions one = options;
        if (options.progress)
            one.progress = [&](std::uint64_t done, std::uint64_t) { options.progress(fileStart + done, total); };
        auto pieces = cutFile(files[f], cutting, one);
        if (!pieces)
            return std::unexpected(pieces.error());
        named += pieces->size();
        for (Piece& p : *pieces) {
            p.shard.source = files[f].string();
            const std::size_t k = shardAt(fileStart + p.from);
            if (shards.empty() || k != lastShard)
                shards.emplace_back();
            lastShard = k;
            shards.back().push_back(std::move(p.shard));
        }
        fileStart += sizes[f];
    }
    return shards;
}

ReadOptions readOptionsFor(const Shard& shard, ReadOptions options, const std::string& source)
{
    options.lineOffset = shard.lineOffset;
    options.atInputStart = shard.atInputStart;
    options.sourceName = shard.source.empty() ? source : shard.source;
    return options;
}

Result<std::vector<SnapshotShard>> splitSnapshot(const Dataset& data, const std::filesystem::path& folder,
                                                 const SplitOptions& options)
{
    if (options.shards < 1)
        return fail("shards: at least 1");
    const std::size_t rows = data.rowCount();
    const std::size_t n = std::min(options.shards, std::max<std::size_t>(rows, 1));
    // Shard k: records [rows * k / n, rows * (k + 1) / n), computed without overflow.
    auto start = [rows, n](std::size_t k) { return rows / n * k + rows % n * k / n; };
    std::vector<SnapshotShard> shards;
    for (std::size_t k = 0; k < n; ++k) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed))
            return fail(fmt::format("{}: cutting into shards cancelled", data.source()));
        const std::size_t first = start(k), count = start(k + 1) - first;
        const std::string snapshot = encodeSnapshot(data, first, count);
        auto hash = sha256Hex(snapshot);
        if (!hash)
            return std::unexpected(hash.error());
        auto packed = compressSnapshot(snapshot);
        if (!packed)
            return std::unexpected(packed.error());
        SnapshotShard shard;
        shard.path = folder / fmt::format("snapshot-{:03}.zst", k);
        shard.rows = count;
        shard.size = snapshot.size();
        shard.sha256 = std::move(*hash);
        const int out = ::open(shard.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (out < 0)
            return fail(fmt::format("{}: cannot create: {}", shard.path.string(), errnoText(errno)));
        auto written = writeAll(out, *packed);
        // Closed, not synced, as a file's shards are; a network file system shows a failed write at close.
        if (::close(out) != 0 && written)
            written = fail(errnoText(errno));
        if (!written)
            return fail(fmt::format("{}: cannot write: {}", shard.path.string(), written.error().message));
        shards.push_back(std::move(shard));
        if (options.progress)
            options.progress(first + count, rows);
    }
    return shards;
}

Result<Dataset> readSnapshotShard(const SnapshotShard& shard, std::string source)
{
    auto packed = readInputFile(shard.path, input::kDataFile);
    if (!packed)
        return std::unexpected(packed.error());
    const std::string where = fmt::format("{} (a shard of {})", shard.path.string(), source);
    auto snapshot = decompressSnapshot(*packed, shard.size, where);
    if (!snapshot)
        return std::unexpected(snapshot.error());
    auto hash = sha256Hex(*snapshot);
    if (!hash)
        return std::unexpected(hash.error());
    if (*hash != shard.sha256)
        return fail(fmt::format("{}: does not match the SHA-256 it was written with", where));
    auto data = decodeSnapshot(*snapshot, std::move(source));
    if (data && data->rowCount() != shard.rows)
        return fail(
            fmt::format("{}: holds {} records, not the {} it was written with", where, data->rowCount(), shard.rows));
    return data;
}

Result<Dataset> readShards(const std::vector<Shard>& shards, ReadOptions options, const std::string& source,
                           ReadReport* report)
{
    if (shards.empty())
        return fail(fmt::format("{}: nothing to read", source));
    // Progress over all the shards' bytes; the scans count for half when there are any.
    std::uint64_t total = 0;
    std::vector<std::uint64_t> sizes;
    for (const Shard& shard : shards) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(shard.path, ec);
        sizes.push_back(ec ? 0 : size);
        total += sizes.back();
    }
    const auto progress = options.progress;
    std::uint64_t done = 0, base = 0, divisor = 1;
    auto follow = [&](std::size_t k, ReadOptions o) {
        if (progress)
            o.progress = [&, k](std::uint64_t n, std::uint64_t) {
                progress(base + (done + std::min(n, sizes[k])) / divisor, total);
            };
        return o;
    };

    if (!options.columns) {
        auto head = scanColumns(shards.front().path, readOptionsFor(shards.front(), options, source), true);
        if (!head)
            return std::unexpected(head.error());
        if (head->needed) {
            divisor = 2;
            std::vector<ColumnScan> scans;
            for (std::size_t k = 0; k < shards.size(); ++k) {
                auto scan = scanColumns(shards[k].path, follow(k, readOptionsFor(shards[k], options, source)));
                if (!scan)
                    return std::unexpected(scan.error());
                scans.push_back(std::move(*scan));
                done += sizes[k];
            }
            auto merged = mergeScans(scans, options, source);
            if (!merged)
                return std::unexpected(merged.error());
            options.columns = settleColumns(*merged);
            base = total / 2;
            done = 0;
        }
    }

    ReadReport read;
    std::optional<DatasetBuilder> builder;
    for (std::size_t k = 0; k < shards.size(); ++k) {
        ReadReport part;
        auto data = readDataset(shards[k].path, follow(k, readOptionsFor(shards[k], options, source)), &part);
        if (!data)
            return std::unexpected(data.error());
        done += sizes[k];
        for (BadRow& bad : part.badRowExamples)
            bad.file = shards[k].source;
        if (k == 0)
            read = std::move(part);
        else
            addReadReport(read, part, options.maxBadRowExamples);
        if (!builder)
            builder.emplace(data->schema(), data->idColumn(), source);
        else if (!(data->schema() == builder->schema()) || data->idColumn() != builder->idColumn())
            return fail(fmt::format("{}: read with other columns than the first part of {}",
                                    shards[k].source.empty() ? shards[k].path.string() : shards[k].source, source));
        builder->append(std::move(*data));
    }
    if (report)
        *report = std::move(read);
    return builder->finish();
}

} // namespace sb::rules
