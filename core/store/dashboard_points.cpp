#include "store/dashboard_points.h"

#include "store/audit.h"
#include "store/sqlite_db.h"
#include "store/store.h"
#include "store_internal.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <utility>

namespace sb {

namespace {

std::string_view trimmed(std::string_view text)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && space(text.back()))
        text.remove_suffix(1);
    return text;
}

// The text before an explanation: "x (why)" → "x", "open /a (read): outside …" → "open /a".
std::string_view beforeExplanation(std::string_view text)
{
    const auto open = text.find(" (");
    return trimmed(open == std::string_view::npos ? text : text.substr(0, open));
}

// "example.com:443" → "example.com", "[::1]:8080" → "::1"; anything else as it is.
std::string_view hostOf(std::string_view address)
{
    if (address.starts_with('[')) {
        const auto close = address.find(']');
        return close == std::string_view::npos ? address : address.substr(1, close - 1);
    }
    const auto colon = address.rfind(':');
    if (colon == std::string_view::npos || colon + 1 == address.size() || address.find(':') != colon)
        return address;
    const auto port = address.substr(colon + 1);
    const bool digits = std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
    return digits && colon > 0 ? address.substr(0, colon) : address;
}

// Control characters replaced, cut to kMaxTargetChars bytes on a UTF-8 character boundary.
std::string cleaned(std::string_view text)
{
    std::string out;
    out.reserve(std::min(text.size(), kMaxTargetChars));
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        out.push_back(byte < 0x20 || byte == 0x7f ? '?' : c);
    }
    if (out.size() > kMaxTargetChars) {
        std::size_t cut = kMaxTargetChars;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
            --cut;
        out.resize(cut);
    }
    return out;
}

std::string stringField(const nlohmann::json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

PromotionRecord promotionOf(std::int64_t seq, std::int64_t atMs, std::string actor, std::string subject,
                            std::string_view detailsText)
{
    PromotionRecord record;
    record.seq = seq;
    record.atMs = atMs;
    record.actor = std::move(actor);
    const auto details = nlohmann::json::parse(detailsText, nullptr, false);
    if (details.is_object()) {
        record.source = stringField(details, "source");
        record.target = stringField(details, "target");
        record.risk = stringField(details, "risk");
        record.checkpoint = stringField(details, "checkpoint");
        if (const auto approval = details.find("approval"); approval != details.end() && approval->is_object()) {
            record.approvedBy = stringField(*approval, "by");
            record.approvalNote = stringField(*approval, "note");
        }
        if (const auto impact = details.find("impact"); impact != details.end() && impact->is_object()) {
            if (const auto files = impact->find("files"); files != impact->end() && files->is_number_integer())
                record.files = std::max<std::int64_t>(-1, files->get<std::int64_t>());
        }
        if (const auto recovered = details.find("recovered"); recovered != details.end() && recovered->is_boolean())
            record.recovered = recovered->get<bool>();
    }
    if (record.target.empty())
        record.target = std::move(subject); // the audit entry names the sandbox it changed
    return record;
}

} // namespace

std::string blockedTarget(std::string_view kind, std::string_view detail)
{
    std::string_view target = beforeExplanation(detail);
    if (kind == "syscall") {
        if (const auto open = target.find('('); open != std::string_view::npos && open > 0)
            target = trimmed(target.substr(0, open));
    } else if (kind == "network") {
        if (target.find('(') == std::string_view::npos) // a refused connection, not a refused socket(…)
            target = hostOf(target);
    } else if (kind == "path") {
        // "open /etc/shadow": the path after the call's verb.
        if (const auto space = target.find(' '); space != std::string_view::npos)
            target = trimmed(target.substr(space + 1));
    }
    std::string out = cleaned(target);
    return out.empty() ? std::string("(none)") : out;
}

Result<std::vector<BlockedPoint>> blockedPoints(const Store& store)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    return detail::guarded(store.path(), "reading the blocked events", [&]() -> Result<std::vector<BlockedPoint>> {
        auto statement = db->prepare("SELECT r.started_at_ms, e.kind, e.detail FROM blocked_events AS e "
                                     "JOIN runs AS r ON r.id = e.run_id ORDER BY r.started_at_ms, r.id, e.seq, e.id");
        if (!statement)
            return std::unexpected(statement.error());
        sqlite3_stmt* s = statement->get();
        std::vector<BlockedPoint> points;
        int rc = 0;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            BlockedPoint point;
            point.atMs = sqlite3_column_int64(s, 0);
            point.kind = cleaned(trimmed(sqlite::columnString(s, 1)));
            if (point.kind.empty())
                point.kind = "unknown";
            point.target = blockedTarget(point.kind, sqlite::columnString(s, 2));
            points.push_back(std::move(point));
        }
        if (rc != SQLITE_DONE)
            return db->error("cannot read the blocked events");
        return points;
    });
}

BlockedCounts countBlocked(std::span<const BlockedPoint> points, std::int64_t fromMs, std::int64_t untilMs,
                           std::size_t top)
{
    BlockedCounts counts;
    std::map<std::string, std::int64_t, std::less<>> kinds;
    std::map<std::pair<std::string, std::string>, std::int64_t> targets;
    for (const BlockedPoint& point : points) {
        if (point.atMs < fromMs || (untilMs != 0 && point.atMs >= untilMs))
            continue;
        ++counts.total;
        ++kinds[point.kind];
        ++targets[{point.kind, point.target}];
    }
    for (auto& [kind, count] : kinds)
        counts.byKind.push_back({kind, count});
    std::stable_sort(counts.byKind.begin(), counts.byKind.end(),
                     [](const NamedCount& a, const NamedCount& b) { return a.count > b.count; });
    std::vector<TargetCount> all;
    all.reserve(targets.size());
    for (auto& [key, count] : targets)
        all.push_back({key.first, key.second, count});
    std::stable_sort(all.begin(), all.end(), [](const TargetCount& a, const TargetCount& b) { return a.count > b.count; });
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (i < top)
            counts.topTargets.push_back(std::move(all[i]));
        else
            counts.otherTargets += all[i].count;
    }
    return counts;
}

Result<std::vector<PromotionRecord>> recentPromotions(const Store& store, std::size_t limit)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    return detail::guarded(store.path(), "reading the promotions", [&]() -> Result<std::vector<PromotionRecord>> {
        // The latest by time, then by place in the log. The columns are read as they are: a hand edit may leave
        // NULLs or other types (store/audit.h); a time that is not a number reads as 0.
        auto statement = db->prepare("SELECT seq, at_ms, actor, subject, details FROM audit_log WHERE operation = ?1 "
                                     "ORDER BY CASE WHEN typeof(at_ms) = 'integer' THEN at_ms ELSE 0 END DESC, "
                                     "seq DESC LIMIT ?2");
        if (!statement)
            return std::unexpected(statement.error());
        sqlite3_stmt* s = statement->get();
        sqlite::Binder bind(s);
        bind.text(1, audit_op::kPromote)
            .integer(2, static_cast<std::int64_t>(std::min<std::size_t>(limit, 1'000'000)));
        if (!bind.ok())
            return db->error("cannot read the promotions");
        std::vector<PromotionRecord> records;
        int rc = 0;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW)
            records.push_back(promotionOf(sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1),
                                          sqlite::columnString(s, 2), sqlite::columnString(s, 3),
                                          sqlite::columnString(s, 4)));
        if (rc != SQLITE_DONE)
            return db->error("cannot read the promotions");
        return records;
    });
}

} // namespace sb
