#include "ui/agents/SessionControlBar.h"

#include "ui/agents/EditArgumentsDialog.h"
#include "ui/models/Conversions.h"

#include "agents/session_control.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

using sb::agents::Json;

QPushButton* button(QWidget* parent, const char* name, const QString& text, const QString& tip)
{
    auto* made = new QPushButton(text, parent);
    made->setObjectName(QString::fromLatin1(name));
    made->setToolTip(tip);
    made->setAutoDefault(false);
    return made;
}

QString textOf(const Json& json, const char* key)
{
    const auto it = json.find(key);
    return it != json.end() && it->is_string() ? toQString(it->get<std::string>()) : QString();
}

} // namespace

SessionControlBar::SessionControlBar(QWidget* parent)
    : QWidget(parent)
    , m_client(new SessionControlClient(this))
    , m_state(new QLabel(this))
    , m_message(new QLabel(this))
    , m_breakpoints(new QLabel(this))
    , m_step(button(this, "controlStep", tr("Step"), tr("Let the waiting call go on and pause before the next one")))
    , m_continue(button(this, "controlContinue", tr("Continue"),
                        tr("Let the waiting call go on and stop pausing (breakpoints still hold)")))
    , m_pause(button(this, "controlPause", tr("Pause"), tr("Pause before the agent's next call")))
    , m_approve(button(this, "controlApprove", tr("Approve"), tr("Let the call waiting for approval go on")))
    , m_deny(button(this, "controlDeny", tr("Deny"), tr("Refuse the waiting call: the agent gets an error")))
    , m_edit(button(this, "controlEditArguments", tr("Edit arguments…"),
                    tr("Go on with the waiting call with other arguments (recorded as edited)")))
    , m_break(new QLineEdit(this))
    , m_addBreak(button(this, "controlAddBreak", tr("Add"), tr("Pause before calls of this tool, or calls this CEL "
                                                               "condition holds for")))
    , m_clearBreaks(button(this, "controlClearBreaks", tr("Clear"), tr("Remove every breakpoint")))
{
    setObjectName(QStringLiteral("sessionControlBar"));
    buildLayout();
    connect(m_client, &SessionControlClient::answered, this, &SessionControlBar::onAnswered);
    connect(m_step, &QPushButton::clicked, this, [this] { send(QStringLiteral("step")); });
    connect(m_continue, &QPushButton::clicked, this, [this] { send(QStringLiteral("continue")); });
    connect(m_pause, &QPushButton::clicked, this, [this] { send(QStringLiteral("pause")); });
    connect(m_approve, &QPushButton::clicked, this,
            [this] { send(QStringLiteral("approve %1").arg(m_waitingStep)); });
    connect(m_deny, &QPushButton::clicked, this, [this] { send(QStringLiteral("deny %1").arg(m_waitingStep)); });
    connect(m_edit, &QPushButton::clicked, this, &SessionControlBar::editArguments);
    connect(m_addBreak, &QPushButton::clicked, this, &SessionControlBar::addBreakpoint);
    connect(m_break, &QLineEdit::returnPressed, this, &SessionControlBar::addBreakpoint);
    connect(m_break, &QLineEdit::textChanged, this, &SessionControlBar::updateButtons);
    connect(m_clearBreaks, &QPushButton::clicked, this, [this] { send(QStringLiteral("clear")); });
    setVisible(false);
}

