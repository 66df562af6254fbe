#include "store/audit_key.h"

#include "store/sqlite_db.h"
#include "util/errno_text.h"
#include "util/fd_io.h"
#include "util/hash.h"
#include "util/input_file.h"
#include "util/user_account.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace sb {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kKeyFormat = "sandbench-audit-key-1";
constexpr std::string_view kWitnessFormat = "sandbench-audit-witness-1";
constexpr std::size_t kIdDigits = 32;

bool isLowerHex(std::string_view text, std::size_t digits)
{
    return text.size() == digits && std::all_of(text.begin(), text.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

int hexDigit(char c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

// A failed write names the file, and the file system when it is full.
std::unexpected<Error> writeError(std::string_view what, const fs::path& file, int error)
{
    std::string message = fmt::format("cannot write {} {}: {}", what, file.string(), errnoText(error));
    if (error == ENOSPC || error == EDQUOT)
        message += " (" + sqlite::noRoomNote(file) + ")";
    return fail(std::move(message));
}

// A whole small file, through the one reader of files (util/input_file.h: a FIFO or a device is refused, not
// read); nullopt when it does not exist.
Result<std::optional<std::string>> readSmallFile(const fs::path& file, const InputKind& kind)
{
    struct stat st {};
    if (::lstat(file.c_str(), &st) != 0 && errno == ENOENT)
        return std::optional<std::string>{};
    auto text = readInputFile(file, kind);
    if (!text)
        return std::unexpected(text.error());
    return std::optional<std::string>(std::move(*text));
}

Result<void> writeAndSync(int fd, std::string_view text, std::string_view what, const fs::path& file)
{
    if (const int error = writeFully(fd, text); error != 0)
        return writeError(what, file, error);
    if (::fsync(fd) != 0)
        return writeError(what, file, errno);
    return {};
}

// The folder of keys, made private to the user when it is missing (the folders above it as usual).
Result<void> ensureKeyFolder(const fs::path& folder)
{
    std::error_code ec;
    if (folder.has_parent_path())
        fs::create_directories(folder.parent_path(), ec);
    if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
        return writeError("the audit key folder", folder, errno);
    if (!fs::is_directory(folder, ec))
        return fail(fmt::format("the audit key folder {} is not a folder", folder.string()));
    return {};
}

std::string canonicalStore(const fs::path& store)
{
    std::error_code ec;
    const fs::path absolute = fs::absolute(store, ec);
    const fs::path canonical = fs::weakly_canonical(ec ? store : absolute, ec);
    return (ec ? absolute : canonical).string();
}

// A member of a JSON object, or null when it is missing (reading never throws, whatever the file holds).
nlohmann::json member(const nlohmann::json& object, const char* name)
{
    return object.is_object() && object.contains(name) ? object[name] : nlohmann::json();
}

Result<std::string> derivedId(std::span<const std::uint8_t> secret)
{
    auto mac = hmacSha256Hex(secret, "sandbench-audit-key-id");
    if (!mac)
        return std::unexpected(mac.error());
    return mac->substr(0, kIdDigits);
}

Result<AuditKey> parseKey(const std::string& text, const fs::path& file, std::string_view id)
{
    auto damaged = [&](std::string_view what) {
        return fail(fmt::format("audit key {} is damaged: {}", file.string(), what));
    };
    const auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (member(json, "format") != kKeyFormat)
        return damaged(fmt::format("it is not a {} file", kKeyFormat));
    AuditKey key;
    key.file = file;
    const auto field = [&json](const char* name) { return member(json, name); };
    const auto secret = field("secret");
    if (!secret.is_string() || !isLowerHex(secret.get<std::string>(), 2 * key.secret.size()))
        return damaged("its secret is not 64 hex digits");
    const std::string secretHex = secret.get<std::string>();
    for (std::size_t i = 0; i < key.secret.size(); ++i)
        key.secret[i] = static_cast<std::uint8_t>(hexDigit(secretHex[2 * i]) << 4 | hexDigit(secretHex[2 * i + 1]));
    auto derived = derivedId(key.secret);
    if (!derived)
        return std::unexpected(derived.error());
    key.id = *derived;
    if (field("id") != key.id || key.id != id)
        return damaged(fmt::format("it holds key {}, not {}", key.id, id));
    const auto first = field("first_seq");
    const auto before = field("before_hash");
    const auto created = field("created_at_ms");
    if (!first.is_number_integer() || first.get<std::int64_t>() < 1)
        return damaged("first_seq is not an entry number");
    if (!before.is_string() || !isLowerHex(before.get<std::string>(), 64))
        return damaged("before_hash is not a SHA-256");
    key.firstSeq = first.get<std::int64_t>();
    key.beforeHash = before.get<std::string>();
    key.store = field("store").is_string() ? field("store").get<std::string>() : std::string();
    key.createdAtMs = created.is_number_integer() ? created.get<std::int64_t>() : 0;
    return key;
}

fs::path witnessFile(const AuditKey& key)
{
    return key.file.parent_path() / (key.id + ".witness");
}

std::optional<AuditWitness> parseWitness(const std::string& text)
{
    const auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (member(json, "format") != kWitnessFormat)
        return std::nullopt;
    const auto seq = member(json, "seq");
    const auto hash = member(json, "hash");
    const auto at = member(json, "at_ms");
    if (!seq.is_number_integer() || seq.get<std::int64_t>() < 1 || !hash.is_string()
        || !isLowerHex(hash.get<std::string>(), 64) || !at.is_number_integer())
        return std::nullopt;
    return AuditWitness{seq.get<std::int64_t>(), hash.get<std::string>(), at.get<std::int64_t>()};
}

} // namespace

Result<fs::path> auditKeyFolder()
{
    if (const char* folder = std::getenv(kAuditKeysEnv.data()); folder && *folder)
        return fs::path(folder);
    // The XDG spec says relative values are invalid and must be ignored.
    if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && *config == '/')
        return fs::path(config) / "sandbench" / "audit-keys";
    const fs::path home = homeFolder();
    if (home.empty())
        return fail(fmt::format("no folder for the audit keys: there is no home folder; set {} to one", kAuditKeysEnv));
    return home / ".config" / "sandbench" / "audit-keys";
}

bool isAuditKeyId(std::string_view id)
{
    return isLowerHex(id, kIdDigits);
}

fs::path auditKeyFile(const fs::path& folder, std::string_view id)
{
    return folder / (std::string(id) + ".key");
}

Result<std::optional<AuditKey>> readAuditKey(const fs::path& folder, std::string_view id)
{
    if (!isAuditKeyId(id))
        return fail(fmt::format("'{}' is not an audit key id (32 hex digits)", id));
    const fs::path file = auditKeyFile(folder, id);
    auto text = readSmallFile(file, input::kAuditKey);
    if (!text)
        return std::unexpected(text.error());
    if (!*text)
        return std::optional<AuditKey>{};
    auto key = parseKey(**text, file, id);
    if (!key)
        return std::unexpected(key.error());
    return std::optional<AuditKey>(std::move(*key));
}

Result<AuditKey> makeAuditKey(const fs::path& folder, const fs::path& store, std::int64_t firstSeq,
                              std::string_view beforeHash)
{
    AuditKey key;
    for (std::size_t got = 0; got < key.secret.size();) {
        const ssize_t n = ::getrandom(key.secret.data() + got, key.secret.size() - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail(fmt::format("cannot make an audit key: getrandom: {}", errnoText(errno)));
        got += static_cast<std::size_t>(n);
    }
    auto id = derivedId(key.secret);
    if (!id)
        return std::unexpected(id.error());
    key.id = *id;
    key.firstSeq = firstSeq;
    key.beforeHash = std::string(beforeHash);
    key.store = canonicalStore(store);
    key.createdAtMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    key.file = auditKeyFile(folder, key.id);

    if (auto ok = ensureKeyFolder(folder); !ok)
        return std::unexpected(ok.error());
    const nlohmann::json json = {{"format", kKeyFormat},
                                 {"id", key.id},
                                 {"secret", toHex(key.secret)},
                                 {"first_seq", key.firstSeq},
                                 {"before_hash", key.beforeHash},
                                 {"store", key.store},
                                 {"created_at_ms", key.createdAtMs}};
    const std::string text = json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    const int fd = ::open(key.file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return writeError("the audit key", key.file, errno);
    auto written = writeAndSync(fd, text, "the audit key", key.file);
    ::close(fd);
    if (!written) {
        ::unlink(key.file.c_str());
        return std::unexpected(written.error());
    }
    // The key must outlive a crash as surely as the entries it signs.
    if (const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return key;
}

std::optional<AuditKey> formerAuditKey(const fs::path& folder, const fs::path& store, std::int64_t lastSeq)
{
    const std::string place = canonicalStore(store);
    std::optional<AuditKey> oldest;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& file = it->path();
        if (file.extension() != ".key" || !isAuditKeyId(file.stem().string()))
            continue;
        auto key = readAuditKey(folder, file.stem().string());
        if (key && *key && (*key)->store == place && (*key)->firstSeq <= lastSeq
            && (!oldest || (*key)->createdAtMs < oldest->createdAtMs))
            oldest = std::move(**key);
    }
    return oldest;
}

Result<std::string> auditEntryMac(const AuditKey& key, std::string_view entryHash)
{
    return hmacSha256Hex(key.secret, fmt::format("sandbench-audit-entry\n{}", entryHash));
}

Result<std::string> auditHeadMac(const AuditKey& key, std::int64_t seq, std::string_view hash)
{
    return hmacSha256Hex(key.secret, fmt::format("sandbench-audit-head\n{}\n{}", seq, hash));
}

Result<std::optional<AuditWitness>> readAuditWitness(const AuditKey& key)
{
    const fs::path file = witnessFile(key);
    auto text = readSmallFile(file, input::kAuditWitness);
    if (!text)
        return std::unexpected(text.error());
    if (!*text)
        return std::optional<AuditWitness>{};
    auto witness = parseWitness(**text);
    if (!witness)
        return fail(fmt::format("the audit witness {} is damaged", file.string()));
    return witness;
}

Result<void> recordAuditWitness(const AuditKey& key, const AuditWitness& witness)
{
    const fs::path file = witnessFile(key);
    const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return writeError("the audit witness", file, errno);
    // Held until close: two verifies at once keep the later head.
    while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
    }
    std::string text(input::kAuditWitness.maxBytes, '\0');
    const ssize_t n = ::pread(fd, text.data(), text.size(), 0);
    text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    if (const auto recorded = parseWitness(text); recorded && recorded->seq >= witness.seq) {
        ::close(fd);
        return {};
    }
    const nlohmann::json json = {
        {"format", kWitnessFormat}, {"seq", witness.seq}, {"hash", witness.hash}, {"at_ms", witness.atMs}};
    Result<void> written;
    if (::ftruncate(fd, 0) != 0)
        written = writeError("the audit witness", file, errno);
    else
        written = writeAndSync(fd, json.dump() + "\n", "the audit witness", file);
    ::close(fd);
    return written;
}

} // namespace sb
