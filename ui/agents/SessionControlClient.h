#pragma once

#include "agents/json.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <filesystem>
#include <optional>

namespace sb::ui {

// One answer of a running session's control socket, handed to the GUI thread.
struct ControlAnswer {
    quint64 generation = 0; // which socket it came from (setSocket starts a new one)
    QString command{};
    std::optional<sb::agents::Json> reply{}; // the session's JSON answer ({"ok": ...})
    QString error{};                         // the socket could not be reached or answered nonsense
};

// Sends live-control commands (session_control.h) to a running session, one at a time and in order, on a worker
// thread: a socket call can block for seconds, the GUI never waits on it. Answers of a socket set before the
// current one are dropped.
class SessionControlClient : public QObject {
    Q_OBJECT
public:
    explicit SessionControlClient(QObject* parent);
    ~SessionControlClient() override; // waits for the command in flight

    void setSocket(std::optional<std::filesystem::path> socket);
    const std::optional<std::filesystem::path>& socket() const { return m_socket; }
    void send(const QString& command);
    // Asks `status` unless a status question is already on its way.
    void askStatus();

signals:
    void answered(const sb::ui::ControlAnswer& answer);

private:
    QThreadPool m_pool;
    std::optional<std::filesystem::path> m_socket;
    quint64 m_generation = 0;
    bool m_statusPending = false;
};

} // namespace sb::ui
