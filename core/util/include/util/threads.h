#pragma once

#include <atomic>
#include <memory>
#include <sched.h>
#include <thread>
#include <utility>

namespace sb {

namespace detail {
// The CPUs the calling thread may use, and those of them other than the one it runs on; false when there
// are no others.
bool otherCpus(cpu_set_t& all, cpu_set_t& others);
void setAffinity(std::thread& thread, const cpu_set_t& cpus);
void setOwnAffinity(const cpu_set_t& cpus);
} // namespace detail

// A std::thread started on another CPU than the caller's, when the caller may use another.
//
// Linux puts a new thread on the CPU of the thread that made it. While the maker keeps running (a walk, a
// hashing loop) the new thread may wait there for the maker's time slice to end, about 3 ms, with another
// core idle; a thread that is to share the maker's work from the start loses that much. This one is moved to
// the caller's other CPUs before it first runs, so the scheduler starts it on one of them at once, and its
// first step gives it the caller's whole set of CPUs back. Throws std::system_error as std::thread does.
template <typename Body> std::thread startThreadElsewhere(Body&& body)
{
    cpu_set_t all;
    cpu_set_t others;
    if (!detail::otherCpus(all, others))
        return std::thread(std::forward<Body>(body)); // one CPU: nowhere else to go
    // The thread waits (a futex, should it run before the move) until it has been moved, so that taking the
    // whole set back cannot come first.
    auto moved = std::make_shared<std::atomic<bool>>(false);
    std::thread thread([moved, all, body = std::forward<Body>(body)]() mutable {
        moved->wait(false);
        detail::setOwnAffinity(all);
        body();
    });
    detail::setAffinity(thread, others); // failing only leaves it where it is: it still runs, later
    moved->store(true);
    moved->notify_one();
    return thread;
}

} // namespace sb
