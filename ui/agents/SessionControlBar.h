#pragma once

#include "agents/json.h"
#include "agents/session_store.h"
#include "ui/agents/SessionControlClient.h"

#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;

namespace sb::ui {

class EditArgumentsDialog;

// Live control of the open session while it runs with a control socket (agent run --step, sessions control):
// its state and the call waiting, Step / Continue / Pause, Approve / Deny, the waiting call's arguments edited,
// breakpoints. Hidden for any other session. Every socket call runs off the GUI thread; what fails shows in the
// bar's status text.
class SessionControlBar : public QWidget {
    Q_OBJECT
public:
    explicit SessionControlBar(QWidget* parent = nullptr);

    // The open session (nullopt: none): the bar shows while it runs and has a control socket.
    void setSession(const std::optional<sb::agents::SessionInfo>& session);
    // Asks the session's state again (the workspace's live follow calls this).
    void refresh();
    // Sends one control command; its answer shows in the status text.
    void send(const QString& command);

    // The step waiting (0 none), as the last status said.
    std::int64_t waitingStep() const { return m_waitingStep; }
    QString stateText() const;
    QString messageText() const;
    EditArgumentsDialog* editDialog() const { return m_editDialog; }

signals:
    // A command went through: the session moves on, its steps are worth reading again.
    void commandDone();

private:
    void buildLayout();
    void onAnswered(const ControlAnswer& answer);
    void showStatus(const sb::agents::Json& status);
    void showMessage(const QString& text, bool error);
    void editArguments();
    void addBreakpoint();
    void updateButtons();

    SessionControlClient* m_client = nullptr;
    QLabel* m_state = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_breakpoints = nullptr;
    QString m_breakHelp; // the breakpoint field's tooltip while what it holds is good
    bool m_breakRefusalShown = false; // the message is the field's refusal
    QPushButton* m_step = nullptr;
    QPushButton* m_continue = nullptr;
    QPushButton* m_pause = nullptr;
    QPushButton* m_approve = nullptr;
    QPushButton* m_deny = nullptr;
    QPushButton* m_edit = nullptr;
    QLineEdit* m_break = nullptr;
    QPushButton* m_addBreak = nullptr;
    QPushButton* m_clearBreaks = nullptr;
    EditArgumentsDialog* m_editDialog = nullptr;
    QString m_sessionId;
    std::int64_t m_waitingStep = 0;
    QString m_waitReason;
    bool m_stepMode = false;
    sb::agents::Json m_waitingCall;
};

} // namespace sb::ui
