#pragma once

// Making a sandbox and changing its governance, for every front end: what SandboxEngine is asked, with a
// policy argument turned into the reference the sandbox keeps (usecases/policy_reference.h) and datasets named
// by the person turned into references (usecases/sandbox_datasets.h), sampled when a ratio below 1 is given.
//
// Every named snapshot must exist, and the name be free, before anything is made or recorded; snapshots sampled
// for a sandbox that then is not made are removed again.

#include "sandboxes/sandbox_engine.h"
#include "store/store.h"
#include "util/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sb {

struct SandboxCreation {
    CreateSandboxRequest request;      // all but the policy and the datasets, which are below
    std::string policy;                // a policy file or preset; empty: the source's
    std::vector<std::string> datasets; // stored snapshots, by name
    double sample = 1.0;               // below 1: each dataset sampled for the sandbox, with `seed`
    std::uint64_t seed = 0;
};

Result<CreateSandboxResult> createSandbox(Store& store, SandboxEngine& engine, const SandboxCreation& creation,
                                          const ProgressCallback& progress = {});

struct SandboxChange {
    SandboxSettings settings;          // all but the policy and the datasets to add, which are below
    std::string policy;                // a policy file or preset; "none": no policy; empty: unchanged
    std::vector<std::string> datasets; // stored snapshots to refer to, by name (as they are now)
};

Result<SandboxInfo> changeSandbox(Store& store, SandboxEngine& engine, const SandboxChange& change);

} // namespace sb
