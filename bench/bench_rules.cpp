// Rule sets end to end, as `sandbench rules eval|impact|ab` run them: read a CSV of card transactions (the
// demo generator's, 1 M rows by default), evaluate the demo's current rule set (records × rules per second, on
// one thread and on every core), the impact of variant A against it with the fraud label (read, evaluate
// both, compare), and the A/B of variants A and B (read, evaluate three rule sets, two impacts). Wall time of
// each phase, best of ROUNDS, with the process's CPU time beside it (which holds on a busy machine where wall
// time does not), and the peak resident memory. A report, not a test. The JavaScript and DuckDB peers of
// PRODUCT.md are run separately (see bench/README.md). Then a rule set of many rules: reading and checking a
// generated 40 000-rule file (rules::generatedRuleSetYaml, just under the 4 MiB cap), as `rules check` does,
// and evaluating it on the first 10 000 records with every rule's hits and shadowing (as `rules check --data`).
//
//   bench_rules [ROWS=1000000] [ROUNDS=3] [CSV]     (without CSV, the demo data is generated to a temp file)
//   BENCH_READ_THREADS=1 bench_rules ...           (read the CSV on one thread; default: one per core)

#include "rules/dataset.h"
#include "rules/demo_data.h"
#include "rules/evaluate.h"
#include "rules/ruleset.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace rules = sb::rules;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double cpuSeconds(clockid_t clock)
{
    timespec ts{};
    ::clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

[[noreturn]] void die(const std::string& message)
{
    std::fprintf(stderr, "bench_rules: %s\n", message.c_str());
    std::exit(1);
}

struct Loaded {
    std::unique_ptr<rules::ParsedRuleSet> parsed;
    std::string name;
};

Loaded loadRules(const fs::path& path)
{
    auto parsed = rules::loadRuleSetFile(path);
    if (!parsed || parsed->hasErrors())
        die("cannot read " + path.string());
    return {std::make_unique<rules::ParsedRuleSet>(std::move(*parsed)), path.stem().string()};
}

std::vector<rules::Field> declaredOf(const std::vector<Loaded>& sets)
{
    std::vector<rules::Field> out;
    for (const auto& s : sets) {
        for (const auto& f : s.parsed->ruleSet.fields) {
            if (std::none_of(out.begin(), out.end(), [&](const rules::Field& g) { return g.name == f.field.name; }))
                out.push_back(f.field);
        }
    }
    return out;
}

rules::Dataset read(const fs::path& csv, const std::vector<rules::Field>& declared)
{
    rules::ReadOptions o;
    o.declared = declared;
    if (const char* threads = std::getenv("BENCH_READ_THREADS"))
        o.threads = static_cast<unsigned>(std::atoi(threads));
    auto d = rules::readDataset(csv, o);
    if (!d)
        die(d.error().message);
    return std::move(*d);
}

rules::CompiledRuleSet compile(const Loaded& l, const rules::Dataset& data)
{
    auto c = rules::compileRuleSet(l.parsed->ruleSet, &data.schema());
    if (!c.compiled)
        die("cannot compile " + l.name);
    return std::move(*c.compiled);
}

rules::Evaluation evaluate(const rules::CompiledRuleSet& rs, const rules::Dataset& data, unsigned threads, bool all)
{
    rules::EvalOptions o;
    o.threads = threads;
    o.allRules = all;
    auto ev = rules::evaluate(rs, data, o);
    if (!ev)
        die(ev.error().message);
    return std::move(*ev);
}

struct Best {
    double wall = 1e300;
    double cpu = 1e300;
    void add(double w, double c)
    {
        wall = std::min(wall, w);
        cpu = std::min(cpu, c);
    }
};

} // namespace

