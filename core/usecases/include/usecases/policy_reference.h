#pragma once

// What a policy argument and a sandbox's policy reference mean, for every front end.
//
// A policy argument (--policy in the command line) names a file, or else one of the built-in presets. A
// sandbox keeps a reference to its policy: "preset:NAME", or "NAME@VERSION" of a policy version in the store.
// A policy that leaves its level open gets the deepest level this machine offers.

#include "isolation/policy.h"
#include "store/store.h"
#include "util/error.h"

#include <string>

namespace sb {

// The policy a file or preset name gives; `namesLevel` says whether it names its level.
Result<Policy> loadPolicyOrPreset(const std::string& nameOrPath, bool& namesLevel);

// What a sandbox keeps of a policy argument: "preset:NAME", or a file's policy recorded in the store's versions
// as "NAME@VERSION". A bad file is refused with the parser's line and field.
Result<std::string> policyReference(Store& store, const std::string& fileOrPreset);

// The policy a sandbox's reference names.
Result<Policy> policyFromReference(const Store& store, const std::string& reference);

} // namespace sb