void SessionControlBar::buildLayout()
{
    m_state->setObjectName(QStringLiteral("controlState"));
    m_state->setTextFormat(Qt::RichText);
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setObjectName(QStringLiteral("controlMessage"));
    m_message->setWordWrap(true);
    m_breakpoints->setObjectName(QStringLiteral("controlBreakpoints"));
    m_break->setObjectName(QStringLiteral("controlBreak"));
    m_break->setPlaceholderText(tr("Break on a tool (name or glob) or a CEL condition"));
    m_breakHelp = tr("A tool such as run_command or write_*, or a CEL condition over tool, args, step and "
                     "workspace, e.g. args.path.endsWith(\".py\")");
    m_break->setToolTip(m_breakHelp);

    auto* frame = new QFrame(this);
    frame->setFrameShape(QFrame::StyledPanel);
    auto* calls = new QHBoxLayout;
    calls->addWidget(m_state, 1);
    for (QPushButton* b : {m_step, m_continue, m_pause})
        calls->addWidget(b);
    calls->addSpacing(12);
    for (QPushButton* b : {m_approve, m_deny, m_edit})
        calls->addWidget(b);
    auto* breaks = new QHBoxLayout;
    breaks->addWidget(m_break, 2);
    breaks->addWidget(m_addBreak);
    breaks->addWidget(m_clearBreaks);
    breaks->addWidget(m_breakpoints, 1);
    auto* inner = new QVBoxLayout(frame);
    inner->setContentsMargins(6, 4, 6, 4);
    inner->addLayout(calls);
    inner->addLayout(breaks);
    inner->addWidget(m_message);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(frame);
    m_message->setVisible(false);
    updateButtons();
}

void SessionControlBar::setSession(const std::optional<sb::agents::SessionInfo>& session)
{
    const bool live = session && session->status == sb::agents::SessionStatus::Running
                   && !session->controlSocket.empty();
    const QString id = session ? toQString(session->id) : QString();
    if (!live) {
        m_client->setSocket(std::nullopt);
        m_sessionId.clear();
        m_waitingStep = 0;
        if (m_editDialog)
            m_editDialog->reject();
        setVisible(false);
        return;
    }
    if (id != m_sessionId) {
        m_sessionId = id;
        m_waitingStep = 0;
        m_waitReason.clear();
        m_waitingCall = Json();
        m_state->setText(tr("Asking the session for its state…"));
        m_breakpoints->clear();
        showMessage({}, false);
        updateButtons();
    }
    m_client->setSocket(std::filesystem::path(session->controlSocket));
    setVisible(true);
    refresh();
}

void SessionControlBar::refresh()
{
    m_client->askStatus();
}

void SessionControlBar::send(const QString& command)
{
    if (!m_client->socket()) {
        showMessage(tr("The session is not running: nothing to control."), true);
        return;
    }
    m_client->send(command);
}

QString SessionControlBar::stateText() const
{
    return m_state->text();
}

QString SessionControlBar::messageText() const
{
    return m_message->text();
}

void SessionControlBar::onAnswered(const ControlAnswer& answer)
{
    const bool status = answer.command == QLatin1String("status");
    if (!answer.reply) {
        showMessage(answer.error, true);
        if (status) {
            m_waitingStep = 0;
            updateButtons();
        }
        return;
    }
    const Json& reply = *answer.reply;
    if (!reply.value("ok", false)) {
        const QString error = textOf(reply, "error");
        showMessage(tr("%1: %2").arg(answer.command.section(QLatin1Char(' '), 0, 0),
                                     error.isEmpty() ? tr("refused") : error),
                    true);
        return;
    }
    if (status) {
        showStatus(reply);
        return;
    }
    const QString verb = answer.command.section(QLatin1Char(' '), 0, 0);
    if (verb == QLatin1String("break"))
        m_break->clear();
    showMessage(reply.contains("step") && reply["step"].is_number_integer()
                    ? tr("%1: step %2").arg(verb).arg(reply["step"].get<std::int64_t>())
                    : tr("%1: done").arg(verb),
                false);
    emit commandDone();
    refresh();
}

