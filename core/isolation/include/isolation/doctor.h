#pragma once

#include "isolation/policy.h"

#include <string>
#include <vector>

namespace sb {

struct LayerStatus {
    std::string name;      // e.g. "seccomp", "landlock", "user_namespaces"
    bool available = false;
    std::string detail;    // what was found, or why not
};

struct DoctorReport {
    std::vector<LayerStatus> layers;
    std::vector<std::pair<IsolationLevel, bool>> levels; // which isolation levels a run can have here
    std::vector<std::string> notes;
};

// Probes this machine and user; never changes anything.
DoctorReport runDoctor();

// The deepest level runs can have here: what a run gets when neither a flag nor its policy names one.
IsolationLevel highestAvailableLevel();

// Why `level` is not available here, naming the missing layer and what to do about it; empty when it is.
std::string whyUnavailable(IsolationLevel level);

} // namespace sb
