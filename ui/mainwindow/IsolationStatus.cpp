#include "ui/mainwindow/IsolationStatus.h"

#include "ui/models/Conversions.h"

#include <QDialogButtonBox>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace sb::ui {

namespace {

QString levelName(sb::IsolationLevel level)
{
    return toQString(sb::toString(level));
}

} // namespace

IsolationStatus::IsolationStatus(QWidget* parent)
    : QToolButton(parent)
{
    setObjectName(QStringLiteral("isolationStatus"));
    setAutoRaise(true);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    setAccessibleName(tr("Isolation of the next run"));
    setToolTip(tr("The sandbox's layers on this machine, as sandbench doctor finds them: click for the details"));
    setText(tr("Isolation: checking…"));
    connect(this, &QToolButton::clicked, this, &IsolationStatus::showReport);
    auto* watcher = new QFutureWatcher<sb::DoctorReport>(this);
    connect(watcher, &QFutureWatcher<sb::DoctorReport>::finished, this, [this, watcher] {
        m_report = watcher->result();
        watcher->deleteLater();
        updateText();
        emit reportReady();
    });
    watcher->setFuture(QtConcurrent::run([] { return sb::runDoctor(); }));
}

void IsolationStatus::setLevel(std::optional<sb::IsolationLevel> level)
{
    m_level = level;
    updateText();
}

void IsolationStatus::updateText()
{
    const QString level = m_level ? levelName(*m_level) : tr("the policy's level");
    if (!m_report) {
        setText(tr("Isolation: %1").arg(level));
        return;
    }
    const auto& layers = m_report->layers;
    const auto found = std::count_if(layers.begin(), layers.end(), [](const sb::LayerStatus& l) { return l.available; });
    setText(tr("Isolation: %1 · %2 of %3 layers").arg(level).arg(found).arg(layers.size()));
}

void IsolationStatus::showReport()
{
    if (!m_report)
        return; // the probe is still running: the text says so
    auto* dialog = new DoctorDialog(*m_report, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

DoctorDialog::DoctorDialog(const sb::DoctorReport& report, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("doctorDialog"));
    setWindowTitle(tr("Isolation on this machine"));
    auto* layout = new QVBoxLayout(this);

    QStringList levels;
    for (const auto& [level, available] : report.levels)
        levels << (available ? tr("%1: yes") : tr("%1: no")).arg(levelName(level));
    auto* summary = new QLabel(tr("Isolation levels a run can have here — %1").arg(levels.join(QStringLiteral(", "))), this);
    summary->setObjectName(QStringLiteral("doctorLevels"));
    summary->setWordWrap(true);
    layout->addWidget(summary);

    auto* table = new QTableWidget(static_cast<int>(report.layers.size()), 3, this);
    table->setObjectName(QStringLiteral("doctorLayers"));
    table->setHorizontalHeaderLabels({tr("Layer"), tr("Here"), tr("What was found")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(true);
    for (int row = 0; row < table->rowCount(); ++row) {
        const auto& layer = report.layers[static_cast<std::size_t>(row)];
        table->setItem(row, 0, new QTableWidgetItem(toQString(layer.name)));
        auto* here = new QTableWidgetItem(layer.available ? tr("yes") : tr("no"));
        here->setForeground(layer.available ? QColor(0x1a, 0x7f, 0x37) : QColor(0xb3, 0x26, 0x1e));
        table->setItem(row, 1, here);
        table->setItem(row, 2, new QTableWidgetItem(toQString(layer.detail)));
    }
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeRowsToContents();
    layout->addWidget(table, 1);

    for (const auto& note : report.notes) {
        auto* label = new QLabel(toQString(note), this);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(label);
    }
    auto* hint = new QLabel(tr("The same report on the command line: <code>sandbench doctor</code> (or <code>--json</code>)."), this);
    hint->setTextFormat(Qt::RichText);
    layout->addWidget(hint);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(820, 460);
}

} // namespace sb::ui
