#include "cluster/spool.h"

#include "util/uuid.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <unistd.h>

namespace sb::cluster {

namespace fs = std::filesystem;

Result<void> writeSpoolFile(const fs::path& file, const std::string& text)
{
    const fs::path aside = file.string() + fmt::format(".{}.part", ::getpid());
    {
        std::ofstream out(aside, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush())
            return fail(fmt::format("{}: cannot write", aside.string()));
    }
    std::error_code ec;
    fs::rename(aside, file, ec);
    if (ec)
        return fail(fmt::format("{}: cannot write: {}", file.string(), ec.message()));
    return {};
}

Result<nlohmann::json> readSpoolJson(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return fail(fmt::format("{}: cannot be read", file.string()));
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json json = nlohmann::json::parse(text.str(), nullptr, false);
    if (json.is_discarded())
        return fail(fmt::format("{}: not JSON", file.string()));
    return json;
}

Result<JobFolder> JobFolder::create(const fs::path& spool, std::string_view prefix)
{
    auto uuid = randomUuid();
    if (!uuid)
        return std::unexpected(uuid.error());
    const fs::path path = spool / fmt::format("{}-{}", prefix, *uuid);
    std::error_code ec;
    if (!fs::create_directory(path, ec))
        return fail(fmt::format("{}: cannot make the job's folder: {}", path.string(),
                                ec ? ec.message() : std::string("it exists")));
    return JobFolder(path);
}

JobFolder::JobFolder(JobFolder&& other) noexcept : m_path(std::move(other.m_path)), m_keep(other.m_keep)
{
    other.m_path.clear();
}

JobFolder::~JobFolder()
{
    if (!m_keep && !m_path.empty()) {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
}

} // namespace sb::cluster
