#include "isolation/policy.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

using namespace sb;

TEST(Policy, EmptyTextIsTheDefault)
{
    auto p = parsePolicy("", "empty.yaml");
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->level, IsolationLevel::Process);
    EXPECT_EQ(p->limits.wallMs, Limits{}.wallMs);
    EXPECT_EQ(p->blockedImports, Policy::defaultBlockedImports());
}

TEST(Policy, ParsesEveryField)
{
    auto p = parsePolicy(R"(name: strict-python
level: process
network: none
limits:
  wall_ms: 1500
  cpu_ms: 1000
  memory_mb: 128
  processes: 8
  file_size_mb: 2
  open_files: 32
  output_bytes: 4096
env:
  pass: [LANG, TZ]
  set: {MODE: test}
paths:
  read: [/usr/share/dict]
python:
  interpreter: /usr/bin/python3
  import_guard: true
  site_packages: true
  blocked_imports: [os, json]
shell:
  interpreter: /bin/bash
)",
                         "p.yaml");
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->name, "strict-python");
    EXPECT_EQ(p->limits.wallMs, 1500);
    EXPECT_EQ(p->limits.cpuMs, 1000);
    EXPECT_EQ(p->limits.memoryMb, 128);
    EXPECT_EQ(p->limits.processes, 8);
    EXPECT_EQ(p->limits.outputBytes, 4096);
    EXPECT_EQ(p->envPass, (std::vector<std::string>{"LANG", "TZ"}));
    EXPECT_EQ(p->envSet.at("MODE"), "test");
    EXPECT_EQ(p->readPaths, std::vector<std::string>{"/usr/share/dict"});
    EXPECT_EQ(p->blockedImports, (std::vector<std::string>{"os", "json"}));
    EXPECT_EQ(p->shell, "/bin/bash");
    EXPECT_TRUE(p->sitePackages);
}

TEST(Policy, RenderedPolicyParsesBackTheSame)
{
    Policy p;
    p.name = "round trip";
    p.limits.wallMs = 1234;
    p.envPass = {"LANG"};
    p.envSet = {{"A", "x: y"}};
    p.readPaths = {"/opt/data"};
    p.importGuard = false;
    auto back = parsePolicy(renderPolicy(p), "rendered");
    ASSERT_TRUE(back) << back.error().message << "\n" << renderPolicy(p);
    EXPECT_EQ(back->name, p.name);
    EXPECT_EQ(back->limits.wallMs, 1234);
    EXPECT_EQ(back->envSet, p.envSet);
    EXPECT_EQ(back->readPaths, p.readPaths);
    EXPECT_FALSE(back->importGuard);
    EXPECT_EQ(back->blockedImports, p.blockedImports);
}

struct BadPolicy {
    const char* yaml;
    const char* expected; // part of the message, with line:column where it applies
};

class PolicyErrors : public ::testing::TestWithParam<BadPolicy> {};

TEST_P(PolicyErrors, NameWhereAndWhat)
{
    auto p = parsePolicy(GetParam().yaml, "bad.yaml");
    ASSERT_FALSE(p) << GetParam().yaml;
    EXPECT_NE(p.error().message.find(GetParam().expected), std::string::npos) << p.error().message;
    EXPECT_EQ(p.error().message.rfind("bad.yaml", 0), 0u) << p.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PolicyErrors,
    ::testing::Values(BadPolicy{"level: process\nlimitz: {}\n", "bad.yaml:2:1: 'limitz': unknown field"},
                      BadPolicy{"level: sideways\n", "bad.yaml:1:8: 'level': unknown isolation level 'sideways'"},
                      BadPolicy{"limits:\n  wall_ms: -5\n", "bad.yaml:2:12: 'limits.wall_ms': -5 is out of range"},
                      BadPolicy{"limits:\n  wall_ms: soon\n", "expected an integer, got 'soon'"},
                      BadPolicy{"limits:\n  wall_mss: 5\n", "bad.yaml:2:3: 'limits.wall_mss': unknown limit"},
                      BadPolicy{"limits: [1, 2]\n", "'limits': expected a mapping"},
                      BadPolicy{"env:\n  pass: [\"NOT VALID\"]\n", "is not a variable name"},
                      BadPolicy{"paths:\n  read: [relative/path]\n", "expected an absolute path"},
                      BadPolicy{"python:\n  import_guard: maybe\n", "expected true or false"},
                      BadPolicy{"python:\n  blocked_imports: [os.path]\n", "not a top-level module name"},
                      BadPolicy{"network: everywhere\n", "'network': network 'everywhere' is not supported"},
                      BadPolicy{"level: [process\n", "bad.yaml:2:1: invalid YAML"},
                      BadPolicy{"- just\n- a list\n", "a policy must be a mapping"},
                      BadPolicy{"level: {a: 1}\n", "'level': expected a single value"}));

