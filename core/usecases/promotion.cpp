#include "usecases/promotion.h"

#include "rules/promotion_gate.h"
#include "sandboxes/sandbox_engine.h"

#include <memory>

namespace sb {

Result<std::string> sandboxDataName(const std::string& sandbox, const StoreOpener& openStore)
{
    auto store = openStore();
    if (!store)
        return std::unexpected(store.error());
    auto engine = SandboxEngine::open(*store);
    if (!engine)
        return std::unexpected(engine.error());
    auto info = (*engine)->sandbox(sandbox);
    if (!info)
        return std::unexpected(info.error());
    return info->datasets.empty() ? std::string() : info->datasets.front().name;
}

Result<PreparedPromotion> preparePromotion(PromotionPlan plan, const StoreOpener& openStore)
{
    PreparedPromotion out;
    out.request = std::move(plan.request);
    if (!plan.riskConfig.empty()) {
        auto config = RiskConfig::load(plan.riskConfig);
        if (!config)
            return std::unexpected(config.error());
        out.request.risk = std::move(*config);
    }
    if (plan.data.empty() && plan.sandboxData) {
        auto name = sandboxDataName(out.request.source, openStore);
        if (!name)
            return std::unexpected(name.error());
        plan.data = std::move(*name);
    }
    std::shared_ptr<const rules::Dataset> data;
    if (!plan.data.empty()) {
        out.dataName = plan.data;
        DatasetRequest source;
        source.data = plan.data;
        source.sandbox = out.request.source;
        source.storeIfNotReferenced = true;
        auto loaded = resolveDataset(source, openStore);
        if (!loaded)
            return std::unexpected(loaded.error());
        out.dataSource = loaded->data.source();
        out.dataReport = std::move(loaded->report);
        data = std::make_shared<const rules::Dataset>(std::move(loaded->data));
    }
    out.request.riskInputs.push_back(rules::ruleSetImpactRisk(data));
    out.request.checks.push_back(rules::ruleSetCompatibilityCheck(data));
    return out;
}

bool promotionPasses(const PromotionReport& report)
{
    if (report.status == "applied" || report.status == "up-to-date")
        return true;
    if (report.status == "blocked")
        return false;
    for (const auto& c : report.compatibility) {
        if (!c.ok)
            return false;
    }
    return report.conflicts.empty();
}

} // namespace sb
