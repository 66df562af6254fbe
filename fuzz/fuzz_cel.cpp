// libFuzzer target for the CEL engine (core/rules/cel): rule conditions are typed by people and shared in
// rule sets, so lexing, parsing, checking, compiling and evaluating must survive any input: no crash, no
// hang, no sanitizer report. Beyond surviving, it checks what callers rely on:
// - every compile error has a line:column inside the source;
// - a program evaluates to the same value with and without a trace (explanations show what really ran);
// - errors that evaluation returns are placed inside the source too.

#include "cel/program.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

namespace cel = sb::cel;

[[noreturn]] void die(const char* what, std::string_view source, const std::string& detail)
{
    std::fprintf(stderr, "%s\n--- expression ---\n%.*s\n--- detail ---\n%s\n", what, static_cast<int>(source.size()),
                 source.data(), detail.c_str());
    std::abort();
}

const cel::Declarations& declarations()
{
    static const cel::Declarations decls = [] {
        cel::Declarations d;
        (void)d.add("x", cel::Type::integer());
        (void)d.add("y", cel::Type::real());
        (void)d.add("s", cel::Type::string());
        (void)d.add("b", cel::Type::boolean());
        (void)d.add("t", cel::Type::timestamp());
        (void)d.add("l", cel::Type::list(cel::Type::integer()));
        (void)d.add("m", cel::Type::map(cel::Type::string(), cel::Type::dyn()));
        (void)d.add("a.b", cel::Type::string());
        return d;
    }();
    return decls;
}

void checkDiagnostics(const cel::CompileError& error, std::string_view source)
{
    if (error.diagnostics.empty())
        die("compile error without a diagnostic", source, "");
    for (const auto& d : error.diagnostics) {
        const cel::SourcePosition p = cel::positionOf(source, d.offset);
        if (d.offset > source.size())
            die("diagnostic offset past the end", source, d.format());
        if (p.line != d.line || p.column != d.column)
            die("diagnostic line:column disagrees with its offset", source, d.format());
        if (d.message.empty())
            die("diagnostic without a message", source, d.format());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > 16 * 1024)
        return 0;
    const std::string_view source(reinterpret_cast<const char*>(data), size);
    (void)cel::tokenize(source);

    static cel::Arena arena;
    arena.reset();
    static const std::string text = "fuzz";
    cel::Value items[] = {cel::Value::integer(1), cel::Value::integer(-2), cel::Value::integer(3)};
    cel::Value keys[] = {cel::Value::string("k"), cel::Value::string("n")};
    cel::Value vals[] = {cel::Value::string("v"), cel::Value::integer(7)};
    const cel::Value slots[] = {cel::Value::integer(42),
                                cel::Value::real(2.5),
                                cel::Value::string(text),
                                cel::Value::boolean(true),
                                cel::Value::timestamp(1234567890, 5),
                                cel::makeList(arena, items),
                                cel::makeMap(arena, keys, vals),
                                cel::Value::string("ab")};
    static cel::EvalContext ctx;

    for (const bool check : {true, false}) {
        cel::CompileOptions options;
        options.check = check;
        auto program = cel::compile(source, declarations(), options);
        if (!program) {
            checkDiagnostics(program.error(), source);
            continue;
        }
        const cel::Value plain = program->eval(cel::Activation{slots}, ctx);
        const std::string plainText = plain.isError() ? program->errorMessage(plain) : cel::toDebugString(plain);
        if (plain.isError() && plain.asError().node >= 0) {
            const auto node = static_cast<std::size_t>(plain.asError().node);
            if (node >= program->ast().nodes.size() || program->ast().nodes[node].pos > source.size())
                die("evaluation error placed outside the source", source, plainText);
        }
        cel::Trace trace;
        const cel::Value traced = program->evalTraced(cel::Activation{slots}, ctx, trace);
        const std::string tracedText = traced.isError() ? program->errorMessage(traced) : cel::toDebugString(traced);
        if (plainText != tracedText)
            die("traced evaluation differs from plain evaluation", source, plainText + "\nvs\n" + tracedText);
    }
    return 0;
}
