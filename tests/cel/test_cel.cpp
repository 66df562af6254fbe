// Unit tests of the CEL engine beyond the conformance suite: where errors point (line:column), what the
// checker refuses, error semantics at run time, hostile input (deep nesting, huge expressions), traces,
// evaluation from several threads, and the API the rules layer builds on.

#include "cel/json.h"
#include "cel/program.h"
#include "cel/time.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace cel = sb::cel;

namespace {

struct Fields {
    cel::Declarations decls;
    std::vector<cel::Value> values;
    cel::Arena arena;

    void add(const std::string& name, cel::Type type, cel::Value value)
    {
        ASSERT_TRUE(decls.add(name, std::move(type)).has_value()) << name;
        values.push_back(value);
    }
};

cel::Diagnostic firstError(std::string_view source, const cel::Declarations& decls = {}, bool check = true)
{
    cel::CompileOptions options;
    options.check = check;
    auto program = cel::compile(source, decls, options);
    EXPECT_FALSE(program.has_value()) << "compiled: " << source;
    if (program)
        return {};
    EXPECT_FALSE(program.error().diagnostics.empty());
    return program.error().diagnostics.front();
}

std::string evalText(std::string_view source, Fields& f, bool check = true)
{
    cel::CompileOptions options;
    options.check = check;
    auto program = cel::compile(source, f.decls, options);
    if (!program)
        return "compile error: " + program.error().message();
    cel::EvalContext ctx;
    const cel::Value v = program->eval(cel::Activation{f.values}, ctx);
    return v.isError() ? "error: " + program->errorMessage(v) : cel::toDebugString(v);
}

std::string evalText(std::string_view source)
{
    Fields none;
    return evalText(source, none);
}

// ---- parse errors and where they point -------------------------------------------------------------------

TEST(CelParse, ErrorsCarryLineAndColumn)
{
    auto d = firstError("1 +");
    EXPECT_EQ(d.line, 1);
    EXPECT_EQ(d.column, 4);
    EXPECT_NE(d.message.find("end"), std::string::npos) << d.message;

    d = firstError("true &&\n  (1 == )");
    EXPECT_EQ(d.line, 2);
    EXPECT_EQ(d.column, 9);
    EXPECT_EQ(d.format().rfind("2:9: ", 0), 0u) << d.format();

    d = firstError("[1, 2");
    EXPECT_NE(d.message.find("']'"), std::string::npos) << d.message;
}

TEST(CelParse, ColumnsCountCharactersNotBytes)
{
    // 'é' is two bytes, one character: the error after it is at column 9, not 10.
    const auto d = firstError("'é' + 1 +");
    EXPECT_EQ(d.line, 1);
    EXPECT_EQ(d.column, 10);
    EXPECT_EQ(d.offset, 10u);
}

TEST(CelParse, LexicalErrors)
{
    auto d = firstError("'unterminated");
    EXPECT_EQ(d.column, 1);
    EXPECT_NE(d.message.find("unterminated"), std::string::npos) << d.message;

    d = firstError("1 = 2");
    EXPECT_EQ(d.column, 3);
    EXPECT_NE(d.message.find("=="), std::string::npos) << d.message;

    d = firstError("a # b");
    EXPECT_EQ(d.column, 3);

    d = firstError(R"('a\qb')");
    EXPECT_EQ(d.column, 3);
    EXPECT_NE(d.message.find("escape"), std::string::npos) << d.message;

    d = firstError(R"('\uD800')");
    EXPECT_NE(d.message.find("code point"), std::string::npos) << d.message;

    d = firstError(std::string("'ok' + '\xff'"));
    EXPECT_NE(d.message.find("UTF-8"), std::string::npos) << d.message;
}

TEST(CelParse, LiteralRanges)
{
    EXPECT_NE(firstError("9223372036854775808").message.find("out of range"), std::string::npos);
    EXPECT_EQ(evalText("-9223372036854775808"), "-9223372036854775808");
    EXPECT_EQ(evalText("18446744073709551615u"), "18446744073709551615u");
    EXPECT_NE(firstError("18446744073709551616u").message.find("out of range"), std::string::npos);
    EXPECT_EQ(evalText("0x7fffffffffffffff"), "9223372036854775807");
}

TEST(CelParse, ReservedWordsAndUnsupportedSyntax)
{
    EXPECT_NE(firstError("if > 1").message.find("reserved"), std::string::npos);
    EXPECT_EQ(evalText("{'if': 1}.if"), "1"); // fine as a field name
    EXPECT_NE(firstError("Txn{amount: 1}").message.find("protobuf"), std::string::npos);
    EXPECT_NE(firstError("m.?x").message.find("not supported"), std::string::npos);
    EXPECT_NE(firstError("has(x)").message.find("has()"), std::string::npos);
    EXPECT_NE(firstError("[1].all(x.y, true)").message.find("simple variable name"), std::string::npos);
}

// ---- limits: hostile input never overflows the stack ------------------------------------------------------

TEST(CelLimits, DeepNestingIsAnErrorNotACrash)
{
    for (const std::string& open : {std::string("("), std::string("["), std::string("{1:"), std::string("-("),
                                    std::string("f("), std::string("!")}) {
        std::string source; // just under the size limit, so that depth is what stops it
        while (source.size() + open.size() < 100 * 1024 - 1)
            source += open;
        source += "1";
        const auto d = firstError(source);
        EXPECT_NE(d.message.find("nests too deeply"), std::string::npos) << open << ": " << d.message;
    }
}

TEST(CelLimits, LongLeftAssociativeChainsAreBounded)
{
    std::string sum = "1";
    for (int i = 0; i < 5000; ++i)
        sum += " + 1";
    EXPECT_NE(firstError(sum).message.find("nests too deeply"), std::string::npos);

    std::string index = "[[0]]";
    for (int i = 0; i < 5000; ++i)
        index += "[0]";
    EXPECT_NE(firstError(index).message.find("nests too deeply"), std::string::npos);
}

TEST(CelLimits, LongLogicalChainsAreBalanced)
{
    // Thousands of conditions in one rule are realistic (country lists); && and || stay shallow.
    std::string ors = "false";
    for (int i = 0; i < 5000; ++i)
        ors += " || x == " + std::to_string(i);
    Fields f;
    f.add("x", cel::Type::integer(), cel::Value::integer(4999));
    EXPECT_EQ(evalText(ors, f), "true");
    f.values[0] = cel::Value::integer(-1);
    EXPECT_EQ(evalText(ors, f), "false");
}

TEST(CelLimits, HugeSourceIsRefused)
{
    const std::string huge = "'" + std::string(200 * 1024, 'a') + "'";
    const auto d = firstError(huge);
    EXPECT_NE(d.message.find("longer than"), std::string::npos) << d.message;
}

TEST(CelLimits, NestingJustUnderTheLimitWorks)
{
    std::string source(200, '(');
    source += "7";
    source += std::string(200, ')');
    EXPECT_EQ(evalText(source), "7");
}

TEST(CelLimits, NestedMacrosCannotRunAway)
{
    // Ten to the ninth iterations asked for: stopped by the budget, quickly, as an error.
    const std::string ten = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
    std::string source = "true";
    for (char v = 'a'; v < 'a' + 9; ++v)
        source = ten + ".all(" + std::string(1, v) + ", " + source + ")";
    EXPECT_NE(evalText(source).find("more than 10000000 macro iterations"), std::string::npos);
    // A limit is the result even where exists() would have absorbed an error.
    EXPECT_NE(evalText("[1, 2].exists(x, x == 2 || " + source + ")").find("macro iterations"), std::string::npos);

    // Memory: each iteration builds a list; a small budget stops it.
    std::string big = "[";
    for (int i = 0; i < 1000; ++i)
        big += (i ? ", x" : "x");
    big += "]";
    auto p = cel::compile(ten + ".map(x, " + ten + ".map(y, " + ten + ".map(z, " + big + ")))", {});
    ASSERT_TRUE(p) << p.error().message();
    cel::EvalContext small(cel::EvalLimits{.maxIterations = 1'000'000, .maxBytes = 1u << 20});
    const cel::Value v = p->eval(cel::Activation{}, small);
    ASSERT_TRUE(v.isError());
    EXPECT_NE(p->errorMessage(v).find("MiB"), std::string::npos) << p->errorMessage(v);
    // The same context evaluates the next record normally.
    auto ok = cel::compile("[1, 2].map(x, x * 2)", {});
    ASSERT_TRUE(ok);
    EXPECT_EQ(cel::toDebugString(ok->eval(cel::Activation{}, small)), "[2, 4]");
}

// ---- the checker -------------------------------------------------------------------------------------------

TEST(CelCheck, UndeclaredNamesAndWrongTypesPointAtTheirPlace)
{
    cel::Declarations decls;
    ASSERT_TRUE(decls.add("amount", cel::Type::real()));
    ASSERT_TRUE(decls.add("country", cel::Type::string()));

    auto d = firstError("amount > 1.0 && amout < 5.0", decls);
    EXPECT_EQ(d.column, 17);
    EXPECT_EQ(d.message, "undeclared reference to 'amout'");

    d = firstError("amount + country", decls);
    EXPECT_EQ(d.column, 8);
    EXPECT_EQ(d.message, "found no matching overload for '_+_' applied to '(double, string)'");

    d = firstError("country.size", decls);
    EXPECT_NE(d.message.find("does not support field selection"), std::string::npos) << d.message;

    d = firstError("country.matches('[')", decls);
    EXPECT_NE(d.message.find("invalid regular expression"), std::string::npos) << d.message;

    d = firstError("country.nope()", decls);
    EXPECT_NE(d.message.find("nope"), std::string::npos) << d.message;
}

TEST(CelCheck, ReportsEveryProblemAtOnce)
{
    cel::Declarations decls;
    ASSERT_TRUE(decls.add("amount", cel::Type::real()));
    auto program = cel::compile("a1 > 1 ||\namount + 'x' == 2.0 || a2", decls);
    ASSERT_FALSE(program);
    ASSERT_EQ(program.error().diagnostics.size(), 3u) << program.error().message();
    EXPECT_EQ(program.error().diagnostics[1].line, 2);
    EXPECT_NE(program.error().message().find("2:8: found no matching overload"), std::string::npos)
        << program.error().message();
}

TEST(CelCheck, ThousandsOfMistakesAreCappedNotSlow)
{
    std::string many = "x";
    for (int i = 0; i < 20000; ++i)
        many += "||x";
    auto program = cel::compile(many, {});
    ASSERT_FALSE(program);
    ASSERT_EQ(program.error().diagnostics.size(), 51u);
    EXPECT_EQ(program.error().diagnostics.back().message, "19951 more errors not shown");
}

TEST(CelCheck, ResultTypes)
{
    cel::Declarations decls;
    ASSERT_TRUE(decls.add("amount", cel::Type::real()));
    ASSERT_TRUE(decls.add("tags", *cel::Type::parse("list(string)")));
    auto p = cel::compile("amount > 100", decls); // cross-type numeric comparison, as the spec allows
    ASSERT_TRUE(p) << p.error().message();
    EXPECT_EQ(p->resultType().toString(), "bool");
    p = cel::compile("tags.map(t, size(t))", decls);
    ASSERT_TRUE(p) << p.error().message();
    EXPECT_EQ(p->resultType().toString(), "list(int)");
    p = cel::compile("amount == 1", decls); // equality does not cross types statically
    EXPECT_FALSE(p);
}

TEST(CelCheck, UncheckedModeDefersErrorsToEvaluation)
{
    Fields f;
    EXPECT_EQ(evalText("nobody || true", f, false), "true");
    EXPECT_NE(evalText("nobody", f, false).find("undeclared reference to 'nobody'"), std::string::npos);
    EXPECT_EQ(evalText("'a' + 1 == 2 || true", f, false), "true");
}

TEST(CelCheck, DottedNamesResolveToTheLongestDeclaredPrefix)
{
    Fields f;
    f.add("merchant.country", cel::Type::string(), cel::Value::string("FR"));
    cel::Value keys[] = {cel::Value::string("id")};
    cel::Value vals[] = {cel::Value::integer(7)};
    f.add("customer", cel::Type::map(cel::Type::string(), cel::Type::integer()), cel::makeMap(f.arena, keys, vals));
    EXPECT_EQ(evalText("merchant.country == 'FR'", f), "true");
    EXPECT_EQ(evalText("customer.id + 1", f), "8");
    EXPECT_EQ(evalText("has(customer.id) && !has(customer.name)", f), "true");
    EXPECT_NE(evalText("customer.name", f).find("no such key"), std::string::npos);
}

TEST(CelCheck, TypeNamesParse)
{
    EXPECT_EQ(cel::Type::parse("map(string, list(int))")->toString(), "map(string, list(int))");
    EXPECT_EQ(cel::Type::parse("timestamp")->toString(), "google.protobuf.Timestamp");
    EXPECT_FALSE(cel::Type::parse("lsit(int)"));
    EXPECT_FALSE(cel::Type::parse("map(string)"));
    cel::Declarations decls;
    EXPECT_FALSE(decls.add("1abc", cel::Type::integer()));
    EXPECT_FALSE(decls.add("for", cel::Type::integer()));
    EXPECT_TRUE(decls.add("a.b_c", cel::Type::integer()));
    EXPECT_FALSE(decls.add("a.b_c", cel::Type::integer()));
}

// ---- error semantics at run time ---------------------------------------------------------------------------

TEST(CelErrors, LogicalOperatorsAbsorbErrorsInEitherOrder)
{
    Fields f;
    f.add("zero", cel::Type::integer(), cel::Value::integer(0));
    EXPECT_EQ(evalText("1 / zero > 1 || true", f), "true");
    EXPECT_EQ(evalText("true || 1 / zero > 1", f), "true");
    EXPECT_EQ(evalText("1 / zero > 1 && false", f), "false");
    EXPECT_EQ(evalText("false && 1 / zero > 1", f), "false");
    EXPECT_EQ(evalText("1 / zero > 1 && true", f), "error: 1:3: division by zero");
    EXPECT_EQ(evalText("true && 1 / zero > 1", f), "error: 1:11: division by zero");
    EXPECT_EQ(evalText("[1, 2, 0].exists(x, 2 / x == 1)", f), "true");
    EXPECT_EQ(evalText("[1, 0, 2].all(x, 2 / x == 1)", f), "false");
    EXPECT_EQ(evalText("[1, 0].all(x, 2 / x > 0)", f), "error: 1:17: division by zero");
    EXPECT_EQ(evalText("1 / zero > 1 ? 'a' : 'b'", f), "error: 1:3: division by zero");
}

TEST(CelErrors, OverflowAndDivisionByZeroAreErrors)
{
    Fields f;
    f.add("big", cel::Type::integer(), cel::Value::integer(9223372036854775807));
    f.add("zero", cel::Type::integer(), cel::Value::integer(0));
    f.add("uzero", cel::Type::uinteger(), cel::Value::uinteger(0));
    EXPECT_EQ(evalText("big + 1", f), "error: 1:5: integer overflow");
    EXPECT_EQ(evalText("-big - 2", f), "error: 1:6: integer overflow");
    EXPECT_EQ(evalText("big * 2", f), "error: 1:5: integer overflow");
    EXPECT_EQ(evalText("5 % zero", f), "error: 1:3: modulus by zero");
    EXPECT_EQ(evalText("uzero - 1u", f), "error: 1:7: unsigned integer overflow");
    EXPECT_EQ(evalText("1.0 / double(zero)", f), "+Inf");
    EXPECT_EQ(evalText("int(1e19)", f).rfind("error: ", 0), 0u);
    EXPECT_EQ(evalText("double('1e999')", f).rfind("error: ", 0), 0u);
    EXPECT_EQ(evalText("double('1e-999')", f), "0.0");
    EXPECT_EQ(evalText("double('-Infinity')", f), "-Inf");
    EXPECT_EQ(evalText("duration('200000000000s')", f).rfind("error: ", 0), 0u);
    EXPECT_EQ(evalText("timestamp('9999-12-31T23:59:59Z') + duration('1s')", f).rfind("error: ", 0), 0u);
}

TEST(CelErrors, ConstantErrorsStayErrors)
{
    // Folding at compile time must not turn an error into a value, nor drop it.
    EXPECT_EQ(evalText("1 / 0"), "error: 1:3: division by zero");
    EXPECT_EQ(evalText("true && 1 / 0 == 1"), "error: 1:11: division by zero");
    EXPECT_EQ(evalText("false && 1 / 0 == 1"), "false");
    EXPECT_EQ(evalText("{1: 'a', 1u: 'b'}").rfind("error: ", 0), 0u);
}

TEST(CelErrors, MissingValueIsAnErrorOfThatField)
{
    cel::Declarations decls;
    ASSERT_TRUE(decls.add("a", cel::Type::integer()));
    ASSERT_TRUE(decls.add("b", cel::Type::integer()));
    auto p = cel::compile("a + b", decls);
    ASSERT_TRUE(p);
    cel::EvalContext ctx;
    const cel::Value one[] = {cel::Value::integer(1)};
    const cel::Value v = p->eval(cel::Activation{one}, ctx);
    ASSERT_TRUE(v.isError());
    EXPECT_EQ(p->errorMessage(v), "1:5: no value for 'b'");
}

// ---- values, functions --------------------------------------------------------------------------------------

TEST(CelEval, StringsAreViewsIntoTheRecord)
{
    const std::string storage = "merchant-42";
    Fields f;
    f.add("name", cel::Type::string(), cel::Value::string(storage));
    auto p = cel::compile("name", f.decls);
    ASSERT_TRUE(p);
    cel::EvalContext ctx;
    const cel::Value v = p->eval(cel::Activation{f.values}, ctx);
    EXPECT_EQ(v.asString().data(), storage.data());
}

TEST(CelEval, MembershipInLongConstantLists)
{
    std::string list = "[";
    for (int i = 0; i < 100; ++i)
        list += (i ? ", " : "") + std::to_string(i * 3);
    list += "]";
    Fields f;
    f.add("x", cel::Type::dyn(), cel::Value::integer(297));
    EXPECT_EQ(evalText("x in " + list, f), "true");
    f.values[0] = cel::Value::uinteger(3);
    EXPECT_EQ(evalText("x in " + list, f), "true");
    f.values[0] = cel::Value::real(6.0);
    EXPECT_EQ(evalText("x in " + list, f), "true");
    f.values[0] = cel::Value::real(6.5);
    EXPECT_EQ(evalText("x in " + list, f), "false");
    f.values[0] = cel::Value::string("3");
    EXPECT_EQ(evalText("x in " + list, f), "false");
}

TEST(CelEval, LargeMapsIndexAndRefuseRepeatedKeys)
{
    std::string map = "{";
    for (int i = 0; i < 50; ++i)
        map += (i ? ", " : "") + std::string("'k") + std::to_string(i) + "': " + std::to_string(i);
    EXPECT_EQ(evalText(map + "}['k42']"), "42");
    EXPECT_EQ(evalText(map + "}.k7"), "7");
    EXPECT_EQ(evalText(map + ", 'k3': 0}").rfind("error: ", 0), 0u);
}

TEST(CelEval, StringAndTimeFunctions)
{
    EXPECT_EQ(evalText("'Straße'.size()"), "6");
    EXPECT_EQ(evalText("'abc'.matches('^a.c$') && !'abc'.matches('^b')"), "true");
    EXPECT_EQ(evalText("'  Mixed Case '.trim().lowerAscii()"), "\"mixed case\"");
    EXPECT_EQ(evalText("timestamp('2024-03-10T12:00:00Z').getHours('Asia/Kathmandu')"), "17");
    EXPECT_EQ(evalText("timestamp('2024-03-10T12:00:00Z').getDayOfWeek()"), "0");
    EXPECT_EQ(evalText("timestamp('2024-01-01T00:00:00Z') - timestamp('2023-12-31T23:00:00Z') == duration('1h')"),
              "true");
    EXPECT_EQ(evalText("string(duration('90m'))"), "\"5400s\"");
    // Past the transitions a zoneinfo file lists (2037), its POSIX rule decides.
    EXPECT_EQ(evalText("timestamp('2050-01-15T12:00:00Z').getHours('Australia/Sydney')"), "23");
    EXPECT_EQ(evalText("timestamp('2050-07-15T12:00:00Z').getHours('Australia/Sydney')"), "22");
    EXPECT_EQ(evalText("timestamp('2050-07-01T12:00:00Z').getHours('America/New_York')"), "8");
    EXPECT_EQ(evalText("timestamp('2050-12-01T12:00:00Z').getHours('America/New_York')"), "7");
    EXPECT_EQ(evalText("timestamp('2024-01-01T00:00:00Z').getHours('Mars/Olympus')").rfind("error: ", 0), 0u);
    EXPECT_EQ(evalText("timestamp('2024-01-01T00:00:00Z').getHours('../../etc/passwd')").rfind("error: ", 0), 0u);
    EXPECT_EQ(evalText("timestamp('2024-01-01T00:00:00Z').getHours('America')").rfind("error: ", 0), 0u); // a directory
}

// An unknown zone's error says what is missing: no time zone database at all (naming the Debian package
// tzdata), a zone the database lists without its file, or a name that is no zone. TZDIR points at a
// database made here, so the test holds on a machine without tzdata as on one with it.
TEST(CelEval, AnUnknownTimeZoneSaysWhatIsMissing)
{
    std::string pattern = (std::filesystem::temp_directory_path() / "sandbench-tz-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    const std::filesystem::path dir = pattern;
    const char* saved = std::getenv("TZDIR");
    const std::string savedValue = saved ? saved : "";
    auto hoursIn = [](const std::string& zone) {
        return evalText("timestamp('2050-07-01T12:00:00Z').getHours('" + zone + "')");
    };

    const auto empty = dir / "empty";
    std::filesystem::create_directories(empty);
    ::setenv("TZDIR", empty.c_str(), 1);
    EXPECT_EQ(hoursIn("America/New_York"),
              "error: 1:35: unknown time zone 'America/New_York': this machine has no time zone database ("
                  + empty.string()
                  + " is missing or empty); install the Debian package tzdata");
    ::setenv("TZDIR", (dir / "missing").c_str(), 1);
    EXPECT_NE(hoursIn("Europe/Paris").find("no time zone database"), std::string::npos) << hoursIn("Europe/Paris");

    // A database that lists America/New_York (and its link US/Eastern) but lost the zone's file.
    const auto partial = dir / "partial";
    std::filesystem::create_directories(partial / "America");
    std::ofstream(partial / "tzdata.zi") << "# version 2024a\nZ America/New_York -4:56:2 - LMT 1883 N 18 17u\n"
                                            "L America/New_York US/Eastern\n";
    ::setenv("TZDIR", partial.c_str(), 1);
    EXPECT_EQ(hoursIn("America/New_York"),
              "error: 1:35: unknown time zone 'America/New_York': the time zone database in " + partial.string()
                  + " lists it but has no readable file for it; reinstall the Debian package tzdata");
    EXPECT_NE(hoursIn("US/Eastern").find("lists it but has no readable file"), std::string::npos);
    // A typo is only that.
    EXPECT_EQ(hoursIn("America/New_Yrok"), "error: 1:35: unknown time zone 'America/New_Yrok'");

    if (saved)
        ::setenv("TZDIR", savedValue.c_str(), 1);
    else
        ::unsetenv("TZDIR");
    std::filesystem::remove_all(dir);
}

TEST(CelEval, StringTestsOnFieldsAndExpressions)
{
    Fields f;
    f.add("s", cel::Type::string(), cel::Value::string("mail.example.ru"));
    f.add("d", cel::Type::dyn(), cel::Value::integer(1));
    EXPECT_EQ(evalText("s.endsWith('.ru') && s.startsWith('mail') && s.contains('example')", f), "true");
    EXPECT_EQ(evalText("s.endsWith('mail') || s.startsWith('.ru') || s.contains('x.r')", f), "false");
    EXPECT_EQ(evalText("(s + '!').endsWith('ru!') && s.endsWith('') && ''.startsWith('')", f), "true");
    EXPECT_EQ(evalText("s.endsWith('a-much-longer-suffix-than-s.example.ru')", f), "false");
    EXPECT_EQ(evalText("dyn(d).endsWith('x')", f), "error: 1:8: no such overload");
}

TEST(CelEval, RegexFromDataIsCompiledPerContextAndChecked)
{
    Fields f;
    f.add("pattern", cel::Type::string(), cel::Value::string("^fr"));
    EXPECT_EQ(evalText("'fraud'.matches(pattern)", f), "true");
    f.values[0] = cel::Value::string("(");
    EXPECT_NE(evalText("'fraud'.matches(pattern)", f).find("invalid regular expression"), std::string::npos);
}

TEST(CelJson, RecordsAndValues)
{
    cel::Arena arena;
    auto record = cel::recordFromJson(
        R"({"amount": 12.5, "n": 3, "big": 18446744073709551615, "ok": true, "name": "x", "none": null,
            "ts": "2024-05-01T10:00:00Z", "tags": ["a", "b"], "meta": {"k": 1}})",
        arena);
    ASSERT_TRUE(record) << record.error().message;
    std::vector<std::string> types;
    for (const auto& v : record->declarations.variables())
        types.push_back(v.name + ":" + v.type.toString());
    const std::vector<std::string> expected = {"amount:double",
                                               "n:int",
                                               "big:uint",
                                               "ok:bool",
                                               "name:string",
                                               "none:dyn",
                                               "ts:google.protobuf.Timestamp",
                                               "tags:list(dyn)",
                                               "meta:map(string, dyn)"};
    EXPECT_EQ(types, expected);
    auto p = cel::compile("amount * 2.0 + double(n) + double(meta.k) > 28.0 && 'b' in tags && none == null && "
                          "ts.getHours() == 10 && ok && big > 1u",
                          record->declarations);
    ASSERT_TRUE(p) << p.error().message();
    cel::EvalContext ctx;
    EXPECT_TRUE(p->eval(cel::Activation{record->values}, ctx).isTrue());

