#include "ui/audit/AuditView.h"

#include "ui/models/AuditLogModel.h"
#include "ui/models/Conversions.h"
#include "ui/style/Icons.h"
#include "util/printable.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

const QString kNeutral = QStringLiteral("#5f666d");
const QString kIntact = QStringLiteral("#1e7d32");
const QString kBroken = QStringLiteral("#8a1c12");
constexpr int kProgressSteps = 1000;
constexpr int kTextFilterDelayMs = 250; // typing a word reloads once, not per key

} // namespace

AuditView::AuditView(QWidget* parent)
    : QWidget(parent)
    , m_jobs(new AuditJobRunner(this))
    , m_model(new AuditLogModel(this))
    , m_operation(new QComboBox(this))
    , m_actor(new QComboBox(this))
    , m_text(new QLineEdit(this))
    , m_refresh(new QToolButton(this))
    , m_count(new QLabel(this))
    , m_table(new QTableView(this))
    , m_verify(new QPushButton(actionIcon(ActionIcon::Verify), tr("&Verify chain"), this))
    , m_cancel(new QToolButton(this))
    , m_progress(new QProgressBar(this))
    , m_verdict(new QLabel(this))
    , m_textDelay(new QTimer(this))
{
    setObjectName(QStringLiteral("auditView"));

    m_operation->setObjectName(QStringLiteral("auditOperationFilter"));
    m_operation->setToolTip(tr("Show one operation only"));
    m_operation->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_actor->setObjectName(QStringLiteral("auditActorFilter"));
    m_actor->setToolTip(tr("Show one actor only"));
    m_actor->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    refillCombo(m_operation, tr("All operations"), {});
    refillCombo(m_actor, tr("All actors"), {});
    m_text->setObjectName(QStringLiteral("auditTextFilter"));
    m_text->setPlaceholderText(tr("Filter: subject, details…"));
    m_text->setClearButtonEnabled(true);
    m_text->setToolTip(tr("Show entries holding this text in their actor, operation, subject or details"));
    m_refresh->setObjectName(QStringLiteral("auditRefreshButton"));
    m_refresh->setIcon(actionIcon(ActionIcon::Refresh));
    m_refresh->setToolTip(tr("Read the log again"));
    m_refresh->setAutoRaise(true);
    m_count->setObjectName(QStringLiteral("auditCountLabel"));
    m_count->setStyleSheet(QStringLiteral("color: %1;").arg(kNeutral));

    // One row for what to show and for Verify, so the table keeps the height; the verdict goes below it.
    auto* filters = new QHBoxLayout;
    filters->setSpacing(6);
    filters->addWidget(m_operation);
    filters->addWidget(m_actor);
    filters->addWidget(m_text, 1);
    filters->addWidget(m_refresh);
    filters->addWidget(m_count);
    filters->addSpacing(12);
    filters->addWidget(m_verify);
    filters->addWidget(m_progress);
    filters->addWidget(m_cancel);

    m_table->setObjectName(QStringLiteral("auditTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    auto* header = m_table->horizontalHeader();
    header->setStretchLastSection(true);
    header->setHighlightSections(false);
    header->resizeSection(AuditLogModel::SeqColumn, 56);
    header->resizeSection(AuditLogModel::TimeColumn, 150);
    header->resizeSection(AuditLogModel::ActorColumn, 90);
    header->resizeSection(AuditLogModel::OperationColumn, 120);
    header->resizeSection(AuditLogModel::SubjectColumn, 260);

    m_verify->setObjectName(QStringLiteral("auditVerifyButton"));
    m_verify->setToolTip(tr("Walk the whole hash chain and name the first entry that was altered or removed"));
    m_cancel->setObjectName(QStringLiteral("auditCancelButton"));
    m_cancel->setIcon(actionIcon(ActionIcon::Cancel));
    m_cancel->setToolTip(tr("Stop verifying"));
    m_cancel->setAutoRaise(true);
    m_progress->setObjectName(QStringLiteral("auditVerifyProgress"));
    m_progress->setRange(0, kProgressSteps);
    m_progress->setFixedWidth(160);
    m_progress->setTextVisible(true);
    m_verdict->setObjectName(QStringLiteral("auditVerifyResult"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse); // the head hash is there to be copied
    m_verdict->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_verdict);

    m_textDelay->setSingleShot(true);
    m_textDelay->setInterval(kTextFilterDelayMs);
    connect(m_textDelay, &QTimer::timeout, this, &AuditView::reload);
    connect(m_text, &QLineEdit::textChanged, m_textDelay, qOverload<>(&QTimer::start));
    connect(m_text, &QLineEdit::returnPressed, this, &AuditView::reload);
    connect(m_operation, &QComboBox::currentIndexChanged, this, &AuditView::reload);
    connect(m_actor, &QComboBox::currentIndexChanged, this, &AuditView::reload);
    connect(m_refresh, &QToolButton::clicked, this, &AuditView::reload);
    connect(m_verify, &QPushButton::clicked, this, &AuditView::startVerify);
    connect(m_cancel, &QToolButton::clicked, m_jobs, &AuditJobRunner::cancelVerify);
    connect(m_jobs, &AuditJobRunner::loaded, this, &AuditView::onLoaded);
    connect(m_jobs, &AuditJobRunner::verifyProgress, this, &AuditView::onVerifyProgress);
    connect(m_jobs, &AuditJobRunner::verified, this, &AuditView::onVerified);

    setVerifying(false);
    showVerdict(tr("Not verified yet. Verify walks the whole hash chain and names the first entry that was "
                   "altered or removed."),
                kNeutral);
    updateCount();
}

void AuditView::setStorePath(std::optional<std::filesystem::path> path)
{
    const bool usable = path.has_value();
    m_jobs->setStorePath(std::move(path));
    m_verify->setEnabled(usable && !m_jobs->isVerifying());
    m_refresh->setEnabled(usable);
    if (!usable) {
        m_model->setRecords({});
        m_model->setBrokenSeq(std::nullopt);
        showVerdict(tr("The store is unavailable: there is no audit log to show."), kNeutral);
        updateCount();
        return;
    }
    reload();
}

void AuditView::storeChanged()
{
    if (!m_jobs->isVerifying() && m_model->brokenSeq() == std::nullopt && m_verdict->property("verified").toBool()) {
        // An intact verdict no longer covers the new entries; a broken one stays true.
        m_verdict->setProperty("verified", false);
        showVerdict(tr("New entries since the last verification. Verify again to cover them."), kNeutral);
    }
    reload();
}

void AuditView::reload()
{
    m_textDelay->stop();
    sb::AuditFilter filter;
    filter.operation = toStdString(m_operation->currentData().toString());
    filter.actor = toStdString(m_actor->currentData().toString());
    filter.text = toStdString(m_text->text().trimmed());
    m_jobs->load(filter);
}

void AuditView::refillCombo(QComboBox* combo, const QString& all, const std::vector<std::string>& values)
{
    // The choice survives a reload when its value is still there.
    const QString current = combo->currentData().toString();
    const QSignalBlocker blocker(combo);
    combo->clear();
    combo->addItem(all, QString());
    for (const auto& value : values) {
        const QString text = toQString(value);
        combo->addItem(toQString(sb::printable(value, 64)), text);
    }
    const int index = combo->findData(current);
    if (index >= 0) {
        combo->setCurrentIndex(index);
    } else if (!current.isEmpty()) {
        // Keep a filter the log no longer has (e.g. after tampering) visible rather than silently dropping it.
        combo->addItem(current, current);
        combo->setCurrentIndex(combo->count() - 1);
    }
}

void AuditView::onLoaded(const AuditSnapshot& snapshot)
{
    if (!snapshot.error.isEmpty()) {
        m_model->setRecords({});
        m_count->setText(tr("Cannot read the log"));
        m_count->setToolTip(snapshot.error);
        return;
    }
    refillCombo(m_operation, tr("All operations"), snapshot.facets.operations);
    refillCombo(m_actor, tr("All actors"), snapshot.facets.actors);
    m_limited = snapshot.limited;
    m_model->setRecords(snapshot.records);
    updateCount();
    // Follow the log's end, unless the broken entry is the one to look at.
    if (const auto broken = m_model->brokenSeq(); broken && m_model->rowOfSeq(*broken) >= 0)
        m_table->scrollTo(m_model->index(m_model->rowOfSeq(*broken), 0), QAbstractItemView::PositionAtCenter);
    else
        m_table->scrollToBottom();
}

void AuditView::updateCount()
{
    const int rows = m_model->rowCount();
    m_count->setToolTip({});
    // "Entries: N" needs no plural forms, which English would only get from a translation file.
    m_count->setText(m_limited ? tr("Latest entries: %L1").arg(rows) : tr("Entries: %L1").arg(rows));
}

void AuditView::startVerify()
{
    if (m_jobs->isVerifying() || !m_jobs->storePath())
        return;
    m_model->setBrokenSeq(std::nullopt);
    m_progress->setValue(0);
    m_progress->setFormat(tr("starting…"));
    if (m_jobs->verify() != 0) {
        setVerifying(true);
        showVerdict(tr("Verifying the hash chain…"), kNeutral);
    }
}

void AuditView::setVerifying(bool verifying)
{
    m_verify->setEnabled(!verifying && m_jobs->storePath().has_value());
    m_cancel->setEnabled(verifying);
    m_cancel->setVisible(verifying);
    m_progress->setVisible(verifying);
}

void AuditView::onVerifyProgress(qint64 done, qint64 total)
{
    m_progress->setValue(total > 0 ? static_cast<int>(done * kProgressSteps / total) : 0);
    m_progress->setFormat(tr("%L1 of %L2").arg(done).arg(total));
}

void AuditView::onVerified(const AuditCheck& check, bool cancelled)
{
    setVerifying(false);
    m_verdict->setProperty("verified", false);
    if (!check.verification) {
        showVerdict(tr("Cannot verify: %1").arg(check.error), kBroken);
        return;
    }
    const sb::AuditVerification& result = *check.verification;
    if (cancelled) {
        showVerdict(tr("Cancelled (entries checked: %L1): nothing is known about the rest.").arg(result.entries),
                    kNeutral);
        return;
    }
    if (result.intact()) {
        m_verdict->setProperty("verified", true);
        if (result.entries == 0)
            showVerdict(tr("✔ Intact: the log is empty."), kIntact);
        else
            showVerdict(tr("✔ Intact (entries: %L1). Head #%2: %3")
                            .arg(result.entries)
                            .arg(result.headSeq)
                            .arg(toQString(result.headHash)),
                        kIntact);
        return;
    }
    const sb::AuditBreak& broken = *result.broken;
    const QString kind = toQString(sb::toString(broken.damage));
    const QString message = toQString(sb::printable(broken.message, 400));
    QString text = broken.seq > 0 ? tr("✘ Broken at entry %1 (%2): %3").arg(broken.seq).arg(kind, message)
                                  : tr("✘ Broken (%1): %2").arg(kind, message);
    if (broken.seq > 0) {
        m_model->setBrokenSeq(broken.seq);
        const int row = m_model->rowOfSeq(broken.seq);
        if (row >= 0) {
            // Made current, not selected: a selection's colour would hide the row's red.
            const QModelIndex index = m_model->index(row, 0);
            m_table->clearSelection();
            m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::NoUpdate);
            m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
        } else {
            text += QLatin1Char(' ') + tr("The entry is not among the rows shown (removed, or hidden by a filter).");
        }
    }
    showVerdict(text, kBroken);
}

void AuditView::showVerdict(const QString& text, const QString& colour)
{
    m_verdict->setText(text);
    m_verdict->setStyleSheet(QStringLiteral("color: %1;").arg(colour));
}

} // namespace sb::ui
