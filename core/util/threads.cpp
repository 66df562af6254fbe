#include "util/threads.h"

#include <pthread.h>

namespace sb::detail {

bool otherCpus(cpu_set_t& all, cpu_set_t& others)
{
    CPU_ZERO(&all);
    if (::sched_getaffinity(0, sizeof all, &all) != 0)
        return false;
    const int here = ::sched_getcpu();
    if (here < 0 || here >= CPU_SETSIZE)
        return false;
    others = all;
    CPU_CLR(here, &others);
    return CPU_COUNT(&others) > 0;
}

void setAffinity(std::thread& thread, const cpu_set_t& cpus)
{
    ::pthread_setaffinity_np(thread.native_handle(), sizeof cpus, &cpus);
}

void setOwnAffinity(const cpu_set_t& cpus)
{
    ::sched_setaffinity(0, sizeof cpus, &cpus);
}

} // namespace sb::detail
