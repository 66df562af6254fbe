#include "usecases/dataset_source.h"

#include "sandboxes/sandbox_engine.h"
#include "util/printable.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace sb {

Result<std::vector<rules::Field>> parseFieldFlags(const std::vector<std::string>& flags)
{
    std::vector<rules::Field> out;
    for (const auto& flag : flags) {
        const auto colon = flag.rfind(':');
        const auto type =
            colon == std::string::npos ? std::nullopt : rules::fieldTypeFromString(flag.substr(colon + 1));
        if (colon == std::string::npos || colon == 0 || !type)
            return fail(fmt::format("--field {}: expected NAME:TYPE, TYPE one of int, double, bool, string, timestamp",
                                    printable(flag)));
        out.push_back(rules::Field{flag.substr(0, colon), *type});
    }
    return out;
}

Result<std::vector<rules::Field>> declaredFields(const std::vector<DeclaringRuleSet>& ruleSets,
                                                 const std::vector<std::string>& flags)
{
    auto fromFlags = parseFieldFlags(flags);
    if (!fromFlags)
        return std::unexpected(fromFlags.error());
    std::vector<rules::Field> out = *fromFlags;
    std::vector<std::string> origin(out.size(), "--field");
    for (const DeclaringRuleSet& rs : ruleSets) {
        for (const auto& decl : rs.ruleSet->fields) {
            const auto it =
                std::find_if(out.begin(), out.end(), [&](const rules::Field& f) { return f.name == decl.field.name; });
            if (it == out.end()) {
                out.push_back(decl.field);
                origin.push_back(rs.origin);
                continue;
            }
            if (it->type != decl.field.type)
                return fail(fmt::format("{}:{}:{}: error: field '{}' is declared {} here but {} in {}", rs.origin,
                                        decl.pos.line, decl.pos.column, decl.field.name,
                                        rules::toString(decl.field.type), rules::toString(it->type),
                                        origin[static_cast<std::size_t>(it - out.begin())]));
        }
    }
    return out;
}

Result<rules::BadRowPolicy> badRowPolicy(const std::string& text)
{
    if (text == "fail")
        return rules::BadRowPolicy::Fail;
    if (text == "skip")
        return rules::BadRowPolicy::Skip;
    return fail("--on-bad-row: expected skip or fail");
}

namespace {

// The request names a file: read it.
Result<ResolvedDataset> readFile(const DatasetRequest& request)
{
    auto reading = fileReading(request);
    if (!reading)
        return std::unexpected(reading.error());
    ResolvedDataset out;
    auto data = reading->folder ? rules::readDataFolder(*reading->folder, reading->options, request.data, &out.report)
                                : rules::readDataset(reading->path, reading->options, &out.report);
    if (!data)
        return std::unexpected(data.error());
    out.data = std::move(*data);
    out.folder = reading->folder.has_value();
    return out;
}

struct SnapshotChoice {
    std::string snapshot;       // the store's snapshot to read
    std::string expectedSha256; // empty: any
};

// Within a sandbox, a name is one of its dataset references: the snapshot it was given (or sampled for it).
Result<SnapshotChoice> chooseSnapshot(Store& store, const DatasetRequest& request)
{
    SnapshotChoice out{request.data, {}};
    if (request.sandbox.empty())
        return out;
    auto engine = SandboxEngine::open(store);
    if (!engine)
        return std::unexpected(engine.error());
    auto sandbox = (*engine)->sandbox(request.sandbox);
    if (!sandbox)
        return std::unexpected(sandbox.error());
    const auto ref = std::find_if(sandbox->datasets.begin(), sandbox->datasets.end(),
                                  [&](const DatasetRef& r) { return r.name == request.data; });
    if (ref != sandbox->datasets.end())
        return SnapshotChoice{ref->snapshot, ref->sha256};
    if (request.storeIfNotReferenced)
        return out;
    std::string names;
    for (const auto& r : sandbox->datasets)
        names += (names.empty() ? "" : ", ") + r.name;
    return fail(fmt::format("sandbox '{}' has no dataset '{}' ({}; see: sandbench sandbox set {} --dataset NAME)",
                            request.sandbox, printable(request.data),
                            names.empty() ? "it refers to none" : "its datasets: " + names, request.sandbox));
}

// The request names a stored snapshot: read it from the store.
Result<ResolvedDataset> readSnapshot(const DatasetRequest& request, const StoreOpener& openStore)
{
    if (!rules::isValidDatasetName(request.data))
        return fail(fmt::format("{}: no such file, and not a dataset name", printable(request.data)));
    auto store = openStore();
    if (!store)
        return std::unexpected(store.error());
    auto choice = chooseSnapshot(*store, request);
    if (!choice)
        return std::unexpected(choice.error());
    const std::string& expected = choice->expectedSha256;
    rules::DatasetInfo info;
    auto data = rules::loadDataset(*store, choice->snapshot, &info);
    if (data && !expected.empty() && info.sha256 != expected)
        return fail(fmt::format("sandbox '{}' refers to dataset {} with SHA-256 {}, but the store's snapshot of that "
                                "name is {}",
                                request.sandbox, choice->snapshot, expected, info.sha256));
    if (!data && !expected.empty())
        return fail(fmt::format("sandbox '{}': dataset '{}' (snapshot {}): {}", request.sandbox,
                                printable(request.data), choice->snapshot, data.error().message));
    if (!data) {
        if (auto found = rules::findDataset(*store, request.data); found && !*found)
            return fail(fmt::format("{}: no such file, and no dataset of that name in store {} (see: sandbench "
                                    "data list)",
                                    printable(request.data), printable(store->path().string())));
        return std::unexpected(data.error());
    }
    if (auto ok = data->adaptTo(request.declared); !ok)
        return std::unexpected(ok.error());
    if (!request.idColumn.empty() && data->idColumn() >= 0
        && data->schema().fields[static_cast<std::size_t>(data->idColumn())].name != request.idColumn)
        return fail(fmt::format("dataset {} identifies records by '{}', fixed at import; --id-column applies to "
                                "files",
                                info.name, info.idColumn));
    ResolvedDataset out;
    out.data = std::move(*data);
    out.report.records = info.rows;
    out.report.kept = info.rows;
    out.stored = std::move(info);
    return out;
}

} // namespace

