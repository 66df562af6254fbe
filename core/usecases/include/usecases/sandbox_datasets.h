#pragma once

// What a sandbox's dataset references are made of, for every front end.
//
// A sandbox given a stored snapshot by name keeps the name, the snapshot and its SHA-256 as they are now. Given
// a sample ratio below 1, it gets a snapshot of its own, SANDBOX.NAME, of the records deterministic sampling
// keeps; made again with the same records it is the same snapshot.

#include "sandboxes/sandbox_engine.h"
#include "store/store.h"
#include "util/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sb {

// The stored snapshot `name` as it is now, by name and content.
Result<DatasetRef> datasetReference(const Store& store, const std::string& name);

// A sampled snapshot of `name` for sandbox `sandbox`, named SANDBOX.NAME so that it shows whose it is. One left
// by an earlier sandbox of this name is reused when its content is what sampling gives now; a snapshot made
// here is added to `made`.
Result<DatasetRef> sampledDatasetReference(Store& store, const std::string& sandbox, const std::string& name,
                                           double ratio, std::uint64_t seed, std::vector<std::string>& made);

// Removes the snapshots sampled for a sandbox that was not created after all.
void removeSampledForUncreated(Store& store, const std::string& sandbox, const std::vector<std::string>& made);

} // namespace sb
