// The window as a user meets it (PRODUCT.md: a usable window in under 0.5 s; no event-loop stall over 50 ms):
//
// 1. Cold start: this program is started again as a child that does what sandbench-gui does (the application,
//    the main window shown, its store opened) and tells the parent at the window's first paint; the parent times
//    each start from its fork to that paint, so the time holds the exec, the dynamic linking of Qt and the
//    store's open. One untimed start first makes the store; STARTS timed starts follow.
// 2. The longest event-loop stall while the window works hard: its Rules workspace reads RECORDS generated card
//    transactions and compares the demo's two variants with the current rule set over them (the A/B), while a
//    live agent session records STREAM_RATE steps a second into the store; then the person turns to the Agents
//    workspace, which reads what it missed while hidden and follows the session to its end. For each phase, what
//    the event loop handled during its longest stall, by receiver class and event type.
//
//   bench_gui [RECORDS=1000000] [STARTS=10] [STREAM_RATE=200]
//
// Runs offscreen unless QT_QPA_PLATFORM says otherwise. The stall is the longest gap between the ticks of a 1 ms
// timer on the GUI thread, less the millisecond it asked for.

#include "gui_bench_support.h"

#include "rules/demo_data.h"
#include "store/store.h"
#include "ui/agents/AgentWorkspace.h"
#include "ui/agents/SessionListModel.h"
#include "ui/agents/StepListModel.h"
#include "ui/jobs/RulesJobs.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/rules/RulesWorkspace.h"

#include <QApplication>
#include <QTemporaryDir>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using sb::bench::openStore;
using sb::bench::sessionInfo;
using sb::bench::StallMeter;
using sb::bench::stepOf;
using sb::bench::waitFor;
namespace fs = std::filesystem;

[[noreturn]] void die(const std::string& message)
{
    std::fprintf(stderr, "bench_gui: %s\n", message.c_str());
    std::exit(1);
}

// Writes to `fd` at the first paint of what it watches, then ends the process: what a user waits for is over.
class FirstPaint : public QObject {
public:
    explicit FirstPaint(int fd) : m_fd(fd) {}
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint && !m_told) {
            m_told = true;
            // After this paint's event is handled: the frame is drawn.
            QTimer::singleShot(0, [fd = m_fd] {
                [[maybe_unused]] const ssize_t told = ::write(fd, "p", 1);
                std::_Exit(0);
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    int m_fd;
    bool m_told = false;
};

// The child of one start: sandbench-gui's main, up to the first paint.
int startWindow(int argc, char** argv, const char* store, int fd)
{
    QApplication app(argc, argv);
    sb::ui::MainWindow window(sb::Store::locate(store));
    FirstPaint watch(fd);
    window.installEventFilter(&watch);
    window.resize(1440, 900);
    window.show();
    if (const auto error = window.openStore())
        die("the window cannot open its store: " + error->toStdString());
    return QApplication::exec();
}

// Milliseconds from fork to the child's first paint.
double timedStart(const char* self, const fs::path& store)
{
    int pipeFds[2];
    if (::pipe(pipeFds) != 0)
        die("pipe failed");
    const auto started = std::chrono::steady_clock::now();
    const pid_t child = ::fork();
    if (child < 0)
        die("fork failed");
    if (child == 0) {
        ::close(pipeFds[0]);
        const std::string fd = std::to_string(pipeFds[1]);
        ::execl(self, self, "--start-window", store.c_str(), fd.c_str(), static_cast<char*>(nullptr));
        std::_Exit(127);
    }
    ::close(pipeFds[1]);
    char byte = 0;
    const ssize_t got = ::read(pipeFds[0], &byte, 1);
    const auto painted = std::chrono::steady_clock::now();
    ::close(pipeFds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (got != 1)
        die("the window never painted (child status " + std::to_string(status) + ")");
    return std::chrono::duration<double, std::milli>(painted - started).count();
}

double quantile(std::vector<double> values, double q)
{
    std::sort(values.begin(), values.end());
    return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5)];
}

} // namespace

