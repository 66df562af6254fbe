// libFuzzer target for sb::importOciSeccompProfile (core/isolation/oci_seccomp.h): Docker / OCI seccomp
// profiles are files people share and name in their policies (syscalls.profile), so the importer must never
// crash, hang or throw on any input; every refusal and warning names the profile; and what it accepts must
// be storable: as a policy's syscall part it renders and re-parses to the same policy (renderPolicy is what
// every run records). The machine facts are pinned, so that a finding replays the same anywhere.

#include "oci_seccomp.h"
#include "isolation/policy.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // Profiles are capped at 4 MiB when a policy names one; Docker's own is 20 KB.
    if (size > 64 * 1024)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    sb::OciImportReport report;
    const sb::OciImportHost host{"amd64", 6, 1};
    auto imported = sb::importOciSeccompProfile(text, "fuzz.json", &report, host);
    for (const auto& warning : report.warnings) {
        if (warning.rfind("fuzz.json", 0) != 0) {
            std::fprintf(stderr, "a warning without its origin: %s\n", warning.c_str());
            std::abort();
        }
    }
    if (!imported) {
        if (imported.error().message.rfind("fuzz.json", 0) != 0) {
            std::fprintf(stderr, "an error message without its origin: %s\n", imported.error().message.c_str());
            std::abort();
        }
        return 0;
    }
    sb::Policy policy;
    policy.syscalls = std::move(*imported);
    const std::string rendered = sb::renderPolicy(policy);
    auto again = sb::parsePolicy(rendered, "rendered.yaml");
    if (!again) {
        std::fprintf(stderr, "an imported profile does not parse back as a policy: %s\n---\n%s\n",
                     again.error().message.c_str(), rendered.c_str());
        std::abort();
    }
    if (sb::renderPolicy(*again) != rendered) {
        std::fprintf(stderr, "render(parse(render(imported))) != render(imported)\n---\n%s\n", rendered.c_str());
        std::abort();
    }
    return 0;
}