// An unknown limit's message lists every limit a policy may set, in the order the reference gives them.
TEST(Policy, AnUnknownLimitNamesEveryLimit)
{
    auto p = parsePolicy("limits:\n  wall_mss: 5\n", "bad.yaml");
    ASSERT_FALSE(p);
    EXPECT_EQ(p.error().message, "bad.yaml:2:3: 'limits.wall_mss': unknown limit (expected one of: wall_ms, cpu_ms, "
                                 "memory_mb, processes, file_size_mb, disk_mb, open_files, output_bytes)");
}

TEST(Policy, FileErrorsAreClear)
{
    auto missing = loadPolicyFile("/nonexistent/policy.yaml");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("/nonexistent/policy.yaml"), std::string::npos);

    const auto path = std::filesystem::temp_directory_path() / "sandbench-binary-policy.yaml";
    {
        std::ofstream out(path, std::ios::binary);
        out.write("level: process\0\x01\x02", 17);
    }
    auto binary = loadPolicyFile(path);
    std::filesystem::remove(path);
    ASSERT_FALSE(binary);
    EXPECT_NE(binary.error().message.find("binary"), std::string::npos) << binary.error().message;

    // A FIFO with no writer must not block, and a device that never ends must not be read.
    const auto fifo = std::filesystem::temp_directory_path() / "sandbench-fifo-policy.yaml";
    std::filesystem::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto fromFifo = loadPolicyFile(fifo);
    std::filesystem::remove(fifo);
    ASSERT_FALSE(fromFifo);
    EXPECT_NE(fromFifo.error().message.find("not a regular file"), std::string::npos) << fromFifo.error().message;
    auto fromDevice = loadPolicyFile("/dev/zero");
    ASSERT_FALSE(fromDevice);
    EXPECT_NE(fromDevice.error().message.find("not a regular file"), std::string::npos);

    const auto big = std::filesystem::temp_directory_path() / "sandbench-big-policy.yaml";
    {
        std::ofstream out(big, std::ios::binary);
        out << std::string(2 << 20, '#');
    }
    auto tooBig = loadPolicyFile(big);
    std::filesystem::remove(big);
    ASSERT_FALSE(tooBig);
    EXPECT_NE(tooBig.error().message.find("larger than 1 MiB"), std::string::npos) << tooBig.error().message;
}

// A value with bytes that are not UTF-8 or with control characters (a lone carriage return at the end of
// the file included) is refused, naming the field: it would not render back the same, and every run
// stores its policy rendered.
TEST(Policy, ValuesAreUtf8WithoutControlCharacters)
{
    auto badUtf8 = parsePolicy("name: caf\xC3(\n", "bad.yaml");
    ASSERT_FALSE(badUtf8);
    EXPECT_NE(badUtf8.error().message.find("bad.yaml:1:"), std::string::npos) << badUtf8.error().message;
    EXPECT_NE(badUtf8.error().message.find("'name'"), std::string::npos) << badUtf8.error().message;
    EXPECT_NE(badUtf8.error().message.find("not UTF-8"), std::string::npos) << badUtf8.error().message;

    auto carriageReturn = parsePolicy("level: process\nname: a*\r", "cr.yaml");
    ASSERT_FALSE(carriageReturn);
    EXPECT_NE(carriageReturn.error().message.find("U+000D"), std::string::npos) << carriageReturn.error().message;

    auto inAList = parsePolicy("paths:\n  read: [\"/usr/\\x01lib\"]\n", "list.yaml");
    ASSERT_FALSE(inAList);
    EXPECT_NE(inAList.error().message.find("paths.read"), std::string::npos) << inAList.error().message;
    EXPECT_NE(inAList.error().message.find("U+0001"), std::string::npos) << inAList.error().message;

    // Text that is fine: other scripts, tabs and newlines in a value, Windows line ends.
    auto fine = parsePolicy("name: \"caf\xC3\xA9 \xE6\xB2\x99\xE7\x9B\x92\\tx\\ny\"\r\nlevel: process\r\n", "fine.yaml");
    ASSERT_TRUE(fine) << fine.error().message;
    EXPECT_EQ(fine->name, "caf\xC3\xA9 \xE6\xB2\x99\xE7\x9B\x92\tx\ny");
    auto again = parsePolicy(renderPolicy(*fine), "rendered.yaml");
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(again->name, fine->name);
}