int main(int argc, char* argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (argc == 4 && std::strcmp(argv[1], "--start-window") == 0)
        return startWindow(argc, argv, argv[2], std::atoi(argv[3]));
    const long long records = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    const int starts = argc > 2 ? std::max(1, std::atoi(argv[2])) : 10;
    const int streamRate = argc > 3 ? std::max(10, std::atoi(argv[3])) : 200;

    QTemporaryDir dir;
    const fs::path root = dir.path().toStdString();
    const fs::path storePath = root / "bench.db";

    // 1. Cold start.
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    (void)timedStart(self.c_str(), storePath);
    std::vector<double> startTimes;
    for (int i = 0; i < starts; ++i)
        startTimes.push_back(timedStart(self.c_str(), storePath));
    const double startMedian = quantile(startTimes, 0.5);
    const double startWorst = *std::max_element(startTimes.begin(), startTimes.end());
    std::printf("cold start to the window's first paint, %d starts: median %.0f ms, best %.0f ms, worst %.0f ms\n",
                starts, startMedian, *std::min_element(startTimes.begin(), startTimes.end()), startWorst);

    // 2. The stall under load.
    const fs::path csv = root / "transactions.csv";
    {
        std::ofstream out(csv, std::ios::binary);
        sb::rules::writeDemoTransactions(out, static_cast<std::uint64_t>(records), sb::rules::kDemoSeed);
        if (!out)
            die("cannot write " + csv.string());
    }
    sb::bench::TimedApplication app(argc, argv);
    sb::ui::MainWindow window(sb::Store::locate(storePath));
    window.resize(1440, 900);
    window.show();
    if (const auto error = window.openStore())
        die("the window cannot open its store: " + error->toStdString());
    sb::ui::RulesWorkspace* rules = window.rulesWorkspace();
    sb::ui::AgentWorkspace* agents = window.agentWorkspace();
    window.showRules(); // the A/B's charts on screen, as a person comparing would have them
    rules->openDemo();
    if (!waitFor([&] { return rules->dataset() != nullptr && !rules->jobs()->isBusy(); }, 60000))
        die("the demo's rules did not load");
    waitFor([] { return false; }, 300); // settle

    std::atomic<bool> begun{false};
    std::atomic<bool> stop{false};
    std::atomic<bool> ended{false};
    std::atomic<long long> written{0};
    std::string liveId;
    std::thread writer([&] {
        auto store = openStore(storePath);
        sb::agents::SessionStore sessions(*store);
        auto live = sessions.begin(sessionInfo());
        if (!live) {
            std::fprintf(stderr, "cannot begin a live session: %s\n", live.error().message.c_str());
            begun = true;
            ended = true;
            return;
        }
        liveId = live->info().id;
        begun = true;
        const auto startAt = std::chrono::steady_clock::now();
        const std::int64_t origin = live->info().startedAtMs;
        std::int64_t i = 0;
        while (!stop) {
            // Ten batches a second, as a busy gateway commits them.
            const auto due = startAt + std::chrono::milliseconds(1000 * (i + streamRate / 10) / streamRate);
            std::vector<sb::agents::StepRecord> batch;
            for (int k = 0; k < streamRate / 10; ++k)
                batch.push_back(stepOf(++i, origin));
            (void)live->addSteps(batch);
            written = i;
            std::this_thread::sleep_until(due);
        }
        (void)live->end(sb::agents::SessionStatus::Completed, "done");
        ended = true;
    });
    waitFor([&] { return begun.load(); }, 10000);
    agents->refresh();
    waitFor([&] { return agents->sessionModel()->rowOf(QString::fromStdString(liveId)) >= 0; }, 10000);
    agents->openSession(QString::fromStdString(liveId));

    StallMeter stall;
    stall.start();
    QElapsedTimer clock;
    clock.start();
    if (!rules->loadDataFile(QString::fromStdString(csv.string())))
        die("the rules workspace refused the data file");
    if (!waitFor([&] { return !rules->jobs()->isBusy(); }, 600000))
        die("reading the data did not end");
    const double readMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    const double readStall = stall.stop();
    const QString readDuring = stall.during();
    stall.start();
    clock.restart();
    if (!rules->compare())
        die("the rules workspace refused the comparison: " + rules->statusText().toStdString());
    const bool compared = waitFor([&] { return !rules->jobs()->isBusy(); }, 600000) && rules->result() != nullptr;
    const double compareMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    const double compareStall = stall.stop();
    const QString compareDuring = stall.during();
    stall.start();
    // The A/B's result on screen a second more, then the Agents workspace (a pane that follows the store reads
    // only while it shows), following the session a second more to its end.
    waitFor([] { return false; }, 1000);
    window.showAgents();
    waitFor([] { return false; }, 1000);
    stop = true;
    // The writer ends its batch and the session; the event loop runs meanwhile (a join would stall it here).
    waitFor([&] { return ended.load(); }, 30000);
    writer.join();
    const bool followed =
        waitFor([&] { return agents->stepModel()->rowCount() == written.load() && agents->isLoaded(); }, 30000);
    if (!followed)
        std::fprintf(stderr, "the Agents workspace shows %d of the live session's %lld steps (%s)\n",
                     agents->stepModel()->rowCount(), written.load(), agents->isLoaded() ? "loaded" : "still loading");
    const double afterStall = stall.stop();
    const QString afterDuring = stall.during();
    const double longest = std::max({readStall, compareStall, afterStall});
    std::printf("handled during the longest stall: while reading: %s\n  comparing: %s\n  after: %s\n",
                qPrintable(readDuring), qPrintable(compareDuring), qPrintable(afterDuring));
    std::printf("A/B of 3 rule sets over %lld records (read %.0f ms, compared %.0f ms)%s, a live session of %lld steps "
                "at %d steps/s %s: longest event-loop stall %.1f ms (while reading %.1f, comparing and showing the "
                "result %.1f, after %.1f)\n",
                records, readMs, compareMs, compared ? "" : " FAILED", written.load(), streamRate,
                followed ? "followed" : "NOT followed", longest, readStall, compareStall, afterStall);
    std::printf("{\"bench\":\"gui\",\"starts\":%d,\"start_median_ms\":%.1f,\"start_worst_ms\":%.1f,\"records\":%lld,"
                "\"read_ms\":%.0f,\"compare_ms\":%.0f,\"steps\":%lld,\"stall_ms\":%.1f,\"read_stall_ms\":%.1f,"
                "\"compare_stall_ms\":%.1f,\"after_stall_ms\":%.1f,\"compared\":%s,\"followed\":%s}\n",
                starts, startMedian, startWorst, records, readMs, compareMs, written.load(), longest, readStall,
                compareStall, afterStall, compared ? "true" : "false", followed ? "true" : "false");
    return compared && followed ? 0 : 1;
}
