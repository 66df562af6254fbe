#pragma once

// Private to core/sandboxes: the rows of the engine's tables as it reads them, a checkpoint about to be
// recorded (its id, its JSON in the restore journal) and the meta a checkpoint keeps of its sandbox.

#include "engine_support.h"

#include <optional>

namespace sb::engine {

// What a new checkpoint row holds; parents and source by checkpoint id.
struct NewCheckpoint {
    std::int64_t sandboxId = 0;
    std::string sandboxName;
    ContentHash tree{};
    std::vector<std::string> parents;
    std::string kind;
    std::string label;
    std::string message;
    std::string author;
    std::int64_t createdAtMs = 0;
    std::string source;
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
    std::string meta; // the sandbox's policy and dataset references (metaText); "" in checkpoints before schema 6
};

// The id: SHA-256 of everything the checkpoint says, each text field length-prefixed so that no label can
// pass for another field.
inline std::string checkpointIdOf(const NewCheckpoint& c)
{
    std::string text = "sandbench checkpoint 1\n";
    auto field = [&](std::string_view name, std::string_view value) {
        text += fmt::format("{} {}:", name, value.size());
        text += value;
        text += '\n';
    };
    field("tree", hashHex(c.tree));
    for (const auto& parent : c.parents)
        field("parent", parent);
    field("sandbox", c.sandboxName);
    field("kind", c.kind);
    field("author", c.author);
    field("created", std::to_string(c.createdAtMs));
    field("label", c.label);
    field("message", c.message);
    field("source", c.source);
    // Later than the fields above and only when there is any, so every older checkpoint keeps its id.
    if (!c.meta.empty())
        field("meta", c.meta);
    auto hex = sha256Hex(text);
    return hex ? *hex : std::string();
}

inline nlohmann::json toJson(const NewCheckpoint& c, const std::string& id)
{
    return {{"id", id},
            {"sandbox_id", c.sandboxId},
            {"sandbox", c.sandboxName},
            {"tree", hashHex(c.tree)},
            {"parents", c.parents},
            {"kind", c.kind},
            {"label", c.label},
            {"message", c.message},
            {"author", c.author},
            {"created_at_ms", c.createdAtMs},
            {"source", c.source},
            {"files", c.files},
            {"bytes", c.bytes},
            {"meta", c.meta}};
}

inline Result<std::pair<NewCheckpoint, std::string>> newCheckpointFromJson(const std::string& text)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
        return fail("the journal's plan is not JSON");
    try {
        NewCheckpoint c;
        c.sandboxId = j.at("sandbox_id").get<std::int64_t>();
        c.sandboxName = j.at("sandbox").get<std::string>();
        auto tree = hashFromHex(j.at("tree").get<std::string>());
        if (!tree)
            return errorOf(tree);
        c.tree = *tree;
        c.parents = j.at("parents").get<std::vector<std::string>>();
        c.kind = j.at("kind").get<std::string>();
        c.label = j.at("label").get<std::string>();
        c.message = j.at("message").get<std::string>();
        c.author = j.at("author").get<std::string>();
        c.createdAtMs = j.at("created_at_ms").get<std::int64_t>();
        c.source = j.at("source").get<std::string>();
        c.files = j.at("files").get<std::uint64_t>();
        c.bytes = j.at("bytes").get<std::uint64_t>();
        c.meta = j.value("meta", std::string()); // journals written before schema 6 have none
        return std::pair{std::move(c), j.at("id").get<std::string>()};
    } catch (const std::exception& e) {
        return fail(fmt::format("the journal's plan is damaged: {}", e.what()));
    }
}

inline nlohmann::json datasetsToJson(const std::vector<DatasetRef>& refs)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : refs) {
        nlohmann::json item = {{"name", r.name}, {"snapshot", r.snapshot}, {"sha256", r.sha256}};
        if (r.sampled) {
            item["sampled"] = true;
            item["sample"] = r.sample;
            item["seed"] = r.seed;
        }
        out.push_back(std::move(item));
    }
    return out;
}

inline std::vector<DatasetRef> datasetsFromJson(const nlohmann::json& j)
{
    std::vector<DatasetRef> refs;
    if (!j.is_array())
        return refs;
    for (const auto& item : j) {
        if (!item.is_object())
            continue;
        DatasetRef r;
        r.name = item.value("name", std::string());
        r.snapshot = item.value("snapshot", std::string());
        r.sha256 = item.value("sha256", std::string());
        r.sampled = item.value("sampled", false);
        r.sample = item.value("sample", 1.0);
        r.seed = item.value("seed", std::uint64_t{0});
        if (!r.name.empty())
            refs.push_back(std::move(r));
    }
    return refs;
}

// A checkpoint's `meta`: the sandbox's policy and dataset references. Every checkpoint made since schema 6
// has one; "" marks an older checkpoint, which says nothing about them (a restore of it leaves them be).
inline std::string metaText(const std::string& policy, const std::vector<DatasetRef>& datasets)
{
    return jsonText(nlohmann::json{{"policy", policy}, {"datasets", datasetsToJson(datasets)}});
}

inline void readMeta(const std::string& text, std::string& policy, std::vector<DatasetRef>& datasets)
{
    if (text.empty())
        return;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
        return;
    policy = j.value("policy", std::string());
    if (j.contains("datasets"))
        datasets = datasetsFromJson(j["datasets"]);
}

struct SandboxRow {
    std::int64_t id = 0;
    std::optional<std::int64_t> headRow;
    SandboxInfo info;
};

struct CheckpointRow {
    std::int64_t id = 0;
    std::optional<std::int64_t> sandboxId;
    CheckpointInfo info;
    std::string meta; // as stored ("" before schema 6)
};

inline constexpr std::string_view kSandboxSelect =
    "SELECT s.id, s.name, s.owner, s.created_at_ms, s.expires_at_ms, s.origin, s.includes, s.excludes, s.head_id, "
    "h.checkpoint_id, (SELECT count(*) FROM checkpoints WHERE sandbox_id = s.id), h.files, h.bytes, "
    "s.quota_bytes, s.idle_timeout_ms, coalesce(s.last_activity_ms, s.created_at_ms), s.state, s.policy, s.datasets "
    "FROM sandboxes AS s LEFT JOIN checkpoints AS h ON h.id = s.head_id";

// The same without the count of checkpoints (SandboxInfo::checkpoints reads 0), which grows with the sandbox:
// for the operations that do not report it, such as an agent session's checkpoint around each call.
inline constexpr std::string_view kSandboxSelectUncounted =
    "SELECT s.id, s.name, s.owner, s.created_at_ms, s.expires_at_ms, s.origin, s.includes, s.excludes, s.head_id, "
    "h.checkpoint_id, 0, h.files, h.bytes, "
    "s.quota_bytes, s.idle_timeout_ms, coalesce(s.last_activity_ms, s.created_at_ms), s.state, s.policy, s.datasets "
    "FROM sandboxes AS s LEFT JOIN checkpoints AS h ON h.id = s.head_id";

// Whether a sandbox's row counts its checkpoints.
enum class CheckpointCount { Counted, Skipped };

inline constexpr std::string_view kCheckpointSelect =
    "SELECT c.id, c.sandbox_id, c.checkpoint_id, c.sandbox_name, c.tree, c.kind, coalesce(c.relabel, c.label), "
    "c.message, c.author, c.created_at_ms, src.checkpoint_id, c.files, c.bytes, c.meta "
    "FROM checkpoints AS c LEFT JOIN checkpoints AS src ON src.id = c.source_id";

} // namespace sb::engine
