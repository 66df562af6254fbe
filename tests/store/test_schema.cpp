// The store's schema as the modules make it (store/schema.h): the order their steps run in, a whole set of steps
// before a file is migrated, a failing step that leaves the file as it was, and first opens racing in several
// processes.

#include "schema_migration.h"
#include "store/schema.h"
#include "store_fixture.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace sb {
namespace {

namespace fs = std::filesystem;
using storetest::RawDb;
using storetest::StoreTest;

// The tables and indexes of a file, with their SQL, in the order they were made.
std::string schemaOf(const fs::path& path)
{
    std::string schema;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        ADD_FAILURE() << "cannot open " << path;
        sqlite3_close(db);
        return schema;
    }
    sqlite3_stmt* statement = nullptr;
    sqlite3_prepare_v2(db, "SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY rowid", -1, &statement,
                       nullptr);
    while (sqlite3_step(statement) == SQLITE_ROW) {
        for (int column = 0; column < 3; ++column) {
            schema += reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
            schema += column < 2 ? " " : "\n";
        }
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return schema;
}

std::vector<std::string> namesOf(std::span<const RegisteredStep> steps)
{
    std::vector<std::string> names;
    for (const auto& step : steps)
        names.push_back(fmt::format("{}:{}.{}", step.module, step.step->version, step.step->part));
    return names;
}

// A connection below the Store, to run steps on a file directly.
class Connection {
public:
    explicit Connection(const fs::path& path) : m_path(path)
    {
        if (sqlite3_open(path.c_str(), &m_db) != SQLITE_OK)
            ADD_FAILURE() << "cannot open " << path;
    }
    ~Connection() { sqlite3_close(m_db); }
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    sqlite::Db db() const { return sqlite::Db(m_db, m_path); }

private:
    fs::path m_path;
    sqlite3* m_db = nullptr;
};

// The newest version made of the store's step alone (the audit signatures).
constexpr int kStoreVersion = 8;

// Every step of this program with version kStoreVersion made of parts of its own: the store's step as part 1 of
// `parts`, then `extra` (parts 2 ...), as a module named in it would add them.
struct Version8InParts {
    std::vector<SchemaStep> store;
    std::vector<ModuleSchema> modules;

