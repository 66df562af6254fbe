// The agent workspace's replay and compare: the actions that ask for a policy or another session, and the compare
// view they open (SessionCompare). Apart from AgentWorkspace.cpp, which browses one session.

#include "ui/agents/AgentWorkspace.h"

#include "ui/agents/ReplayPolicyDialog.h"
#include "ui/agents/SessionCompare.h"
#include "ui/agents/SessionListModel.h"
#include "ui/models/Conversions.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QMenu>
#include <QTableView>
#include <QToolButton>

namespace sb::ui {

namespace {

QString sessionLine(const sb::agents::SessionInfo& session)
{
    QStringList command;
    for (const auto& part : session.command)
        command << toQString(part);
    return QObject::tr("%1 · %2 · %3 · %n step(s)", nullptr, static_cast<int>(session.steps))
        .arg(toQString(session.id).left(8),
             QDateTime::fromMSecsSinceEpoch(session.startedAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
             command.join(QLatin1Char(' ')));
}

} // namespace

void AgentWorkspace::buildCompareActions(QHBoxLayout* bar)
{
    m_replay = new QToolButton(this);
    m_replay->setObjectName(QStringLiteral("agentReplay"));
    m_replay->setText(tr("Replay…"));
    m_replay->setToolTip(tr("Replay the open session under another policy and compare it with the original"));
    m_replay->setEnabled(false);
    connect(m_replay, &QToolButton::clicked, this, [this] { askReplay(m_sessionId); });
    bar->addWidget(m_replay);
    connect(m_sessionView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { m_replay->setEnabled(current.isValid()); });

    m_sessionView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_sessionView, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        showSessionMenu(m_sessionView->viewport()->mapToGlobal(pos), m_sessionView->indexAt(pos).row());
    });
}

void AgentWorkspace::showSessionMenu(const QPoint& globalPos, int row)
{
    const auto* session = m_sessions->sessionAt(row);
    if (!session)
        return;
    const QString id = toQString(session->id);
    const bool busy = m_compare && m_compare->isBusy();
    QMenu menu(this);
    auto* replay = menu.addAction(tr("Replay under policy…"));
    replay->setObjectName(QStringLiteral("actionReplaySession"));
    replay->setEnabled(!busy && session->status != sb::agents::SessionStatus::Running);
    connect(replay, &QAction::triggered, this, [this, id] { askReplay(id); });
    auto* compare = menu.addAction(tr("Compare with…"));
    compare->setObjectName(QStringLiteral("actionCompareSession"));
    compare->setEnabled(!busy && m_sessions->rowCount() > 1);
    connect(compare, &QAction::triggered, this, [this, id] { askCompare(id); });
    menu.exec(globalPos);
}

void AgentWorkspace::askReplay(const QString& sessionId)
{
    if (sessionId.isEmpty())
        return;
    ReplayPolicyDialog dialog(sessionId.left(8), this);
    if (dialog.exec() == QDialog::Accepted)
        replaySession(sessionId, dialog.policy());
}

void AgentWorkspace::askCompare(const QString& sessionId)
{
    QStringList items;
    QStringList ids;
    for (int row = 0; row < m_sessions->rowCount(); ++row) {
        const auto* other = m_sessions->sessionAt(row);
        if (toQString(other->id) == sessionId)
            continue;
        items << sessionLine(*other);
        ids << toQString(other->id);
    }
    if (items.isEmpty())
        return;
    bool ok = false;
    const QString chosen = QInputDialog::getItem(
        this, tr("Compare with…"),
        tr("Session %1 on the left; on the right:").arg(sessionId.left(8)), items, 0, false, &ok);
    if (ok && items.contains(chosen))
        compareSessions(sessionId, ids.at(items.indexOf(chosen)));
}

SessionCompare* AgentWorkspace::openCompareView()
{
    if (!m_compare) {
        m_compare = new SessionCompare(this);
        m_compare->setStorePath(m_storePath);
        connect(m_compare, &SessionCompare::sessionRecorded, this, [this](const QString& sessionId) {
            m_jobs->loadSessions();
            emit statusMessage(tr("Replay recorded as session %1").arg(sessionId.left(8)), 5000);
            emit storeChanged(); // its sandbox and checkpoints are new
        });
    }
    m_compare->show();
    m_compare->raise();
    m_compare->activateWindow();
    return m_compare;
}

bool AgentWorkspace::replaySession(const QString& sessionId, const QString& policy)
{
    if (!m_storePath || sessionId.isEmpty() || (m_compare && m_compare->isBusy()))
        return false;
    return openCompareView()->replay(sessionId, policy, sessionId.left(8));
}

bool AgentWorkspace::compareSessions(const QString& leftId, const QString& rightId)
{
    if (!m_storePath || leftId.isEmpty() || rightId.isEmpty() || (m_compare && m_compare->isBusy()))
        return false;
    return openCompareView()->compare(leftId, rightId);
}

} // namespace sb::ui
