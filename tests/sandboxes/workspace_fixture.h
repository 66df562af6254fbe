#pragma once

// What the workspace tests share: a private folder with a store, files written and read back as a map of
// path -> content, and the engine opened on that store.

#include "store/store.h"
#include "sandboxes/sandbox_engine.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace sb::workspacetest {

namespace fs = std::filesystem;

class TempDir {
public:
    TempDir()
    {
        std::string pattern = (fs::temp_directory_path() / "sandbench-ws-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        m_path = pattern;
    }
    ~TempDir()
    {
        std::error_code ec;
        // Read-only folders left by a test must not stop the cleanup.
        for (auto it = fs::recursive_directory_iterator(m_path, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (it->is_directory(ec) && !it->is_symlink(ec))
                fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
        }
        fs::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

inline void writeFile(const fs::path& path, const std::string& bytes)
{
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A folder as a map: files by content, symlinks as "-> target", directories as "<dir>".
inline std::map<std::string, std::string> snapshot(const fs::path& root)
{
    std::map<std::string, std::string> out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        const std::string rel = fs::relative(it->path(), root).string();
        const auto status = it->symlink_status(ec);
        if (fs::is_symlink(status))
            out[rel] = "-> " + fs::read_symlink(it->path(), ec).string();
        else if (fs::is_directory(status))
            out[rel] = "<dir>";
        else if (fs::is_regular_file(status))
            out[rel] = readFile(it->path());
        else
            out[rel] = "<special>";
    }
    return out;
}

// Deterministic bytes that do not compress away and share nothing with other seeds.
inline std::string noise(std::size_t size, std::uint64_t seed)
{
    std::string bytes(size, '\0');
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (auto& c : bytes) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        c = static_cast<char>(state >> 56);
    }
    return bytes;
}

class WorkspaceTest : public ::testing::Test {
protected:
    fs::path storePath() const { return m_dir.path() / "store.db"; }

    void SetUp() override
    {
        // The audit keys of the test's store are kept in its folder, never the user's.
        ::setenv("SANDBENCH_AUDIT_KEYS", (m_dir.path() / "keys").c_str(), 1);
        auto store = Store::open(storePath());
        ASSERT_TRUE(store) << store.error().message;
        m_store = std::make_unique<Store>(std::move(*store));
        auto engine = SandboxEngine::open(*m_store);
        ASSERT_TRUE(engine) << engine.error().message;
        m_engine = std::move(*engine);
    }

    // The engine as a new process would see it: closed and opened again.
    void reopen()
    {
        m_engine.reset();
        m_store.reset();
        SetUp();
    }

    SandboxEngine& engine() { return *m_engine; }
    fs::path workspace(const std::string& name)
    {
        auto info = m_engine->sandbox(name);
        EXPECT_TRUE(info) << info.error().message;
        return info ? info->workspace : fs::path();
    }

    std::string checkpoint(const std::string& sandbox, const std::string& label = {})
    {
        auto made = m_engine->checkpoint(CheckpointRequest{sandbox, label, {}, {}});
        EXPECT_TRUE(made) << made.error().message;
        return made ? made->checkpoint.id : std::string();
    }

    CreateSandboxResult create(const std::string& name, const std::string& from = {})
    {
        CreateSandboxRequest request;
        request.name = name;
        request.from = from;
        auto made = m_engine->createSandbox(request);
        EXPECT_TRUE(made) << made.error().message;
        return made ? *made : CreateSandboxResult{};
    }

    // One number from the store, read below the engine.
    std::int64_t count(const std::string& sql)
    {
        sqlite3_stmt* statement = nullptr;
        std::int64_t value = -1;
        if (sqlite3_prepare_v2(sqlite::connectionOf(*m_store).value().handle(), sql.c_str(), -1, &statement, nullptr) == SQLITE_OK
            && sqlite3_step(statement) == SQLITE_ROW)
            value = sqlite3_column_int64(statement, 0);
        else
            ADD_FAILURE() << sql << ": " << sqlite3_errmsg(sqlite::connectionOf(*m_store).value().handle());
        sqlite3_finalize(statement);
        return value;
    }

    TempDir m_dir;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<SandboxEngine> m_engine;
};

} // namespace sb::workspacetest
