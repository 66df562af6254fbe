// The agent workspace at size: a 100 000-step session opened in the window's panel (time to the first painted
// rows, time until every step is read, the longest event-loop stall meanwhile), the timeline and the step list
// painted zoomed out and scrolled to the end, and the longest event-loop stall while a live session streams
// steps into the store and the panel follows it.
//
//   bench_agent_window [STEPS=100000] [STREAM_SECONDS=5] [STREAM_RATE=2000]
//
// Runs offscreen unless QT_QPA_PLATFORM says otherwise. The stall is the longest gap between the ticks of a 1 ms
// timer on the GUI thread, less the millisecond it asked for.

#include "agents/session_store.h"
#include "store/store.h"
#include "ui/agents/AgentTimeline.h"
#include "ui/agents/AgentWorkspace.h"
#include "ui/agents/SessionListModel.h"
#include "ui/agents/StepListModel.h"
#include "gui_bench_support.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace {

using sb::bench::PaintWatch;
using sb::bench::StallMeter;
using sb::bench::waitFor;

using sb::agents::SessionStore;
using sb::agents::StepRecord;
using sb::bench::openStore;
using sb::bench::sessionInfo;
using sb::bench::stepOf;

// Records a closed session of `steps` steps; returns its id.
std::string recordSession(const std::filesystem::path& path, std::int64_t steps)
{
    auto store = openStore(path);
    SessionStore sessions(*store);
    auto live = sessions.begin(sessionInfo());
    if (!live) {
        std::fprintf(stderr, "cannot begin a session: %s\n", live.error().message.c_str());
        std::exit(1);
    }
    const std::int64_t start = live->info().startedAtMs;
    std::vector<StepRecord> batch;
    for (std::int64_t i = 1; i <= steps; ++i) {
        batch.push_back(stepOf(i, start));
        if (batch.size() == 10000 || i == steps) {
            if (auto ok = live->addSteps(batch); !ok) {
                std::fprintf(stderr, "cannot add steps: %s\n", ok.error().message.c_str());
                std::exit(1);
            }
            batch.clear();
        }
    }
    const std::string id = live->info().id;
    (void)live->end(sb::agents::SessionStatus::Completed, "done");
    return id;
}

