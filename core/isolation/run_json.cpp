#include "isolation/run_json.h"

#include "util/message_json.h"

#include <fmt/format.h>

namespace sb {

namespace {

using Json = nlohmann::json;

Json pairsToJson(const auto& items)
{
    Json out = Json::array();
    for (const auto& item : items)
        out.push_back({item.kind, item.detail});
    return out;
}

} // namespace

Json runResultToJson(const RunResult& r)
{
    Json layers = Json::array();
    for (const auto& [name, on] : r.isolation.layers)
        layers.push_back({name, on});
    return {{"run_id", r.runId},
            {"outcome", std::string(toString(r.outcome))},
            {"exit_code", r.exitCode},
            {"signal", r.signal},
            {"stdout", r.stdoutText},
            {"stderr", r.stderrText},
            {"stdout_truncated", r.stdoutTruncated},
            {"stderr_truncated", r.stderrTruncated},
            {"duration_ms", r.durationMs},
            {"cpu_ms", r.cpuMs},
            {"peak_rss_kb", r.peakRssKb},
            {"blocked", pairsToJson(r.blocked)},
            {"claims", pairsToJson(r.claims)},
            {"level", std::string(toString(r.isolation.level))},
            {"layers", layers},
            {"message", messageToJson(r.message)},
            {"started_at_ms", r.startedAtMs}};
}

Result<RunResult> runResultFromJson(const Json& json)
{
    try {
        RunResult r;
        r.runId = json.at("run_id").get<std::string>();
        const auto outcome = outcomeFromString(json.at("outcome").get<std::string>());
        if (!outcome)
            return fail(fmt::format("a run's result: unknown outcome {}", json.at("outcome").dump()));
        r.outcome = *outcome;
        r.exitCode = json.at("exit_code").get<int>();
        r.signal = json.at("signal").get<int>();
        r.stdoutText = json.at("stdout").get<std::string>();
        r.stderrText = json.at("stderr").get<std::string>();
        r.stdoutTruncated = json.at("stdout_truncated").get<bool>();
        r.stderrTruncated = json.at("stderr_truncated").get<bool>();
        r.durationMs = json.at("duration_ms").get<double>();
        r.cpuMs = json.at("cpu_ms").get<double>();
        r.peakRssKb = json.at("peak_rss_kb").get<std::int64_t>();
        for (const auto& b : json.at("blocked"))
            r.blocked.push_back({b.at(0).get<std::string>(), b.at(1).get<std::string>()});
        for (const auto& c : json.at("claims"))
            r.claims.push_back({c.at(0).get<std::string>(), c.at(1).get<std::string>()});
        const auto level = isolationLevelFromString(json.at("level").get<std::string>());
        if (!level)
            return fail(fmt::format("a run's result: unknown isolation level {}", json.at("level").dump()));
        r.isolation.level = *level;
        for (const auto& l : json.at("layers"))
            r.isolation.layers.emplace_back(l.at(0).get<std::string>(), l.at(1).get<bool>());
        auto message = messageFromJson(json.at("message"));
        if (!message)
            return fail("a run's result: its message is not a message");
        r.message = std::move(*message);
        r.startedAtMs = json.at("started_at_ms").get<std::int64_t>();
        return r;
    } catch (const Json::exception& e) {
        return fail(fmt::format("not a run's result: {}", e.what()));
    }
}

} // namespace sb
