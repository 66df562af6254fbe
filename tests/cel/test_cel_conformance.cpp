// The official CEL conformance suite (github google/cel-spec, as data in the npm package @bufbuild/cel-spec,
// turned into JSON by conformance/suite_to_json.mjs at test time) against sb::cel. One test per suite file;
// each prints "file: passed/total" and the skipped cases, and fails on any case that is neither passed nor
// on the explicit skip list (conformance/skip_list.txt: cases that need protobuf messages).
//
// A case is compiled with the checker on (unless the suite says disableCheck), evaluated with its
// bindings, and passes when the value equals the expected one exactly (kinds included: 1 is not 1u) or,
// for cases that expect an evaluation error, when the result is an error (messages differ between
// implementations; the suite's own runners compare only that an error occurred).

#include "cel/program.h"
#include "cel/time.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

using nlohmann::json;
namespace cel = sb::cel;

namespace {

const json& suite()
{
    static const json data = [] {
        std::ifstream in(SANDBENCH_CEL_CONFORMANCE_JSON);
        if (!in)
            return json();
        return json::parse(in, nullptr, false);
    }();
    return data;
}

// "file/section/name" of every case on the skip list, with the reason written above it in the file.
const std::map<std::string, std::string>& skipList()
{
    static const std::map<std::string, std::string> list = [] {
        std::map<std::string, std::string> out;
        std::ifstream in(SANDBENCH_CEL_SKIP_LIST);
        std::string line, reason;
        while (std::getline(in, line)) {
            if (line.rfind("## ", 0) == 0)
                reason = line.substr(3);
            else if (!line.empty() && line[0] != '#')
                out.emplace(line, reason);
        }
        return out;
    }();
    return list;
}

std::string base64Decode(const std::string& in)
{
    static const std::string chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    int bits = 0, value = 0;
    for (const char c : in) {
        const auto p = chars.find(c);
        if (p == std::string::npos)
            continue;
        value = (value << 6) | static_cast<int>(p);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((value >> bits) & 0xff);
        }
    }
    return out;
}

// Types and values that are protobuf messages (other than the well-known Duration and Timestamp, which CEL
// has as its own types) are outside what Sandbench supports.
// A member, or an empty array/object when absent (iterating over a temporary from json::value() trips
// GCC 12's -Wmaybe-uninitialized).
const json& member(const json& j, const char* key, bool array)
{
    static const json emptyArray = json::array();
    static const json emptyObject = json::object();
    const auto it = j.find(key);
    if (it == j.end())
        return array ? emptyArray : emptyObject;
    return *it;
}

bool isWellKnownTime(const std::string& name)
{
    return name == "google.protobuf.Duration" || name == "google.protobuf.Timestamp";
}

std::optional<cel::Type> typeFromJson(const json& t)
{
    if (t.contains("primitive")) {
        const std::string p = t["primitive"];
        if (p == "INT64")
            return cel::Type::integer();
        if (p == "UINT64")
            return cel::Type::uinteger();
        if (p == "DOUBLE")
            return cel::Type::real();
        if (p == "BOOL")
            return cel::Type::boolean();
        if (p == "STRING")
            return cel::Type::string();
        if (p == "BYTES")
            return cel::Type::bytes();
        return std::nullopt;
    }
    if (t.contains("wellKnown")) {
        const std::string w = t["wellKnown"];
        if (w == "TIMESTAMP")
            return cel::Type::timestamp();
        if (w == "DURATION")
            return cel::Type::duration();
        return std::nullopt;
    }
    if (t.contains("messageType")) {
        const std::string m = t["messageType"];
        if (m == "google.protobuf.Duration")
            return cel::Type::duration();
        if (m == "google.protobuf.Timestamp")
            return cel::Type::timestamp();
        return std::nullopt;
    }
    if (t.contains("listType")) {
        auto e = typeFromJson(member(t["listType"], "elemType", false));
        return e ? std::optional(cel::Type::list(*e)) : std::nullopt;
    }
    if (t.contains("mapType")) {
        auto k = typeFromJson(member(t["mapType"], "keyType", false));
        auto v = typeFromJson(member(t["mapType"], "valueType", false));
        return k && v ? std::optional(cel::Type::map(*k, *v)) : std::nullopt;
    }
    if (t.contains("null"))
        return cel::Type::null();
    if (t.contains("dyn") || t.empty())
        return cel::Type::dyn();
    return std::nullopt;
}