int main(int argc, char** argv)
{
    const std::uint64_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
    const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    fs::path csv = argc > 3 ? fs::path(argv[3]) : fs::path();
    fs::path generated;
    if (csv.empty()) {
        generated = fs::temp_directory_path() / ("sandbench-bench-rules-" + std::to_string(::getpid()) + ".csv");
        std::ofstream out(generated, std::ios::binary);
        rules::writeDemoTransactions(out, rows, rules::kDemoSeed);
        out.close();
        if (!out)
            die("cannot write " + generated.string());
        csv = generated;
    }
    const fs::path demo = SANDBENCH_DEMO_DIR;
    std::vector<Loaded> sets;
    for (const char* name : {"current.yaml", "variant_a.yaml", "variant_b.yaml"})
        sets.push_back(loadRules(demo / "rules" / name));
    const auto declared = declaredOf(sets);
    const rules::ImpactOptions labels{"is_fraud", "amount"};
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());

    constexpr std::size_t kManyRules = 40000;
    const fs::path manyRules =
        fs::temp_directory_path() / ("sandbench-bench-rules-" + std::to_string(::getpid()) + "-many.yaml");
    {
        std::ofstream out(manyRules, std::ios::binary);
        out << rules::generatedRuleSetYaml(kManyRules);
        if (!out)
            die("cannot write " + manyRules.string());
    }

    Best readBest, eval1, evalAll, impactBest, abBest, manyCheck, manyEval;
    double rate1 = 0, rateAll = 0;
    std::size_t records = 0, conditions = 0, ruleCount = 0;
    std::int64_t affected = 0;
    const double fileMb = static_cast<double>(fs::file_size(csv)) / (1024.0 * 1024.0);

    for (int round = 0; round < rounds; ++round) {
        // Read alone.
        {
            const auto t = Clock::now();
            const double c = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
            const rules::Dataset data = read(csv, declared);
            readBest.add(seconds(t), cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - c);
            records = data.rowCount();

            // Evaluation alone: every rule on every record, one thread (its CPU time) and every core.
            const rules::CompiledRuleSet current = compile(sets[0], data);
            ruleCount = std::count_if(current.rules.begin(), current.rules.end(),
                                      [](const rules::CompiledRule& r) { return r.enabled; });
            const double t1 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
            const auto w1 = Clock::now();
            const rules::Evaluation one = evaluate(current, data, 1, true);
            eval1.add(seconds(w1), cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - t1);
            conditions = static_cast<std::size_t>(one.conditionsEvaluated);
            const auto wa = Clock::now();
            const double ca = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
            (void)evaluate(current, data, cores, true);
            evalAll.add(seconds(wa), cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - ca);
        }
        // Impact end to end: read, evaluate baseline and candidate, compare with the label.
        {
            const auto t = Clock::now();
            const double c = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
            const rules::Dataset data = read(csv, declared);
            const auto base = compile(sets[0], data);
            const auto cand = compile(sets[1], data);
            const auto be = evaluate(base, data, cores, false);
            const auto ce = evaluate(cand, data, cores, false);
            auto impact = rules::computeImpact(base, be, cand, ce, data, labels);
            if (!impact)
                die(impact.error().message);
            affected = impact->affected;
            impactBest.add(seconds(t), cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - c);
        }
        // A/B of two variants end to end: read, evaluate three rule sets, two impacts.
        {
            const auto t = Clock::now();
            const double c = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
            const rules::Dataset data = read(csv, declared);
            const auto base = compile(sets[0], data);
            const auto be = evaluate(base, data, cores, false);
            for (std::size_t v = 1; v < sets.size(); ++v) {
                const auto cand = compile(sets[v], data);
                const auto ce = evaluate(cand, data, cores, false);
                if (!rules::computeImpact(base, be, cand, ce, data, labels))
                    die("impact failed");
            }
            abBest.add(seconds(t), cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - c);
        }
    }
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    const double peakMb = static_cast<double>(usage.ru_maxrss) / 1024.0; // of the phases above

    for (int round = 0; round < rounds; ++round) {
        // Many rules: read and check (parse, compile every condition), then every rule on a slice of the data.
        const auto t = Clock::now();
        const double c = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
        const Loaded many = loadRules(manyRules);
        if (!rules::compileRuleSet(many.parsed->ruleSet, nullptr).compiled)
            die("cannot compile " + manyRules.string());
        manyCheck.add(seconds(t), cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - c);
        rules::ReadOptions slice;
        slice.maxRows = 10000;
        auto data = rules::readDataset(csv, slice);
        if (!data)
            die(data.error().message);
        const auto w = Clock::now();
        const double cw = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
        const auto compiled = compile(many, *data);
        (void)evaluate(compiled, *data, cores, true);
        manyEval.add(seconds(w), cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cw);
    }
    fs::remove(manyRules);
    rate1 = static_cast<double>(conditions) / eval1.cpu;
    rateAll = static_cast<double>(conditions) / evalAll.wall;

    std::printf("data: %zu records, %.1f MiB CSV; %zu enabled rules in current.yaml; best of %d\n", records, fileMb,
                ruleCount, rounds);
    std::printf("read CSV (typed by the rule sets' fields):   %7.3f s wall  %7.3f s CPU  (%.0f MiB/s)\n", readBest.wall,
                readBest.cpu, fileMb / readBest.wall);
    std::printf("eval current, 1 thread:                       %7.3f s wall  %7.3f s CPU  %6.1f M records x rules/s "
                "(per CPU second)\n",
                eval1.wall, eval1.cpu, rate1 / 1e6);
    std::printf("eval current, %u threads:                      %7.3f s wall  %7.3f s CPU  %6.1f M records x rules/s\n",
                cores, evalAll.wall, evalAll.cpu, rateAll / 1e6);
    std::printf("impact current -> variant_a, end to end:      %7.3f s wall  %7.3f s CPU  (%lld affected)\n",
                impactBest.wall, impactBest.cpu, static_cast<long long>(affected));
    std::printf("A/B current vs variant_a, variant_b, e2e:     %7.3f s wall  %7.3f s CPU\n", abBest.wall, abBest.cpu);
    std::printf("check %zu rules (read, parse, compile):     %7.3f s wall  %7.3f s CPU\n", kManyRules,
                manyCheck.wall, manyCheck.cpu);
    std::printf("eval %zu rules, every rule, 10000 records:  %7.3f s wall  %7.3f s CPU\n", kManyRules, manyEval.wall,
                manyEval.cpu);
    std::printf("peak resident memory: %.0f MiB\n", peakMb);
    std::printf(
        "{\"bench\":\"rules\",\"records\":%zu,\"csv_mib\":%.1f,\"rules\":%zu,\"read_s\":%.4f,\"read_cpu_s\":%.4f,"
        "\"eval1_records_x_rules_per_cpu_s\":%.0f,\"eval_all_records_x_rules_per_s\":%.0f,\"threads\":%u,"
        "\"impact_e2e_s\":%.4f,\"impact_e2e_cpu_s\":%.4f,\"ab3_e2e_s\":%.4f,\"ab3_e2e_cpu_s\":%.4f,"
        "\"check_many_rules\":%zu,\"check_many_s\":%.4f,\"eval_many_10k_s\":%.4f,\"peak_rss_mib\":%.0f}\n",
        records, fileMb, ruleCount, readBest.wall, readBest.cpu, rate1, rateAll, cores, impactBest.wall, impactBest.cpu,
        abBest.wall, abBest.cpu, kManyRules, manyCheck.wall, manyEval.wall, peakMb);
    if (!generated.empty())
        fs::remove(generated);
    return 0;
}