    Version8InParts(std::span<const ModuleSchema> extra, int parts)
    {
        for (const SchemaStep& step : storeSchema().steps) {
            store.push_back(step);
            if (step.version == kStoreVersion) {
                store.back().part = 1;
                store.back().parts = parts;
            }
        }
        modules.push_back(ModuleSchema{"store", store});
        for (const RegisteredStep& registered : registeredSchemaSteps()) {
            if (registered.module != "store")
                modules.push_back(ModuleSchema{registered.module, std::span(registered.step, 1)});
        }
        modules.insert(modules.end(), extra.begin(), extra.end());
    }
    std::vector<RegisteredStep> steps() const { return schemaSteps(modules); }
};

TEST(SchemaRegistry, EveryModulesStepsRunByVersionThenPart)
{
    const std::vector<RegisteredStep> steps = registeredSchemaSteps();
    EXPECT_EQ(namesOf(steps),
              (std::vector<std::string>{"store:1.1", "store:2.1", "store:3.1", "checkpoints:4.1", "sandboxes:4.2",
                                        "rules:5.1", "sandboxes:6.1", "store:7.1", "store:8.1", "agents:9.1",
                                        "store:10.1", "store:11.1"}));
    EXPECT_TRUE(checkSchemaComplete(steps));

    // The order is the versions' and the parts', whatever the order the modules registered in.
    constexpr std::array first = {SchemaStep{.version = 2, .part = 2, .parts = 2}, SchemaStep{.version = 3}};
    constexpr std::array second = {SchemaStep{.version = 1}, SchemaStep{.version = 2, .part = 1, .parts = 2}};
    const std::array modules = {ModuleSchema{"upper", first}, ModuleSchema{"lower", second}};
    EXPECT_EQ(namesOf(schemaSteps(modules)),
              (std::vector<std::string>{"lower:1.1", "lower:2.1", "upper:2.2", "upper:3.1"}));
}

TEST(SchemaRegistry, ASecondRegistrationOfAModuleIsIgnored)
{
    const auto before = registeredSchemaSteps().size();
    constexpr std::array steps = {SchemaStep{.version = 4, .part = 1, .parts = 2, .sql = "CREATE TABLE twice(x);"}};
    EXPECT_TRUE(registerModuleSchema(ModuleSchema{"checkpoints", steps}));
    EXPECT_EQ(registeredSchemaSteps().size(), before);
}

TEST(SchemaRegistry, AVersionWithAPartMissingIsNamed)
{
    std::vector<RegisteredStep> steps = registeredSchemaSteps();
    std::erase_if(steps, [](const RegisteredStep& step) { return step.module == "sandboxes"; });
    auto complete = checkSchemaComplete(steps);
    ASSERT_FALSE(complete);
    EXPECT_EQ(complete.error().message,
              "schema version 4: part 2 of 2 is missing (this program has the parts of module checkpoints)");

    std::vector<RegisteredStep> withoutRules = registeredSchemaSteps();
    std::erase_if(withoutRules, [](const RegisteredStep& step) { return step.module == "rules"; });
    complete = checkSchemaComplete(withoutRules);
    ASSERT_FALSE(complete);
    EXPECT_NE(complete.error().message.find("schema version 5 has no step in this program"), std::string::npos)
        << complete.error().message;

    constexpr std::array twice = {SchemaStep{.version = 5}};
    const std::array modules = {ModuleSchema{"rules", twice}, ModuleSchema{"other", twice}};
    std::vector<RegisteredStep> doubled = registeredSchemaSteps();
    const auto more = schemaSteps(modules);
    doubled.insert(doubled.end(), more.begin(), more.end());
    complete = checkSchemaComplete(doubled);
    ASSERT_FALSE(complete);
    EXPECT_NE(complete.error().message.find("part 1 of 1 is defined more than once"), std::string::npos)
        << complete.error().message;

    constexpr std::array beyond = {SchemaStep{.version = Store::kSchemaVersion + 1}};
    std::vector<RegisteredStep> newer = registeredSchemaSteps();
    newer.push_back(RegisteredStep{"future", beyond.data()});
    complete = checkSchemaComplete(newer);
    ASSERT_FALSE(complete);
    EXPECT_EQ(complete.error().message,
              fmt::format("module future has a step for schema version {}, outside this Sandbench's 1 to {}",
                          Store::kSchemaVersion + 1, Store::kSchemaVersion));
}

TEST_F(StoreTest, AnIncompleteSchemaMigratesNothing)
{
    std::vector<RegisteredStep> steps = registeredSchemaSteps();
    std::erase_if(steps, [](const RegisteredStep& step) { return step.module == "rules"; });
    {
        Connection connection(dbPath());
        auto migrated = migrateSchema(connection.db(), steps);
        ASSERT_FALSE(migrated);
        EXPECT_EQ(migrated.error().message,
                  fmt::format("store {}: cannot migrate: schema version 5 has no step in this program (the module "
                              "that defines it is not part of it)",
                              dbPath().string()));
    }
    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("PRAGMA user_version"), 0);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM sqlite_master"), 0);

    // A file at the newest version needs no step, so the program's part of it is enough.
    {
        Store store = openStore();
    }
    Connection connection(dbPath());
    EXPECT_TRUE(migrateSchema(connection.db(), steps));
}

TEST_F(StoreTest, PartsOfAVersionRunInOrderInOneTransaction)
{
    constexpr std::array second = {SchemaStep{.version = kStoreVersion,
                                              .part = 3,
                                              .parts = 3,
                                              .sql = "INSERT INTO part_order (module) VALUES ('second');"}};
    constexpr std::array first = {SchemaStep{.version = kStoreVersion,
                                             .part = 2,
                                             .parts = 3,
                                             .sql = "CREATE TABLE part_order (seq INTEGER PRIMARY KEY, module TEXT); "
                                                    "INSERT INTO part_order (module) VALUES ('first');"}};
    const std::array extra = {ModuleSchema{"second", second}, ModuleSchema{"first", first}};
    const Version8InParts parts(extra, 3);
    {
        Connection connection(dbPath());
        auto migrated = migrateSchema(connection.db(), parts.steps());
        ASSERT_TRUE(migrated) << migrated.error().message;
    }
    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("PRAGMA user_version"), Store::kSchemaVersion);
    EXPECT_EQ(raw.text("SELECT group_concat(module, ',') FROM (SELECT module FROM part_order ORDER BY seq)"),
              "first,second");
    // The store's part 1 ran before them.
    EXPECT_EQ(raw.integer("SELECT count(*) FROM pragma_table_info('audit_log') WHERE name = 'mac'"), 1);
}

