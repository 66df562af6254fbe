#include "isolation/start_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <ctime>
#include <iterator>
#include <new>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace sb::starttrace {

namespace {

struct Slot {
    const char* label;
    std::int64_t ns;
};

struct Page {
    std::atomic<std::uint32_t> count;
    Slot slots[(4096 - 16) / sizeof(Slot)];
};
static_assert(sizeof(Page) <= 4096);

Page* g_page = nullptr;

} // namespace

std::int64_t nowNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void enable()
{
    if (g_page)
        return;
    void* page = ::mmap(nullptr, sizeof(Page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page != MAP_FAILED)
        g_page = new (page) Page{};
}

bool enabled()
{
    return g_page != nullptr;
}

void mark(const char* label)
{
    if (g_page)
        mark(label, nowNs());
}

void mark(const char* label, std::int64_t ns)
{
    if (!g_page)
        return;
    const std::uint32_t i = g_page->count.fetch_add(1, std::memory_order_relaxed);
    if (i < std::size(g_page->slots))
        g_page->slots[i] = {label, ns};
}

Marks collected()
{
    Marks out;
    if (!g_page)
        return out;
    const std::uint32_t n = std::min<std::uint32_t>(g_page->count.load(), std::size(g_page->slots));
    for (std::uint32_t i = 0; i < n; ++i) {
        if (g_page->slots[i].label)
            out.emplace_back(g_page->slots[i].label, g_page->slots[i].ns);
    }
    return out;
}

std::string outputFile()
{
    const char* file = std::getenv("SANDBENCH_TRACE_START");
    return file && *file ? file : "";
}

void append(const std::string& file, const std::string& runId, const Marks& marks)
{
    std::string line = fmt::format("{{\"run\":\"{}\",\"marks\":[", runId);
    for (std::size_t i = 0; i < marks.size(); ++i)
        line += fmt::format("{}[\"{}\",{}]", i ? "," : "", marks[i].first, marks[i].second);
    line += "]}\n";
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    [[maybe_unused]] const ssize_t n = ::write(fd, line.data(), line.size());
    ::close(fd);
}

} // namespace sb::starttrace
