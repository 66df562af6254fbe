// libFuzzer target for sb::parsePolicy (core/isolation/policy.h): policies come from files people share,
// so the parser must never crash, hang or throw on any input, and whatever it accepts must render and
// re-parse to the same policy (renderPolicy is what is stored with every run).

#include "isolation/policy.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // Policy files are capped at 1 MiB by loadPolicyFile; stay well under that to keep inputs fast.
    if (size > 64 * 1024)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = sb::parsePolicy(text, "fuzz.yaml");
    if (!parsed) {
        // Every refusal names where: "origin:" first.
        if (parsed.error().message.rfind("fuzz.yaml", 0) != 0) {
            std::fprintf(stderr, "error message without its origin: %s\n", parsed.error().message.c_str());
            std::abort();
        }
        return 0;
    }
    // Round trip: render -> parse must succeed and render the same text again.
    const std::string rendered = sb::renderPolicy(*parsed);
    auto again = sb::parsePolicy(rendered, "rendered.yaml");
    if (!again) {
        std::fprintf(stderr, "a rendered policy does not parse: %s\n---\n%s\n", again.error().message.c_str(),
                     rendered.c_str());
        std::abort();
    }
    if (sb::renderPolicy(*again) != rendered) {
        std::fprintf(stderr, "render(parse(render(p))) != render(p)\n---\n%s\n", rendered.c_str());
        std::abort();
    }
    return 0;
}
