#include "usecases/sandbox_setup.h"

#include "usecases/policy_reference.h"
#include "usecases/sandbox_datasets.h"

#include <fmt/format.h>

namespace sb {

Result<CreateSandboxResult> createSandbox(Store& store, SandboxEngine& engine, const SandboxCreation& creation,
                                          const ProgressCallback& progress)
{
    CreateSandboxRequest request = creation.request;
    const std::string& name = request.name;
    for (const auto& dataset : creation.datasets) {
        if (auto ref = datasetReference(store, dataset); !ref)
            return std::unexpected(ref.error());
    }
    if (auto exists = engine.sandbox(name); exists && name != SandboxEngine::kMain)
        return fail(fmt::format("a sandbox named '{}' exists already", name));
    if (!creation.policy.empty()) {
        auto policy = policyReference(store, creation.policy);
        if (!policy)
            return std::unexpected(policy.error());
        request.policy = *policy;
    }
    std::vector<std::string> sampled; // made for this sandbox: removed again should it not be made
    for (const auto& dataset : creation.datasets) {
        auto ref = creation.sample < 1.0
                       ? sampledDatasetReference(store, name, dataset, creation.sample, creation.seed, sampled)
                       : datasetReference(store, dataset);
        if (!ref) {
            removeSampledForUncreated(store, name, sampled);
            return std::unexpected(ref.error());
        }
        request.datasets.push_back(std::move(*ref));
    }
    auto made = engine.createSandbox(request, progress);
    if (!made)
        removeSampledForUncreated(store, name, sampled);
    return made;
}

Result<SandboxInfo> changeSandbox(Store& store, SandboxEngine& engine, const SandboxChange& change)
{
    SandboxSettings settings = change.settings;
    if (change.policy == "none") {
        settings.policy = std::string();
    } else if (!change.policy.empty()) {
        auto policy = policyReference(store, change.policy);
        if (!policy)
            return std::unexpected(policy.error());
        settings.policy = *policy;
    }
    for (const auto& dataset : change.datasets) {
        auto ref = datasetReference(store, dataset);
        if (!ref)
            return std::unexpected(ref.error());
        settings.addDatasets.push_back(std::move(*ref));
    }
    return engine.setSandbox(settings);
}

} // namespace sb
