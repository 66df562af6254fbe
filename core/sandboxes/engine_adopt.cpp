// Checkpoints that travel between stores: a checkpoint's tree written out as a folder, and the checkpoints
// another store made of a sandbox recorded into this one's history (an agent session run on a cluster's node,
// agents/agent_cluster.h).

#include "engine_internal.h"

#include "store/audit.h"

#include <fcntl.h>

namespace sb {

using namespace engine;

namespace {

constexpr std::string_view kSchema = "adopted";

// A checkpoint of the other store: its id there, and its fields, parents and source by their ids there.
struct Foreign {
    std::string id;
    NewCheckpoint checkpoint;
};

// The other store's checkpoints of `sandbox`, in the order they were recorded (parents first).
Result<std::vector<Foreign>> foreignCheckpoints(const sqlite::Db& db, const std::string& sandbox,
                                                const std::string& where)
{
    auto rows = db.prepare(fmt::format(
        "SELECT c.checkpoint_id, c.tree, c.kind, c.label, c.message, c.author, c.created_at_ms, s.checkpoint_id, "
        "c.files, c.bytes, (SELECT json_group_array(p.checkpoint_id) FROM (SELECT p.checkpoint_id FROM "
        "{0}.checkpoint_parents AS cp JOIN {0}.checkpoints AS p ON p.id = cp.parent_id WHERE cp.child_id = c.id "
        "ORDER BY cp.seq) AS p) FROM {0}.checkpoints AS c LEFT JOIN {0}.checkpoints AS s ON s.id = c.source_id "
        "WHERE c.sandbox_name = ?1 ORDER BY c.id",
        kSchema));
    if (!rows)
        return errorOf(rows);
    sqlite::Binder bind(rows->get());
    bind.text(1, sandbox);
    if (!bind.ok())
        return db.error("cannot read the other store's checkpoints");
    std::vector<Foreign> out;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(rows->get())) == SQLITE_ROW) {
        sqlite3_stmt* s = rows->get();
        Foreign f;
        f.id = sqlite::columnString(s, 0);
        NewCheckpoint& c = f.checkpoint;
        const auto* tree = static_cast<const std::uint8_t*>(sqlite3_column_blob(s, 1));
        if (f.id.size() != 64 || !tree || sqlite3_column_bytes(s, 1) != 32)
            return fail(fmt::format("{}: checkpoint {} of sandbox '{}' is damaged", where, f.id, sandbox));
        std::copy(tree, tree + 32, c.tree.begin());
        c.kind = sqlite::columnString(s, 2);
        c.label = sqlite::columnString(s, 3);
        c.message = sqlite::columnString(s, 4);
        c.author = sqlite::columnString(s, 5);
        c.createdAtMs = sqlite3_column_int64(s, 6);
        c.source = sqlite::columnString(s, 7);
        c.files = static_cast<std::uint64_t>(sqlite3_column_int64(s, 8));
        c.bytes = static_cast<std::uint64_t>(sqlite3_column_int64(s, 9));
        const auto parents = nlohmann::json::parse(sqlite::columnString(s, 10), nullptr, false);
        if (!parents.is_array())
            return fail(fmt::format("{}: checkpoint {} has unreadable parents", where, f.id));
        for (const auto& p : parents) {
            if (!p.is_string())
                return fail(fmt::format("{}: checkpoint {} has unreadable parents", where, f.id));
            c.parents.push_back(p.get<std::string>());
        }
        out.push_back(std::move(f));
    }
    if (rc != SQLITE_DONE)
        return db.error(fmt::format("cannot read the checkpoints of {}", where));
    return out;
}

} // namespace

Result<void> SandboxEngine::writeCheckpoint(std::string_view checkpoint, const std::filesystem::path& folder)
{
    auto garbage = m_impl->lockGarbage(FileLock::Mode::Shared);
    if (!garbage)
        return errorOf(garbage);
    auto row = m_impl->resolveCheckpoint(checkpoint);
    if (!row)
        return errorOf(row);
    if (auto ok = makeDirectories(folder); !ok)
        return ok;
    std::error_code ec;
    if (!std::filesystem::is_empty(folder, ec))
        return fail(fmt::format("{}: not empty: a checkpoint is written into an empty folder", folder.string()));
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return fail(fmt::format("{}: cannot open: {}", folder.string(), std::strerror(errno)));
    TreeReader reader(m_impl->blobs);
    auto written = writeTree(reader, row->info.tree, fd, nullptr);
    ::close(fd);
    if (!written)
        return errorOf(written);
    return {};
}

