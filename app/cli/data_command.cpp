// sandbench data import | list | show | generate: dataset snapshots in the store, and the synthetic demo data.

#include "commands.h"

#include "report.h"
#include "rules_support.h"

#include "rules/demo_data.h"
#include "util/printable.h"
#include "util/time_text.h"

#include <fmt/format.h>

#include <fstream>
#include <iostream>

namespace sb::cli {

namespace {

namespace rules = sb::rules;

int failure(const DataOptions& o, const std::string& message)
{
    if (o.json)
        std::cout << dumpJson({{"ok", false}, {"error", message}}) << '\n';
    std::cerr << "sandbench: " << message << '\n';
    return kExitFailure;
}

std::string humanSize(std::int64_t bytes)
{
    return humanBytes((bytes + 1023) / 1024);
}

int importCommand(const DataOptions& o)
{
    DatasetImport request;
    request.file = o.file;
    request.name = o.name;
    request.fieldFlags = o.fields;
    request.idColumn = o.idColumn;
    request.onBadRow = o.onBadRow;
    request.sample = o.sample;
    request.seed = o.seed;
    request.maxRows = static_cast<std::uint64_t>(o.maxRows);
    auto imported = importDatasetFile(request, [&o] { return openStore(o.store); });
    if (!imported)
        return failure(o, imported.error().message);
    const rules::DatasetInfo& info = imported->info;
    const rules::ReadReport& report = imported->report;
    if (o.json) {
        OrderedJson out = datasetInfoToJson(info);
        OrderedJson examples = OrderedJson::array();
        for (const auto& bad : report.badRowExamples)
            examples.push_back({{"line", bad.line}, {"message", bad.message}});
        out["records_read"] = report.records;
        out["sampled_out"] = report.sampledOut;
        out["stopped_at_max_rows"] = report.stoppedAtMaxRows;
        out["bad_rows"] = {{"skipped", report.badRows}, {"examples", examples}};
        std::cout << dumpOrderedJson(out) << '\n';
    } else {
        std::cout << fmt::format("imported {} as dataset {}: {} rows, {} columns, sha256 {}\n", printable(o.file),
                                 printable(info.name), info.rows, info.schema.size(), info.sha256);
        if (report.sampledOut > 0 || report.stoppedAtMaxRows)
            std::cout << fmt::format(
                "  read {} records{}{}\n", report.records,
                report.sampledOut
                    ? fmt::format(", {} left out by sampling ({} with seed {})", report.sampledOut, o.sample, o.seed)
                    : "",
                report.stoppedAtMaxRows ? fmt::format(", stopped at --max-rows {}", o.maxRows) : "");
        std::cout << fmt::format("  stored {} ({} uncompressed)\n", humanSize(info.storedSize), humanSize(info.size));
    }
    reportBadRows(o.file, report);
    return 0;
}

int listCommand(const DataOptions& o)
{
    auto store = openStore(o.store);
    if (!store)
        return failure(o, store.error().message);
    auto list = rules::listDatasets(*store);
    if (!list)
        return failure(o, list.error().message);
    if (o.json) {
        OrderedJson out = OrderedJson::array();
        for (const auto& info : *list)
            out.push_back({{"name", info.name},
                           {"rows", info.rows},
                           {"columns", info.schema.size()},
                           {"sha256", info.sha256},
                           {"source", info.source},
                           {"created_at_ms", info.createdAtMs},
                           {"created_at", formatIsoUtc(info.createdAtMs)},
                           {"stored_size", info.storedSize}});
        std::cout << dumpOrderedJson(out) << '\n';
        return 0;
    }
    if (list->empty()) {
        std::cerr << fmt::format("no datasets in {} (see: sandbench data import)\n", printable(store->path().string()));
        return 0;
    }
    std::cout << fmt::format("{:<24} {:>10} {:>8}  {:<12}  {:<19}  {}\n", "name", "rows", "columns", "sha256",
                             "created", "source");
    for (const auto& info : *list)
        std::cout << fmt::format("{:<24} {:>10} {:>8}  {:<12}  {:<19}  {}\n", printable(info.name, 24), info.rows,
                                 info.schema.size(), info.sha256.substr(0, 12), formatTime(info.createdAtMs),
                                 printable(info.source, 60));
    return 0;
}

int showCommand(const DataOptions& o)
{
    auto store = openStore(o.store);
    if (!store)
        return failure(o, store.error().message);
    auto found = rules::findDataset(*store, o.name);
    if (!found)
        return failure(o, found.error().message);
    if (!*found)
        return failure(o, fmt::format("no dataset named '{}' in store {} (see: sandbench data list)", printable(o.name),
                                      printable(store->path().string())));
    const rules::DatasetInfo& info = **found;
    if (o.json) {
        std::cout << dumpOrderedJson(datasetInfoToJson(info)) << '\n';
        return 0;
    }
    std::cout << fmt::format("dataset {}\n", printable(info.name));
    std::cout << fmt::format("  rows      {}\n", info.rows);
    std::cout << fmt::format("  sha256    {}\n", info.sha256);
    std::cout << fmt::format("  created   {}\n", formatTime(info.createdAtMs));
    std::cout << fmt::format("  source    {} ({})\n", printable(info.source), info.sourceFormat);
    if (info.sampleRatio < 1.0)
        std::cout << fmt::format("  sample    {} (seed {})\n", info.sampleRatio, info.seed);
    if (info.maxRows > 0)
        std::cout << fmt::format("  max rows  {}\n", info.maxRows);
    if (info.badRows > 0)
        std::cout << fmt::format("  bad rows  {} skipped at import\n", info.badRows);
    std::cout << fmt::format("  id        {}\n", info.idColumn.empty() ? "(record numbers)" : printable(info.idColumn));
    std::cout << fmt::format("  size      {} stored, {} uncompressed\n", humanSize(info.storedSize),
                             humanSize(info.size));
    std::cout << "  schema\n";
    for (const auto& f : info.schema.fields)
        std::cout << fmt::format("    {:<28} {}\n", printable(f.name, 28), rules::toString(f.type));
    return 0;
}

int generateCommand(const DataOptions& o)
{
    if (o.rows < 0)
        return failure(o, "--rows must not be negative");
    const std::uint64_t seed = o.seedGiven ? o.seed : rules::kDemoSeed;
    if (o.file == "-") {
        rules::writeDemoTransactions(std::cout, static_cast<std::uint64_t>(o.rows), seed);
        std::cout.flush();
        return std::cout ? 0 : kExitFailure;
    }
    std::ofstream out(o.file, std::ios::binary | std::ios::trunc);
    if (!out)
        return failure(o, fmt::format("{}: cannot write", printable(o.file)));
    rules::writeDemoTransactions(out, static_cast<std::uint64_t>(o.rows), seed);
    out.close();
    if (!out)
        return failure(o, fmt::format("{}: cannot write (disk full?)", printable(o.file)));
    std::error_code ec;
    const auto size = std::filesystem::file_size(o.file, ec);
    if (o.json)
        std::cout << dumpJson({{"file", o.file}, {"rows", o.rows}, {"seed", seed}, {"bytes", ec ? 0 : size}}) << '\n';
    else
        std::cerr << fmt::format("wrote {} transactions (seed {}) to {} ({})\n", o.rows, seed, printable(o.file),
                                 humanSize(static_cast<std::int64_t>(ec ? 0 : size)));
    return 0;
}

} // namespace

int dataCommand(const DataOptions& options)
{
    if (options.action == "import")
        return importCommand(options);
    if (options.action == "list")
        return listCommand(options);
    if (options.action == "show")
        return showCommand(options);
    if (options.action == "generate")
        return generateCommand(options);
    return kExitUsage;
}

} // namespace sb::cli
