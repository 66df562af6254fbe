#include "util/threads.h"

#include <gtest/gtest.h>

#include <memory>
#include <sched.h>

namespace {

cpu_set_t ownCpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    EXPECT_EQ(::sched_getaffinity(0, sizeof set, &set), 0);
    return set;
}

TEST(StartThreadElsewhere, RunsTheBodyWithTheMakersWholeSetOfCpus)
{
    const cpu_set_t maker = ownCpus();
    auto value = std::make_unique<int>(41); // move-only state goes with the body
    int seen = 0;
    cpu_set_t inside;
    CPU_ZERO(&inside);
    std::thread thread = sb::startThreadElsewhere([&seen, &inside, value = std::move(value)] {
        seen = *value + 1;
        ::sched_getaffinity(0, sizeof inside, &inside);
    });
    ASSERT_TRUE(thread.joinable());
    thread.join();
    EXPECT_EQ(seen, 42);
    // Moved to the other CPUs only to start: the body runs with every CPU its maker may use.
    EXPECT_TRUE(CPU_EQUAL(&inside, &maker)) << CPU_COUNT(&inside) << " of " << CPU_COUNT(&maker) << " CPUs";
}

TEST(StartThreadElsewhere, AMakerOnOneCpuStartsAnOrdinaryThread)
{
    const cpu_set_t before = ownCpus();
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(::sched_getcpu(), &one);
    ASSERT_EQ(::sched_setaffinity(0, sizeof one, &one), 0);
    cpu_set_t inside;
    CPU_ZERO(&inside);
    std::thread thread = sb::startThreadElsewhere([&inside] { ::sched_getaffinity(0, sizeof inside, &inside); });
    thread.join();
    ::sched_setaffinity(0, sizeof before, &before);
    EXPECT_TRUE(CPU_EQUAL(&inside, &one)) << "nowhere else to go: the thread keeps its maker's one CPU";
}

} // namespace