Result<AdoptedCheckpoints> SandboxEngine::adoptCheckpoints(const AdoptRequest& request)
{
    Impl& impl = *m_impl;
    const std::string where = request.source.string();
    const nlohmann::json extra = request.details.empty() ? nlohmann::json::object()
                                                         : nlohmann::json::parse(request.details, nullptr, false);
    if (!extra.is_object())
        return fail("the details of adopted checkpoints must be a JSON object");
    auto lock = impl.lockSandbox(request.sandbox);
    if (!lock)
        return errorOf(lock);
    // Shared: no collection runs between the blobs copied in and the checkpoints that hold them recorded.
    auto garbage = impl.lockGarbage(FileLock::Mode::Shared);
    if (!garbage)
        return errorOf(garbage);
    auto sandbox = impl.requireSandbox(request.sandbox);
    if (!sandbox)
        return errorOf(sandbox);
    auto onto = impl.resolveCheckpoint(request.onto);
    if (!onto)
        return errorOf(onto);
    if (onto->sandboxId != sandbox->id)
        return fail(fmt::format("checkpoint {} is not of sandbox '{}'", onto->info.id, request.sandbox));

    auto attached = sqlite::Attachment::attach(impl.db, request.source, std::string(kSchema));
    if (!attached)
        return errorOf(attached);
    auto theirVersion = impl.db.pragmaInt(fmt::format("{}.user_version", kSchema));
    auto ourVersion = impl.db.pragmaInt("main.user_version");
    if (!theirVersion || !ourVersion)
        return errorOf(!theirVersion ? theirVersion : ourVersion);
    if (*theirVersion != *ourVersion)
        return fail(fmt::format("{}: a store of schema version {}, this one is {}: the same Sandbench writes both",
                                where, *theirVersion, *ourVersion));
    auto chain = foreignCheckpoints(impl.db, request.sandbox, where);
    if (!chain)
        return errorOf(chain);
    if (chain->empty())
        return fail(fmt::format("{}: it has no checkpoint of sandbox '{}'", where, request.sandbox));

    sqlite::Transaction transaction(impl.db);
    if (auto ok = transaction.begin(); !ok)
        return errorOf(ok);
    if (auto ok = impl.db.exec(fmt::format("INSERT OR IGNORE INTO main.blobs (hash, kind, size, codec, data) "
                                           "SELECT hash, kind, size, codec, data FROM {}.blobs",
                                           kSchema),
                               "cannot copy the other store's content");
        !ok)
        return errorOf(ok);

    AdoptedCheckpoints out;
    std::vector<Operation> operations;
    const std::string meta = metaText(sandbox->info.policy, sandbox->info.datasets);
    TreeReader reader(impl.blobs);
    for (const Foreign& f : *chain) {
        const NewCheckpoint& theirs = f.checkpoint;
        if (theirs.parents.empty() && theirs.tree == onto->info.tree) {
            out.ids[f.id] = onto->info.id;
            continue;
        }
        // Theirs, but of this sandbox, with parents and source by their ids here and the sandbox's meta.
        NewCheckpoint c = theirs;
        c.sandboxId = sandbox->id;
        c.sandboxName = sandbox->info.name;
        c.parents.clear();
        c.source.clear();
        for (const auto& parent : theirs.parents) {
            const auto mapped = out.ids.find(parent);
            if (mapped == out.ids.end())
                return fail(fmt::format("{}: checkpoint {} has a parent {} of no sandbox '{}' there", where, f.id,
                                        parent, request.sandbox));
            c.parents.push_back(mapped->second);
        }
        if (c.parents.empty())
            c.parents = {onto->info.id};
        if (c.kind == "create")
            c.kind = "import";
        if (c.kind != "checkpoint" && c.kind != "auto" && c.kind != "restore" && c.kind != "import")
            return fail(fmt::format("{}: checkpoint {} is of kind '{}', which an agent session does not make", where,
                                    f.id, theirs.kind));
        if (const auto source = out.ids.find(theirs.source); source != out.ids.end())
            c.source = source->second;
        c.meta = meta;
        // Every file it reaches is read and hash-checked: a checkpoint is kept only when it is whole here.
        auto whole = reader.walk(c.tree, [&](const std::string& path, const TreeEntry& entry) -> Result<bool> {
            if (entry.type != EntryType::File)
                return true;
            auto ok = sb::readFile(impl.blobs, entry, [](std::string_view) -> Result<void> { return {}; });
            if (!ok)
                return fail(fmt::format("{}: checkpoint {}: {}: {}", where, f.id, path, ok.error().message));
            return true;
        });
        if (!whole)
            return errorOf(whole);
        auto made = impl.addCheckpoint(c);
        if (!made)
            return errorOf(made);
        out.ids[f.id] = made->info.id;
        nlohmann::json details = extra;
        details["kind"] = c.kind;
        details["label"] = c.label;
        details["parent"] = c.parents.front();
        details["tree"] = hashHex(c.tree);
        details["files"] = c.files;
        details["bytes"] = c.bytes;
        details["made_as"] = f.id;
        operations.push_back(Operation{"checkpoint.create", sandbox->info.name, made->info.id, c.author,
                                       c.createdAtMs, jsonText(details)});
    }

    auto head = impl.db.prepare(fmt::format("SELECT c.checkpoint_id FROM {0}.sandboxes AS s JOIN {0}.checkpoints AS c "
                                            "ON c.id = s.head_id WHERE s.name = ?1",
                                            kSchema));
    if (!head)
        return errorOf(head);
    sqlite::Binder bind(head->get());
    bind.text(1, request.sandbox);
    if (!bind.ok() || sqlite3_step(head->get()) != SQLITE_ROW)
        return fail(fmt::format("{}: it has no sandbox '{}' with a head", where, request.sandbox));
    const auto mappedHead = out.ids.find(sqlite::columnString(head->get(), 0));
    if (mappedHead == out.ids.end())
        return fail(fmt::format("{}: the head of sandbox '{}' is not one of its checkpoints", where, request.sandbox));
    out.head = mappedHead->second;
    head->reset();
    if (operations.empty()) {
        if (auto ok = transaction.commit(); !ok)
            return errorOf(ok);
        return out;
    }
    if (auto ok = impl.commit(transaction, operations); !ok)
        return errorOf(ok);
    return out;
}

} // namespace sb
