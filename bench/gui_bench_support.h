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
#include <QPointer>
#include <QString>
#include <QTimer>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

namespace sb::bench {

// The longest gap between ticks of a 1 ms timer, while it runs.
class StallMeter : public QObject {
public:
    StallMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const double now = static_cast<double>(m_clock.nsecsElapsed()) / 1e6;
            m_longest = std::max(m_longest, now - m_last - 1);
            m_last = now;
        });
    }
    void start()
    {
        m_longest = 0;
        m_clock.start();
        m_last = 0;
        m_timer.start();
    }
    double stop()
    {
        m_timer.stop();
        return m_longest;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_last = 0;
    double m_longest = 0;
};

// An application that times every event it delivers at the top level (what an event's handler sends on is part
// of it): the longest, with its receiver's class and name and the event's type, says which handler an event-loop
// stall was in.
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override
    {
        if (m_depth++ > 0) {
            const bool handled = QApplication::notify(receiver, event);
            --m_depth;
            return handled;
        }
        const char* className = receiver->metaObject()->className();
        const int type = event->type();
        const QPointer<QObject> guard(receiver);
        QElapsedTimer clock;
        clock.start();
        const bool handled = QApplication::notify(receiver, event);
        const double ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        --m_depth;
        if (ms > m_longestMs) {
            m_longestMs = ms;
            const char* typeName = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
            m_longestWhat = QStringLiteral("%1 to %2%3")
                                .arg(typeName ? QString::fromLatin1(typeName) : QString::number(type),
                                     QString::fromLatin1(className),
                                     guard && !guard->objectName().isEmpty()
                                         ? QStringLiteral(" '%1'").arg(guard->objectName())
                                         : QString());
        }
        return handled;
    }

    void resetLongest()
    {
        m_longestMs = 0;
        m_longestWhat.clear();
    }
    double longestMs() const { return m_longestMs; }
    QString longestWhat() const { return m_longestWhat; }

private:
    int m_depth = 0;
    double m_longestMs = 0;
    QString m_longestWhat;
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
