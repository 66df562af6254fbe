#include "ui/settings/SettingsDialog.h"

#include "isolation/policy.h"
#include "ui/editor/CodeEditor.h"
#include "ui/style/Theme.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace sb::ui {

namespace {

QLabel* note(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred); // as wide as the fields, not its hint
    label->setForegroundRole(QPalette::PlaceholderText); // secondary text, in the theme's colour
    return label;
}

// A field with a Browse… button beside it.
QWidget* withBrowse(QWidget* field, QPushButton* browse, QWidget* parent)
{
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(field, 1);
    layout->addWidget(browse);
    return row;
}

} // namespace

SettingsDialog::SettingsDialog(const QString& currentStore, QWidget* parent)
    : QDialog(parent)
    , m_initial(AppSettings::load())
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));

    m_store = new QLineEdit(m_initial.storePath, this);
    m_store->setObjectName(QStringLiteral("settingsStorePath"));
    m_store->setPlaceholderText(currentStore);
    m_store->setClearButtonEnabled(true);
    m_store->setToolTip(tr("Empty: --store, $SANDBENCH_STORE or the default location"));
    auto* browseStoreButton = new QPushButton(tr("Browse…"), this);
    connect(browseStoreButton, &QPushButton::clicked, this, &SettingsDialog::browseStore);

    m_policy = new QComboBox(this);
    m_policy->setObjectName(QStringLiteral("settingsPolicy"));
    m_policy->setEditable(true);
    m_policy->setInsertPolicy(QComboBox::NoInsert);
    for (const auto& name : sb::builtinPresetNames())
        m_policy->addItem(QString::fromStdString(name));
    m_policy->lineEdit()->setPlaceholderText(tr("None: the toolbar's isolation level and limits"));
    m_policy->setEditText(m_initial.defaultPolicy);
    m_policy->setToolTip(tr("A built-in preset, or a policy file; the toolbar's level and limits apply on top"));
    auto* browsePolicyButton = new QPushButton(tr("Browse…"), this);
    connect(browsePolicyButton, &QPushButton::clicked, this, &SettingsDialog::browsePolicy);
    connect(m_policy, &QComboBox::editTextChanged, this, &SettingsDialog::checkPolicy);
    m_policyProblem = new QLabel(this);
    m_policyProblem->setObjectName(QStringLiteral("settingsPolicyProblem"));
    m_policyProblem->setWordWrap(true);
    m_policyProblem->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_policyProblem->hide();

    const QFont font = CodeEditor::sharedFont();
    m_fontFamily = new QFontComboBox(this);
    m_fontFamily->setObjectName(QStringLiteral("settingsFontFamily"));
    m_fontFamily->setFontFilters(QFontComboBox::MonospacedFonts);
    m_fontFamily->setCurrentFont(font);
    m_fontSize = new QSpinBox(this);
    m_fontSize->setObjectName(QStringLiteral("settingsFontSize"));
    m_fontSize->setRange(6, 48);
    m_fontSize->setSuffix(tr(" pt"));
    m_fontSize->setValue(std::max(6, static_cast<int>(font.pointSizeF() + 0.5)));
    auto* fontRow = new QWidget(this);
    auto* fontLayout = new QHBoxLayout(fontRow);
    fontLayout->setContentsMargins(0, 0, 0, 0);
    fontLayout->addWidget(m_fontFamily, 1);
    fontLayout->addWidget(m_fontSize);
    connect(m_fontFamily, &QFontComboBox::currentFontChanged, this, &SettingsDialog::fontChanged);
    connect(m_fontSize, &QSpinBox::valueChanged, this, &SettingsDialog::fontChanged);

    m_theme = new QComboBox(this);
    m_theme->setObjectName(QStringLiteral("settingsTheme"));
    m_theme->addItem(tr("System"), themeName(Theme::System));
    m_theme->addItem(tr("Light"), themeName(Theme::Light));
    m_theme->addItem(tr("Dark"), themeName(Theme::Dark));
    m_theme->setCurrentIndex(m_theme->findData(themeName(m_initial.theme)));
    connect(m_theme, &QComboBox::currentIndexChanged, this, &SettingsDialog::themeChanged);

    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("settingsLanguage"));
    m_language->addItem(tr("System"), QString());
    // Each language in its own words, as language menus name them: not translated.
    const QStringList names{QStringLiteral("English"), QStringLiteral("Deutsch"), QString::fromUtf8("简体中文")};
    const QStringList languages = availableLanguages();
    for (int i = 0; i < languages.size() && i < names.size(); ++i)
        m_language->addItem(names.at(i), languages.at(i));
    m_language->setCurrentIndex(std::max(0, m_language->findData(m_initial.language)));

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    form->addRow(tr("&Store:"), withBrowse(m_store, browseStoreButton, this));
    form->addRow(QString(), note(tr("Takes effect when Sandbench starts next. --store and $SANDBENCH_STORE come "
                                    "first."),
                                 this));
    form->addRow(tr("Default &policy:"), withBrowse(m_policy, browsePolicyButton, this));
    form->addRow(QString(), m_policyProblem);
    form->addRow(QString(), note(tr("The policy of the snippets you run (not of the demo); the toolbar's isolation "
                                    "level and limits apply on top."),
                                 this));
    form->addRow(tr("Editor &font:"), fontRow);
    form->addRow(tr("&Theme:"), m_theme);
    form->addRow(tr("&Language:"), m_language);
    form->addRow(QString(), note(tr("Takes effect when Sandbench starts next."), this));
    if (auto* fontLabel = qobject_cast<QLabel*>(form->labelForField(fontRow)))
        fontLabel->setBuddy(m_fontFamily);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addStretch(1);
    layout->addWidget(buttons);
    resize(620, sizeHint().height());
    checkPolicy();
}

