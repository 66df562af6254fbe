// sandbench data import | list | show | generate

#include "command_line.h"
#include "commands.h"

#include <iostream>
#include <memory>

namespace sb::cli {

void addDataCommands(CommandLine& commandLine)
{
    auto data = std::make_shared<DataOptions>();
    auto* dataCmd = commandLine.app().add_subcommand(
        "data", "Datasets: import CSV / JSON Lines files as immutable snapshots in the store, list and show them, "
                "generate synthetic card transactions");
    dataCmd->require_subcommand(1);
    auto* dataImportCmd = dataCmd->add_subcommand(
        "import", "Import a .csv / .jsonl / .ndjson file as a snapshot (optionally sampled) under a name");
    dataImportCmd->add_option("file", data->file, "The file to import")->required();
    dataImportCmd->add_option("--name", data->name, "The snapshot's name (letters, digits, _ - .)")->required();
    dataImportCmd->add_option("--sample", data->sample, "Keep each record with this probability (0 < RATIO <= 1)")
        ->check(CLI::Range(0.0, 1.0));
    dataImportCmd->add_option("--max-rows", data->maxRows, "Keep at most N records")->check(CLI::PositiveNumber);
    dataImportCmd->add_option("--seed", data->seed, "Seed of the sampling: the same seed keeps the same records");
    dataImportCmd->add_option("--id-column", data->idColumn, "The column that identifies records (default: id)");
    dataImportCmd->add_option("--field", data->fields, "A column's type, NAME:TYPE (else inferred)");
    dataImportCmd->add_option("--on-bad-row", data->onBadRow,
                              "A record that cannot be read: fail (default) names it and stops; skip counts and "
                              "reports it")
        ->check(CLI::IsMember({"fail", "skip"}));
    auto* dataListCmd = dataCmd->add_subcommand("list", "The stored datasets");
    auto* dataShowCmd = dataCmd->add_subcommand("show", "A stored dataset: schema, rows, hash, where it came from");
    dataShowCmd->add_option("name", data->name, "The dataset's name")->required();
    auto* dataGenerateCmd = dataCmd->add_subcommand(
        "generate", "Write synthetic card transactions with a fraud label (deterministic) as CSV");
    dataGenerateCmd->add_option("out", data->file, "The CSV file to write, or - for standard output")->required();
    dataGenerateCmd->add_option("--rows", data->rows, "How many transactions")->required()->check(CLI::NonNegativeNumber);
    auto* generateSeed = dataGenerateCmd->add_option("--seed", data->seed, "Seed (default: the demo's)");
    addJsonFlag(dataGenerateCmd, data->json);
    for (auto* sub : {dataImportCmd, dataListCmd, dataShowCmd}) {
        addJsonFlag(sub, data->json);
        addStoreOption(sub, data->store);
    }

    commandLine.onParsed(dataCmd, [data, dataImportCmd, dataListCmd, dataShowCmd, generateSeed] {
        data->action = dataImportCmd->parsed() ? "import"
                       : dataListCmd->parsed() ? "list"
                       : dataShowCmd->parsed() ? "show"
                                               : "generate";
        data->seedGiven = generateSeed->count() > 0;
        return dataCommand(*data);
    });
}

} // namespace sb::cli
