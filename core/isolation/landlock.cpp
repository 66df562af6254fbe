#include "landlock.h"

#include "util/unique_fd.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sb::landlock {

namespace {

constexpr std::uint64_t kAccessNetBindTcp = 1ULL << 0;
constexpr std::uint64_t kAccessNetConnectTcp = 1ULL << 1;
constexpr std::uint64_t kScopeAbstractUnixSocket = 1ULL << 0;
constexpr std::uint64_t kScopeSignal = 1ULL << 1;

// The full ruleset attribute of newer kernels; the size passed tells the kernel which fields we use.
struct RulesetAttr {
    std::uint64_t handledAccessFs;
    std::uint64_t handledAccessNet;
    std::uint64_t scoped;
};

struct NetPortAttr {
    std::uint64_t allowedAccess;
    std::uint64_t port;
} __attribute__((packed));
constexpr int kRuleNetPort = 2; // LANDLOCK_RULE_NET_PORT

struct PathBeneathAttr {
    std::uint64_t allowedAccess;
    std::int32_t parentFd;
} __attribute__((packed));

std::string portRuleName(int port)
{
    return "landlock_add_rule (TCP port " + std::to_string(port) + ")";
}

std::string failedCall(const char* what)
{
    return std::string(what) + ": " + std::strerror(errno);
}

} // namespace

std::uint64_t handledFsAccess(int abi)
{
    std::uint64_t all = (access::kMakeSym << 1) - 1; // ABI 1: bits 0..12
    if (abi >= 2)
        all |= access::kRefer;
    if (abi >= 3)
        all |= access::kTruncate;
    if (abi >= 5)
        all |= access::kIoctlDev;
    return all;
}

int abiVersion(std::string* whyNot)
{
    const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 0) {
        if (whyNot) {
            *whyNot = errno == ENOSYS
                          ? "the kernel was built without Landlock (CONFIG_SECURITY_LANDLOCK); use a kernel >= 5.13 "
                            "that has it"
                      : errno == EOPNOTSUPP
                          ? "Landlock is disabled at boot: add landlock to the kernel's lsm= parameter (see "
                            "/sys/kernel/security/lsm for the current list) and reboot"
                          : failedCall("landlock_create_ruleset");
        }
        return 0;
    }
    return static_cast<int>(abi);
}

Result<Applied> restrictSelf(const Rules& rules)
{
    std::string why;
    const int abi = abiVersion(&why);
    if (abi <= 0)
        return fail("Landlock unavailable: " + why);

    Applied applied;
    applied.abi = abi;
    const std::uint64_t fsAll = handledFsAccess(abi);
    RulesetAttr attr{fsAll, 0, 0};
    std::size_t attrSize = sizeof(std::uint64_t);
    if (abi >= 4) {
        attr.handledAccessNet = kAccessNetBindTcp | kAccessNetConnectTcp; // no TCP rule: no TCP at all
        attrSize = 2 * sizeof(std::uint64_t);
        applied.network = true;
    }
    if (abi >= 6) {
        attr.scoped = kScopeAbstractUnixSocket | kScopeSignal;
        attrSize = sizeof(RulesetAttr);
        applied.scoped = true;
    }
    const UniqueFd ruleset(static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attrSize, 0)));
    if (ruleset.get() < 0)
        return fail(failedCall("landlock_create_ruleset"));

    auto addRule = [&](const std::string& path, std::uint64_t rights) -> Result<void> {
        const UniqueFd fd(::open(path.c_str(), O_PATH | O_CLOEXEC));
        if (fd.get() < 0) {
            if (errno == ENOENT || errno == ENOTDIR)
                return {}; // nothing there to allow
            return fail(failedCall(("open " + path).c_str()));
        }
        struct stat st {};
        if (::fstat(fd.get(), &st) != 0)
            return fail(failedCall(("stat " + path).c_str()));
        if (!S_ISDIR(st.st_mode))
            rights &= access::kFileRights; // directory-only rights are refused by the kernel on files
        PathBeneathAttr beneath{rights & fsAll, fd.get()};
        if (::syscall(SYS_landlock_add_rule, ruleset.get(), LANDLOCK_RULE_PATH_BENEATH, &beneath, 0) != 0)
            return fail(failedCall(("landlock_add_rule " + path).c_str()));
        return {};
    };

    for (const auto& p : rules.readPaths) {
        if (auto r = addRule(p, kReadRights); !r)
            return std::unexpected(r.error());
    }
    for (const auto& p : rules.devPaths) {
        if (auto r = addRule(p, kDeviceRights); !r)
            return std::unexpected(r.error());
    }
    for (const auto& p : rules.writePaths) {
        if (auto r = addRule(p, fsAll); !r)
            return std::unexpected(r.error());
    }
    if (!rules.connectPorts.empty() && abi < 4)
        return fail("Landlock ABI 4 (Linux 6.7) is needed to allow TCP to the proxy port alone");
    for (const int port : rules.connectPorts) {
        NetPortAttr net{kAccessNetConnectTcp, static_cast<std::uint64_t>(port)};
        if (::syscall(SYS_landlock_add_rule, ruleset.get(), kRuleNetPort, &net, 0) != 0)
            return fail(failedCall(portRuleName(port).c_str()));
    }
    if (::syscall(SYS_landlock_restrict_self, ruleset.get(), 0) != 0)
        return fail(failedCall("landlock_restrict_self"));
    return applied;
}

} // namespace sb::landlock
