#pragma once

// A run's result as JSON, every field of it, read back exactly: how a run that ran on another machine (a Slurm
// node, usecases/batch.h) comes back to be recorded as if it had run here. Reading checks the form: a result
// that is not of it is an error naming the field, never a run that did not happen.

#include "isolation/run.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

namespace sb {

nlohmann::json runResultToJson(const RunResult& result);
Result<RunResult> runResultFromJson(const nlohmann::json& json);

} // namespace sb
