#include "command_line.h"

#include "commands.h"

#include "sandboxes/sandbox_engine.h"
#include "util/size_text.h"
#include "util/time_text.h"

namespace sb::cli {

void CommandLine::onParsed(CLI::App* command, std::function<int()> run)
{
    m_commands.emplace_back(command, std::move(run));
}

int CommandLine::runParsed() const
{
    for (const auto& [command, run] : m_commands) {
        if (command->parsed())
            return run();
    }
    return kExitUsage;
}

CLI::Option* addStoreOption(CLI::App* command, std::string& store, const std::string& description)
{
    return command->add_option("--store", store, description);
}

CLI::Option* addJsonFlag(CLI::App* command, bool& json, const std::string& description)
{
    return command->add_flag("--json", json, description);
}

const CLI::Validator& sandboxNameValidator()
{
    static const CLI::Validator validator(
        [](std::string& value) {
            auto ok = SandboxEngine::validateName(value);
            return ok ? std::string() : ok.error().message;
        },
        "NAME");
    return validator;
}

const CLI::Validator& durationValidator()
{
    static const CLI::Validator validator(
        [](std::string& value) {
            auto parsed = parseLifetimeMs(value);
            return parsed ? std::string() : parsed.error().message;
        },
        "DURATION");
    return validator;
}

const CLI::Validator& durationOrNoneValidator()
{
    static const CLI::Validator validator(
        [](std::string& value) {
            auto parsed = parseLifetimeMs(value);
            return value == "none" || parsed ? std::string() : parsed.error().message + ", or none";
        },
        "DURATION|none");
    return validator;
}

const CLI::Validator& sizeValidator()
{
    static const CLI::Validator validator(
        [](std::string& value) {
            auto parsed = parseSizeBytes(value);
            return parsed ? std::string() : parsed.error().message;
        },
        "SIZE");
    return validator;
}

const CLI::Validator& sizeOrNoneValidator()
{
    static const CLI::Validator validator(
        [](std::string& value) {
            auto parsed = parseSizeBytes(value);
            return value == "none" || parsed ? std::string() : parsed.error().message + ", or none";
        },
        "SIZE|none");
    return validator;
}

const CLI::Validator& timePointValidator()
{
    static const CLI::Validator validator(
        [](std::string& text) -> std::string {
            auto parsed = parseTimePointMs(text, nowEpochMs());
            return parsed ? std::string() : parsed.error().message;
        },
        "TIME");
    return validator;
}

} // namespace sb::cli
