// The batch evaluator (core/cel, cel/batch.h) against the interpreter, row by row: randomly generated
// expressions over the subset on random records (missing values, empty and non-ASCII strings, integer
// extremes, NaN and infinities, negative numbers and timestamps), and the demo rule sets, whole evaluations
// with and without batches compared field by field. The seeds are fixed: a failure names the expression
// and the record, and reproduces. BATCH_DEBUG=1 prints what the generator wrote that does not compile, and
// how many rows the batches decided.

#include "cel/batch.h"
#include "rules/demo_data.h"
#include "rules/evaluate.h"
#include "rules/ruleset.h"

#include "rules_test_util.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <sstream>

namespace sb::rules {
namespace {

const std::filesystem::path kDemo = SANDBENCH_DEMO_DIR;

// ---- random records ---------------------------------------------------------------------------------------

const std::vector<Field> kFields = {
    {"i1", FieldType::Int},    {"i2", FieldType::Int},       {"d1", FieldType::Double}, {"d2", FieldType::Double},
    {"s1", FieldType::String}, {"s2", FieldType::String},    {"b1", FieldType::Bool},   {"b2", FieldType::Bool},
    {"t1", FieldType::Timestamp},
};

const char* const kStrings[] = {"",    "a",  "ab",         "abc",   "ABC",    "abcdef",       "b",   "é",
                                "日本語", "😀", "naïve café", " pad ", "x.ru",   "mailinator.com", "KP",  "US",
                                "123.example", "Ab c", "zz", "aé",
                                // near misses of the short-string keys (4-8 and 9-16 bytes differ in the middle
                                // only), the longest short string and longer ones
                                "abXde", "abcde", "abcdefgh", "abcXefgh", "abcdXfgh", "abcdefghijklmnop",
                                "abcdefghXjklmnop", "abXdefghijklmnop",
                                "abcdefghijklmnopq", "a-very-long-subdomain.example-company.com"};

class Random {
public:
    explicit Random(std::uint64_t seed) : m_gen(seed) {}
    std::uint64_t next() { return m_gen(); }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(m_gen() % n); }
    bool chance(double p) { return static_cast<double>(m_gen() % 1'000'000) < p * 1'000'000; }
    template <typename T, std::size_t N> const T& pick(const T (&items)[N]) { return items[below(N)]; }

private:
    std::mt19937_64 m_gen;
};

cel::Value randomValue(Random& r, FieldType type, DatasetBuilder& b, std::size_t column)
{
    if (r.chance(0.08))
        return b.missing(column);
    switch (type) {
    case FieldType::Int: {
        const std::int64_t special[] = {0,
                                        1,
                                        -1,
                                        2,
                                        7,
                                        -13,
                                        100,
                                        3'000'000'000,
                                        std::numeric_limits<std::int64_t>::max(),
                                        std::numeric_limits<std::int64_t>::min(),
                                        std::numeric_limits<std::int64_t>::max() - 1,
                                        std::numeric_limits<std::int64_t>::min() + 1};
        if (r.chance(0.3))
            return cel::Value::integer(r.pick(special));
        return cel::Value::integer(static_cast<std::int64_t>(r.below(101)) - 50);
    }
    case FieldType::Double: {
        const double special[] = {0.0,
                                  -0.0,
                                  1.5,
                                  -2.25,
                                  100.0,
                                  1e308,
                                  -1e308,
                                  5e-324,
                                  std::numeric_limits<double>::quiet_NaN(),
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity()};
        if (r.chance(0.3))
            return cel::Value::real(r.pick(special));
        return cel::Value::real(static_cast<double>(static_cast<std::int64_t>(r.below(200001)) - 100000) / 100.0);
    }
    case FieldType::Bool: return cel::Value::boolean(r.chance(0.5));
    case FieldType::String: return b.string(column, r.pick(kStrings));
    case FieldType::Timestamp: {
        const std::int64_t special[] = {0, -1, -86400 * 365, 1'700'000'000, 253'402'300'799, -62'135'596'800, 86399};
        const std::int64_t seconds = r.chance(0.3) ? r.pick(special)
                                                   : static_cast<std::int64_t>(r.below(3'000'000'000)) - 1'000'000'000;
        return cel::Value::timestamp(seconds, static_cast<std::int32_t>(r.below(1'000'000'000)));
    }
    }
    return {};
}

Dataset randomDataset(std::uint64_t seed, std::size_t rows)
{
    Random r(seed);
    DatasetBuilder b(Schema{kFields}, -1, "random records");
    std::vector<cel::Value> cells(kFields.size());
    for (std::size_t row = 0; row < rows; ++row) {
        for (std::size_t c = 0; c < kFields.size(); ++c)
            cells[c] = randomValue(r, kFields[c].type, b, c);
        b.addRow(cells, static_cast<std::int64_t>(row + 2));
    }
    return b.finish();
}

// ---- random expressions over the subset ---------------------------------------------------------------------

class ExpressionGenerator {
public:
    explicit ExpressionGenerator(std::uint64_t seed) : m_r(seed) {}

    std::string boolean(int depth)
    {
        if (depth <= 0 || m_r.chance(0.3))
            return boolLeaf(depth);
        switch (m_r.below(5)) {
        case 0: return fmt::format("({} && {})", boolean(depth - 1), boolean(depth - 1));
        case 1: return fmt::format("({} || {})", boolean(depth - 1), boolean(depth - 1));
        case 2: return fmt::format("!({})", boolean(depth - 1));
        case 3: return fmt::format("({} ? {} : {})", boolean(depth - 1), boolean(depth - 1), boolean(depth - 1));
        default: return boolLeaf(depth);
        }
    }

private:
    std::string op()
    {
        const char* const ops[] = {"==", "!=", "<", "<=", ">", ">="};
        return m_r.pick(ops);
    }

    std::string boolLeaf(int depth)
    {
        const int d = std::max(0, depth - 1);
        switch (m_r.below(16)) {
        case 0: return m_r.chance(0.5) ? "b1" : "b2";
        case 1: return m_r.chance(0.5) ? "true" : "false";
        case 2:
        case 3: return fmt::format("({} {} {})", integer(d), op(), integer(d));
        case 4:
        case 5: return fmt::format("({} {} {})", real(d), op(), real(d));
        case 6: return fmt::format("({} {} {})", string(d), op(), string(d));
        case 7: return fmt::format("({} {} {})", boolean(0), m_r.chance(0.5) ? "==" : "<", boolean(0));
        case 8: return fmt::format("({} {} {})", timestamp(), op(), timestamp());
        case 9: {
            const char* const fns[] = {"startsWith", "endsWith", "contains"};
            return fmt::format("{}.{}({})", string(d), m_r.pick(fns), m_r.chance(0.8) ? stringLiteral() : string(d));
        }
        case 10: {
            const char* const patterns[] = {"^[a-c]+$", "é", "^$", "[0-9]+[.]", "(?i)abc", "^.{2}$", "ru$"};
            return fmt::format("{}.matches('{}')", string(d), m_r.pick(patterns));
        }
        case 11: {
            const char* const lists[] = {"[0, 7, -13, 100]", "[1, 2.0, 'a']", "[]", "[9223372036854775807]"};
            return fmt::format("({} in {})", integer(d), m_r.pick(lists));
        }
        case 12: {
            const char* const lists[] = {"['a', 'abc', 'é', '']",
                                         "['KP', 'US', 'mailinator.com']",
                                         "['x', 1]",
                                         "['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'ab', 'zz']",
                                         "['abcdefgh', 'abcdefghijklmnop', 'abXde']",
                                         "['abcdefghijklmnopq', 'abcde']"};
            return fmt::format("({} in {})", string(d), m_r.pick(lists));
        }
        case 13: {
            const char* const lists[] = {"[1.5, -2.25, 0.0]", "[1, 100.0]"};
            return fmt::format("({} in {})", real(d), m_r.pick(lists));
        }
        case 14: return fmt::format("({} {} {})", integer(d), op(), integer(d));
        default: return fmt::format("({}.getDayOfWeek() in [0, 6])", timestamp());
        }
    }

    std::string integer(int depth)
    {
        if (depth <= 0 || m_r.chance(0.4)) {
            switch (m_r.below(9)) {
            case 0:
            case 1: return "i1";
            case 2: return "i2";
            case 3: {
                const char* const literals[] = {"0", "1", "-1", "5", "9223372036854775807", "-9223372036854775807",
                                                "3000000000"};
                return m_r.pick(literals);
            }
            case 4: return fmt::format("size({})", string(0));
            case 5: {
                const char* const accessors[] = {"getHours()",  "getMinutes()",      "getSeconds()",
                                                 "getDayOfWeek()", "getFullYear()", "getMonth()",
                                                 "getDayOfYear()", "getHours('+05:30')", "getDayOfWeek('America/New_York')"};
                return fmt::format("{}.{}", timestamp(), m_r.pick(accessors));
            }
            case 6: return fmt::format("int({})", real(0));
            default: return m_r.chance(0.5) ? "i1" : "i2";
            }
        }
        const char* const ops[] = {"+", "-", "*", "/", "%"};
        switch (m_r.below(4)) {
        case 0: return fmt::format("-({})", integer(depth - 1));
        case 1: return fmt::format("({} ? {} : {})", boolean(0), integer(depth - 1), integer(depth - 1));
        default: return fmt::format("({} {} {})", integer(depth - 1), m_r.pick(ops), integer(depth - 1));
        }
    }

    std::string real(int depth)
    {
        if (depth <= 0 || m_r.chance(0.4)) {
            switch (m_r.below(5)) {
            case 0:
            case 1: return "d1";
            case 2: return "d2";
            case 3: {
                const char* const literals[] = {"0.0", "1.5", "-2.5", "1e308", "100.0"};
                return m_r.pick(literals);
            }
            default: return fmt::format("double({})", integer(0));
            }
        }
        const char* const ops[] = {"+", "-", "*", "/"};
        switch (m_r.below(4)) {
        case 0: return fmt::format("-({})", real(depth - 1));
        case 1: return fmt::format("({} ? {} : {})", boolean(0), real(depth - 1), real(depth - 1));
        default: return fmt::format("({} {} {})", real(depth - 1), m_r.pick(ops), real(depth - 1));
        }
    }

    std::string stringLiteral()
    {
        const char* const literals[] = {"''",         "'a'",        "'ab'",    "'abc'",
                                        "'é'",        "'日本'",     "'.ru'",   "'US'",
                                        "' '",        "'abcde'",    "'abcdefgh'", "'abcdefghijklmnop'",
                                        "'abcdefghijklmnopq'", "'abcXefgh'"};
        return m_r.pick(literals);
    }

    std::string string(int depth)
    {
        if (depth <= 0 || m_r.chance(0.5)) {
            switch (m_r.below(4)) {
            case 0: return "s1";
            case 1: return "s2";
            case 2: return stringLiteral();
            default: return m_r.chance(0.5) ? "s1" : "s2";
            }
        }
        switch (m_r.below(4)) {
        case 0: return fmt::format("{}.lowerAscii()", string(depth - 1));
        case 1: return fmt::format("{}.upperAscii()", string(depth - 1));
        case 2: return fmt::format("{}.trim()", string(depth - 1));
        default: return fmt::format("({} ? {} : {})", boolean(0), string(depth - 1), string(depth - 1));
        }
    }

    std::string timestamp()
    {
        if (m_r.chance(0.8))
            return "t1";
        const char* const literals[] = {"timestamp('2024-01-06T12:00:00Z')", "timestamp('1969-12-31T23:59:59Z')"};
        return m_r.pick(literals);
    }

    Random m_r;
};

cel::Declarations declarationsFor(const std::vector<Field>& fields)
{
    cel::Declarations decls;
    for (const Field& f : fields)
        EXPECT_TRUE(decls.add(f.name, celType(f.type)));
    return decls;
}

std::string recordText(const Dataset& data, std::size_t row)
{
    std::string text;
    for (std::size_t c = 0; c < data.columnCount(); ++c) {
        const cel::Value& v = data.value(row, c);
        text += fmt::format("{}{} = {}", c ? ", " : "", data.schema().fields[c].name,
                            v.isError() ? std::string("(missing)") : cel::toDebugString(v));
    }
    return text;
}

struct Tally {
    std::size_t rows = 0, decided = 0, deferred = 0, interpreterBools = 0;
};

// Every row of `data` through the batch program and through the interpreter: a row the batch decides must
// have that bool as the interpreter's value (so an interpreter error is always deferred).
void compareRows(const cel::Program& program, const cel::BatchProgram& batch, const Dataset& data, Tally& tally)
{
    std::vector<const cel::Value*> columns(data.columnCount());
    for (std::size_t c = 0; c < data.columnCount(); ++c)
        columns[c] = data.column(c).data();
    cel::BatchScratch scratch;
    cel::EvalContext ctx;
    std::vector<cel::Value> slots(data.columnCount());
    std::uint8_t out[cel::kBatchRows];
    for (std::size_t first = 0; first < data.rowCount(); first += cel::kBatchRows) {
        const std::size_t rows = std::min(cel::kBatchRows, data.rowCount() - first);
        batch.eval(columns, first, rows, scratch, out);
        for (std::size_t i = 0; i < rows; ++i) {
            const std::size_t row = first + i;
            for (std::size_t c = 0; c < data.columnCount(); ++c)
                slots[c] = data.value(row, c);
            const cel::Value v = program.eval(cel::Activation{slots}, ctx);
            ++tally.rows;
            tally.interpreterBools += v.isBool() ? 1 : 0;
            ASSERT_TRUE(out[i] == cel::kBatchTrue || out[i] == cel::kBatchFalse || out[i] == cel::kBatchDefer);
            if (out[i] == cel::kBatchDefer) {
                ++tally.deferred;
                continue;
            }
            ++tally.decided;
            ASSERT_TRUE(v.isBool() && v.asBool() == (out[i] == cel::kBatchTrue))
                << program.source() << "\n  record " << row << ": " << recordText(data, row)
                << "\n  interpreter: " << cel::toDebugString(v)
                << "\n  batch: " << (out[i] == cel::kBatchTrue ? "true" : "false");
        }
    }
}

TEST(BatchEval, RandomExpressionsAgreeWithTheInterpreterRowByRow)
{
    const Dataset data = randomDataset(20261129, 1300); // not a multiple of the batch: a partial last batch
    const cel::Declarations decls = declarationsFor(kFields);
    ExpressionGenerator gen(7);
    std::size_t compiled = 0, batched = 0;
    Tally tally;
    for (int e = 0; e < 600; ++e) {
        const std::string source = gen.boolean(1 + e % 4);
        auto program = cel::compile(source, decls);
        if (!program) {
            if (std::getenv("BATCH_DEBUG"))
                fmt::print("{}: {}\n", source, program.error().diagnostics.at(0).message);
            continue;
        }
        ++compiled;
        const auto batch = cel::BatchProgram::build(*program, decls);
        if (!batch)
            continue;
        ++batched;
        compareRows(*program, *batch, data, tally);
        if (testing::Test::HasFatalFailure())
            return;
    }
    // The generator writes the subset, and most rows are decided by the batch itself: otherwise this would compare the interpreter with itself.
    if (std::getenv("BATCH_DEBUG"))
        fmt::print("{} compiled, {} batched; rows {} decided {} deferred {}\n", compiled, batched, tally.rows,
                   tally.decided, tally.deferred);
    EXPECT_GT(compiled, 550u);
    EXPECT_GT(batched, compiled * 8 / 10) << batched << " of " << compiled;
    EXPECT_GT(tally.decided, tally.rows / 2) << tally.decided << " of " << tally.rows << " rows decided";
    EXPECT_GT(tally.deferred, 0u);
}

TEST(BatchEval, OutsideTheSubsetIsLeftToTheInterpreter)
{
    const cel::Declarations decls = declarationsFor(kFields);
    for (const char* source : {"[i1, i2].exists(x, x > 3)", "s1 + s2 == 'ab'", "{'a': 1}[s1] == 1", "i1 < d1",
                               "s1 in [s2]", "type(i1) == int"}) {
        auto program = cel::compile(source, decls);
        ASSERT_TRUE(program) << source;
        EXPECT_FALSE(cel::BatchProgram::build(*program, decls)) << source;
    }
    for (const char* source : {"i1 > 3 && s1 == 'a'", "t1.getDayOfWeek() in [0, 6]", "d1 * 1.2 > 3000.0"}) {
        auto program = cel::compile(source, decls);
        ASSERT_TRUE(program) << source;
        EXPECT_TRUE(cel::BatchProgram::build(*program, decls)) << source;
    }
}

// ---- whole evaluations: batches vs the interpreter ----------------------------------------------------------

void expectSameEvaluation(const Evaluation& a, const Evaluation& b, const std::string& what)
{
    ASSERT_EQ(a.records.size(), b.records.size()) << what;
    for (std::size_t row = 0; row < a.records.size(); ++row) {
        const RecordOutcome &x = a.records[row], &y = b.records[row];
        ASSERT_TRUE(x.rule == y.rule && x.decision == y.decision && x.errors == y.errors && x.score == y.score)
            << what << ": record " << row << ": rule " << x.rule << " vs " << y.rule << ", errors " << x.errors
            << " vs " << y.errors;
    }
    ASSERT_EQ(a.rules.size(), b.rules.size()) << what;
    for (std::size_t k = 0; k < a.rules.size(); ++k) {
        const RuleStats &x = a.rules[k], &y = b.rules[k];
        EXPECT_EQ(x.hits, y.hits) << what << ": rule " << k;
        EXPECT_EQ(x.decided, y.decided) << what << ": rule " << k;
        EXPECT_EQ(x.errors, y.errors) << what << ": rule " << k;
        EXPECT_EQ(x.firstError, y.firstError) << what << ": rule " << k;
        EXPECT_EQ(x.firstErrorRow, y.firstErrorRow) << what << ": rule " << k;
        EXPECT_EQ(x.shadowedBy, y.shadowedBy) << what << ": rule " << k;
    }
    EXPECT_EQ(a.decisionCounts, b.decisionCounts) << what;
    EXPECT_EQ(a.recordsWithErrors, b.recordsWithErrors) << what;
    EXPECT_EQ(a.conditionsEvaluated, b.conditionsEvaluated) << what;
}

void compareEvaluations(const CompiledRuleSet& rs, const Dataset& data, const std::string& what)
{
    for (const bool allRules : {true, false}) {
        for (const unsigned threads : {1u, 2u}) {
            EvalOptions batched;
            batched.allRules = allRules;
            batched.threads = threads;
            batched.chunk = 1000; // chunks that are not whole batches
            EvalOptions scalar = batched;
            scalar.batch = false;
            auto a = evaluate(rs, data, batched);
            auto b = evaluate(rs, data, scalar);
            ASSERT_TRUE(a && b) << what;
            expectSameEvaluation(*a, *b, fmt::format("{} (all rules: {}, threads: {})", what, allRules, threads));
        }
    }
}

// The demo transactions with some cells blanked: missing values in every non-string column, empty strings.
std::string demoCsvWithHoles(std::uint64_t rows, std::uint64_t seed)
{
    Random r(seed);
    std::istringstream in(demoTransactionsCsv(rows, seed));
    std::string out, line;
    bool header = true;
    while (std::getline(in, line)) {
        if (!header) {
            std::vector<std::string> cells;
            std::stringstream fields(line);
            for (std::string cell; std::getline(fields, cell, ',');)
                cells.push_back(cell);
            for (std::size_t c = 1; c < cells.size(); ++c) {
                if (r.chance(0.04))
                    cells[c].clear();
            }
            line.clear();
            for (std::size_t c = 0; c < cells.size(); ++c)
                line += (c ? "," : "") + cells[c];
        }
        header = false;
        out += line + "\n";
    }
    return out;
}

TEST(BatchEval, DemoRuleSetsEvaluateAsWithTheInterpreter)
{
    for (const bool holes : {false, true}) {
        const std::string csv = holes ? demoCsvWithHoles(6000, 5) : demoTransactionsCsv(6000, 5);
        for (const char* name : {"current.yaml", "variant_a.yaml", "variant_b.yaml", "current.yaml:max_score"}) {
            const std::string file = std::string(name).substr(0, std::string(name).find(':'));
            std::string text = readFile(kDemo / "rules" / file);
            if (std::string(name).ends_with(":max_score"))
                text.replace(text.find("strategy: first_match"), 21, "strategy: max_score");
            const ParsedRuleSet parsed = parseRuleSet(text, file);
            ASSERT_FALSE(parsed.hasErrors()) << name;
            ReadOptions o;
            o.declared = parsed.ruleSet.declaredFields();
            auto data = readDatasetText(csv, "demo.csv", o);
            ASSERT_TRUE(data) << data.error().message;
            auto compiled = compileRuleSet(parsed.ruleSet, &data->schema());
            ASSERT_TRUE(compiled.compiled) << name;
            // Every demo condition is in the subset (else this would not test the batches).
            for (const auto& rule : compiled.compiled->rules) {
                ASSERT_TRUE(rule.program);
                EXPECT_TRUE(cel::BatchProgram::build(*rule.program, compiled.compiled->declarations))
                    << name << ": " << rule.program->source();
            }
            compareEvaluations(*compiled.compiled, *data, fmt::format("{}{}", name, holes ? " with holes" : ""));
            if (holes) {
                auto ev = evaluate(*compiled.compiled, *data);
                ASSERT_TRUE(ev);
                EXPECT_GT(ev->recordsWithErrors, 0) << name; // the holes do reach the conditions
            }
        }
    }
}

TEST(BatchEval, RandomRuleSetsEvaluateAsWithTheInterpreter)
{
    const Dataset data = randomDataset(99, 2100);
    ExpressionGenerator gen(31);
    for (const char* strategy : {"first_match", "max_score"}) {
        std::string yaml = fmt::format("name: random\nstrategy: {}\ndefault:\n  decision: allow\n  score: 0\nfields:\n",
                                       strategy);
        for (const Field& f : kFields)
            yaml += fmt::format("  {}: {}\n", f.name, toString(f.type));
        yaml += "rules:\n";
        const cel::Declarations decls = declarationsFor(kFields);
        int written = 0;
        for (int k = 0; written < 30; ++k) {
            const std::string when = gen.boolean(1 + k % 3);
            if (!cel::compile(when, decls))
                continue;
            yaml += fmt::format("  - id: r{}\n    when: \"{}\"\n    decision: {}\n    score: {}\n", written, when,
                                written % 3 ? "review" : "block", (written * 37) % 100);
            ++written;
        }
        const ParsedRuleSet parsed = parseRuleSet(yaml, "random.yaml");
        ASSERT_FALSE(parsed.hasErrors()) << yaml;
        auto compiled = compileRuleSet(parsed.ruleSet, &data.schema());
        ASSERT_TRUE(compiled.compiled) << yaml;
        compareEvaluations(*compiled.compiled, data, strategy);
    }
}

} // namespace
} // namespace sb::rules
