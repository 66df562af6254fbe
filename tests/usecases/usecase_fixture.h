#pragma once

// What the use-case tests share: a private folder with the store and audit keys in it, and files written there.

#include "store/store.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace sb::usecasetest {

namespace fs = std::filesystem;

// A fresh folder per test; the store is m_dir/store.db, its audit keys m_dir/keys.
class FolderTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "sandbench-usecases-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        m_dir = pattern;
        ::setenv("SANDBENCH_AUDIT_KEYS", (m_dir / "keys").c_str(), 1);
    }
    void TearDown() override
    {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    fs::path storePath() const { return m_dir / "store.db"; }
    // Opens the folder's store again, as a use case that opens its own does.
    std::function<Result<Store>()> opener() const
    {
        return [path = storePath()] { return Store::open(path); };
    }
    fs::path write(const std::string& name, const std::string& text) const
    {
        std::ofstream(m_dir / name) << text;
        return m_dir / name;
    }

    fs::path m_dir;
};

// The same with the store open.
class StoreTest : public FolderTest {
protected:
    void SetUp() override
    {
        FolderTest::SetUp();
        auto store = Store::open(storePath());
        ASSERT_TRUE(store) << store.error().message;
        m_store = std::make_unique<Store>(std::move(*store));
    }
    void TearDown() override
    {
        m_store.reset();
        FolderTest::TearDown();
    }

    std::unique_ptr<Store> m_store;
};

} // namespace sb::usecasetest