void SessionControlBar::showStatus(const Json& status)
{
    const Json waiting = status.value("waiting", Json());
    m_waitingStep = waiting.is_number_integer() ? waiting.get<std::int64_t>() : 0;
    m_waitReason = textOf(status, "reason");
    m_stepMode = status.value("step_mode", false);
    m_waitingCall = status.value("call", Json());
    if (m_waitingStep > 0) {
        const QString summary = m_waitingCall.is_object() ? textOf(m_waitingCall, "summary") : QString();
        QString why = textOf(status, "why");
        if (why.isEmpty())
            why = m_waitReason == QLatin1String("approval")     ? tr("waits for approval")
                  : m_waitReason == QLatin1String("breakpoint") ? tr("breakpoint")
                                                                : tr("step mode");
        const QString text = tr("<b>Paused before step %1</b>: <code>%2</code> — %3")
                                 .arg(m_waitingStep)
                                 .arg(summary.toHtmlEscaped(), why.toHtmlEscaped());
        m_state->setText(text);
    } else {
        m_state->setText(m_stepMode ? tr("<b>Running</b> — pauses before the next call") : tr("<b>Running</b>"));
    }
    QStringList breaks;
    for (const auto& b : status.value("breakpoints", Json::array()))
        if (b.is_string())
            breaks << toQString(b.get<std::string>());
    m_breakpoints->setText(breaks.isEmpty() ? tr("No breakpoints") : tr("Breaks on: %1").arg(breaks.join(tr(", "))));
    updateButtons();
}

void SessionControlBar::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
    m_message->setVisible(!text.isEmpty());
}

void SessionControlBar::updateButtons()
{
    const bool waiting = m_waitingStep > 0;
    m_step->setEnabled(waiting);
    m_continue->setEnabled(waiting);
    m_pause->setEnabled(!waiting && !m_stepMode);
    m_approve->setVisible(m_waitReason == QLatin1String("approval"));
    m_approve->setEnabled(waiting);
    m_deny->setEnabled(waiting);
    m_edit->setEnabled(waiting && m_waitingCall.is_object() && m_waitingCall.contains("arguments"));
    // The breakpoint is read as the session will read it (agents::parseBreakpoint), as the person types: Add is
    // enabled for one it takes, and the field's tooltip says what is wrong with one it would refuse.
    const QString text = m_break->text().trimmed();
    const auto parsed = sb::agents::parseBreakpoint(text.toStdString());
    m_addBreak->setEnabled(!text.isEmpty() && parsed.has_value());
    const bool refused = !text.isEmpty() && !parsed;
    m_break->setStyleSheet(refused ? QStringLiteral("QLineEdit { color: #b3261e; }") : QString());
    m_break->setToolTip(refused ? toQString(parsed.error().message) : m_breakHelp);
    if (refused) {
        showMessage(tr("Breakpoint: %1").arg(toQString(parsed.error().message)), true);
        m_breakRefusalShown = true;
    } else if (m_breakRefusalShown) {
        showMessage(QString(), false); // the field's refusal no longer holds
        m_breakRefusalShown = false;
    }
}

void SessionControlBar::editArguments()
{
    if (m_waitingStep <= 0 || !m_waitingCall.is_object() || m_editDialog)
        return;
    const Json arguments = m_waitingCall.value("arguments", Json::object());
    m_editDialog = new EditArgumentsDialog(m_waitingStep, textOf(m_waitingCall, "tool"), arguments, this);
    m_editDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_editDialog, &QDialog::finished, this, [this](int result) {
        if (result == QDialog::Accepted && m_editDialog->arguments())
            send(QStringLiteral("set-args %1 %2")
                     .arg(m_editDialog->step())
                     .arg(toQString(m_editDialog->arguments()->dump(-1, ' ', false, Json::error_handler_t::replace))));
        m_editDialog = nullptr;
    });
    m_editDialog->open();
}

void SessionControlBar::addBreakpoint()
{
    const QString text = m_break->text().trimmed();
    if (text.isEmpty())
        return;
    if (!sb::agents::parseBreakpoint(text.toStdString())) {
        updateButtons();
        return;
    }
    send(QStringLiteral("break %1").arg(text));
}

} // namespace sb::ui