// A policy is read within a budget: YAML aliases let a small file stand for gigabytes ("billion laughs"),
// which must be refused with a message, not read until the machine runs out of memory.
TEST(Policy, AliasesCannotBlowAPolicyUp)
{
    std::string text = "name: &a \"" + std::string(100000, 'A') + "\"\nlevel: process\nenv: {pass: [";
    for (int i = 0; i < 100; ++i)
        text += i ? ", *a" : "*a";
    text += "]}\n";
    auto bomb = parsePolicy(text, "bomb.yaml");
    ASSERT_FALSE(bomb);
    EXPECT_NE(bomb.error().message.find("bomb.yaml:1:"), std::string::npos) << bomb.error().message.substr(0, 300);
    EXPECT_NE(bomb.error().message.find("more than 4 MiB"), std::string::npos) << bomb.error().message.substr(0, 300);

    // Mappings count too: a rule repeated through an alias.
    std::string rules = "syscalls:\n  rules:\n    - &r {names: [ptrace], action: errno, errno: EPERM, args: [{index: 0, "
                        "op: eq, value: 1}]}\n";
    for (int i = 0; i < 100000; ++i) // under the 1 MiB a policy file may have
        rules += "    - *r\n";
    auto repeated = parsePolicy(rules, "rules.yaml");
    ASSERT_FALSE(repeated);
    EXPECT_NE(repeated.error().message.find("more than 4 MiB"), std::string::npos) << repeated.error().message;

    // Anchors as people use them stay fine.
    auto fine = parsePolicy("name: &n shared\nlevel: process\nenv: {set: {A: *n, B: *n}}\n", "fine.yaml");
    ASSERT_TRUE(fine) << fine.error().message;
    EXPECT_EQ(fine->envSet.at("B"), "shared");
}

TEST(Policy, AKeyGivenTwiceIsAnError)
{
    for (const char* text : {"name: dup\nlevel: process\nlevel: strict\n", "limits: {wall_ms: 100, wall_ms: 99999}\n",
                             "env:\n  set:\n    A: x\n    A: y\n", "syscalls:\n  rules:\n    - names: [ptrace]\n"
                                                                     "      action: kill\n      action: log\n"}) {
        auto p = parsePolicy(text, "dup.yaml");
        ASSERT_FALSE(p) << text;
        EXPECT_NE(p.error().message.find("given twice (first at line"), std::string::npos) << p.error().message;
    }
    auto level = parsePolicy("name: dup\nlevel: process\nlevel: strict\n", "dup.yaml");
    EXPECT_NE(level.error().message.find("dup.yaml:3:1: 'level'"), std::string::npos) << level.error().message;
}

TEST(Policy, OneDocumentPerFile)
{
    auto two = parsePolicy("level: process\n---\nlevel: strict\n", "two.yaml");
    ASSERT_FALSE(two);
    EXPECT_NE(two.error().message.find("two.yaml:3:1: a policy is one YAML document"), std::string::npos)
        << two.error().message;
    // Document markers around one document, and an empty document after it, are fine.
    auto one = parsePolicy("---\nlevel: container\n...\n", "one.yaml");
    ASSERT_TRUE(one) << one.error().message;
    EXPECT_EQ(one->level, IsolationLevel::Container);
    EXPECT_TRUE(parsePolicy("level: process\n---\n", "trailing.yaml"));
}

TEST(Policy, ErrorsShowLongValuesCut)
{
    auto p = parsePolicy("level: " + std::string(500000, 'x') + "\n", "long.yaml");
    ASSERT_FALSE(p);
    EXPECT_LT(p.error().message.size(), 400U);
    EXPECT_NE(p.error().message.find("(500000 bytes)"), std::string::npos) << p.error().message;
}

TEST(Policy, NetworkAllowlist)
{
    auto p = parsePolicy("level: container\nnetwork:\n  mode: allowlist\n  allow: [\"pypi.org:443\", \"*.example.com:*\"]\n",
                         "net.yaml");
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->network, NetworkMode::Allowlist);
    EXPECT_EQ(p->networkAllow, (std::vector<std::string>{"pypi.org:443", "*.example.com:*"}));
    auto back = parsePolicy(renderPolicy(*p), "rendered");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->networkAllow, p->networkAllow);

    for (const char* bad : {"network:\n  mode: allowlist\n", "network:\n  mode: allowlist\n  allow: [pypi.org]\n",
                            "network:\n  mode: allowlist\n  allow: [\"pypi.org:99999\"]\n",
                            "network:\n  mode: open\n  allow: [\"a:1\"]\n", "network: everywhere\n"}) {
        auto r = parsePolicy(bad, "bad.yaml");
        EXPECT_FALSE(r) << bad;
        if (!r) {
            EXPECT_NE(r.error().message.find("network"), std::string::npos) << r.error().message;
        }
    }
}
