#pragma once

// What the store tests share: a private folder, raw SQLite access below the Store API, runs to record and a
// fixture with one store file per test.

#include "store/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace sb::storetest {

namespace fs = std::filesystem;

class TempDir {
public:
    TempDir()
    {
        std::string pattern = (fs::temp_directory_path() / "sandbench-store-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        m_path = pattern;
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

inline std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const fs::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Raw SQLite access, below the Store API, to build odd files and inspect what the Store wrote.
class RawDb {
public:
    explicit RawDb(const fs::path& path)
    {
        if (sqlite3_open(path.c_str(), &m_db) != SQLITE_OK)
            ADD_FAILURE() << "cannot open " << path;
        sqlite3_busy_timeout(m_db, 5000);
    }
    ~RawDb() { sqlite3_close(m_db); }
    RawDb(const RawDb&) = delete;
    RawDb& operator=(const RawDb&) = delete;

    void exec(const std::string& sql)
    {
        char* error = nullptr;
        if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
            ADD_FAILURE() << sql << ": " << (error ? error : "?");
            sqlite3_free(error);
        }
    }

    std::string text(const std::string& sql)
    {
        sqlite3_stmt* statement = nullptr;
        std::string value;
        if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK
            && sqlite3_step(statement) == SQLITE_ROW) {
            const auto* data = sqlite3_column_text(statement, 0);
            if (data)
                value.assign(reinterpret_cast<const char*>(data),
                             static_cast<std::size_t>(sqlite3_column_bytes(statement, 0)));
        } else {
            ADD_FAILURE() << sql << ": " << sqlite3_errmsg(m_db);
        }
        sqlite3_finalize(statement);
        return value;
    }

    std::int64_t integer(const std::string& sql) { return std::stoll(text(sql)); }

private:
    sqlite3* m_db = nullptr;
};

// A store as a Sandbench of schema version 7 left it: without what version 8 adds (the audit signatures),
// version 9 (the agent sessions' tables), version 10 (each run's sandbox) and version 11 (each run's message
// as its pattern and arguments).
inline void makeVersion7(RawDb& raw)
{
    raw.exec("ALTER TABLE runs DROP COLUMN message_parts; ALTER TABLE runs DROP COLUMN sandbox; DROP TABLE agent_steps; DROP TABLE agent_sessions; "
             "ALTER TABLE audit_log DROP COLUMN mac; "
             "ALTER TABLE log_heads DROP COLUMN key_id; ALTER TABLE log_heads DROP COLUMN mac; "
             "PRAGMA user_version = 7");
}

inline RunRequest makeRequest(std::string source = "print(1)\n")
{
    RunRequest request;
    request.language = Language::Python;
    request.source = std::move(source);
    request.label = "test";
    return request;
}

inline RunResult makeResult(std::string runId, std::int64_t startedAtMs, Outcome outcome = Outcome::Ok,
                     double durationMs = 12.5)
{
    RunResult result;
    result.runId = std::move(runId);
    result.startedAtMs = startedAtMs;
    result.outcome = outcome;
    result.exitCode = outcome == Outcome::Ok ? 0 : 1;
    result.durationMs = durationMs;
    result.stdoutText = "1\n";
    result.isolation.level = IsolationLevel::Process;
    result.isolation.layers = {{"rlimits", true}, {"seccomp", true}, {"landlock", false}};
    return result;
}

class StoreTest : public ::testing::Test {
protected:
    // The audit keys of this test's stores are kept in its folder, never the user's.
    StoreTest() { ::setenv("SANDBENCH_AUDIT_KEYS", keyFolder().c_str(), 1); }

    fs::path dbPath() const { return m_dir.path() / "workbench.db"; }
    fs::path keyFolder() const { return m_dir.path() / "keys"; }

    Store openStore()
    {
        auto store = Store::open(dbPath());
        if (!store) {
            ADD_FAILURE() << store.error().message;
            std::abort();
        }
        return std::move(*store);
    }

    // A refused file must be named in the error and left exactly as it was.
    void expectRefused(const fs::path& path, const std::string& expectedFragment)
    {
        const std::string before = readBytes(path);
        auto store = Store::open(path);
        ASSERT_FALSE(store.has_value()) << "opened " << path;
        const std::string& message = store.error().message;
        EXPECT_NE(message.find(path.string()), std::string::npos) << message;
        EXPECT_NE(message.find(expectedFragment), std::string::npos) << message;
        EXPECT_EQ(readBytes(path), before) << "the refused file was modified";
    }

    // Records `count` runs with `outputBytes` of output each (and a blocked import, if `blocked`).
    void recordRuns(int count, std::size_t outputBytes, bool blocked = false)
    {
        Store store = openStore();
        const std::string output(outputBytes, 'x');
        for (int i = 0; i < count; ++i) {
            RunResult result = makeResult("run-" + std::to_string(i), i);
            result.stdoutText = output;
            if (blocked)
                result.blocked = {{"import", "os"}};
            ASSERT_TRUE(store.recordRun(makeRequest(), result));
        }
    }

    // Folds the WAL into the store's file and overwrites the four pages that start at `at` (a fraction of the
    // file's size, past page 1, so that the header and the schema stay intact) with noise; the file as
    // written.
    std::string damageStore(double at, unsigned seed)
    {
        RawDb(dbPath()).exec("PRAGMA wal_checkpoint(TRUNCATE)");
        std::string bytes = readBytes(dbPath());
        constexpr std::size_t kPageSize = 4096;
        const auto first = static_cast<std::size_t>(static_cast<double>(bytes.size()) * at);
        std::mt19937 random(seed);
        for (std::size_t offset = first; offset < first + 4 * kPageSize && offset < bytes.size(); ++offset)
            bytes[offset] = static_cast<char>(random() & 0xff);
        writeBytes(dbPath(), bytes);
        return bytes;
    }

    TempDir m_dir;
};

} // namespace sb::storetest
