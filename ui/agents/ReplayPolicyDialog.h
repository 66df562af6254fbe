#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace sb::ui {

// Asks which policy a session is replayed under: one of the presets, or a policy file. OK is refused, the reason
// shown, while the choice cannot rule a replay (no such file, a YAML or field error, an agent rule that does not
// compile).
class ReplayPolicyDialog : public QDialog {
    Q_OBJECT
public:
    ReplayPolicyDialog(const QString& sessionLabel, QWidget* parent = nullptr);

    // A preset's name or the file's path, as agents::replaySession takes it.
    QString policy() const;
    // Chooses a policy file (as Browse would).
    void setPolicyFile(const QString& path);
    // The reason OK was refused ("" none).
    QString errorText() const;

    void accept() override;

private:
    void updateFileRow();

    QComboBox* m_choice = nullptr;
    QLineEdit* m_file = nullptr;
    QToolButton* m_browse = nullptr;
    QLabel* m_error = nullptr;
};

} // namespace sb::ui
