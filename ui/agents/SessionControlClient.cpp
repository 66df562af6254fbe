#include "ui/agents/SessionControlClient.h"

#include "agents/session_control.h"
#include "ui/models/Conversions.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::ui {

SessionControlClient::SessionControlClient(QObject* parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1); // commands reach the session in the order they were given
}

SessionControlClient::~SessionControlClient()
{
    m_pool.waitForDone();
}

void SessionControlClient::setSocket(std::optional<std::filesystem::path> socket)
{
    if (socket == m_socket)
        return;
    m_socket = std::move(socket);
    ++m_generation;
    m_statusPending = false;
}

void SessionControlClient::askStatus()
{
    if (m_statusPending || !m_socket)
        return;
    m_statusPending = true;
    send(QStringLiteral("status"));
}

void SessionControlClient::send(const QString& command)
{
    if (!m_socket)
        return;
    auto* watcher = new QFutureWatcher<ControlAnswer>(this);
    connect(watcher, &QFutureWatcher<ControlAnswer>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const ControlAnswer answer = watcher->future().result();
        if (answer.generation != m_generation)
            return;
        if (answer.command == QLatin1String("status"))
            m_statusPending = false;
        emit answered(answer);
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [socket = *m_socket, generation = m_generation, command] {
        ControlAnswer answer{.generation = generation, .command = command};
        auto reply = sb::agents::sendControlCommand(socket, toStdString(command));
        if (reply)
            answer.reply = std::move(*reply);
        else
            answer.error = toQString(reply.error().message);
        return answer;
    }));
}

} // namespace sb::ui
