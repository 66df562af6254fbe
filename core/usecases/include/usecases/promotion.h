#pragma once

// What a promotion asks of the gate, for every front end.
//
// Every promotion checks that the rule sets in the merged tree parse and compile, and grades every rule set
// it adds or changes. With data (a file, or a stored snapshot; a name the promoted sandbox refers to is its
// snapshot, as `rules impact --sandbox` reads it), every field they read must also be a column of the data,
// and each changed rule set's decisions flipped on it are counted and grade the risk. Without data named, the
// data is the promoted sandbox's first dataset reference, when it has one. A risk config file replaces the
// store's (STORE.d/promotion.yaml) and the defaults.

#include "promotion/promote.h"
#include "rules/dataset.h"
#include "usecases/dataset_source.h"
#include "util/error.h"

#include <string>

namespace sb {

struct PromotionPlan {
    PromotionRequest request; // source, target, mode, output, approval and resolutions as the person chose
    std::string riskConfig;   // a risk config file; empty: the store's, else the defaults
    std::string data;         // empty: the sandbox's dataset (sandboxData), else none
    bool sandboxData = true;  // no data named: the source sandbox's first dataset reference, when it has one
};

struct PreparedPromotion {
    PromotionRequest request;                // with the risk config, the checks and the risk inputs
    // With data: what it was named (by the plan, or the sandbox's reference), where its records came from and
    // how reading them went (the records are the gate's).
    std::string dataName;
    std::string dataSource;
    rules::ReadReport dataReport;
};

// The request the gate runs: the plan's with the rules of a promotion added.
Result<PreparedPromotion> preparePromotion(PromotionPlan plan, const StoreOpener& openStore);

// The name of the data a promotion of `sandbox` is measured on when none is named: its first dataset
// reference; empty when it refers to none.
Result<std::string> sandboxDataName(const std::string& sandbox, const StoreOpener& openStore);

// Whether a report lets the promotion through: applied or nothing to promote; a preview or an export without
// conflicts or failed checks. A blocked promotion does not.
bool promotionPasses(const PromotionReport& report);

} // namespace sb
