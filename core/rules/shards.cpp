#include "rules/shards.h"

#include "util/errno_text.h"
#include "util/input_file.h"

#include <fmt/format.h>

#include <cstring>
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

} // namespace

Result<std::vector<Shard>> splitDataFile(const std::filesystem::path& input, const std::filesystem::path& folder,
                                         const SplitOptions& options)
{
    if (options.shards < 1)
        return fail("shards: at least 1");
    auto file = InputFile::open(input, input::kDataFile);
    if (!file)
        return std::unexpected(file.error());
    const bool csv = options.format == DataFormat::Csv;
    const std::uint64_t total = file->size();

    // One pass: where the header ends (CSV: the first record that is not blank), then where each shard starts.
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
    std::size_t next = 1; // the next shard to find the start of
    auto target = [&](std::size_t k) { return headerEnd + (total > headerEnd ? (total - headerEnd) * k / options.shards : 0); };
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
            while (next < options.shards && recordEnd >= target(next) && recordEnd < total) {
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
    if (!haveHeader) // empty, or blank lines only: one shard, which fails to read as the whole input does
        headerEnd = csv ? end : 0;

    std::vector<Shard> shards;
    std::vector<Cut> starts = {{headerEnd, headerLines + 1}};
    for (const Cut& c : cuts) {
        if (c.offset > starts.back().offset && c.offset < end)
            starts.push_back(c);
    }
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const std::uint64_t from = starts[k].offset;
        const std::uint64_t to = k + 1 < starts.size() ? starts[k + 1].offset : end;
        Shard shard;
        shard.path = folder / fmt::format("shard-{:03}.{}", k, csv ? "csv" : "jsonl");
        shard.atInputStart = k == 0;
        shard.bytes = to - from;
        // A CSV shard's records follow the header's lines in its file; a JSON Lines shard's start at its line 1.
        shard.lineOffset = static_cast<std::int64_t>(starts[k].line) - static_cast<std::int64_t>(csv ? headerLines + 1 : 1);
        const int out = ::open(shard.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (out < 0)
            return fail(fmt::format("{}: cannot create: {}", shard.path.string(), errnoText(errno)));
        // The first shard is the input's bytes from its very start (header, blank lines and byte-order mark).
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
        shards.push_back(std::move(shard));
    }
    return shards;
}

ReadOptions readOptionsFor(const Shard& shard, ReadOptions options, const std::string& source)
{
    options.lineOffset = shard.lineOffset;
    options.atInputStart = shard.atInputStart;
    options.sourceName = source;
    return options;
}

} // namespace sb::rules
