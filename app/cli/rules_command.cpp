// sandbench rules expr 'EXPR' [--record JSON] [--json]: evaluate one CEL expression, optionally against a
// record's fields, and print its value or its error with line:column — the quick way to try a condition.

#include "commands.h"

#include "report.h"

#include "cel/json.h"
#include "cel/parser.h"
#include "cel/program.h"
#include "util/input_file.h"
#include "util/printable.h"

#include <fmt/format.h>

#include <iostream>

namespace sb::cli {

namespace {

namespace cel = sb::cel;

// The source line of `line` (1-based) and a caret under `column`, for errors people read.
std::string pointAt(std::string_view source, int line, int column)
{
    std::size_t start = 0;
    for (int l = 1; l < line; ++l) {
        const std::size_t nl = source.find('\n', start);
        if (nl == std::string_view::npos)
            return {};
        start = nl + 1;
    }
    const std::size_t end = source.find('\n', start);
    const std::string text = printable(source.substr(start, end == std::string_view::npos ? end : end - start));
    if (text.size() > 200)
        return {};
    std::string caret;
    // Columns count characters; tabs keep their width so the caret lines up.
    int col = 1;
    for (std::size_t i = start; i < source.size() && col < column && source[i] != '\n'; ++i) {
        const auto c = static_cast<unsigned char>(source[i]);
        if ((c & 0xC0) == 0x80)
            continue;
        caret += c == '\t' ? '\t' : ' ';
        ++col;
    }
    return "  " + text + "\n  " + caret + "^\n";
}

nlohmann::json diagnosticToJson(const cel::Diagnostic& d)
{
    return {{"line", d.line}, {"column", d.column}, {"offset", d.offset}, {"length", d.length}, {"message", d.message}};
}

int compileFailure(const RulesExprOptions& options, const cel::CompileError& error, std::string_view stage)
{
    if (options.json) {
        nlohmann::json diagnostics = nlohmann::json::array();
        for (const auto& d : error.diagnostics)
            diagnostics.push_back(diagnosticToJson(d));
        nlohmann::json err = diagnosticToJson(error.diagnostics.front());
        err["stage"] = stage;
        std::cout << dumpJson(
            {{"ok", false}, {"expression", options.expression}, {"error", err}, {"diagnostics", diagnostics}})
                  << '\n';
        return kExitFailure;
    }
    for (const auto& d : error.diagnostics) {
        std::cerr << "sandbench: " << printable(d.format()) << '\n';
        std::cerr << pointAt(options.expression, d.line, d.column);
    }
    return kExitFailure;
}

} // namespace

int rulesExprCommand(const RulesExprOptions& options)
{
    cel::Arena arena;
    cel::JsonRecord record;
    if (!options.record.empty()) {
        std::string text = options.record;
        if (text.starts_with('@')) {
            auto file = readInputText(text.substr(1), input::kRecord);
            if (!file)
                return reportError("--record: " + printable(file.error().message));
            text = std::move(*file);
        }
        auto parsed = cel::recordFromJson(text, arena);
        if (!parsed)
            return reportError("--record: " + parsed.error().message);
        record = std::move(*parsed);
    }

    if (auto ast = cel::parse(options.expression); !ast)
        return compileFailure(options, ast.error(), "parse");
    auto program = cel::compile(options.expression, record.declarations);
    if (!program)
        return compileFailure(options, program.error(), "check");

    cel::EvalContext ctx;
    const cel::Value value = program->eval(cel::Activation{record.values}, ctx);
    if (value.isError()) {
        const cel::ErrorData& e = value.asError();
        cel::SourcePosition where;
        if (e.node >= 0)
            where = cel::positionOf(options.expression, program->ast().node(e.node).pos);
        if (options.json) {
            std::cout << dumpJson({{"ok", false},
                                   {"expression", options.expression},
                                   {"error",
                                    {{"stage", "evaluation"},
                                     {"message", std::string(e.message)},
                                     {"line", where.line},
                                     {"column", where.column}}}})
                      << '\n';
        } else {
            std::cerr << "sandbench: " << printable(program->errorMessage(value)) << '\n';
            std::cerr << pointAt(options.expression, where.line, where.column);
        }
        return kExitFailure;
    }
    if (options.json) {
        std::cout << dumpJson({{"ok", true},
                               {"expression", options.expression},
                               {"value", cel::toJson(value)},
                               {"type", std::string(cel::kindName(value.kind()))},
                               {"text", cel::toDebugString(value)}})
                  << '\n';
    } else {
        std::cout << printable(cel::toDebugString(value)) << '\n';
    }
    return 0;
}

} // namespace sb::cli