TEST_F(StoreTest, AFailingStepLeavesTheStoreAsItWasAndNamesItsModuleAndPart)
{
    // A store at version 7 (without the audit signatures of 8 and the agent sessions of 9), with a run in it.
    {
        Store store = openStore();
        ASSERT_TRUE(store.recordRun(storetest::makeRequest(), storetest::makeResult("kept", 1)));
    }
    {
        RawDb raw(dbPath());
        storetest::makeVersion7(raw);
    }
    const std::string before = schemaOf(dbPath());

    constexpr std::array failing = {
        SchemaStep{.version = kStoreVersion,
                   .part = 2,
                   .parts = 2,
                   .sql = "CREATE TABLE half_made (x); INSERT INTO no_such_table VALUES (1);"}};
    const std::array extra = {ModuleSchema{"failing", failing}};
    const Version8InParts parts(extra, 2);
    {
        Connection connection(dbPath());
        auto migrated = migrateSchema(connection.db(), parts.steps());
        ASSERT_FALSE(migrated);
        const std::string& message = migrated.error().message;
        EXPECT_NE(message.find(dbPath().string()), std::string::npos) << message;
        EXPECT_NE(message.find(fmt::format("migrating to schema version {} failed (module failing, part 2 of 2)",
                                           kStoreVersion)),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find("no such table: no_such_table"), std::string::npos) << message;
    }
    // Neither the failing part nor the store's part 1 of the same version is left behind.
    EXPECT_EQ(schemaOf(dbPath()), before);
    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("PRAGMA user_version"), kStoreVersion - 1);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM runs"), 1);

    // The program's own steps then migrate it.
    Store store = openStore();
    EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
}

TEST_F(StoreTest, AStoreNewerThanEveryModuleIsRefusedUntouched)
{
    {
        Store store = openStore();
    }
    {
        RawDb raw(dbPath());
        raw.exec(fmt::format("CREATE TABLE from_the_future (x); PRAGMA user_version = {}", Store::kSchemaVersion + 1));
    }
    expectRefused(dbPath(), fmt::format("has schema version {}, newer than this Sandbench ({}); upgrade Sandbench",
                                        Store::kSchemaVersion + 1, Store::kSchemaVersion));
}

TEST_F(StoreTest, AFreshStoreHasEveryModulesTablesInTheOrderOfTheVersions)
{
    {
        Store store = openStore();
    }
    RawDb raw(dbPath());
    EXPECT_EQ(raw.text("SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'table' "
                       "ORDER BY rowid)"),
              "runs blocked_events policies audit_log log_heads blobs sandboxes checkpoints checkpoint_parents "
              "workspace_stat workspace_journal datasets agent_sessions agent_steps");
    for (const std::string_view object : schemaObjects(registeredSchemaSteps()))
        EXPECT_EQ(raw.integer(fmt::format("SELECT count(*) FROM sqlite_master WHERE name = '{}'", object)), 1)
            << object;
}

// The command line and the window open one store at once, each in its own process: first opens racing to create
// it all succeed, and make the schema once.
TEST_F(StoreTest, FirstOpensInSeveralProcessesMakeTheSchemaOnce)
{
    const fs::path single = m_dir.path() / "single.db";
    {
        auto store = Store::open(single);
        ASSERT_TRUE(store) << store.error().message;
    }

    constexpr int kProcesses = 6;
    std::vector<pid_t> children;
    for (int i = 0; i < kProcesses; ++i) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            auto store = Store::open(dbPath());
            ::_exit(store && store->schemaVersion() == Store::kSchemaVersion ? 0 : 1);
        }
        children.push_back(pid);
    }
    for (const pid_t pid : children) {
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a first open failed";
    }
    EXPECT_EQ(schemaOf(dbPath()), schemaOf(single));
    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("PRAGMA user_version"), Store::kSchemaVersion);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM log_heads"), 1);
}

} // namespace
} // namespace sb
