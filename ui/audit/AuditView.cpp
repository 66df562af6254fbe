#include "ui/audit/AuditView.h"

#include "ui/audit/AuditEntryPane.h"
#include "ui/models/AuditLogModel.h"
#include "ui/models/Conversions.h"
#include "ui/style/Icons.h"
#include "usecases/audit_verify.h"
#include "util/printable.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <QEvent>

#include <algorithm>
#include <set>
#include <utility>

namespace sb::ui {

namespace {

const QString kNeutral = QStringLiteral("#5f666d");
const QString kIntact = QStringLiteral("#1e7d32");
const QString kBroken = QStringLiteral("#8a1c12");
constexpr int kProgressSteps = 1000;
constexpr int kTextFilterDelayMs = 250; // typing a word reloads once, not per key
constexpr int kShortHash = 7;           // a head hash in the verdict: enough to compare by eye

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
    , m_split(new QSplitter(Qt::Horizontal, this))
    , m_table(new QTableView(m_split))
    , m_pane(new AuditEntryPane(m_split))
    , m_export(new QToolButton(this))
    , m_exportProgress(new QProgressBar(this))
    , m_exportCancel(new QToolButton(this))
    , m_verify(new QPushButton(actionIcon(ActionIcon::Verify), tr("&Verify chain"), this))
    , m_cancel(new QToolButton(this))
    , m_progress(new QProgressBar(this))
    , m_verdict(new QLabel(this))
    , m_textDelay(new QTimer(this))
{
    setObjectName(QStringLiteral("auditView"));

    m_operation->setObjectName(QStringLiteral("auditOperationFilter"));
    m_operation->setToolTip(tr("Show one action, or one family of actions (checkpoint.*)"));
    m_operation->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_actor->setObjectName(QStringLiteral("auditActorFilter"));
    m_actor->setToolTip(tr("Show one actor only"));
    m_actor->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    refillOperations(m_operation, tr("All actions"), {});
    refillCombo(m_actor, tr("All actors"), {});
    m_text->setObjectName(QStringLiteral("auditTextFilter"));
    m_text->setPlaceholderText(tr("Filter: subject, details…"));
    m_text->setClearButtonEnabled(true);
    m_text->setToolTip(tr("Show entries holding this text in their actor, action, subject or details"));
    m_refresh->setObjectName(QStringLiteral("auditRefreshButton"));
    m_refresh->setIcon(actionIcon(ActionIcon::Refresh));
    m_refresh->setToolTip(tr("Read the log again"));
    m_refresh->setAccessibleName(tr("Refresh the audit log"));
    m_refresh->setAutoRaise(true);
    m_count->setObjectName(QStringLiteral("auditCountLabel"));
    m_count->setStyleSheet(QStringLiteral("color: %1;").arg(kNeutral));

    m_export->setObjectName(QStringLiteral("auditExportButton"));
    m_export->setText(tr("&Export"));
    m_export->setToolTip(tr("Write the entries the filters match to a file"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_export->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* exportMenu = new QMenu(m_export);
    exportMenu->setObjectName(QStringLiteral("auditExportMenu"));
    exportMenu->addAction(tr("As &CSV…"), this, [this] { askExport(sb::AuditExportFormat::Csv); });
    exportMenu->addAction(tr("As &JSON Lines…"), this, [this] { askExport(sb::AuditExportFormat::JsonLines); });
    m_export->setMenu(exportMenu);
    m_exportProgress->setObjectName(QStringLiteral("auditExportProgress"));
    m_exportProgress->setRange(0, kProgressSteps);
    m_exportProgress->setFixedWidth(120);
    m_exportCancel->setObjectName(QStringLiteral("auditExportCancelButton"));
    m_exportCancel->setIcon(actionIcon(ActionIcon::Cancel));
    m_exportCancel->setToolTip(tr("Stop exporting"));
    m_exportCancel->setAccessibleName(tr("Stop exporting"));
    m_exportCancel->setAutoRaise(true);

    // One row for what to show, Export and Verify, so the table keeps the height; the verdict goes below.
    auto* filters = new QHBoxLayout;
    filters->setSpacing(6);
    filters->addWidget(m_operation);
    filters->addWidget(m_actor);
    filters->addWidget(m_text, 1);
    filters->addWidget(m_refresh);
    filters->addWidget(m_count);
    filters->addSpacing(8);
    filters->addWidget(m_export);
    filters->addWidget(m_exportProgress);
    filters->addWidget(m_exportCancel);
    filters->addWidget(m_verify);
    filters->addWidget(m_progress);
    filters->addWidget(m_cancel);

    m_table->setObjectName(QStringLiteral("auditTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    // Compact rows: a log is read by scanning many of them.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    auto* header = m_table->horizontalHeader();
    header->setHighlightSections(false);
    header->setStretchLastSection(false);
    // Widths from the font, so that a time, an action and an outcome fit whole; the subject gets what the
    // width allows (fitColumns; its tooltip and the pane name it in full) and the details the rest. The entry's
    // number is in its tooltip and its pane.
    const QFontMetrics metrics = m_table->fontMetrics();
    const auto fit = [&metrics](const QString& text) { return metrics.horizontalAdvance(text) + 14; };
    header->resizeSection(AuditLogModel::TimeColumn, fit(QStringLiteral("00-00 00:00")));
    header->resizeSection(AuditLogModel::ActorColumn, fit(QStringLiteral("mallory")));
    header->resizeSection(AuditLogModel::OperationColumn, fit(QStringLiteral("checkpoint.create")));
    header->resizeSection(AuditLogModel::SubjectColumn, fit(QStringLiteral("run 3f2a91c · print(1).py")));
    header->resizeSection(AuditLogModel::OutcomeColumn, fit(QStringLiteral("memory_limit")));
    header->resizeSection(AuditLogModel::SeqColumn, fit(QStringLiteral("000000")));
    m_table->setColumnHidden(AuditLogModel::SeqColumn, true);
    header->setSectionResizeMode(AuditLogModel::DetailsColumn, QHeaderView::Stretch);
    m_table->viewport()->installEventFilter(this);
    header->setMinimumSectionSize(40);

    m_split->setObjectName(QStringLiteral("auditSplitter"));
    m_split->addWidget(m_table);
    m_split->addWidget(m_pane);
    // The table gets about two thirds: its first five columns whole beside a readable entry.
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 1);
    m_split->setChildrenCollapsible(true);

    m_verify->setObjectName(QStringLiteral("auditVerifyButton"));
    m_verify->setToolTip(tr("Walk the whole hash chain and name the first entry that was altered or removed"));
    m_cancel->setObjectName(QStringLiteral("auditCancelButton"));
    m_cancel->setIcon(actionIcon(ActionIcon::Cancel));
    m_cancel->setToolTip(tr("Stop verifying"));
    m_cancel->setAccessibleName(tr("Stop verifying"));
    m_cancel->setAutoRaise(true);
    m_progress->setObjectName(QStringLiteral("auditVerifyProgress"));
    m_progress->setRange(0, kProgressSteps);
    m_progress->setFixedWidth(140);
    m_progress->setTextVisible(true);
    m_verdict->setObjectName(QStringLiteral("auditVerifyResult"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    m_verdict->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(3);
    layout->addLayout(filters);
    layout->addWidget(m_split, 1);
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
    connect(m_exportCancel, &QToolButton::clicked, m_jobs, &AuditJobRunner::cancelExport);
    connect(m_jobs, &AuditJobRunner::loaded, this, &AuditView::onLoaded);
    connect(m_jobs, &AuditJobRunner::verifyProgress, this, &AuditView::onVerifyProgress);
    connect(m_jobs, &AuditJobRunner::verified, this, &AuditView::onVerified);
    connect(m_jobs, &AuditJobRunner::exportProgress, this, [this](qint64 done, qint64 total) {
        m_exportProgress->setValue(total > 0 ? static_cast<int>(done * kProgressSteps / total) : 0);
        m_exportProgress->setFormat(tr("%L1 of %L2").arg(done).arg(total));
    });
    connect(m_jobs, &AuditJobRunner::exported, this, &AuditView::onExported);
    connect(m_model, &AuditLogModel::olderWanted, this,
            [this](qint64 beforeSeq) { m_jobs->loadOlder(currentFilter(), beforeSeq, m_selectSeq); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &AuditView::showSelected);
    connect(m_model, &QAbstractItemModel::modelReset, this, &AuditView::showSelected);
    connect(m_pane, &AuditEntryPane::openRequested, this, &AuditView::openRequested);
    connect(m_verdict, &QLabel::linkActivated, this, [this](const QString& link) {
        // "entry:N": the entry the verdict names.
        if (link.startsWith(QLatin1String("entry:")))
            selectSeq(link.mid(6).toLongLong());
    });

    setVerifying(false);
    setExporting(false);
    showVerdict(tr("Not verified yet. Verify walks the whole hash chain and names the first entry that was "
                   "altered or removed."),
                kNeutral);
    updateCount();
}

bool AuditView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

void AuditView::fitColumns()
{
    // The subject shrinks before the outcome moves out of sight, down to a short name's width; narrower
    // still, the actor gives way (the tooltip and the pane keep it). The details (stretched) keep a glimpse.
    auto* header = m_table->horizontalHeader();
    const QFontMetrics metrics = m_table->fontMetrics();
    const int preferred = metrics.horizontalAdvance(QStringLiteral("trial · checkpoint c0ffee1 “reviewed”")) + 14;
    const int least = metrics.horizontalAdvance(QStringLiteral("run 3f2a91c")) + 14;
    const int detailsGlimpse = metrics.horizontalAdvance(QStringLiteral("label=demo")) + 14;
    int fixed = 0;
    for (const int column : {AuditLogModel::TimeColumn, AuditLogModel::OperationColumn, AuditLogModel::OutcomeColumn})
        fixed += header->sectionSize(column);
    int available = m_table->viewport()->width() - fixed - detailsGlimpse;
    const bool actor = available - header->sectionSize(AuditLogModel::ActorColumn) >= least;
    m_table->setColumnHidden(AuditLogModel::ActorColumn, !actor);
    if (actor)
        available -= header->sectionSize(AuditLogModel::ActorColumn);
    header->resizeSection(AuditLogModel::SubjectColumn, std::clamp(available, least, preferred));
}

void AuditView::setStorePath(std::optional<std::filesystem::path> path)
{
    const bool usable = path.has_value();
    m_jobs->setStorePath(std::move(path));
    m_verify->setEnabled(usable && !m_jobs->isVerifying());
    m_refresh->setEnabled(usable);
    m_export->setEnabled(usable && !m_jobs->isExporting());
    if (!usable) {
        m_model->setRows({}, false);
        m_model->setBrokenSeq(std::nullopt);
        showVerdict(tr("The store is unavailable: there is no audit log to show."), kNeutral);
        updateCount();
        return;
    }
    reload();
}

void AuditView::storeChanged()
{
    markVerdictOutOfDate();
    reload();
}

void AuditView::markVerdictOutOfDate()
{
    if (!m_jobs->isVerifying() && m_model->brokenSeq() == std::nullopt && m_verdict->property("verified").toBool()) {
        // An intact verdict no longer covers the new entries; a broken one stays true.
        m_verdict->setProperty("verified", false);
        showVerdict(tr("New entries since the last verification. Verify again to cover them."), kNeutral);
    }
}

void AuditView::follow()
{
    // A filter being typed reloads on its own in a moment; an older page being read would be dropped.
    if (!m_jobs->storePath() || m_textDelay->isActive() || m_jobs->isLoadingOlder())
        return;
    m_jobs->load(currentFilter());
    m_following = true;
}

std::optional<std::int64_t> AuditView::topSeqScrolled() const
{
    if (m_table->verticalScrollBar()->value() == 0)
        return std::nullopt;
    const QModelIndex top = m_table->indexAt(QPoint(0, 0));
    return top.isValid() ? std::optional<std::int64_t>(top.data(AuditLogModel::SeqRole).toLongLong()) : std::nullopt;
}

sb::AuditFilter AuditView::currentFilter() const
{
    sb::AuditFilter filter;
    filter.operation = toStdString(m_operation->currentData().toString());
    filter.actor = toStdString(m_actor->currentData().toString());
    filter.text = toStdString(m_text->text().trimmed());
    return filter;
}

void AuditView::reload()
{
    m_following = false;
    m_textDelay->stop();
    m_jobs->load(currentFilter());
}

void AuditView::refillOperations(QComboBox* combo, const QString& all, const std::vector<std::string>& values)
{
    // Each family (the part before the first dot) first, as "family.*", then the actions themselves.
    std::set<std::string> families;
    for (const auto& value : values) {
        if (const auto dot = value.find('.'); dot != std::string::npos)
            families.insert(value.substr(0, dot));
    }
    std::vector<std::string> choices;
    for (const auto& value : values) {
        const auto dot = value.find('.');
        const std::string family = dot == std::string::npos ? std::string() : value.substr(0, dot);
        if (!family.empty() && families.erase(family) > 0)
            choices.push_back(family + ".*");
        choices.push_back(value);
    }
    refillCombo(combo, all, choices);
    // "family.*" filters on the family, which listAudit matches with every "family.x".
    for (int i = 1; i < combo->count(); ++i) {
        const QString value = combo->itemData(i).toString();
        if (value.endsWith(QLatin1String(".*")))
            combo->setItemData(i, value.chopped(2));
    }
}

void AuditView::refillCombo(QComboBox* combo, const QString& all, const std::vector<std::string>& values)
{
    // The choice survives a reload when its value is still there.
    const QString current = combo->currentData().toString();
    const QSignalBlocker blocker(combo);
    combo->clear();
    combo->addItem(all, QString());
    for (const auto& value : values) {
        QString text = toQString(value);
        combo->addItem(toQString(sb::printable(value, 64)), text);
    }
    int index = combo->findData(current);
    if (index < 0 && !current.isEmpty())
        index = combo->findData(QString(current + QStringLiteral(".*"))); // a family, before refillOperations names it
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
        if (!snapshot.beforeSeq)
            m_model->setRows({}, false);
        m_count->setText(tr("Cannot read the log"));
        m_count->setToolTip(snapshot.error);
        return;
    }
    if (snapshot.beforeSeq) {
        m_model->appendOlder(snapshot.rows, snapshot.more, *snapshot.beforeSeq);
        updateCount();
        if (m_selectSeq && m_model->rowOfSeq(*m_selectSeq) >= 0)
            selectSeq(*m_selectSeq);
        else if (m_selectSeq && (!m_model->hasMore() || m_model->oldestSeq().value_or(0) <= *m_selectSeq))
            m_selectSeq.reset(); // read past it: a filter hides it
        return;
    }
    // Entries are numbered from 1: 0 is none (an optional here trips GCC's maybe-uninitialized).
    const std::int64_t selected =
        m_table->currentIndex().isValid() ? m_table->currentIndex().data(AuditLogModel::SeqRole).toLongLong() : 0;
    const bool following = std::exchange(m_following, false);
    const std::int64_t top = topSeqScrolled().value_or(0);
    const std::int64_t newest = m_model->rowCount() > 0 ? m_model->index(0, 0).data(AuditLogModel::SeqRole).toLongLong() : 0;
    refillOperations(m_operation, tr("All actions"), snapshot.facets.operations);
    refillCombo(m_actor, tr("All actors"), snapshot.facets.actors);
    m_model->setRows(snapshot.rows, snapshot.more);
    updateCount();
    if (following && !snapshot.rows.empty() && snapshot.rows.front().record.seq != newest)
        markVerdictOutOfDate();
    if (following && !m_selectSeq) {
        // Followed: nothing moves under the person's eyes. The entry looked at stays selected, the rows in view
        // stay in view; at the top, the newest entries show.
        if (const int row = m_model->rowOfSeq(selected); selected > 0 && row >= 0)
            m_table->selectionModel()->setCurrentIndex(m_model->index(row, 0),
                                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        if (const int row = m_model->rowOfSeq(top); top > 0 && row >= 0)
            m_table->scrollTo(m_model->index(row, 0), QAbstractItemView::PositionAtTop);
        else
            m_table->scrollToTop();
        return;
    }
    // The entry looked at stays selected; the broken one is brought in when it is not among the rows.
    if (m_selectSeq)
        selectSeq(*m_selectSeq);
    else if (selected > 0 && m_model->rowOfSeq(selected) >= 0)
        selectSeq(selected);
    else
        m_table->scrollToTop();
}

void AuditView::selectSeq(std::int64_t seq)
{
    const int row = m_model->rowOfSeq(seq);
    if (row < 0) {
        // Older than the rows read: read down to it, then select it (onLoaded).
        m_selectSeq = seq;
        if (m_model->hasMore() && m_model->oldestSeq() && *m_model->oldestSeq() > seq
            && m_model->canFetchMore({}))
            m_model->fetchMore({});
        else if (!m_model->hasMore())
            m_selectSeq.reset();
        return;
    }
    m_selectSeq.reset();
    const QModelIndex index = m_model->index(row, 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

void AuditView::showSelected()
{
    const QModelIndex current = m_table->currentIndex();
    const AuditRow* row = current.isValid() ? m_model->rowAt(current.row()) : nullptr;
    const bool breaks = row && m_model->brokenSeq() == row->record.seq;
    m_pane->showEntry(row, breaks ? m_breakMessage : QString());
}

void AuditView::updateCount()
{
    const int rows = m_model->rowCount();
    m_count->setToolTip(m_model->hasMore() ? tr("Scroll down to read older entries") : QString());
    // "Entries: N" needs no plural forms, which English would only get from a translation file.
    m_count->setText(m_model->hasMore() ? tr("Latest entries: %L1").arg(rows) : tr("Entries: %L1").arg(rows));
}

bool AuditView::exportTo(const QString& file, sb::AuditExportFormat format)
{
    if (file.isEmpty() || m_jobs->isExporting() || m_jobs->exportEntries(currentFilter(), format, file) == 0)
        return false;
    setExporting(true);
    m_exportProgress->setValue(0);
    m_exportProgress->setFormat(tr("exporting…"));
    return true;
}

void AuditView::askExport(sb::AuditExportFormat format)
{
    const bool csv = format == sb::AuditExportFormat::Csv;
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Export the audit log"), csv ? QStringLiteral("audit.csv") : QStringLiteral("audit.jsonl"),
        csv ? tr("CSV files (*.csv)") : tr("JSON Lines files (*.jsonl)"));
    if (!file.isEmpty())
        exportTo(file, format);
}

void AuditView::onExported(const AuditExportDone& done)
{
    setExporting(false);
    if (done.cancelled)
        m_count->setText(tr("Export cancelled: no file was written"));
    else if (!done.error.isEmpty())
        m_count->setText(tr("Export failed"));
    else
        m_count->setText(tr("Exported %L1 entries").arg(done.entries));
    m_count->setToolTip(done.error.isEmpty() ? done.file : done.error);
    emit exportFinished(done.file, done.entries, done.cancelled ? tr("cancelled") : done.error);
}

void AuditView::setExporting(bool exporting)
{
    m_export->setEnabled(!exporting && m_jobs->storePath().has_value());
    m_exportProgress->setVisible(exporting);
    m_exportCancel->setVisible(exporting);
}

void AuditView::startVerify()
{
    if (m_jobs->isVerifying() || !m_jobs->storePath())
        return;
    m_model->setBrokenSeq(std::nullopt);
    m_breakMessage.clear();
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
    m_verdict->setToolTip({});
    if (!check.verification) {
        showVerdict(tr("Cannot verify: %1").arg(check.error), kBroken);
        return;
    }
    const sb::AuditVerification& result = *check.verification;
    if (cancelled) {
        showVerdict(tr("Cancelled after %L1 entries: nothing is known about the rest.").arg(result.entries), kNeutral);
        return;
    }
    if (result.intact()) {
        m_verdict->setProperty("verified", true);
        if (result.entries == 0) {
            showVerdict(tr("✔ Chain intact: the log is empty."), kIntact);
            return;
        }
        const QString head = toQString(result.headHash);
        const QString shortHead = head.left(kShortHash) + QStringLiteral("…");
        const QString text = tr("✔ Chain intact: %L1 entries, head %2").arg(result.entries);
        // The head's short hash links to its entry, whose pane shows the whole hash to copy.
        showVerdict(text.arg(QStringLiteral("<a href=\"entry:%1\">%2</a>").arg(result.headSeq).arg(shortHead)),
                    kIntact, text.arg(shortHead));
        m_verdict->setToolTip(tr("Head: entry %1\n%2").arg(result.headSeq).arg(head));
        return;
    }
    const sb::AuditBreak& broken = *result.broken;
    const QString kind = toQString(sb::toString(broken.damage));
    const QString message = toQString(sb::printable(broken.message, 400));
    const bool notVerified = sb::verdictOf(result) == sb::AuditVerdict::NotVerified;
    QString text = notVerified   ? tr("Not verified (%1): %2").arg(kind, message)
                   : broken.seq > 0 ? tr("✘ Chain broken at entry %1 (%2): %3").arg(broken.seq).arg(kind, message)
                                    : tr("✘ Chain broken (%1): %2").arg(kind, message);
    if (broken.seq > 0 && !notVerified) {
        m_breakMessage = message;
        m_model->setBrokenSeq(broken.seq);
        if (m_model->rowOfSeq(broken.seq) >= 0 || m_model->hasMore())
            selectSeq(broken.seq);
        else
            text += QLatin1Char(' ') + tr("The entry is not among the rows shown (removed, or hidden by a filter).");
    }
    showVerdict(text.toHtmlEscaped(), notVerified ? kNeutral : kBroken, text);
}

void AuditView::showVerdict(const QString& text, const QString& colour, const QString& plain)
{
    m_verdictText = plain.isEmpty() ? text : plain;
    m_verdict->setText(text);
    m_verdict->setStyleSheet(QStringLiteral("color: %1;").arg(colour));
}

} // namespace sb::ui
