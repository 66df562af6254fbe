#include "store_internal.h"

#include "schema_migration.h"
#include "wal_vfs.h"
#include "util/errno_text.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <span>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

// Opening a store: recognising a file as ours (or refusing it untouched), the connection's settings, and running
// the modules' schema steps (store/schema.h).

namespace sb {

namespace {

namespace fs = std::filesystem;
using sqlite::columnString;
using sqlite::Connection;
using sqlite::Db;

// quick_check reads every page of the tables it checks: about 0.5 ms per MB here, paid by every CLI command
// (a 60 MB store of 15 000 runs made `sandbench history` 33 ms instead of 3). Larger files only get the schema
// checks; SQLite still reports SQLITE_CORRUPT on any damaged page it later reads, and refuses to write
// through one.
constexpr std::int64_t kQuickCheckMaxBytes = 4 * 1024 * 1024;
// The first connection of a process rebuilds the WAL's index by reading (and checksumming) every frame
// written since the log last restarted, so every CLI command pays for the WAL's length: at SQLite's default
// of 1000 pages that is up to 4 MB, about 2 ms, per command. A checkpoint every 128 pages (512 KB) bounds
// that; a run writes a few pages, so the checkpoint's two syncs come every few dozen runs.
constexpr int kWalCheckpointPages = Store::kWalCheckpointPages;
constexpr int kBusyTimeoutMs = 5000;

// SQLite's own automatic checkpoint (PASSIVE) copies the WAL into the database but leaves the log where it is:
// only a later write transaction of the same connection starts it over, and a command that writes once per
// process never makes one. A new process does not know what is copied already, so left to SQLite the log grows
// by every command's frames (11 MB after 150 checkpoints), and each command re-reads all of it and copies all
// of it again. This checkpoint truncates the log. It never waits: should another connection be reading or
// writing, it copies what it can, as PASSIVE does, and a later one tries again. True: the log is empty.
bool truncateWal(sqlite3* db, const char* schema)
{
    sqlite3_busy_timeout(db, 0);
    const int rc = sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    return rc == SQLITE_OK;
}

// The WAL hook: after every commit of the connection, with the log's length in frames. `state` (the Store's
// WalState; null while the store is being opened) says from which length a commit checkpoints the log.
int checkpointAndTruncate(void* state, sqlite3* db, const char* schema, int pages)
{
    auto* wal = static_cast<Store::WalState*>(state);
    if (wal)
        wal->pages = pages;
    if (pages < (wal ? wal->commitPages : kWalCheckpointPages))
        return SQLITE_OK;
    if (truncateWal(db, schema) && wal)
        wal->pages = 0;
    return SQLITE_OK;
}

// SQLite may treat a name starting with "file:" as a URI; a path with a folder part never is one.
std::string sqliteFileName(const fs::path& path)
{
    if (path.is_absolute() || path.string().starts_with("./") || path.string().starts_with("../"))
        return path.string();
    return "./" + path.string();
}

Result<Connection> openConnection(const fs::path& path, int flags)
{
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(sqliteFileName(path).c_str(), &raw, flags, store_vfs::name());
    Connection connection(raw); // even a failed open returns a handle that must be closed
    if (rc != SQLITE_OK || !connection) {
        return fail(fmt::format("store {}: cannot open: {}", path.string(),
                                connection ? sqlite3_errmsg(connection.get()) : sqlite3_errstr(rc)));
    }
    sqlite3_extended_result_codes(connection.get(), 1);
    // Two Stores on one file (CLI and GUI, or tests) wait for each other's short write transactions.
    sqlite3_busy_timeout(connection.get(), kBusyTimeoutMs);
    return connection;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const auto& name : names) {
        if (!text.empty())
            text += ", ";
        text += name;
    }
    return text;
}

// Decides, reading only, whether an existing file is a Sandbench store this build can use. Done on a
// separate read-only connection so that nothing (not even a hot-journal rollback or a WAL checkpoint on
// close) can touch a file we are about to refuse. The connection is returned, its read transaction ended:
// kept open while the store's own connection opens, it keeps the WAL index it built (by reading the whole
// log) for that connection, which would otherwise read the log again.
Result<Connection> validateExisting(const fs::path& path, std::span<const RegisteredStep> steps)
{
    auto connection = openConnection(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
    if (!connection)
        return std::unexpected(connection.error());
    const Db db(connection->get(), path);
    const std::string where = path.string();

    // One read transaction for every check: the schema and the version numbers must come from the same
    // snapshot even while another Store migrates the file.
    if (auto ok = db.exec("BEGIN", "cannot start a read transaction"); !ok)
        return std::unexpected(ok.error());

    // The first read of the schema is where SQLite notices a file that is not a database at all.
    std::vector<std::string> objects;
    bool readable = false;
    std::vector<std::string> tables;
    if (auto schema = db.prepare("SELECT type, name FROM sqlite_master")) {
        int rc = 0;
        while ((rc = sqlite3_step(schema->get())) == SQLITE_ROW) {
            std::string name = columnString(schema->get(), 1);
            if (name.starts_with("sqlite_"))
                continue;
            if (columnString(schema->get(), 0) == "table" && name.find('"') == std::string::npos)
                tables.push_back(name);
            objects.push_back(std::move(name));
        }
        readable = rc == SQLITE_DONE;
    }
    if (!readable) {
        const int code = sqlite3_errcode(connection->get()) & 0xff; // primary code of the extended one
        const std::string message = sqlite3_errmsg(connection->get());
        if (code == SQLITE_NOTADB)
            return fail(fmt::format("store {} is not a SQLite database ({}); refusing to use it", where, message));
        if (code == SQLITE_CORRUPT)
            return fail(fmt::format("store {} is corrupt ({}); refusing to use it", where, message));
        return fail(fmt::format("store {}: cannot read the schema: {}", where, message));
    }

    auto applicationId = db.pragmaInt("application_id");
    if (!applicationId)
        return std::unexpected(applicationId.error());
    auto userVersion = db.pragmaInt("user_version");
    if (!userVersion)
        return std::unexpected(userVersion.error());

    if (*applicationId != 0 && *applicationId != Store::kApplicationId)
        return fail(fmt::format("store {} is not a Sandbench store: it is a SQLite database of another "
                                "application (application_id 0x{:08x}); refusing to use it",
                                where, static_cast<std::uint32_t>(*applicationId)));

    const std::vector<std::string_view> ours = schemaObjects(steps);

    if (*applicationId == 0) {
        std::vector<std::string> foreign;
        for (const auto& name : objects) {
            if (std::find(ours.begin(), ours.end(), name) == ours.end())
                foreign.push_back(name);
        }
        if (!foreign.empty())
            return fail(fmt::format("store {} is not a Sandbench store: it is a SQLite database with other "
                                    "tables ({}); refusing to use it",
                                    where, joined(foreign)));
    }

    if (*userVersion > Store::kSchemaVersion)
        return fail(fmt::format("store {} has schema version {}, newer than this Sandbench ({}); upgrade "
                                "Sandbench",
                                where, *userVersion, Store::kSchemaVersion));
    if (*userVersion < 0)
        return fail(fmt::format("store {} has an invalid schema version {}; refusing to use it", where, *userVersion));
    if (*userVersion == 0 && !objects.empty())
        return fail(fmt::format("store {} is not a Sandbench store: it has tables ({}) but no schema "
                                "version; refusing to use it",
                                where, joined(objects)));

    // Every object the claimed version should have must be there; a missing one means a damaged file.
    for (std::string_view name : schemaObjectsUpTo(steps, static_cast<int>(*userVersion))) {
        if (std::find(objects.begin(), objects.end(), name) == objects.end())
            return fail(
                fmt::format("store {} is damaged: schema version {} but {} is missing", where, *userVersion, name));
    }

    auto pageCount = db.pragmaInt("page_count");
    auto pageSize = db.pragmaInt("page_size");
    if (!pageCount || !pageSize)
        return fail(
            fmt::format("store {} is corrupt ({}); refusing to use it", where, sqlite3_errmsg(connection->get())));
    if (*pageCount * *pageSize <= kQuickCheckMaxBytes) {
        // Every table but those their modules check themselves (SchemaStep::selfCheckingTables), when the store
        // has them: together they are most of a store with checkpoints, and reading them at every open would
        // cost every command milliseconds per 10 MB. A damaged page of theirs still surfaces as SQLITE_CORRUPT
        // when read.
        const std::vector<std::string_view> skipped = selfCheckingTables(steps);
        auto selfChecking = [&](std::string_view name) {
            return std::find(skipped.begin(), skipped.end(), name) != skipped.end();
        };
        std::vector<std::string> checks;
        if (std::none_of(tables.begin(), tables.end(), selfChecking)) {
            checks.emplace_back("PRAGMA quick_check");
        } else {
            for (const auto& table : tables) {
                if (!selfChecking(table))
                    checks.push_back(fmt::format("PRAGMA quick_check(\"{}\")", table));
            }
        }
        for (const auto& sql : checks) {
            auto check = db.prepare(sql);
            if (!check)
                return std::unexpected(check.error());
            const int rc = sqlite3_step(check->get());
            if (rc != SQLITE_ROW)
                return fail(fmt::format("store {} is corrupt ({}); refusing to use it", where,
                                        sqlite3_errmsg(connection->get())));
            const std::string verdict = columnString(check->get(), 0);
            if (verdict != "ok")
                return fail(fmt::format("store {} is corrupt ({}); refusing to use it", where, verdict));
        }
    }
    if (auto ok = db.exec("COMMIT", "cannot end the read transaction"); !ok)
        return std::unexpected(ok.error());
    return std::move(*connection);
}

// WAL lets readers (the GUI's threads, a second Store) work while a run is recorded. Switching needs an
// exclusive lock, and SQLite does not call the busy handler for it when that could deadlock, so a first open
// racing another one retries here for as long as busy_timeout would have waited.
Result<void> switchToWal(const Db& db)
{
    constexpr int kRetryMs = 10;
    constexpr int kPatienceMs = 5000;
    for (int waitedMs = 0;; waitedMs += kRetryMs) {
        auto journal = db.prepare("PRAGMA journal_mode = WAL");
        if (!journal)
            return std::unexpected(journal.error());
        const int rc = sqlite3_step(journal->get());
        if (rc == SQLITE_ROW) {
            const std::string mode = columnString(journal->get(), 0);
            if (mode == "wal")
                return {};
            return fail(
                fmt::format("store {}: cannot switch to WAL (the journal mode stays {})", db.path().string(), mode));
        }
        const int code = rc & 0xff;
        if ((code != SQLITE_BUSY && code != SQLITE_LOCKED) || waitedMs >= kPatienceMs)
            return db.error("cannot switch to WAL");
        journal->reset();
        sqlite3_sleep(kRetryMs);
    }
}

} // namespace

Result<Store> Store::open(const fs::path& path)
{
    return open(StoreLocation{path, false});
}

Result<Store> Store::open(const StoreLocation& location)
{
    const fs::path& path = location.path;
    return detail::guarded(path, "opening", [&]() -> Result<Store> {
        if (path.empty())
            return fail("store path is empty");
        if (auto ok = detail::prepareFolder(location); !ok)
            return std::unexpected(ok.error());
        const std::vector<RegisteredStep> steps = registeredSchemaSteps();

        std::error_code ec;
        const auto status = fs::status(path, ec);
        Connection validated; // closed as this returns, once the store's own connection is open
        if (fs::exists(status)) {
            if (!fs::is_regular_file(status))
                return fail(fmt::format("store {} is not a regular file; refusing to use it", path.string()));
            auto checked = validateExisting(path, steps);
            if (!checked)
                return std::unexpected(checked.error());
            validated = std::move(*checked);
        } else {
            // Created here, private to the user, so SQLite (and its -wal/-shm, which copy the mode) never
            // makes it world-readable under a permissive umask. EEXIST: another Store raced us; fine.
            const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (fd >= 0)
                ::close(fd);
            else if (errno != EEXIST)
                return fail(fmt::format("store {}: cannot create: {}", path.string(), errnoText(errno)));
        }

        auto connection = openConnection(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX);
        if (!connection)
            return std::unexpected(connection.error());
        const Db db(connection->get(), path);

        if (auto ok = switchToWal(db); !ok)
            return std::unexpected(ok.error());

        if (auto ok = db.exec(fmt::format("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = {}; PRAGMA synchronous = "
                                          "NORMAL",
                                          kBusyTimeoutMs),
                              "cannot configure the connection");
            !ok)
            return std::unexpected(ok.error());
        // The CLI opens the store once per command: checkpointing the WAL at every close cost four syncs per
        // run. The WAL is checkpointed and truncated once it reaches kWalCheckpointPages instead
        // (checkpointAndTruncate); WAL mode with synchronous=NORMAL keeps every committed run across a crash
        // of Sandbench.
        sqlite3_wal_hook(connection->get(), checkpointAndTruncate, nullptr);
        sqlite3_db_config(connection->get(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
        int persistWal = 1;
        sqlite3_file_control(connection->get(), "main", SQLITE_FCNTL_PERSIST_WAL, &persistWal);
        if (auto ok = migrateSchema(db, steps); !ok)
            return std::unexpected(ok.error());
        // A file accepted with application_id 0 (our tables, hand-made or older) is claimed here.
        auto applicationId = db.pragmaInt("application_id");
        if (!applicationId)
            return std::unexpected(applicationId.error());
        if (*applicationId != kApplicationId) {
            if (auto ok =
                    db.exec(fmt::format("PRAGMA application_id = {}", kApplicationId), "cannot set the application id");
                !ok)
                return std::unexpected(ok.error());
        }
        return Store(path, connection->release());
    });
}

Store::Store(fs::path path, sqlite3* db)
    : m_path(std::move(path)), m_db(db), m_statements(std::make_shared<sqlite::StatementCache>()),
      m_wal(std::make_unique<WalState>())
{
    m_wal->commitPages = kWalCheckpointPages;
    sqlite3_wal_hook(m_db, checkpointAndTruncate, m_wal.get());
}

Store::Store(Store&& other) noexcept
    : m_path(std::move(other.m_path)), m_db(std::exchange(other.m_db, nullptr)),
      m_statements(std::move(other.m_statements)), m_wal(std::move(other.m_wal))
{
}

Store& Store::operator=(Store&& other) noexcept
{
    if (this != &other) {
        close();
        m_path = std::move(other.m_path);
        m_db = std::exchange(other.m_db, nullptr);
        m_statements = std::move(other.m_statements);
        m_wal = std::move(other.m_wal);
    }
    return *this;
}

Store::~Store()
{
    close();
}

void Store::close() noexcept
{
    // The cached statements first: close_v2 defers the close until every statement is finalized, and one still
    // in use elsewhere is finalized when it is done, so a leak elsewhere cannot make the close fail.
    if (m_statements)
        m_statements->close();
    if (m_db) {
        // A deferred close outlives this Store, and so its WAL state: the hook goes back to the default.
        sqlite3_wal_hook(m_db, checkpointAndTruncate, nullptr);
        sqlite3_close_v2(std::exchange(m_db, nullptr));
    }
}

void Store::deferWalCheckpoints()
{
    if (m_wal)
        m_wal->commitPages = kDeferredWalPages;
}

bool Store::checkpointWal()
{
    if (!m_db || !m_wal || m_wal->pages < kWalCheckpointPages)
        return false;
    if (!truncateWal(m_db, "main"))
        return false;
    m_wal->pages = 0;
    return true;
}

bool Store::readOnly() const
{
    return m_db && ::sqlite3_db_readonly(m_db, "main") == 1;
}

int Store::schemaVersion() const
{
    if (!m_db)
        return -1;
    const Db db(m_db, m_path, m_statements);
    auto version = db.pragmaInt("user_version");
    return version ? static_cast<int>(*version) : -1;
}

} // namespace sb