bool namesDataFile(const std::string& data)
{
    std::error_code ec;
    const std::filesystem::path path(data);
    return std::filesystem::exists(path, ec) || rules::formatForPath(path) || data.find('/') != std::string::npos;
}

Result<FileReading> fileReading(const DatasetRequest& request)
{
    const std::filesystem::path path(request.data);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return fail(fmt::format("{}: no such file", printable(request.data)));
    std::optional<rules::DataFolder> folder;
    if (std::filesystem::is_directory(path, ec)) {
        auto listed = rules::listDataFolder(path);
        if (!listed)
            return std::unexpected(listed.error());
        folder = std::move(*listed);
    }
    const auto format = folder ? std::optional(folder->format) : rules::formatForPath(path);
    if (!format)
        return fail(fmt::format("{}: unknown data format (expected a .csv, .jsonl or .ndjson file, a folder of "
                                "them, or the name of a stored dataset)",
                                printable(request.data)));
    auto policy = badRowPolicy(request.onBadRow);
    if (!policy)
        return std::unexpected(policy.error());
    FileReading out;
    out.path = path;
    out.folder = std::move(folder);
    out.options.format = *format;
    out.options.declared = request.declared;
    out.options.idColumn = request.idColumn;
    out.options.onBadRow = *policy;
    out.options.cancel = request.cancel;
    out.options.progress = request.progress;
    return out;
}

Result<ResolvedDataset> resolveDataset(const DatasetRequest& request, const StoreOpener& openStore)
{
    return namesDataFile(request.data) ? readFile(request) : readSnapshot(request, openStore);
}

Result<rules::ImportResult> importDatasetFile(const DatasetImport& request, const StoreOpener& openStore)
{
    std::error_code ec;
    if (std::filesystem::is_directory(request.file, ec))
        return fail(fmt::format("{}: a folder: a snapshot is imported from one .csv, .jsonl or .ndjson file (the "
                                "rules commands read a folder's files as one dataset with --data FOLDER)",
                                printable(request.file)));
    const auto format = rules::formatForPath(request.file);
    if (!format)
        return fail(fmt::format("{}: unknown data format (expected .csv, .jsonl or .ndjson)", printable(request.file)));
    auto policy = badRowPolicy(request.onBadRow);
    if (!policy)
        return std::unexpected(policy.error());
    auto flagged = parseFieldFlags(request.fieldFlags);
    if (!flagged)
        return std::unexpected(flagged.error());
    rules::ReadOptions read;
    read.format = *format;
    read.declared = request.declared;
    read.declared.insert(read.declared.end(), flagged->begin(), flagged->end());
    read.idColumn = request.idColumn;
    read.onBadRow = *policy;
    read.sample = request.sample;
    read.seed = request.seed;
    read.maxRows = request.maxRows;
    read.cancel = request.cancel;
    read.progress = request.progress;
    auto store = openStore();
    if (!store)
        return std::unexpected(store.error());
    return rules::importDataset(*store, request.file, request.name, read);
}

Result<std::vector<std::string>> storedDatasetNames(const Store& store)
{
    auto list = rules::listDatasets(store);
    if (!list)
        return std::unexpected(list.error());
    std::vector<std::string> names;
    names.reserve(list->size());
    for (const auto& info : *list)
        names.push_back(info.name);
    return names;
}

} // namespace sb
