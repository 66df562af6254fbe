#pragma once
// Edit ▸ Settings: the store, the default policy of runs, the editors' font, the theme and the language.
// The font and the theme apply as they are chosen (and go back on Cancel); the store and the language on the
// next start, which the dialog says beside them. A policy that cannot rule a run is refused with the reason.

#include "ui/settings/AppSettings.h"

#include <QDialog>

class QComboBox;
class QFontComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace sb::ui {

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    // `currentStore`: the store the window has open, shown while no other is chosen.
    explicit SettingsDialog(const QString& currentStore, QWidget* parent = nullptr);

    // What the fields say now.
    AppSettings settings() const;

    void accept() override;
    void reject() override;

private:
    void browseStore();
    void browsePolicy();
    void fontChanged();
    // The font the font fields say.
    QFont chosenFont() const;
    void themeChanged();
    void checkPolicy();

    AppSettings m_initial;
    bool m_fontChosen = false; // the font fields were changed: an untouched default is not frozen into the settings
    QLineEdit* m_store = nullptr;
    QComboBox* m_policy = nullptr;
    QLabel* m_policyProblem = nullptr;
    QFontComboBox* m_fontFamily = nullptr;
    QSpinBox* m_fontSize = nullptr;
    QComboBox* m_theme = nullptr;
    QComboBox* m_language = nullptr;
};

} // namespace sb::ui
