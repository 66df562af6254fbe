// `sessions show --json` at any size: sessionShowJson's text written straight from the store's rows. A step's
// JSON columns are checked and copied as they are stored, never built into values: at 100 000 steps, building
// the values and writing them took over a second here, copying the text a third of one.

#include "session_store_internal.h"

#include <algorithm>

namespace sb::agents {

namespace fs = std::filesystem;

namespace {

// The columns of kShowSelect, in its order.
enum ShowColumn : int {
    kIndex,
    kTool,
    kArguments,
    kResult,
    kReasoning,
    kStartedAt,
    kEndedAt,
    kCost,
    kVerdict,
    kRule,
    kMessage,
    kCheckpointBefore,
    kCheckpointAfter,
    kRequestFrame,
    kResponseFrame,
    kEdited,
    kOriginalArguments,
};

constexpr std::string_view kShowSelect =
    "SELECT idx, tool, arguments, result, reasoning, started_at_ms, ended_at_ms, cost, verdict, rule, message, "
    "checkpoint_before, checkpoint_after, request_frame, response_frame, edited, original_arguments "
    "FROM agent_steps WHERE session_id = ?1 ORDER BY idx";

// A TEXT or BLOB column's bytes where SQLite holds them: valid until the statement moves on.
std::string_view columnView(sqlite3_stmt* s, int column)
{
    const void* data = sqlite3_column_blob(s, column);
    const int size = sqlite3_column_bytes(s, column);
    return data == nullptr ? std::string_view()
                           : std::string_view(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

// Text written is handed on once this much is waiting.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

// Checks JSON text without building its value: nlohmann's parser driven through SAX events that keep nothing
// but the depth, which is held to kMaxJsonDepth as parseStrictJson holds it. (A member named twice, which
// Sandbench never writes, goes through as stored.)
class JsonCheck {
public:
    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(Json::number_integer_t) { return true; }
    bool number_unsigned(Json::number_unsigned_t) { return true; }
    bool number_float(Json::number_float_t, const Json::string_t&) { return true; }
    bool string(Json::string_t&) { return true; }
    bool binary(Json::binary_t&) { return refuse("binary data, which JSON text cannot hold"); }
    bool key(Json::string_t&) { return true; }
    bool start_object(std::size_t) { return open(); }
    bool start_array(std::size_t) { return open(); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t position, const std::string&, const Json::exception&)
    {
        return refuse(fmt::format("not JSON at byte {}", position));
    }

    const std::string& error() const { return m_error; }

private:
    bool open()
    {
        if (++m_depth > kMaxJsonDepth)
            return refuse(fmt::format("arrays and objects nested more than {} deep", kMaxJsonDepth));
        return true;
    }
    bool close()
    {
        --m_depth;
        return true;
    }
    bool refuse(std::string message)
    {
        m_error = std::move(message);
        return false;
    }

    std::size_t m_depth = 0;
    std::string m_error;
};

class ShowWriter {
public:
    ShowWriter(const fs::path& storePath, std::string_view sessionId, const ShowSink& sink)
        : m_storePath(storePath), m_sessionId(sessionId), m_sink(sink)
    {
        m_out.reserve(kChunkBytes + kChunkBytes / 4);
    }

    Result<void> text(std::string_view text)
    {
        m_out += text;
        return m_out.size() >= kChunkBytes ? flush() : Result<void>();
    }

    Result<void> flush()
    {
        if (m_out.empty())
            return {};
        auto written = m_sink(m_out);
        m_out.clear();
        return written;
    }

    // One step, its members in the order nlohmann writes an object's (by name), as stepJson's dump has them.
    Result<void> step(sqlite3_stmt* s, bool first)
    {
        const std::int64_t index = sqlite3_column_int64(s, kIndex);
        const std::int64_t startedAt = sqlite3_column_int64(s, kStartedAt);
        const std::int64_t endedAt = sqlite3_column_int64(s, kEndedAt);
        const std::string verdict(columnView(s, kVerdict));
        if (!verdictFromString(verdict))
            return fail(fmt::format("store {}: session {}, step {}: verdict '{}' is not one Sandbench writes (was "
                                    "the store edited outside Sandbench?)",
                                    m_storePath.string(), m_sessionId, index, verdict));
        m_out += first ? "{" : ",{";
        if (auto ok = json(s, kArguments, index, "\"arguments\":", "arguments"); !ok)
            return ok;
        textOrNull(",\"checkpoint_after\":", columnView(s, kCheckpointAfter));
        textOrNull(",\"checkpoint_before\":", columnView(s, kCheckpointBefore));
        member(",\"cost\":", Json(sqlite3_column_double(s, kCost)).dump());
        member(",\"duration_ms\":", endedAt == 0 ? std::string("null") : fmt::format("{}", endedAt - startedAt));
        member(",\"edited\":", sqlite3_column_int64(s, kEdited) != 0 ? "true" : "false");
        member(",\"ended_at_ms\":", endedAt == 0 ? std::string("null") : fmt::format("{}", endedAt));
        member(",\"index\":", fmt::format("{}", index));
        quoted(",\"message\":", columnView(s, kMessage));
        if (auto ok = json(s, kOriginalArguments, index, ",\"original_arguments\":", "original_arguments"); !ok)
            return ok;
        quoted(",\"reasoning\":", columnView(s, kReasoning));
        quoted(",\"request_frame\":", columnView(s, kRequestFrame));
        textOrNull(",\"response_frame\":", columnView(s, kResponseFrame));
        if (auto ok = json(s, kResult, index, ",\"result\":", "result"); !ok)
            return ok;
        quoted(",\"rule\":", columnView(s, kRule));
        member(",\"started_at_ms\":", fmt::format("{}", startedAt));
        quoted(",\"tool\":", columnView(s, kTool));
        quoted(",\"verdict\":", verdict);
        return text("}");
    }

private:
    void member(std::string_view name, std::string_view value)
    {
        m_out += name;
        m_out += value;
    }

    // A JSON column as stored, once checked; NULL as null. `name` is the member's text before the value.
    Result<void> json(sqlite3_stmt* s, int column, std::int64_t index, std::string_view name, std::string_view what)
    {
        m_out += name;
        if (sqlite3_column_type(s, column) == SQLITE_NULL) {
            m_out += "null";
            return {};
        }
        const std::string_view stored = columnView(s, column);
        JsonCheck check;
        const bool strict = true;
        const bool ignoreComments = false;
        if (!Json::sax_parse(stored.begin(), stored.end(), &check, Json::input_format_t::json, strict, ignoreComments))
            return fail(fmt::format("store {}: session {}, step {}: its {} is not JSON (was the store edited outside "
                                    "Sandbench?): {}",
                                    m_storePath.string(), m_sessionId, index, what, check.error()));
        m_out += stored;
        return {};
    }

    // A member whose value is a JSON string. Text of printable ASCII only, as most is (names, ids, the frames
    // Sandbench writes), needs no more than its quotes and backslashes escaped; other text is nlohmann's to
    // write, as stepJson's dump writes it.
    void quoted(std::string_view name, std::string_view text)
    {
        m_out += name;
        const bool printableAscii = std::all_of(text.begin(), text.end(), [](char c) {
            return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
        });
        if (!printableAscii) {
            m_out += sessions::jsonText(Json(std::string(text)));
            return;
        }
        m_out += '"';
        for (std::size_t at = 0; at < text.size();) {
            const std::size_t special = text.find_first_of("\"\\", at);
            m_out.append(text.substr(at, special - at));
            if (special == std::string_view::npos)
                break;
            m_out += '\\';
            m_out += text[special];
            at = special + 1;
        }
        m_out += '"';
    }

    // As quoted(); empty text as null.
    void textOrNull(std::string_view name, std::string_view text)
    {
        if (text.empty())
            member(name, "null");
        else
            quoted(name, text);
    }

    const fs::path& m_storePath;
    std::string_view m_sessionId;
    const ShowSink& m_sink;
    std::string m_out;
};

} // namespace

Result<void> SessionStore::writeShowJson(const SessionInfo& session, const ShowSink& sink)
{
    return sessions::guarded(m_store->path(), "writing an agent session", [&]() -> Result<void> {
        auto db = sqlite::connectionOf(*m_store);
        if (!db)
            return std::unexpected(db.error());
        auto row = sessions::sessionRow(*db, session.id);
        if (!row)
            return std::unexpected(row.error());
        auto statement = db->prepare(kShowSelect);
        if (!statement)
            return std::unexpected(statement.error());
        sqlite3_bind_int64(statement->get(), 1, row->row);
        ShowWriter writer(db->path(), session.id, sink);
        if (auto ok = writer.text("{\"session\":" + sessions::jsonText(sessionJson(session)) + ",\"steps\":["); !ok)
            return ok;
        int rc = 0;
        bool first = true;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
            if (auto ok = writer.step(statement->get(), first); !ok)
                return ok;
            first = false;
        }
        if (rc != SQLITE_DONE)
            return db->error(fmt::format("cannot read the steps of session {}", session.id));
        if (auto ok = writer.text("]}"); !ok)
            return ok;
        return writer.flush();
    });
}

} // namespace sb::agents
