// The import guard's two halves without a run: Sandbench's reading of a snippet's import statements, and
// what it takes from a program's stderr as the program's claims.

#include "isolation/policy.h"
#include "python_guard.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace sb;

namespace {

std::vector<std::string> modules(std::string_view source, const std::vector<std::string>& blocked = Policy::defaultBlockedImports())
{
    std::vector<std::string> out;
    for (const auto& refused : refusedImports(source, blocked))
        out.push_back(refused.module);
    return out;
}

using Modules = std::vector<std::string>;

} // namespace

TEST(ImportReading, FindsEveryFormOfImportStatement)
{
    EXPECT_EQ(modules("import os\n"), Modules{"os"});
    EXPECT_EQ(modules("import os.path\n"), Modules{"os"});
    EXPECT_EQ(modules("import json, socket as s, math\n"), Modules{"socket"});
    EXPECT_EQ(modules("from subprocess import run\n"), Modules{"subprocess"});
    EXPECT_EQ(modules("from os.path import (\n    join,\n    basename,\n)\n"), Modules{"os"});
    EXPECT_EQ(modules("x = 1; import ctypes\n"), Modules{"ctypes"});
    EXPECT_EQ(modules("if True: import shutil\n"), Modules{"shutil"});
    EXPECT_EQ(modules("def f():\n    import signal\n    return 1\n"), Modules{"signal"});
    EXPECT_EQ(modules("try:\n    import os\nexcept ImportError:\n    pass\n"), Modules{"os"});
    EXPECT_EQ(modules("import \\\n    socket\n"), Modules{"socket"});
    EXPECT_EQ(modules("\xEF\xBB\xBFimport os\n"), Modules{"os"}) << "after a UTF-8 byte order mark";
    EXPECT_EQ(modules("import os"), Modules{"os"}) << "without a final newline";
    EXPECT_EQ(modules("import os\r\nimport socket\r\n"), (Modules{"os", "socket"}));
}

TEST(ImportReading, EachModuleOnceWithTheLineOfItsFirstStatement)
{
    const auto found = refusedImports("import math\n\nimport os\nfrom os import path\nimport socket\n",
                                      Policy::defaultBlockedImports());
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0], (RefusedImport{"os", 3}));
    EXPECT_EQ(found[1], (RefusedImport{"socket", 5}));
    // Lines are counted through strings and continuations that span lines.
    const auto later = refusedImports("s = '''a\nb\nc'''\nt = 'x\\\ny'\nimport os\n", Policy::defaultBlockedImports());
    ASSERT_EQ(later.size(), 1u);
    EXPECT_EQ(later[0].line, 6);
}

TEST(ImportReading, IgnoresWhatIsNoImportStatement)
{
    EXPECT_TRUE(modules("# import os\nprint('import os')\n").empty());
    EXPECT_TRUE(modules("s = \"\"\"\nimport os\n\"\"\"\n").empty());
    EXPECT_TRUE(modules("s = '''\nimport socket\n'''\n").empty());
    EXPECT_TRUE(modules("s = r'\\' import os'\n").empty());
    EXPECT_TRUE(modules("s = b'import os'\nf = f\"{1} import os\"\n").empty());
    EXPECT_TRUE(modules("x = [\n  1,\n  2]\nimport_os = 3\nprint(import_os)\n").empty());
    EXPECT_TRUE(modules("raise ValueError('x') from None\ny = (yield from z)\n").empty());
    EXPECT_TRUE(modules("import json\nfrom collections import Counter\n").empty()) << "not refused by the policy";
    EXPECT_TRUE(modules("from . import os\nfrom .os import path\nfrom ..socket import x\n").empty())
        << "relative imports are the snippet's own files";
    EXPECT_TRUE(modules("__import__('os')\nexec('import os')\n").empty()) << "not statements: only the guard sees these";
}

TEST(ImportReading, FollowsThePolicysList)
{
    EXPECT_EQ(modules("import json\nimport os\n", {"json"}), Modules{"json"});
    EXPECT_TRUE(modules("import os\n", {}).empty());
}

TEST(ImportReading, SurvivesHostileSource)
{
    // Unclosed strings and brackets, stray bytes, a lone backslash: no crash, no hang, no false import.
    for (const std::string& source : {std::string("'''import os"), std::string("\"import os\nimport os"),
                                     std::string("((((\nimport socket"), std::string("\\"), std::string("\xff\xfe\x00import", 7),
                                     std::string(100000, '('), std::string(100000, '\'')}) {
        (void)refusedImports(source, Policy::defaultBlockedImports());
    }
    // A short string ends at its line: the next line is read as code again.
    EXPECT_EQ(modules("s = 'unclosed\nimport os\n"), Modules{"os"});
}

TEST(ProgramClaims, AreTakenFromTheGuardsMessagesAndMemoryErrors)
{
    const std::string err = "Traceback (most recent call last):\n"
                            "  File \"snippet.py\", line 1, in <module>\n"
                            "ImportError: sandbench: import of 'os' is blocked by the sandbox policy\n"
                            "ImportError: sandbench: import of 'os' is blocked by the sandbox policy\n"
                            "MemoryError\n";
    EXPECT_EQ(claimsFromOutput(err), (std::vector<ProgramClaim>{{"import", "os"}, {"memory", "MemoryError"}}));
    EXPECT_TRUE(claimsFromOutput("Traceback ...\nValueError: MemoryError in a message\n").empty());
    EXPECT_TRUE(claimsFromOutput("sandbench: import of '' is blocked by the sandbox policy\n").empty());
    EXPECT_TRUE(claimsFromOutput("sandbench: import of 'a\nb' is blocked by the sandbox policy\n").empty());
}

TEST(ProgramClaims, AreBounded)
{
    std::string err;
    for (int i = 0; i < 5000; ++i)
        err += "sandbench: import of 'm" + std::to_string(i) + "' is blocked by the sandbox policy\n";
    EXPECT_LE(claimsFromOutput(err).size(), 100u);
}
