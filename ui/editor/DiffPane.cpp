#include "ui/editor/DiffPane.h"

#include "ui/editor/DiffView.h"
#include "ui/editor/SideBySideDiffView.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

const QString kUnified = QStringLiteral("unified");
const QString kSideBySide = QStringLiteral("side-by-side");

} // namespace

DiffPane::DiffPane(const QString& settingsKey, QWidget* parent)
    : QWidget(parent)
    , m_settingsKey(settingsKey)
    , m_unifiedButton(new QToolButton(this))
    , m_sideBySideButton(new QToolButton(this))
    , m_stack(new QStackedWidget(this))
    , m_unified(new DiffView(this))
    , m_sides(new SideBySideDiffView(this))
    , m_notice(new QLabel(this))
{
    m_unifiedButton->setObjectName(QStringLiteral("diffUnified"));
    m_unifiedButton->setText(tr("Unified"));
    m_unifiedButton->setToolTip(tr("Show the diff as one column: removed lines above the lines that replace them"));
    m_sideBySideButton->setObjectName(QStringLiteral("diffSideBySide"));
    m_sideBySideButton->setText(tr("Side by side"));
    m_sideBySideButton->setToolTip(tr("Show the old version on the left and the new one on the right"));
    auto* group = new QButtonGroup(this);
    for (auto* button : {m_unifiedButton, m_sideBySideButton}) {
        button->setCheckable(true);
        button->setAutoRaise(true);
        group->addButton(button);
    }
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(new QLabel(tr("Diff:"), this));
    bar->addWidget(m_unifiedButton);
    bar->addWidget(m_sideBySideButton);
    bar->addStretch(1);

    m_notice->setObjectName(QStringLiteral("diffNotice"));
    m_notice->setWordWrap(true);
    m_notice->setAlignment(Qt::AlignCenter);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->setMargin(24);
    m_notice->setAutoFillBackground(true);
    m_notice->setStyleSheet(QStringLiteral("QLabel#diffNotice { background: #f6f8fa; border: 1px solid #d0d7de; }"));
    m_stack->addWidget(m_unified);
    m_stack->addWidget(m_sides);
    m_stack->addWidget(m_notice);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);

    const QString saved = QSettings().value(m_settingsKey, kUnified).toString();
    m_mode = saved == kSideBySide ? Mode::SideBySide : Mode::Unified;
    (m_mode == Mode::SideBySide ? m_sideBySideButton : m_unifiedButton)->setChecked(true);
    connect(m_unifiedButton, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            setMode(Mode::Unified);
    });
    connect(m_sideBySideButton, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            setMode(Mode::SideBySide);
    });
    showCurrent();
}

void DiffPane::setMode(Mode mode)
{
    (mode == Mode::SideBySide ? m_sideBySideButton : m_unifiedButton)->setChecked(true);
    if (m_mode == mode)
        return;
    m_mode = mode;
    QSettings().setValue(m_settingsKey, mode == Mode::SideBySide ? kSideBySide : kUnified);
    showCurrent();
}

bool DiffPane::showsNotice() const
{
    return m_noticeShown;
}

void DiffPane::showDiff(const QString& unified)
{
    m_unified->showDiff(unified);
    const DiffLayout layout = DiffLayout::fromUnified(unified);
    m_sides->showLayout(layout);
    m_noticeShown = layout.empty() && !unified.isEmpty();
    if (m_noticeShown)
        m_notice->setText(unified.toHtmlEscaped());
    showCurrent();
}

void DiffPane::showNotice(const QString& title, const QString& text)
{
    m_unified->showDiff(title + QLatin1Char('\n') + text);
    m_sides->showLayout({});
    m_notice->setText(QStringLiteral("<p style='font-size: large'><b>%1</b></p><p>%2</p>")
                          .arg(title.toHtmlEscaped(), text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
    m_noticeShown = true;
    showCurrent();
}

void DiffPane::showCurrent()
{
    if (m_noticeShown)
        m_stack->setCurrentWidget(m_notice);
    else
        m_stack->setCurrentWidget(m_mode == Mode::SideBySide ? static_cast<QWidget*>(m_sides) : m_unified);
}

} // namespace sb::ui