// The median of 9 synchronous repaints.
double timedRepaint(QWidget* widget)
{
    std::vector<double> times;
    for (int i = 0; i < 9; ++i) {
        QElapsedTimer clock;
        clock.start();
        widget->repaint();
        times.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char* argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    const std::int64_t steps = argc > 1 ? std::atoll(argv[1]) : 100000;
    const int streamSeconds = argc > 2 ? std::atoi(argv[2]) : 5;
    const int streamRate = argc > 3 ? std::atoi(argv[3]) : 2000;
    QApplication app(argc, argv);
    QTemporaryDir dir;
    const std::filesystem::path storePath = std::filesystem::path(dir.path().toStdString()) / "bench.db";

    QElapsedTimer clock;
    clock.start();
    const std::string id = recordSession(storePath, steps);
    std::printf("recorded a %lld-step session in %.0f ms (addSteps, 10 000 at a time)\n",
                static_cast<long long>(steps), static_cast<double>(clock.elapsed()));

    sb::ui::AgentWorkspace panel;
    panel.resize(1400, 900);
    panel.show();
    panel.setStorePath(storePath);
    if (!waitFor([&] { return panel.sessionModel()->rowCount() == 1; }, 30000)) {
        std::fprintf(stderr, "the session list did not load\n");
        return 1;
    }
    waitFor([] { return false; }, 200); // settle

    // Open: time to the first painted rows, to every step read, and the longest stall meanwhile.
    PaintWatch watch;
    QWidget* viewport = panel.stepView()->viewport();
    viewport->installEventFilter(&watch);
    StallMeter stall;
    stall.start();
    clock.restart();
    watch.arm();
    panel.openSession(QString::fromStdString(id));
    double firstPaintMs = -1;
    const bool loaded = waitFor(
        [&] {
            if (firstPaintMs < 0 && panel.stepModel()->rowCount() > 0 && watch.painted())
                firstPaintMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
            return firstPaintMs >= 0 && panel.isLoaded() && panel.stepModel()->rowCount() == steps;
        },
        120000);
    const double allReadMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    const double openStall = stall.stop();
    if (!loaded) {
        std::fprintf(stderr, "the session did not load: %d rows\n", panel.stepModel()->rowCount());
        return 1;
    }
    std::printf("open %lld steps: first rows painted %.1f ms, every step read %.1f ms, longest stall %.1f ms\n",
                static_cast<long long>(steps), firstPaintMs, allReadMs, openStall);

    // Painting at size: the whole session in the timeline, zoomed in, and the list at its end.
    const double fitPaint = timedRepaint(panel.timeline());
    for (int i = 0; i < 8; ++i)
        panel.timeline()->zoomIn();
    const double zoomedPaint = timedRepaint(panel.timeline());
    panel.timeline()->fitAll();
    panel.stepView()->scrollToBottom();
    const double listEndPaint = timedRepaint(panel.stepView()->viewport());
    clock.restart();
    panel.selectStep(steps);
    waitFor([&] { return !panel.jobs()->isLoadingStep(); }, 30000);
    const double lastStepMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    std::printf("the last step's details read in %.1f ms\n", lastStepMs);
    std::printf("paint (median of 9): timeline of every step %.2f ms, zoomed in %.2f ms; step list at its end %.2f ms\n", fitPaint,
                zoomedPaint, listEndPaint);

    // Streaming: a live session recording STREAM_RATE steps a second on another thread, followed by the panel.
    std::string liveId;
    std::atomic<bool> begun{false};
    std::atomic<bool> done{false};
    std::atomic<std::int64_t> written{0};
    std::thread writer([&] {
        auto store = openStore(storePath);
        SessionStore sessions(*store);
        auto live = sessions.begin(sessionInfo());
        if (!live) {
            std::fprintf(stderr, "cannot begin a live session: %s\n", live.error().message.c_str());
            done = true;
            begun = true;
            return;
        }
        liveId = live->info().id;
        begun = true;
        const auto startAt = std::chrono::steady_clock::now();
        const std::int64_t total = static_cast<std::int64_t>(streamSeconds) * streamRate;
        const std::int64_t origin = live->info().startedAtMs;
        std::int64_t i = 0;
        while (i < total) {
            // Ten batches a second, as a busy gateway commits them.
            const auto due = startAt + std::chrono::milliseconds(1000 * (i + streamRate / 10) / streamRate);
            std::vector<StepRecord> batch;
            for (int k = 0; k < streamRate / 10 && i < total; ++k)
                batch.push_back(stepOf(++i, origin));
            (void)live->addSteps(batch);
            written = i;
            std::this_thread::sleep_until(due);
        }
        (void)live->end(sb::agents::SessionStatus::Completed, "done");
        done = true;
    });
    waitFor([&] { return begun.load(); }, 10000);
    panel.refresh();
    waitFor([&] { return panel.sessionModel()->rowOf(QString::fromStdString(liveId)) >= 0; }, 10000);
    stall.start();
    clock.restart();
    panel.openSession(QString::fromStdString(liveId));
    const bool followed = waitFor(
        [&] { return done.load() && panel.stepModel()->rowCount() == written.load() && panel.isLoaded(); },
        (streamSeconds + 30) * 1000);
    const double streamStall = stall.stop();
    writer.join();
    std::printf("live session, %d steps/s for %d s: %s %d steps shown, longest stall %.1f ms\n", streamRate,
                streamSeconds, followed ? "all" : "NOT all", panel.stepModel()->rowCount(), streamStall);
    std::printf("{\"bench\":\"agent_window\",\"steps\":%lld,\"first_paint_ms\":%.1f,\"all_read_ms\":%.1f,"
                "\"open_stall_ms\":%.1f,\"timeline_paint_ms\":%.2f,\"timeline_zoomed_paint_ms\":%.2f,"
                "\"list_end_paint_ms\":%.2f,\"last_step_details_ms\":%.1f,\"stream_rate\":%d,\"stream_seconds\":%d,\"stream_stall_ms\":%.1f,"
                "\"stream_followed\":%s}\n",
                static_cast<long long>(steps), firstPaintMs, allReadMs, openStall, fitPaint, zoomedPaint, listEndPaint,
                lastStepMs, streamRate, streamSeconds, streamStall, followed ? "true" : "false");
    return followed ? 0 : 1;
}
