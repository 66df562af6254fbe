#include "csv_reader.h"

#include "util/threads.h"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace sb::rules::datafile {

namespace {

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
    std::unique_ptr<DatasetBuilder> rows;     // Convert, kept
    std::unique_ptr<PartConsumer::Done> done; // Convert, handed to a consumer
    std::vector<CsvColumn> columns;           // Infer: what this batch allows
    std::vector<BadRow> bad;                  // Convert, in record order
    std::int64_t kept = 0;
};

// `out`: the dataset the parts make (its schema, id column and source), in the Convert pass.
CsvPart processBatch(const CsvBatch& b, const std::vector<CsvColumn>& columns, const DatasetBuilder* out,
                     const std::string& source, CsvPass pass)
{
    CsvPart part;
    part.seq = b.seq;
    part.columns = columns;
    if (pass == CsvPass::Convert) {
        part.rows = std::make_unique<DatasetBuilder>(out->schema(), out->idColumn(), source);
        part.rows->reserve(b.records());
    }
    CsvRecord record;
    std::vector<cel::Value> cells(columns.size());
    std::size_t broken = 0;
    const std::string_view bytes = b.bytes;
    for (std::uint32_t i = 0; i < b.records(); ++i) {
        if (broken < b.broken.size() && b.broken[broken].first == i) {
            if (pass == CsvPass::Convert)
                part.bad.push_back(BadRow{b.lines[i], b.broken[broken].second, {}});
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
        const auto bad = checkCsvRecord(record, part.columns, part.rows.get(), cells);
        if (bad) {
            if (pass == CsvPass::Convert)
                part.bad.push_back(BadRow{record.line, *bad, {}});
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
class CsvPassInParallel {
public:
    // With a consumer (Convert), the parts go to it instead of into `out`.
    CsvPassInParallel(Reading& r, std::vector<CsvColumn>& columns, CsvPass pass, DatasetBuilder* out, unsigned threads,
                      PartConsumer* consumer)
        : m_r(r), m_columns(columns), m_pass(pass), m_out(out), m_consumer(consumer), m_snapshot(columns),
          m_maxQueued(2 * threads)
    {
        // On the other cores at once: this thread reads meanwhile (threads.h).
        for (unsigned t = 1; t < threads; ++t) {
            m_workers.push_back(startThreadElsewhere([this] {
                CsvBatch batch;
                while (take(batch, true))
                    work(batch);
            }));
        }
    }

    Result<void> run(CsvReader& reader)
    {
        CsvBatch batch;
        CsvRecord record;
        std::string problem;
        const std::size_t batchRecords = std::max<std::size_t>(m_r.options().batchRecords, 1);
        for (;;) {
            if (auto ok = m_r.tick(); !ok) {
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
            if (!m_r.select())
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

private:
    bool take(CsvBatch& batch, bool wait)
    {
        std::unique_lock lock(m_mutex);
        if (wait)
            m_todoChanged.wait(lock, [&] { return m_stop || m_finished || !m_todo.empty(); });
        if (m_stop || m_todo.empty())
            return false;
        batch = std::move(m_todo.front());
        m_todo.pop_front();
        m_todoChanged.notify_all();
        return true;
    }

    void work(CsvBatch& batch)
    {
        CsvPart part = processBatch(batch, m_snapshot, m_out, m_r.source(), m_pass);
        if (m_consumer && part.rows) {
            const Dataset records = part.rows->finish();
            part.rows.reset();
            part.done = m_consumer->process(records);
        }
        {
            std::lock_guard lock(m_mutex);
            m_done.emplace(part.seq, std::move(part));
        }
        m_doneChanged.notify_all();
    }

    void shutDown()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_todoChanged.notify_all();
        for (auto& w : m_workers)
            w.join();
        m_workers.clear();
    }

    Result<void> merge(CsvPart& part)
    {
        for (auto& bad : part.bad) {
            if (auto ok = m_r.badRow(bad.line, std::move(bad.message)); !ok)
                return ok;
        }
        const std::int64_t before = m_r.report().kept;
        m_r.report().kept += part.kept;
        // The types of the columns inferred in this pass: every undeclared one in the first, those not kept
        // in one pass.
        for (std::size_t c = 0; c < m_columns.size(); ++c) {
            m_columns[c].mask &= part.columns[c].mask;
            m_columns[c].sawValue = m_columns[c].sawValue || part.columns[c].sawValue;
        }
        if (m_pass == CsvPass::Convert) {
            if (m_consumer)
                return m_consumer->merge(std::move(part.done), before);
            m_out->append(std::move(*part.rows));
        }
        return {};
    }

    // Merges the parts that are ready, in order; with `all`, waits for every one handed out.
    Result<void> drain(bool all)
    {
        for (;;) {
            CsvPart part;
            {
                std::unique_lock lock(m_mutex);
                if (all)
                    m_doneChanged.wait(lock, [&] { return m_nextMerge == m_nextSeq || m_done.contains(m_nextMerge); });
                const auto it = m_done.find(m_nextMerge);
                if (it == m_done.end())
                    return {};
                part = std::move(it->second);
                m_done.erase(it);
            }
            ++m_nextMerge;
            if (auto ok = merge(part); !ok)
                return ok;
        }
    }

    // Queues the batch; while the queue is full, this thread works on the oldest batch itself (the workers
    // are behind: converting, or what a consumer does with the parts, is the slower side).
    void hand(CsvBatch&& batch)
    {
        batch.seq = m_nextSeq++;
        for (;;) {
            std::unique_lock lock(m_mutex);
            if (m_todo.size() < m_maxQueued) {
                m_todo.push_back(std::move(batch));
                lock.unlock();
                m_todoChanged.notify_all();
                return;
            }
            CsvBatch oldest = std::move(m_todo.front());
            m_todo.pop_front();
            lock.unlock();
            work(oldest);
        }
    }

    // No more batches: the calling thread converts what is left too.
    void finishAll()
    {
        {
            std::lock_guard lock(m_mutex);
            m_finished = true;
        }
        m_todoChanged.notify_all();
        CsvBatch left;
        while (take(left, false))
            work(left);
    }

    Reading& m_r;
    std::vector<CsvColumn>& m_columns;
    const CsvPass m_pass;
    DatasetBuilder* const m_out;
    PartConsumer* const m_consumer;
    const std::vector<CsvColumn> m_snapshot;
    const std::size_t m_maxQueued;
    std::mutex m_mutex;
    std::condition_variable m_todoChanged, m_doneChanged;
    std::deque<CsvBatch> m_todo;
    std::map<std::uint64_t, CsvPart> m_done;
    bool m_finished = false;
    bool m_stop = false;
    std::vector<std::thread> m_workers;
    std::uint64_t m_nextSeq = 0, m_nextMerge = 0;
};

Result<void> csvPassInParallel(Reading& r, CsvReader& reader, std::vector<CsvColumn>& columns, CsvPass pass,
                               DatasetBuilder* out, unsigned threads, PartConsumer* consumer = nullptr)
{
    return CsvPassInParallel(r, columns, pass, out, threads, consumer).run(reader);
}

// The header, with the id column and, when the input is read with settled columns, every column typed.
Result<std::vector<CsvColumn>> csvColumns(Reading& r, CsvReader& reader, CsvRecord& record, int& idColumn)
{
    auto header = readCsvHeader(r, reader, record);
    if (!header)
        return std::unexpected(header.error());
    std::vector<CsvColumn> columns = std::move(*header);
    std::vector<std::string> names;
    for (const auto& c : columns)
        names.push_back(c.name);
    std::string idError;
    idColumn = resolveIdColumn(r.options(), names, idError);
    if (!idError.empty())
        return fail(fmt::format("{}: {}", r.source(), idError));
    if (idColumn >= 0 && !columns[static_cast<std::size_t>(idColumn)].declared)
        columns[static_cast<std::size_t>(idColumn)].declared = true; // ids are text: 007 stays 007
    if (const auto& settled = r.options().columns) {
        bool same = settled->size() == columns.size();
        for (std::size_t i = 0; same && i < columns.size(); ++i)
            same = (*settled)[i].name == columns[i].name;
        if (!same)
            return fail(fmt::format("{}: the header row names other columns than the whole input's", r.source()));
        for (std::size_t i = 0; i < columns.size(); ++i) {
            columns[i].type = (*settled)[i].type;
            columns[i].declared = true;
        }
    }
    // Which are kept, and where: the id column and the declared ones always.
    int kept = 0;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        CsvColumn& c = columns[i];
        const bool keep =
            !r.options().keepColumn || c.declared || static_cast<int>(i) == idColumn || r.options().keepColumn(c.name);
        c.kept = keep ? kept++ : -1;
    }
    return columns;
}

// Pass 1: the types the undeclared columns' values allow, from exactly the records pass 2 keeps.
Result<void> csvInferPass(Reading& r, CsvReader& reader, std::vector<CsvColumn>& columns)
{
    const unsigned threads = readThreads(r);
    if (threads > 1)
        return csvPassInParallel(r, reader, columns, CsvPass::Infer, nullptr, threads);
    CsvRecord record;
    std::string problem;
    std::vector<cel::Value> cells(columns.size());
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
        if (checkCsvRecord(record, columns, nullptr, cells))
            continue;
        r.kept();
        if (r.full())
            break;
    }
    return {};
}

bool anyUndeclared(const std::vector<CsvColumn>& columns)
{
    return std::any_of(columns.begin(), columns.end(), [](const CsvColumn& c) { return !c.declared; });
}

bool anyKeptUndeclared(const std::vector<CsvColumn>& columns)
{
    return std::any_of(columns.begin(), columns.end(), [](const CsvColumn& c) { return !c.declared && c.kept >= 0; });
}

} // namespace

Result<ColumnScan> scanCsv(Reading& r, bool headerOnly)
{
    CsvReader reader(r);
    CsvRecord record;
    int idColumn = -1;
    auto columns = csvColumns(r, reader, record, idColumn);
    if (!columns)
        return std::unexpected(columns.error());
    ColumnScan scan;
    scan.format = DataFormat::Csv;
    scan.needed = anyUndeclared(*columns);
    if (scan.needed && !headerOnly) {
        r.setPass(1, true);
        if (auto ok = csvInferPass(r, reader, *columns); !ok)
            return std::unexpected(ok.error());
    }
    for (const auto& c : *columns) {
        ColumnScan::Column column;
        column.name = c.name;
        if (c.declared)
            column.declared = c.type;
        column.allowed = c.mask;
        column.sawValue = c.sawValue;
        scan.columns.push_back(std::move(column));
    }
    return scan;
}

Result<Dataset> readCsv(Reading& r)
{
    CsvReader reader(r);
    CsvRecord record;
    int idColumn = -1;
    auto header = csvColumns(r, reader, record, idColumn);
    if (!header)
        return std::unexpected(header.error());
    std::vector<CsvColumn> columns = std::move(*header);

    const bool twoPasses = anyKeptUndeclared(columns);
    std::vector<cel::Value> cells(columns.size());
    std::string problem;
    std::int64_t keptInPass1 = 0;
    const unsigned threads = readThreads(r);
    if (twoPasses) {
        r.setPass(1, true);
        if (auto ok = csvInferPass(r, reader, columns); !ok)
            return std::unexpected(ok.error());
        keptInPass1 = r.report().kept;
        for (auto& c : columns) {
            if (!c.declared) {
                c.type = typeFromMask(c.mask, c.sawValue);
                c.settled = true;
            }
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
    for (const auto& c : columns) {
        if (c.kept >= 0)
            schema.fields.push_back(Field{c.name, c.type});
    }
    DatasetBuilder builder(std::move(schema), idColumn >= 0 ? columns[static_cast<std::size_t>(idColumn)].kept : -1,
                           r.source());
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
    PartConsumer* consumer = threads > 1 ? r.consumer() : nullptr;
    if (consumer) {
        if (auto ok = consumer->start(builder.schema(), builder.idColumn()); !ok)
            return std::unexpected(ok.error());
        r.handedOn();
    }
    if (threads > 1) {
        if (auto ok = csvPassInParallel(r, reader, columns, CsvPass::Convert, &builder, threads, consumer); !ok)
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
            if (auto bad = checkCsvRecord(record, columns, &builder, cells)) {
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
    for (const auto& c : columns)
        r.report().columns.push_back(Field{c.name, c.declared ? c.type : typeFromMask(c.mask, c.sawValue)});
    return builder.finish();
}

} // namespace sb::rules::datafile
