#pragma once

// Where test_isolation finds files of the source tree. scripts/test also runs a copy of the binary as an
// unprivileged user, who may not be able to enter the checkout (a clone in a folder only root may enter):
// it copies what these tests read to a folder that user can read, and names it in SANDBENCH_TEST_SOURCE.

#include <cstdlib>
#include <filesystem>

namespace sb::test {

inline std::filesystem::path sourceTree()
{
    if (const char* dir = std::getenv("SANDBENCH_TEST_SOURCE"); dir && *dir)
        return dir;
    return SANDBENCH_SOURCE_DIR;
}

inline std::filesystem::path isolationTestData()
{
    return sourceTree() / "tests" / "isolation" / "data";
}

} // namespace sb::test
