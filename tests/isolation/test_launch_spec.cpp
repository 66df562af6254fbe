#include "isolation/launch_spec.h"

#include <gtest/gtest.h>

using namespace sb;

TEST(LaunchSpec, RoundTrips)
{
    LaunchSpec spec;
    spec.argv = {"/usr/bin/python3", "-c", "print('\xc3\xa9')"};
    spec.env = {"A=1", "B=two words"};
    spec.workDir = "/tmp/x";
    spec.limits.wallMs = 42;
    spec.dropPrivileges = true;
    spec.uid = 1600000123;
    spec.gid = 1600000123;
    spec.readPaths = {"/usr"};
    spec.devPaths = {"/dev/null"};
    spec.processBase = 7;
    spec.seccompProgram = std::string("\x00\x01\x7f\x80\xff bpf", 9);
    auto back = decodeSpec(encodeSpec(spec));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->argv, spec.argv);
    EXPECT_EQ(back->env, spec.env);
    EXPECT_EQ(back->limits.wallMs, 42);
    EXPECT_EQ(back->uid, spec.uid);
    EXPECT_EQ(back->processBase, 7);
    EXPECT_EQ(back->seccompProgram, spec.seccompProgram);
}

// Arguments, variables and paths are bytes: what is not UTF-8 reaches the program as it was given (a JSON
// dump alone would put U+FFFD in its place).
TEST(LaunchSpec, BytesThatAreNotUtf8RoundTripExactly)
{
    LaunchSpec spec;
    spec.argv = {"/tmp/bad\xffname", "\xff\xfe\x80 bad", "caf\xc3\xa9", ""};
    spec.env = {"A=\xc0\xaf", "B=fine"};
    spec.workDir = "/tmp/w\xe9rk";
    spec.stageDir = "/tmp/st\xe9ge";
    spec.readPaths = {"/srv/\xff", "/usr"};
    spec.devPaths = {"/dev/null"};
    auto back = decodeSpec(encodeSpec(spec));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->argv, spec.argv);
    EXPECT_EQ(back->env, spec.env);
    EXPECT_EQ(back->workDir, spec.workDir);
    EXPECT_EQ(back->stageDir, spec.stageDir);
    EXPECT_EQ(back->readPaths, spec.readPaths);
    EXPECT_TRUE(sameSandbox(*back, spec));
}

TEST(LaunchSpec, RejectsGarbageAndRelativePrograms)
{
    EXPECT_FALSE(decodeSpec(""));
    EXPECT_FALSE(decodeSpec("{not json"));
    EXPECT_FALSE(decodeSpec("{}"));
    LaunchSpec spec;
    spec.argv = {"python3"};
    EXPECT_FALSE(decodeSpec(encodeSpec(spec)));
    spec.argv = {"/bin/true"};
    std::string text = encodeSpec(spec);
    const auto at = text.find("\"seccomp_program\":\"\"");
    ASSERT_NE(at, std::string::npos);
    text.insert(at + 19, "zz");
    EXPECT_FALSE(decodeSpec(text)) << "a program that is not hex";
}

TEST(LaunchResult, RoundTripsAndRejectsGarbage)
{
    LaunchResult r;
    r.exitCode = 3;
    r.signal = 0;
    r.timedOut = true;
    r.memoryRefused = true;
    r.wallMs = 1000.5;
    r.blocked = {{"syscall", "ptrace(PTRACE_ATTACH, 1)"}};
    r.layers = {{"seccomp", true}, {"landlock_scope", false}};
    auto back = decodeResult(encodeResult(r));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->exitCode, 3);
    EXPECT_TRUE(back->timedOut);
    EXPECT_TRUE(back->memoryRefused);
    EXPECT_EQ(back->blocked, r.blocked);
    EXPECT_EQ(back->layers, r.layers);
    EXPECT_FALSE(decodeResult("partial {"));
}

TEST(LaunchSpec, SameSandboxIgnoresWhatEachSandboxHasOfItsOwn)
{
    LaunchSpec a;
    a.readPaths = {"/usr"};
    a.container = true;
    LaunchSpec b = a;
    b.workDir = "/tmp/other";
    b.uid = b.gid = 1600000042;
    b.pooled = true;
    b.traceStart = true;
    b.argv = {"/bin/true"};
    EXPECT_TRUE(sameSandbox(a, b));
    b.readPaths.push_back("/opt");
    EXPECT_FALSE(sameSandbox(a, b));
    b = a;
    b.limits.wallMs += 1;
    EXPECT_FALSE(sameSandbox(a, b));
    b = a;
    b.seccompProgram = "x";
    EXPECT_FALSE(sameSandbox(a, b));
}