    EXPECT_FALSE(cel::recordFromJson("[1]", arena));
    EXPECT_FALSE(cel::recordFromJson("{\"a\": ", arena));
    EXPECT_FALSE(cel::recordFromJson(std::string(1000, '[') + std::string(1000, ']'), arena));
    EXPECT_FALSE(cel::recordFromJson(R"({"not a name": 1})", arena));

    auto v = cel::compile(R"([1, 2u, 2.5, "s", b"\xff", null, duration("1.5s"), int, {"k": [true]}, 0.0 / 0.0])", {});
    ASSERT_TRUE(v);
    EXPECT_EQ(cel::toJson(v->eval(cel::Activation{}, ctx)).dump(),
              R"([1,2,2.5,"s","/w==",null,"1.5s","int",{"k":[true]},"NaN"])");
}

// ---- traces, tokens, threads -------------------------------------------------------------------------------

TEST(CelTrace, RecordsEverySubExpression)
{
    Fields f;
    f.add("amount", cel::Type::real(), cel::Value::real(1500));
    f.add("country", cel::Type::string(), cel::Value::string("FR"));
    auto p = cel::compile("amount > 1000.0 && country in ['US', 'CA']", f.decls);
    ASSERT_TRUE(p);
    cel::EvalContext ctx;
    cel::Trace trace;
    const cel::Value v = p->evalTraced(cel::Activation{f.values}, ctx, trace);
    EXPECT_TRUE(v.isFalse());
    std::vector<std::string> seen;
    for (const auto& step : trace.steps) {
        seen.push_back(std::string(p->source().substr(step.begin, step.end - step.begin)) + " = "
                       + cel::toDebugString(step.value));
    }
    const std::vector<std::string> expected = {"amount = 1500.0",
                                               "1000.0 = 1000.0",
                                               "amount > 1000.0 = true",
                                               "country = \"FR\"",
                                               "['US', 'CA'] = [\"US\", \"CA\"]",
                                               "country in ['US', 'CA'] = false",
                                               "amount > 1000.0 && country in ['US', 'CA'] = false"};
    EXPECT_EQ(seen, expected);
}