std::optional<cel::Value> valueFromJson(const json& v, cel::Arena& arena)
{
    if (v.contains("int64Value"))
        return cel::Value::integer(std::stoll(v["int64Value"].get<std::string>()));
    if (v.contains("uint64Value"))
        return cel::Value::uinteger(std::stoull(v["uint64Value"].get<std::string>()));
    if (v.contains("doubleValue")) {
        const json& d = v["doubleValue"];
        if (d.is_string()) {
            const std::string s = d;
            if (s == "Infinity")
                return cel::Value::real(HUGE_VAL);
            if (s == "-Infinity")
                return cel::Value::real(-HUGE_VAL);
            return cel::Value::real(std::nan(""));
        }
        return cel::Value::real(d.get<double>());
    }
    if (v.contains("stringValue"))
        return cel::Value::string(arena.copy(v["stringValue"].get<std::string>()));
    if (v.contains("bytesValue"))
        return cel::Value::bytes(arena.copy(base64Decode(v["bytesValue"])));
    if (v.contains("boolValue"))
        return cel::Value::boolean(v["boolValue"].get<bool>());
    if (v.contains("nullValue"))
        return cel::Value::null();
    if (v.contains("typeValue")) {
        const std::string name = v["typeValue"];
        for (auto k : {cel::Kind::Null, cel::Kind::Bool, cel::Kind::Int, cel::Kind::Uint, cel::Kind::Double,
                       cel::Kind::String, cel::Kind::Bytes, cel::Kind::Timestamp, cel::Kind::Duration, cel::Kind::List,
                       cel::Kind::Map, cel::Kind::Type}) {
            if (cel::kindName(k) == name)
                return cel::Value::type(k);
        }
        return std::nullopt;
    }
    if (v.contains("listValue")) {
        std::vector<cel::Value> items;
        for (const json& e : member(v["listValue"], "values", true)) {
            auto item = valueFromJson(e, arena);
            if (!item)
                return std::nullopt;
            items.push_back(*item);
        }
        return cel::makeList(arena, items);
    }
    if (v.contains("mapValue")) {
        std::vector<cel::Value> keys, values;
        for (const json& e : member(v["mapValue"], "entries", true)) {
            auto k = valueFromJson(e["key"], arena);
            auto val = valueFromJson(e["value"], arena);
            if (!k || !val)
                return std::nullopt;
            keys.push_back(*k);
            values.push_back(*val);
        }
        return cel::makeMap(arena, keys, values);
    }
    if (v.contains("objectValue")) {
        const json& o = v["objectValue"];
        const std::string type = o.value("@type", "");
        if (type == "type.googleapis.com/google.protobuf.Duration") {
            auto d = cel::parseDuration(o.value("value", ""));
            return d ? std::optional(cel::Value::duration(*d)) : std::nullopt;
        }
        if (type == "type.googleapis.com/google.protobuf.Timestamp") {
            auto t = cel::parseTimestamp(o.value("value", ""));
            return t ? std::optional(cel::Value::timestamp(t->seconds, t->nanos)) : std::nullopt;
        }
        return std::nullopt;
    }
    return std::nullopt;
}

