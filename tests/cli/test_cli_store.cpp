// What a missing store folder gets, on the command line (core/store: StoreLocation): the default location's
// folders are made; a store named with --store or $SANDBENCH_STORE in a folder that does not exist is refused.

#include "cli_fixture.h"

namespace sb::clitest {

// The store's folder: the default location's is made; a path named with --store or $SANDBENCH_STORE whose
// folder does not exist (a typo) is refused, naming the folder, and nothing is made.
TEST_F(Cli, ANamedStoreInAMissingFolderIsRefused)
{
    const auto folder = m_dir / "no" / "such";
    const auto named = cli("history --store " + (folder / "store.db").string(), true);
    EXPECT_EQ(named.status, 1) << named.out;
    EXPECT_NE(named.out.find("the folder " + folder.string() + " does not exist"), std::string::npos) << named.out;

    ASSERT_EQ(::setenv("SANDBENCH_STORE", (folder / "env.db").c_str(), 1), 0);
    const auto fromEnvironment = cli("sandbox list", true);
    ::unsetenv("SANDBENCH_STORE");
    EXPECT_EQ(fromEnvironment.status, 1) << fromEnvironment.out;
    EXPECT_NE(fromEnvironment.out.find("the folder " + folder.string() + " does not exist"), std::string::npos)
        << fromEnvironment.out;
    EXPECT_FALSE(fs::exists(m_dir / "no"));

    // The default location ($XDG_DATA_HOME here, which the fixture points at a folder not made yet).
    const auto byDefault = cli("history", true);
    EXPECT_EQ(byDefault.status, 0) << byDefault.out;
    EXPECT_TRUE(fs::exists(m_dir / "xdg" / "sandbench" / "workbench.db"));
}

} // namespace sb::clitest
