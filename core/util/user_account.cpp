#include "util/user_account.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <pwd.h>
#include <unistd.h>
#include <vector>

namespace sb {

namespace {

// One field of the uid's entry, when it has the entry and the field is not empty.
template <typename Field> std::optional<std::string> accountField(uid_t uid, Field field)
{
    const long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
    std::vector<char> buffer(static_cast<std::size_t>(size > 0 ? size : 16384));
    passwd entry{};
    passwd* found = nullptr;
    if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) != 0 || !found)
        return std::nullopt;
    const char* value = found->*field;
    if (!value || !*value)
        return std::nullopt;
    return std::string(value);
}

} // namespace

std::optional<std::string> accountName(uid_t uid)
{
    return accountField(uid, &passwd::pw_name);
}

std::optional<std::string> knownAccountName(uid_t uid)
{
    static std::mutex mutex;
    static std::map<uid_t, std::optional<std::string>> known;
    const std::lock_guard lock(mutex);
    auto found = known.find(uid);
    if (found == known.end())
        found = known.emplace(uid, accountName(uid)).first;
    return found->second;
}

std::optional<std::filesystem::path> accountHome(uid_t uid)
{
    auto home = accountField(uid, &passwd::pw_dir);
    if (!home)
        return std::nullopt;
    return std::filesystem::path(*home);
}

std::filesystem::path homeFolder()
{
    if (const char* home = std::getenv("HOME"); home && *home)
        return home;
    return accountHome(::getuid()).value_or(std::filesystem::path());
}

} // namespace sb
