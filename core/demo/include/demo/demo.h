#pragma once

#include "isolation/run.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

struct DemoCase {
    std::string name;        // e.g. "import os"
    Language language;
    std::string source;
    std::vector<Outcome> expected; // any of these is right (a fork bomb may end in error or timeout)
    std::int64_t timeoutMs = 2000;
    std::int64_t memoryMb = 256;
};

// What a demo case's run is labelled with, before the case's name ("demo: import os").
inline constexpr std::string_view kDemoCaseLabelPrefix = "demo: ";

// The seed's cases plus a memory bomb and a fork bomb; moves every counter of the dashboard.
const std::vector<DemoCase>& demoCases();
RunRequest demoRequest(const DemoCase& demoCase, const Policy& basePolicy = {});

} // namespace sb
