#include "stat_prefetch.h"

#include "util/threads.h"

#include <system_error>

namespace sb {

std::unique_ptr<StatPrefetch> StatPrefetch::launch(int fd)
{
    if (fd < 0)
        return nullptr;
    auto impl = std::make_unique<Impl>(fd);
    try {
        impl->thread = startThreadElsewhere([raw = impl.get()] { raw->run(); });
    } catch (const std::system_error&) {
        return nullptr;
    }
    return std::unique_ptr<StatPrefetch>(new StatPrefetch(std::move(impl)));
}

std::unique_ptr<StatPrefetch> StatPrefetch::start(int rootfd)
{
    // Opened again rather than duplicated: a listing moves the offset of the open file, which the walk's
    // descriptors must not share.
    return launch(::openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

std::unique_ptr<StatPrefetch> StatPrefetch::start(const std::filesystem::path& root)
{
    return launch(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

StatPrefetch::StatPrefetch(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
StatPrefetch::~StatPrefetch() = default;

} // namespace sb
