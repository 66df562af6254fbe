#include "usecases/sandbox_datasets.h"

#include "rules/dataset_store.h"

#include <fmt/format.h>

#include <cmath>

namespace sb {

Result<DatasetRef> datasetReference(const Store& store, const std::string& name)
{
    auto found = rules::findDataset(store, name);
    if (!found)
        return std::unexpected(found.error());
    if (!*found)
        return fail(fmt::format("no dataset named '{}' in store {} (see: sandbench data list)", name,
                                store.path().string()));
    DatasetRef ref;
    ref.name = name;
    ref.snapshot = name;
    ref.sha256 = (*found)->sha256;
    return ref;
}

Result<DatasetRef> sampledDatasetReference(Store& store, const std::string& sandbox, const std::string& name,
                                           double ratio, std::uint64_t seed, std::vector<std::string>& made)
{
    auto base = datasetReference(store, name);
    if (!base)
        return base;
    DatasetRef ref = *base;
    ref.snapshot = fmt::format("{}.{}", sandbox, name);
    ref.sampled = true;
    ref.sample = ratio;
    ref.seed = seed;
    auto existing = rules::findDataset(store, ref.snapshot);
    if (!existing)
        return std::unexpected(existing.error());
    if (*existing) {
        auto from = rules::findDataset(store, name);
        if (!from)
            return std::unexpected(from.error());
        const double expectedRatio = (*from) ? (*from)->sampleRatio * ratio : -1.0;
        if ((*existing)->seed != seed || (*existing)->source != fmt::format("dataset {}", name)
            || std::abs((*existing)->sampleRatio - expectedRatio) > 1e-12)
            return fail(fmt::format("a dataset named '{}' exists already and is not this sample of '{}'", ref.snapshot,
                                    name));
        ref.sha256 = (*existing)->sha256;
        return ref;
    }
    auto sampled = rules::sampleDataset(store, name, ref.snapshot, ratio, seed);
    if (!sampled)
        return std::unexpected(sampled.error());
    made.push_back(ref.snapshot);
    ref.sha256 = sampled->sha256;
    return ref;
}

void removeSampledForUncreated(Store& store, const std::string& sandbox, const std::vector<std::string>& made)
{
    for (const auto& name : made)
        (void)rules::removeDataset(store, name, fmt::format("sandbox '{}' was not created", sandbox));
}

} // namespace sb