TEST(CelTokens, KindsAndOffsetsForHighlighting)
{
    const std::string source = "amount >= 1e3 && name.matches(r'^a') // big";
    const auto tokens = cel::tokenize(source);
    std::vector<cel::TokenKind> kinds;
    for (const auto& t : tokens)
        kinds.push_back(t.kind);
    using K = cel::TokenKind;
    const std::vector<K> expected = {K::Identifier, K::Ge,     K::Double, K::And,    K::Identifier, K::Dot,
                                     K::Identifier, K::LParen, K::String, K::RParen, K::Comment,    K::End};
    EXPECT_EQ(kinds, expected);
    EXPECT_EQ(source.substr(tokens[8].offset, tokens[8].length), "r'^a'");
    // Never fails: unreadable text becomes Error tokens.
    const auto bad = cel::tokenize("a § 'open");
    EXPECT_EQ(bad[1].kind, K::Error);
    EXPECT_EQ(bad[2].kind, K::Error);
}

TEST(CelThreads, OneProgramManyThreads)
{
    cel::Declarations decls;
    ASSERT_TRUE(decls.add("x", cel::Type::integer()));
    ASSERT_TRUE(decls.add("s", cel::Type::string()));
    auto p = cel::compile("x % 3 == 0 && (s + string(x)).matches('^id[0-9]+$') && [1, 2, 3].map(i, i * x)[2] == 3 * x",
                          decls);
    ASSERT_TRUE(p) << p.error().message();
    auto work = [&](int from, int& matched) {
        cel::EvalContext ctx;
        for (int i = from; i < from + 20000; ++i) {
            const cel::Value slots[] = {cel::Value::integer(i), cel::Value::string("id")};
            if (p->eval(cel::Activation{slots}, ctx).isTrue())
                ++matched;
        }
    };
    int a = 0, b = 0;
    std::thread t1(work, 0, std::ref(a));
    std::thread t2(work, 20000, std::ref(b));
    t1.join();
    t2.join();
    EXPECT_EQ(a, 6667);
    EXPECT_EQ(b, 6667);
}

TEST(CelProgram, ConstantsAreFolded)
{
    cel::Declarations decls;
    ASSERT_TRUE(decls.add("x", cel::Type::integer()));
    auto folded = cel::compile("x > 60 * 60 * 24 + size('abc') + int('7')", decls);
    ASSERT_TRUE(folded);
    EXPECT_EQ(folded->instructionCount(), 3u); // x, the constant, >
    EXPECT_EQ(folded->referencedSlots().size(), 1u);
    EXPECT_FALSE(folded->constant());

    // A condition that can never fire, whatever the record: the rules layer warns about it.
    auto never = cel::compile("x > 1 && 1 > 2", decls);
    ASSERT_TRUE(never);
    ASSERT_TRUE(never->constant());
    EXPECT_TRUE(never->constant()->isFalse());
}

} // namespace
