#pragma once
// The workbench's settings, as the Settings dialog edits them and QSettings keeps them (organization and
// application from app/gui/main.cpp): the store, the default policy of runs, the editors' font, the theme and
// the language. The store and the language take effect on the next start; the others at once.

#include <QFont>
#include <QString>
#include <QStringList>

#include <optional>

namespace sb::ui {

enum class Theme { System, Light, Dark };

struct AppSettings {
    QString storePath;     // empty: --store, $SANDBENCH_STORE or the default location
    QString defaultPolicy; // a built-in preset's name or a policy file; empty: the toolbar's level and limits
    QFont editorFont = QFont(QString()); // the family empty: the system's fixed-width font
    Theme theme = Theme::System;
    QString language;      // "" the system's; else a locale name: "en", "de", "zh_CN"

    static AppSettings load();
    void save() const;
};

// The languages the window is translated to, as locale names, English first.
QStringList availableLanguages();
// The theme's name as stored ("system", "light", "dark"), and back (an unknown name: System).
QString themeName(Theme theme);
Theme themeFromName(const QString& name);
// Why `policy` cannot rule a run (neither a preset nor a policy file that loads), or nothing when it can.
std::optional<QString> policyProblem(const QString& policy);

} // namespace sb::ui
