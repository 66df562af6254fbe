#pragma once

#include "isolation/doctor.h"

#include <QDialog>
#include <QToolButton>

#include <optional>

namespace sb::ui {

// The status bar's summary of the sandbox the next run gets: its isolation level and how many of this
// machine's layers are there ("strict · 10 of 10 layers"). A click shows what `sandbench doctor` says: every
// layer, found or not and why, the levels this machine offers, and the notes. The machine is probed once, off
// the GUI thread.
class IsolationStatus : public QToolButton {
    Q_OBJECT
public:
    explicit IsolationStatus(QWidget* parent);

    // The level the next run asks for; nullopt: the one its policy names.
    void setLevel(std::optional<sb::IsolationLevel> level);
    const std::optional<sb::DoctorReport>& report() const { return m_report; }

signals:
    void reportReady();

private:
    void showReport();
    void updateText();

    std::optional<sb::DoctorReport> m_report;
    std::optional<sb::IsolationLevel> m_level;
};

// The doctor's report in a window of its own.
class DoctorDialog : public QDialog {
    Q_OBJECT
public:
    DoctorDialog(const sb::DoctorReport& report, QWidget* parent);
};

} // namespace sb::ui
