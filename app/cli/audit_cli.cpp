// sandbench audit list | verify

#include "command_line.h"
#include "commands.h"

#include <memory>

namespace sb::cli {

namespace {

// A SHA-256 as audit verify --json prints it: 64 hex digits, read in either case.
CLI::Validator sha256Transform()
{
    return CLI::Validator(
        [](std::string& hash) -> std::string {
            for (char& c : hash)
                c = static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
            if (hash.size() != 64 || hash.find_first_not_of("0123456789abcdef") != std::string::npos)
                return "a SHA-256 is 64 hex digits (as audit verify --json prints the head's)";
            return {};
        },
        "SHA256");
}

} // namespace

void addAuditCommands(CommandLine& commandLine)
{
    auto audit = std::make_shared<AuditOptions>();
    auto* auditCmd = commandLine.app().add_subcommand("audit", "The store's audit log: list it, prove it untouched");
    auditCmd->require_subcommand(1);
    auto* auditListCmd = auditCmd->add_subcommand("list", "Audit entries, oldest first, optionally filtered");
    auditListCmd->add_option("--operation", audit->operation,
                             "Only this operation, or a family of them (sandbox: sandbox.create, sandbox.destroy, …)");
    auditListCmd->add_option("--actor", audit->actor, "Only entries by this actor (an OS user or a --by name)");
    auditListCmd->add_option("--subject", audit->subject, "Only entries about this subject (a run id, name@version, …)");
    auditListCmd->add_option("--text", audit->text, "Only entries holding this text anywhere (case-insensitive)");
    auditListCmd->add_option("--since", audit->since, "At or after: ISO 8601 (2024-05-01T12:00Z) or a duration ago (2h, 7d)")
        ->check(timePointValidator());
    auditListCmd->add_option("--until", audit->until, "At or before: ISO 8601 or a duration ago")
        ->check(timePointValidator());
    auditListCmd->add_option("--limit", audit->limit, "Only the N most recent matches")->check(CLI::PositiveNumber);
    auto* auditVerifyCmd = auditCmd->add_subcommand(
        "verify", "Walk the hash chain and check each entry's signature with the store's key: exit 0 when "
                  "intact, 1 naming the first altered, forged or removed entry (or a key that is not there)");
    auditVerifyCmd->add_option("--keys", audit->keys,
                               "Folder of audit keys to check with (default: $SANDBENCH_AUDIT_KEYS, else "
                               "$XDG_CONFIG_HOME/sandbench/audit-keys)");
    auditVerifyCmd->add_option("--anchor", audit->anchor,
                               "A head hash kept elsewhere earlier: the log must still hold that entry")
        ->transform(sha256Transform());
    // --json and --store before or after list/verify.
    for (auto* sub : {auditCmd, auditListCmd, auditVerifyCmd}) {
        addJsonFlag(sub, audit->json);
        addStoreOption(sub, audit->store);
    }

    commandLine.onParsed(auditCmd, [audit, auditVerifyCmd] {
        audit->action = auditVerifyCmd->parsed() ? "verify" : "list";
        return auditCommand(*audit);
    });
}

} // namespace sb::cli