// Exact equality for checking results: kinds must agree (1 != 1u != 1.0) and NaN equals NaN.
bool sameValue(const cel::Value& a, const cel::Value& b)
{
    if (a.kind() != b.kind())
        return false;
    switch (a.kind()) {
    case cel::Kind::Double:
        if (std::isnan(a.asDouble()) || std::isnan(b.asDouble()))
            return std::isnan(a.asDouble()) && std::isnan(b.asDouble());
        return a.asDouble() == b.asDouble();
    case cel::Kind::List: {
        const auto& x = a.asList();
        const auto& y = b.asList();
        if (x.size != y.size)
            return false;
        for (std::uint32_t i = 0; i < x.size; ++i) {
            if (!sameValue(x.items[i], y.items[i]))
                return false;
        }
        return true;
    }
    case cel::Kind::Map: {
        const auto& x = a.asMap();
        const auto& y = b.asMap();
        if (x.size != y.size)
            return false;
        for (std::uint32_t i = 0; i < x.size; ++i) {
            bool found = false;
            for (std::uint32_t j = 0; j < y.size && !found; ++j) {
                if (sameValue(x.keys[i], y.keys[j])) {
                    found = true;
                    if (!sameValue(x.values[i], y.values[j]))
                        return false;
                }
            }
            if (!found)
                return false;
        }
        return true;
    }
    case cel::Kind::Error: return false;
    default: return cel::equals(a, b);
    }
}

bool mentionsProtobuf(const json& t)
{
    if (!t.value("container", std::string()).empty())
        return true;
    static const char* kMessageNames[] = {"TestAllTypes",
                                          "google.protobuf.Value",
                                          "google.protobuf.ListValue",
                                          "google.protobuf.Struct",
                                          "google.protobuf.Any",
                                          "Value{",
                                          "NullValue",
                                          "GlobalEnum",
                                          "cel.expr.conformance"};
    const std::string expr = t.value("expr", "");
    for (const char* name : kMessageNames) {
        if (expr.find(name) != std::string::npos)
            return true;
    }
    const std::string dumped = t.dump();
    for (std::size_t at = dumped.find("\"@type\":\"type.googleapis.com/"); at != std::string::npos;
         at = dumped.find("\"@type\":\"type.googleapis.com/", at + 1)) {
        const std::size_t start = at + 29, end = dumped.find('"', start);
        if (!isWellKnownTime(dumped.substr(start, end - start)))
            return true;
    }
    for (std::size_t at = dumped.find("\"messageType\":\""); at != std::string::npos;
         at = dumped.find("\"messageType\":\"", at + 1)) {
        const std::size_t start = at + 15, end = dumped.find('"', start);
        if (!isWellKnownTime(dumped.substr(start, end - start)))
            return true;
    }
    return false;
}

struct Outcome {
    bool passed = false;
    std::string detail;
};

Outcome runCase(const json& t)
{
    const std::string expr = t.value("expr", "");
    cel::Declarations decls;
    cel::Arena arena;
    for (const json& d : member(t, "typeEnv", true)) {
        if (!d.contains("ident"))
            continue;
        const auto type = typeFromJson(member(d["ident"], "type", false));
        if (!type)
            return {false, "unsupported declaration " + d.dump()};
        (void)decls.add(d["name"], *type); // "true", "null": the literal wins, as the suite expects
    }
    std::map<int, cel::Value> bound;
    for (const auto& [name, binding] : member(t, "bindings", false).items()) {
        const auto v = valueFromJson(member(binding, "value", false), arena);
        if (!v)
            return {false, "unsupported binding for " + name};
        const cel::Variable* var = decls.find(name);
        if (!var) {
            // Bindings the suite did not declare (unchecked cases): declare them as dyn.
            if (!decls.add(name, cel::Type::dyn()))
                continue;
            var = decls.find(name);
        }
        bound[var->slot] = *v;
    }
    std::vector<cel::Value> slots(decls.size());
    std::vector<bool> present(decls.size(), false);
    for (const auto& [slot, v] : bound)
        slots[static_cast<std::size_t>(slot)] = v;

    cel::CompileOptions options;
    options.check = !t.value("disableCheck", false);
    auto program = cel::compile(expr, decls, options);
    if (!program)
        return {false, "compile error: " + program.error().message()};
    // Only the bound variables have values: hand over the slots up to the last bound one.
    std::size_t count = 0;
    for (const auto& [slot, v] : bound)
        count = std::max(count, static_cast<std::size_t>(slot) + 1);
    cel::EvalContext ctx;
    // Unbound declared variables must read as "no value", not as null: give only the bound prefix.
    std::vector<cel::Value> activationValues(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(count));
    const cel::Value result = program->eval(cel::Activation{activationValues}, ctx);
    if (t.contains("evalError")) {
        if (result.isError())
            return {true, {}};
        return {false, "expected an error, got " + cel::toDebugString(result)};
    }
    if (!t.contains("value"))
        return {false, "the case expects neither a value nor an error (not supported by this runner)"};
    const auto expected = valueFromJson(t["value"], arena);
    if (!expected)
        return {false, "unsupported expected value " + t["value"].dump()};
    if (result.isError())
        return {false, "expected " + cel::toDebugString(*expected) + ", got " + program->errorMessage(result)};
    if (!sameValue(result, *expected))
        return {false, "expected " + cel::toDebugString(*expected) + ", got " + cel::toDebugString(result)};
    return {true, {}};
}

