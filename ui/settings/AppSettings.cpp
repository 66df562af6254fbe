#include "ui/settings/AppSettings.h"

#include "ui/models/Conversions.h"
#include "usecases/policy_reference.h"

#include <QSettings>

namespace sb::ui {

namespace {

const QString kStorePath = QStringLiteral("settings/storePath");
const QString kDefaultPolicy = QStringLiteral("settings/defaultPolicy");
const QString kEditorFont = QStringLiteral("settings/editorFont");
const QString kTheme = QStringLiteral("settings/theme");
const QString kLanguage = QStringLiteral("settings/language");

} // namespace

AppSettings AppSettings::load()
{
    const QSettings s;
    AppSettings settings;
    settings.storePath = s.value(kStorePath).toString();
    settings.defaultPolicy = s.value(kDefaultPolicy).toString();
    if (const QString font = s.value(kEditorFont).toString(); !font.isEmpty())
        settings.editorFont.fromString(font);
    settings.theme = themeFromName(s.value(kTheme).toString());
    settings.language = s.value(kLanguage).toString();
    if (!settings.language.isEmpty() && !availableLanguages().contains(settings.language))
        settings.language.clear();
    return settings;
}

void AppSettings::save() const
{
    QSettings s;
    s.setValue(kStorePath, storePath);
    s.setValue(kDefaultPolicy, defaultPolicy);
    s.setValue(kEditorFont, editorFont.family().isEmpty() ? QString() : editorFont.toString());
    s.setValue(kTheme, themeName(theme));
    s.setValue(kLanguage, language);
}

QStringList availableLanguages()
{
    return {QStringLiteral("en"), QStringLiteral("de"), QStringLiteral("zh_CN")};
}

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

Theme themeFromName(const QString& name)
{
    if (name == QLatin1String("light"))
        return Theme::Light;
    if (name == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

std::optional<QString> policyProblem(const QString& policy)
{
    if (policy.trimmed().isEmpty())
        return std::nullopt;
    bool namesLevel = false;
    auto loaded = sb::loadPolicyOrPreset(toStdString(policy.trimmed()), namesLevel);
    if (!loaded)
        return toQString(loaded.error().message);
    return std::nullopt;
}

} // namespace sb::ui