AppSettings SettingsDialog::settings() const
{
    AppSettings s;
    s.storePath = m_store->text().trimmed();
    s.defaultPolicy = m_policy->currentText().trimmed();
    s.editorFont = m_fontChosen ? chosenFont() : m_initial.editorFont;
    s.theme = themeFromName(m_theme->currentData().toString());
    s.language = m_language->currentData().toString();
    return s;
}

void SettingsDialog::browseStore()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Store"), m_store->text(),
                                                      tr("Sandbench stores (*.db);;All files (*)"), nullptr,
                                                      QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty())
        m_store->setText(path);
}

void SettingsDialog::browsePolicy()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Default policy"), QString(),
                                                      tr("Policies (*.yaml *.yml);;All files (*)"));
    if (!path.isEmpty())
        m_policy->setEditText(path);
}

void SettingsDialog::fontChanged()
{
    m_fontChosen = true;
    CodeEditor::setSharedFont(chosenFont());
}

QFont SettingsDialog::chosenFont() const
{
    // A machine without fixed-width fonts in the list keeps the system's, at the size chosen.
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (const QString family = m_fontFamily->currentFont().family(); !family.isEmpty())
        font.setFamily(family);
    font.setPointSize(m_fontSize->value());
    return font;
}

void SettingsDialog::themeChanged()
{
    applyTheme(themeFromName(m_theme->currentData().toString()));
}

void SettingsDialog::checkPolicy()
{
    const auto problem = policyProblem(m_policy->currentText());
    m_policyProblem->setText(problem ? tr("This policy cannot rule a run: %1").arg(*problem) : QString());
    m_policyProblem->setVisible(problem.has_value());
}

void SettingsDialog::accept()
{
    // Fail closed: a default policy that cannot rule a run is not kept.
    if (policyProblem(m_policy->currentText())) {
        checkPolicy();
        m_policy->setFocus();
        return;
    }
    settings().save();
    QDialog::accept();
}

void SettingsDialog::reject()
{
    CodeEditor::setSharedFont(m_initial.editorFont);
    applyTheme(m_initial.theme);
    QDialog::reject();
}

} // namespace sb::ui