class CelConformance : public ::testing::TestWithParam<std::string> {};

TEST_P(CelConformance, File)
{
    const json& data = suite();
    ASSERT_TRUE(data.is_object()) << "no conformance data at " << SANDBENCH_CEL_CONFORMANCE_JSON
                                  << " (the ctest fixture cel_conformance_json writes it with node; it needs "
                                     "tests/cel/conformance/node_modules: npm ci there)";
    const json* file = nullptr;
    for (const json& f : data["files"]) {
        if (f["name"] == GetParam())
            file = &f;
    }
    ASSERT_NE(file, nullptr) << "no file " << GetParam() << " in the suite";
    const bool printSkips = std::getenv("SANDBENCH_CEL_PRINT_SKIPS") != nullptr;
    int total = 0, passed = 0, skipped = 0;
    std::vector<std::string> failures;
    std::map<std::string, int> skipReasons;
    for (const json& t : (*file)["tests"]) {
        ++total;
        const std::string id = GetParam() + "/" + t.value("section", "") + "/" + t.value("name", "");
        const auto skip = skipList().find(id);
        if (skip != skipList().end()) {
            ++skipped;
            ++skipReasons[skip->second];
            continue;
        }
        if (mentionsProtobuf(t)) {
            if (printSkips)
                std::cout << id << "\n";
            failures.push_back(id + ": needs protobuf messages but is not on the skip list");
            continue;
        }
        const Outcome o = runCase(t);
        if (o.passed)
            ++passed;
        else
            failures.push_back(id + ": " + t.value("expr", "") + "\n      " + o.detail);
    }
    // Also in the test's XML/JSON report (--gtest_output), for tools that collect the figures.
    RecordProperty("passed", passed);
    RecordProperty("total", total);
    RecordProperty("skipped", skipped);
    std::cout << "[conformance] " << GetParam() << ": " << passed << "/" << total << " passed";
    if (skipped)
        std::cout << ", " << skipped << " skipped";
    std::cout << ", " << failures.size() << " failed\n";
    for (const auto& [reason, n] : skipReasons)
        std::cout << "    skipped " << n << ": " << reason << "\n";
    for (const auto& f : failures)
        ADD_FAILURE() << f;
}

INSTANTIATE_TEST_SUITE_P(Cel, CelConformance,
                         ::testing::Values("basic", "comparisons", "conversions", "fp_math", "integer_math", "lists",
                                           "logic", "macros", "macros2", "parse", "string", "fields", "timestamps"),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

// Every entry of the skip list names a case that exists (a renamed case must not hide behind a stale entry).
TEST(CelConformanceSkipList, EntriesExist)
{
    const json& data = suite();
    ASSERT_TRUE(data.is_object());
    std::set<std::string> ids;
    for (const json& f : data["files"]) {
        for (const json& t : f["tests"])
            ids.insert(f["name"].get<std::string>() + "/" + t.value("section", "") + "/" + t.value("name", ""));
    }
    for (const auto& [id, reason] : skipList())
        EXPECT_TRUE(ids.contains(id)) << "skip list entry names no case: " << id;
}

} // namespace
