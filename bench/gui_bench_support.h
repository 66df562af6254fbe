#pragma once

// What the window benches share: the event loop's longest stall, a widget's paint, waiting on the event loop,
// and an agent session's steps to record.

#include "agents/session_store.h"
#include "store/store.h"

#include <QApplication>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QMetaEnum>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sb::bench {

// An application that times every event it delivers at the top level (what an event's handler sends on is part
// of it), by the receiver's class and the event's type, so that a stall of the event loop can be told apart: one
// slow handler, or many quick ones in a row (a burst of queued calls from another thread, say).
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;

    struct Spent {
        int events = 0;
        double ms = 0;
    };
    using Key = std::pair<const char*, int>; // the receiver's class name (static text), the event's type

    bool notify(QObject* receiver, QEvent* event) override
    {
        if (m_depth++ > 0) {
            const bool handled = QApplication::notify(receiver, event);
            --m_depth;
            return handled;
        }
        const Key key{receiver->metaObject()->className(), event->type()};
        QElapsedTimer clock;
        clock.start();
        const bool handled = QApplication::notify(receiver, event);
        --m_depth;
        Spent& spent = m_since[key];
        ++spent.events;
        spent.ms += static_cast<double>(clock.nsecsElapsed()) / 1e6;
        return handled;
    }

    // What was handled since the last call, and starts counting again.
    std::map<Key, Spent> takeSpent() { return std::exchange(m_since, {}); }

    // The three largest shares of `spent`, as text: "12 MetaCall to sb::ui::StepListModel 31.0 ms; …".
    static QString describe(const std::map<Key, Spent>& spent)
    {
        std::vector<std::pair<Key, Spent>> sorted(spent.begin(), spent.end());
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.ms > b.second.ms; });
        QStringList parts;
        for (std::size_t i = 0; i < sorted.size() && i < 3; ++i) {
            const auto& [key, share] = sorted[i];
            const char* type = QMetaEnum::fromType<QEvent::Type>().valueToKey(key.second);
            parts << QStringLiteral("%1 %2 to %3 %4 ms")
                         .arg(share.events)
                         .arg(type ? QString::fromLatin1(type) : QString::number(key.second), QString::fromLatin1(key.first))
                         .arg(share.ms, 0, 'f', 1);
        }
        return parts.join(QStringLiteral("; "));
    }

private:
    int m_depth = 0;
    std::map<Key, Spent> m_since;
};

// The longest gap between ticks of a 1 ms timer, while it runs; with a TimedApplication, what the event loop
// handled during that gap.
class StallMeter : public QObject {
public:
    StallMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const double now = static_cast<double>(m_clock.nsecsElapsed()) / 1e6;
            auto* timed = dynamic_cast<TimedApplication*>(QCoreApplication::instance());
            const auto spent = timed ? timed->takeSpent() : std::map<TimedApplication::Key, TimedApplication::Spent>{};
            if (now - m_last - 1 > m_longest) {
                m_longest = now - m_last - 1;
                m_during = TimedApplication::describe(spent);
            }
            m_last = now;
        });
    }
    void start()
    {
        m_longest = 0;
        m_during.clear();
        if (auto* timed = dynamic_cast<TimedApplication*>(QCoreApplication::instance()))
            timed->takeSpent();
        m_clock.start();
        m_last = 0;
        m_timer.start();
    }
    double stop()
    {
        m_timer.stop();
        return m_longest;
    }
    // What the event loop handled during the longest gap (empty without a TimedApplication).
    QString during() const { return m_during; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_last = 0;
    double m_longest = 0;
    QString m_during;
};

// Notes a paint event of a widget once armed; by the time the event loop returns to the caller, it is painted.
class PaintWatch : public QObject {
public:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint && m_armed)
            m_painted = true;
        return QObject::eventFilter(watched, event);
    }
    void arm() { m_armed = true; }
    bool painted() const { return m_painted; }

private:
    bool m_armed = false;
    bool m_painted = false;
};

template <typename Condition>
bool waitFor(Condition&& condition, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (!condition()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// An agent session's steps, as a busy one records them.
inline sb::agents::SessionInfo sessionInfo()
{
    sb::agents::SessionInfo info;
    info.kind = sb::agents::SessionKind::Agent;
    info.command = {"python3", "agent.py"};
    info.sandbox = "bench";
    info.policyRef = "preset:agent";
    return info;
}

inline sb::agents::StepRecord stepOf(std::int64_t i, std::int64_t start)
{
    sb::agents::StepRecord step;
    step.tool = i % 7 == 0 ? "run_command" : (i % 3 == 0 ? "write_file" : "read_file");
    step.arguments = sb::agents::Json{{"path", "src/module_" + std::to_string(i % 500) + ".py"}, {"limit", 4000}};
    step.result = sb::agents::Json{{"content", sb::agents::Json::array({sb::agents::Json{{"type", "text"}, {"text", "ok " + std::to_string(i)}}})}};
    step.reasoning = "step " + std::to_string(i);
    step.startedAtMs = start + i * 20;
    step.endedAtMs = start + i * 20 + 5 + i % 11;
    step.cost = 0.001;
    step.verdict = i % 997 == 0 ? sb::agents::Verdict::Blocked : sb::agents::Verdict::Allowed;
    step.requestFrame = R"({"jsonrpc":"2.0","id":1,"method":"tools/call"})";
    return step;
}

inline std::unique_ptr<sb::Store> openStore(const std::filesystem::path& path)
{
    auto store = sb::Store::open(path);
    if (!store) {
        std::fprintf(stderr, "cannot open %s: %s\n", path.c_str(), store.error().message.c_str());
        std::exit(1);
    }
    return std::make_unique<sb::Store>(std::move(*store));
}

} // namespace sb::bench
