// The worked example built into the demo (demo/worked_example.h): the files of examples/agents, byte for byte,
// written where the demo's agent can read them.

#include "demo/worked_example.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

namespace sb {
namespace {

namespace fs = std::filesystem;

std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The example's files in a folder: path under it → bytes.
std::map<std::string, std::string> filesUnder(const fs::path& folder, const std::vector<std::string>& parts)
{
    std::map<std::string, std::string> files;
    for (const auto& part : parts) {
        const fs::path path = folder / part;
        if (fs::is_regular_file(path)) {
            files[part] = readBytes(path);
            continue;
        }
        for (const auto& entry : fs::recursive_directory_iterator(path)) {
            const std::string relative = fs::relative(entry.path(), folder).string();
            if (entry.is_regular_file() && relative.find("__pycache__") == std::string::npos)
                files[relative] = readBytes(entry.path());
        }
    }
    return files;
}

const std::vector<std::string> kParts = {"upgrade_agent.py", "mcp_stdio.py", "policy.yaml", "upgrade-repo"};

TEST(WorkedExampleFiles, AreTheExamplesOwnByteForByte)
{
    std::map<std::string, std::string> builtIn;
    for (const ExampleFile& file : workedExampleFiles())
        builtIn[std::string(file.path)] = std::string(file.text);
    const auto onDisk = filesUnder(fs::path(SANDBENCH_EXAMPLES_DIR) / "agents", kParts);
    ASSERT_FALSE(onDisk.empty());
    EXPECT_EQ(builtIn, onDisk);
    EXPECT_TRUE(builtIn.contains(std::string(kWorkedExampleAgent)));
    EXPECT_TRUE(builtIn.contains(std::string(kWorkedExamplePolicy)));
    EXPECT_TRUE(builtIn.contains(std::string(kWorkedExampleRepo) + "/vendor/__init__.py")); // an empty file too
}

TEST(WorkedExampleFiles, AreWrittenReadableByOthersAndWritableByTheOwnerAlone)
{
    std::string pattern = (fs::temp_directory_path() / "sandbench-worked-example-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    const fs::path folder = pattern;
    ASSERT_TRUE(writeWorkedExample(folder).has_value());
    EXPECT_EQ(filesUnder(folder, kParts), filesUnder(fs::path(SANDBENCH_EXAMPLES_DIR) / "agents", kParts));
    const auto mode = [](const fs::path& path) { return fs::status(path).permissions(); };
    EXPECT_EQ(mode(folder / kWorkedExampleAgent), fs::perms(0644));
    EXPECT_EQ(mode(folder / "upgrade-repo" / "vendor"), fs::perms(0755));
    EXPECT_EQ(mode(folder / "upgrade-repo" / "vendor" / "minilib.py"), fs::perms(0644));
    // A second write over the first gives the same files (the demo writes to a fresh folder, but need not).
    ASSERT_TRUE(writeWorkedExample(folder).has_value());
    EXPECT_EQ(filesUnder(folder, kParts), filesUnder(fs::path(SANDBENCH_EXAMPLES_DIR) / "agents", kParts));
    fs::remove_all(folder);
}

TEST(WorkedExampleFiles, AFolderThatIsNotThereIsAnErrorNamingIt)
{
    const fs::path missing = fs::temp_directory_path() / "sandbench-worked-example-missing" / "below";
    fs::remove_all(missing.parent_path());
    const auto written = writeWorkedExample(missing);
    ASSERT_FALSE(written.has_value());
    EXPECT_NE(written.error().message.find(missing.string()), std::string::npos) << written.error().message;
}

} // namespace
} // namespace sb
