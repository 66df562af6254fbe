#include "ui/promote/PromotionDialog.h"

#include "ui/editor/DiffPane.h"
#include "ui/editor/DiffView.h"
#include "ui/models/Conversions.h"
#include "ui/style/ChangeStyle.h"
#include "util/printable.h"

#include <QApplication>
#include <QColor>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace sb::ui {

namespace {

QString s_nextPath; // PromotionDialog::setNextPath

QString shortId(const std::string& id)
{
    return toQString(id).left(10);
}

QString riskText(sb::RiskLevel level)
{
    switch (level) {
    case sb::RiskLevel::Low: return PromotionDialog::tr("Low risk");
    case sb::RiskLevel::Medium: return PromotionDialog::tr("Medium risk");
    case sb::RiskLevel::High: return PromotionDialog::tr("High risk");
    }
    return {};
}

// The level a risk reason reached, as the reasons list names it ("high: …").
QString riskLevelName(sb::RiskLevel level)
{
    switch (level) {
    case sb::RiskLevel::Low: return PromotionDialog::tr("low");
    case sb::RiskLevel::Medium: return PromotionDialog::tr("medium");
    case sb::RiskLevel::High: return PromotionDialog::tr("high");
    }
    return {};
}

// Badge colours: green, amber, red, each with white text that stays readable on it.
QString riskStyle(sb::RiskLevel level)
{
    const char* colour = level == sb::RiskLevel::High ? "#c62828" : level == sb::RiskLevel::Medium ? "#b26a00" : "#2e7d32";
    return QStringLiteral("QLabel { background: %1; color: white; font-weight: bold; border-radius: 6px; "
                          "padding: 4px 12px; }")
        .arg(QLatin1String(colour));
}

QString conflictKindText(sb::ConflictKind kind)
{
    switch (kind) {
    case sb::ConflictKind::BothModified: return PromotionDialog::tr("both modified");
    case sb::ConflictKind::ModifyDelete: return PromotionDialog::tr("modified and deleted");
    case sb::ConflictKind::AddAdd: return PromotionDialog::tr("added on both sides");
    case sb::ConflictKind::TypeChange: return PromotionDialog::tr("type changed");
    }
    return {};
}

enum ResolutionChoice { Unresolved = 0, TakeSource = 1, TakeTarget = 2 };
constexpr int kMaxResolutionChoices = 200;

} // namespace

void PromotionDialog::setNextPath(const QString& path)
{
    s_nextPath = path;
}

PromotionDialog::PromotionDialog(std::filesystem::path storePath, const QString& source, const QString& target,
                                 const QStringList& targets, QWidget* parent)
    : QDialog(parent)
    , m_jobs(new PromotionJobRunner(std::move(storePath), this))
    , m_source(source)
    , m_target(new QComboBox(this))
    , m_header(new QLabel(this))
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancelJob(new QPushButton(tr("Cancel"), this))
    , m_again(new QPushButton(tr("Preview again"), this))
    , m_risk(new QLabel(this))
    , m_riskReasons(new QLabel(this))
    , m_impact(new QLabel(this))
    , m_ruleImpact(new QLabel(this))
    , m_conflictBox(new QGroupBox(tr("Conflicts"), this))
    , m_conflictHelp(new QLabel(this))
    , m_conflicts(new QTreeWidget(this))
    , m_files(new QTreeWidget(this))
    , m_diff(new DiffPane(QStringLiteral("promotion/diffMode"), this))
    , m_checks(new QTreeWidget(this))
    , m_approvalBox(new QGroupBox(tr("Approval"), this))
    , m_approvalBy(new QLineEdit(this))
    , m_approvalNote(new QLineEdit(this))
    , m_approvalHint(new QLabel(this))
    , m_export(new QPushButton(tr("Export…"), this))
    , m_patch(new QPushButton(tr("Save patch…"), this))
    , m_promote(new QPushButton(tr("Promote"), this))
    , m_close(new QPushButton(tr("Close"), this))
{
    setObjectName(QStringLiteral("promotionDialog"));
    setWindowTitle(tr("Promote %1").arg(source));
    setWindowModality(Qt::WindowModal);
    setSizeGripEnabled(true);

    m_target->setObjectName(QStringLiteral("promotionTarget"));
    m_target->addItems(targets);
    m_target->setCurrentText(target);
    m_header->setObjectName(QStringLiteral("promotionHeader"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("promotionStatus"));
    m_status->setWordWrap(true);
    m_progress->setObjectName(QStringLiteral("promotionProgress"));
    m_progress->setMaximumWidth(260);
    m_cancelJob->setObjectName(QStringLiteral("promotionCancelJob"));
    m_again->setObjectName(QStringLiteral("promotionPreviewAgain"));
    m_again->setToolTip(tr("Run the preview again, e.g. after editing the sandbox"));

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Into:"), this));
    top->addWidget(m_target);
    top->addWidget(m_header, 1);
    top->addWidget(m_again);
    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress);
    progressRow->addWidget(m_cancelJob);
    progressRow->addWidget(m_status, 1);

    m_risk->setObjectName(QStringLiteral("promotionRisk"));
    m_risk->setAlignment(Qt::AlignCenter);
    m_riskReasons->setObjectName(QStringLiteral("promotionRiskReasons"));
    m_riskReasons->setWordWrap(true);
    m_impact->setObjectName(QStringLiteral("promotionImpact"));
    m_impact->setWordWrap(true);
    m_ruleImpact->setObjectName(QStringLiteral("promotionRuleImpact"));
    m_ruleImpact->setWordWrap(true);
    m_ruleImpact->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* summary = new QHBoxLayout;
    summary->addWidget(m_risk, 0, Qt::AlignTop);
    auto* figures = new QVBoxLayout;
    figures->addWidget(m_impact);
    figures->addWidget(m_ruleImpact);
    figures->addWidget(m_riskReasons);
    summary->addLayout(figures, 1);

    m_conflictBox->setObjectName(QStringLiteral("promotionConflictBox"));
    m_conflictBox->setStyleSheet(QStringLiteral("QGroupBox#promotionConflictBox { font-weight: bold; color: #c62828; }"));
    m_conflictHelp->setObjectName(QStringLiteral("promotionConflictHelp"));
    m_conflictHelp->setWordWrap(true);
    m_conflictHelp->setStyleSheet(QStringLiteral("font-weight: normal; color: palette(text);"));
    m_conflicts->setObjectName(QStringLiteral("promotionConflicts"));
    m_conflicts->setHeaderLabels({tr("Path"), tr("Kind"), tr("What each side did"), tr("Resolution")});
    m_conflicts->setRootIsDecorated(false);
    m_conflicts->setStyleSheet(QStringLiteral("font-weight: normal;"));
    m_conflicts->setMaximumHeight(150);
    auto* conflictLayout = new QVBoxLayout(m_conflictBox);
    conflictLayout->addWidget(m_conflictHelp);
    conflictLayout->addWidget(m_conflicts);

    m_files->setObjectName(QStringLiteral("promotionFiles"));
    m_files->setHeaderLabels({tr("Change"), tr("Path"), tr("Lines")});
    m_files->setRootIsDecorated(false);
    m_files->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_files->header()->setStretchLastSection(false);
    m_files->setMinimumWidth(200);
    m_diff->setObjectName(QStringLiteral("promotionDiffPane"));
    m_diff->unifiedView()->setObjectName(QStringLiteral("promotionDiff"));
    m_diff->setMinimumWidth(360);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("promotionSplitter"));
    split->addWidget(m_files);
    split->addWidget(m_diff);
    split->setChildrenCollapsible(false);
    // The file list as wide as its paths need, up to a third; the diff takes the rest.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({300, 900});

    m_checks->setObjectName(QStringLiteral("promotionChecks"));
    m_checks->setHeaderLabels({tr("Check"), tr("Path"), tr("Result")});
    m_checks->setRootIsDecorated(false);
    m_checks->setMaximumHeight(110);
    auto* checkBox = new QGroupBox(tr("Compatibility checks"), this);
    auto* checkLayout = new QVBoxLayout(checkBox);
    checkLayout->addWidget(m_checks);

    m_approvalBox->setObjectName(QStringLiteral("promotionApprovalBox"));
    m_approvalBy->setObjectName(QStringLiteral("promotionApprovalBy"));
    m_approvalBy->setPlaceholderText(tr("who approves"));
    m_approvalNote->setObjectName(QStringLiteral("promotionApprovalNote"));
    m_approvalNote->setPlaceholderText(tr("why this change may go in"));
    m_approvalHint->setObjectName(QStringLiteral("promotionApprovalHint"));
    m_approvalHint->setWordWrap(true);
    auto* approvalLayout = new QFormLayout(m_approvalBox);
    approvalLayout->addRow(tr("Approved by:"), m_approvalBy);
    approvalLayout->addRow(tr("Note:"), m_approvalNote);
    approvalLayout->addRow(m_approvalHint);

    m_export->setObjectName(QStringLiteral("promotionExport"));
    m_export->setToolTip(tr("Write the files the promotion would add or change, and its report, to a new or empty folder"));
    m_patch->setObjectName(QStringLiteral("promotionPatch"));
    m_patch->setToolTip(tr("Write the change as a git-style patch"));
    m_promote->setObjectName(QStringLiteral("promotionPromote"));
    m_promote->setIcon(style()->standardIcon(QStyle::SP_DialogApplyButton));
    m_close->setObjectName(QStringLiteral("promotionClose"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_export);
    buttons->addWidget(m_patch);
    buttons->addStretch(1);
    buttons->addWidget(m_promote);
    buttons->addWidget(m_close);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(progressRow);
    layout->addLayout(summary);
    layout->addWidget(m_conflictBox);
    layout->addWidget(split, 1);
    // The checks and the approval side by side: the diff keeps the height on a small screen.
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(checkBox, 3);
    bottom->addWidget(m_approvalBox, 2);
    layout->addLayout(bottom);
    layout->addLayout(buttons);

    connect(m_jobs, &PromotionJobRunner::progress, this, &PromotionDialog::onProgress);
    connect(m_jobs, &PromotionJobRunner::finished, this, &PromotionDialog::onFinished);
    connect(m_cancelJob, &QPushButton::clicked, this, [this] {
        m_jobs->cancel();
        setStatus(tr("Cancelling…"), false);
    });
    connect(m_again, &QPushButton::clicked, this, &PromotionDialog::preview);
    connect(m_target, &QComboBox::currentTextChanged, this, [this] {
        m_resolutions.clear(); // they were choices against the other target
        preview();
    });
    connect(m_files, &QTreeWidget::currentItemChanged, this, &PromotionDialog::onFileSelected);
    connect(m_conflicts, &QTreeWidget::currentItemChanged, this, &PromotionDialog::onConflictSelected);
    connect(m_approvalBy, &QLineEdit::textChanged, this, &PromotionDialog::updateState);
    connect(m_approvalNote, &QLineEdit::textChanged, this, &PromotionDialog::updateState);
    connect(m_promote, &QPushButton::clicked, this, [this] { run(sb::PromotionRequest::Mode::Apply, {}); });
    connect(m_export, &QPushButton::clicked, this, &PromotionDialog::exportFolder);
    connect(m_patch, &QPushButton::clicked, this, &PromotionDialog::savePatch);
    connect(m_close, &QPushButton::clicked, this, &PromotionDialog::reject);

    fitScreen();
    showReport();
    preview();
}

void PromotionDialog::fitScreen()
{
    // As large as a review wants, never larger than the screen it opens on (its available part, without
    // panels); small enough to work at 1366×768.
    setMinimumSize(880, 560);
    QScreen* screen = parentWidget() ? parentWidget()->screen() : QApplication::primaryScreen();
    if (!screen) {
        resize(1100, 720);
        return;
    }
    const QRect available = screen->availableGeometry();
    const QSize wanted(std::min(1400, available.width() * 9 / 10), std::min(960, available.height() * 9 / 10));
    setMinimumSize(minimumSize().boundedTo(available.size()));
    resize(wanted.expandedTo(minimumSize()).boundedTo(available.size()));
    move(available.center() - rect().center());
}

void PromotionDialog::reject()
{
    if (m_jobs->isBusy() && m_running == sb::PromotionRequest::Mode::Apply) {
        setStatus(tr("The promotion is being applied: wait until it ends."), true);
        return;
    }
    m_jobs->cancel();
    QDialog::reject();
}

void PromotionDialog::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c62828; font-weight: bold;") : QString());
}

sb::PromotionRequest PromotionDialog::request(sb::PromotionRequest::Mode mode) const
{
    sb::PromotionRequest request;
    request.source = toStdString(m_source);
    request.target = toStdString(m_target->currentText());
    request.mode = mode;
    request.resolutions = m_resolutions;
    if (approvalComplete())
        request.approval = sb::Approval{toStdString(m_approvalBy->text().trimmed()),
                                        toStdString(m_approvalNote->text().trimmed())};
    return request;
}

void PromotionDialog::preview()
{
    run(sb::PromotionRequest::Mode::Preview, {});
}

void PromotionDialog::run(sb::PromotionRequest::Mode mode, const QString& output)
{
    auto req = request(mode);
    req.output = output.toStdString();
    if (!m_jobs->start(std::move(req))) {
        setStatus(tr("Another promotion job is running: wait until it ends."), true);
        return;
    }
    m_running = mode;
    if (mode == sb::PromotionRequest::Mode::Preview) {
        m_report.reset();
        m_diffs.clear();
        m_conflictDiffs.clear();
        showReport();
    }
    m_progress->setRange(0, 0);
    const QString what = mode == sb::PromotionRequest::Mode::Preview  ? tr("Previewing %1 → %2…")
                         : mode == sb::PromotionRequest::Mode::Apply  ? tr("Promoting %1 → %2…")
                         : mode == sb::PromotionRequest::Mode::Export ? tr("Exporting %1 → %2…")
                                                                      : tr("Writing the patch of %1 → %2…");
    setStatus(what.arg(m_source, m_target->currentText()), false);
    updateState();
}

void PromotionDialog::onProgress(const JobProgress& progress)
{
    if (progress.total > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(static_cast<int>(1000 * std::min(progress.done, progress.total) / progress.total));
    }
    QString text = progress.phase;
    if (!progress.path.isEmpty())
        text += QStringLiteral(": ") + progress.path;
    m_progress->setToolTip(text);
}

void PromotionDialog::onFinished(const PromotionOutcome& outcome)
{
    using Mode = sb::PromotionRequest::Mode;
    if (outcome.cancelled) {
        setStatus(outcome.mode == Mode::Preview ? tr("Preview cancelled: press Preview again to run it.")
                                                : tr("Cancelled: nothing was changed."),
                  false);
        updateState();
        return;
    }
    if (!outcome.error.isEmpty()) {
        setStatus(tr("Failed: %1").arg(outcome.error), true);
        updateState();
        if (outcome.mode == Mode::Preview)
            emit storeChanged(); // a preview may have saved unsaved work before it failed
        return;
    }
    const auto& report = *outcome.report;
    emit storeChanged(); // unsaved work of both sides is checkpointed first, even by a preview
    switch (outcome.mode) {
    case Mode::Preview:
        m_report = report;
        m_diffs = outcome.diffs;
        m_conflictDiffs = outcome.conflictDiffs;
        m_dataName = outcome.dataName;
        m_dataSource = outcome.dataSource;
        showReport();
        if (report.changes.empty() && report.conflicts.empty())
            setStatus(tr("Nothing to promote: %1 already holds every change of %2.").arg(m_target->currentText(), m_source), false);
        else if (!report.conflicts.empty())
            setStatus(report.conflicts.size() == 1
                          ? tr("Blocked by a conflict: see below how to resolve it.")
                          : tr("Blocked by %1 conflicts: see below how to resolve them.").arg(report.conflicts.size()),
                      true);
        else if (std::any_of(report.compatibility.begin(), report.compatibility.end(), [](const auto& c) { return !c.ok; }))
            setStatus(tr("Blocked: a compatibility check failed (below). Fix it in the sandbox and preview again."), true);
        else if (report.approvalRequired)
            setStatus(tr("%1: name who approves and write a note to promote.").arg(riskText(report.risk)), false);
        else
            setStatus(tr("Ready to promote."), false);
        break;
    case Mode::Apply:
        if (report.applied) {
            m_applied = true;
            setStatus(tr("Promoted: %1 now holds the change, as checkpoint %2.")
                          .arg(toQString(report.target), shortId(report.checkpoint)),
                      false);
            emit promoted(toQString(report.target), toQString(report.checkpoint));
        } else if (report.status == "up-to-date") {
            setStatus(tr("Nothing to promote: %1 already holds every change.").arg(toQString(report.target)), false);
        } else {
            // Something changed since the preview (or the approval was refused): show what the engine saw.
            m_report = report;
            m_diffs.clear(); // they were the preview's
            m_conflictDiffs.clear();
            showReport();
            QStringList why;
            for (const auto& reason : report.blocked)
                why << toQString(reason);
            setStatus(tr("Not promoted: %1").arg(why.join(QStringLiteral("; "))), true);
        }
        break;
    case Mode::Export:
    case Mode::Patch:
        setStatus(outcome.mode == Mode::Export ? tr("Exported to %1").arg(toQString(report.output))
                                               : tr("Patch written to %1").arg(toQString(report.output)),
                  false);
        break;
    }
    updateState();
}

void PromotionDialog::showReport()
{
    m_files->clear();
    m_checks->clear();
    m_diff->showDiff({});
    if (!m_report) {
        m_header->setText(tr("<b>%1</b> → <b>%2</b>").arg(m_source.toHtmlEscaped(), m_target->currentText().toHtmlEscaped()));
        m_risk->setText(tr("Risk: …"));
        m_risk->setStyleSheet(QStringLiteral("QLabel { border: 1px solid palette(mid); border-radius: 6px; padding: 4px 12px; }"));
        m_riskReasons->clear();
        m_impact->clear();
        m_ruleImpact->hide();
        m_conflicts->clear();
        m_conflictBox->hide();
        updateState();
        return;
    }
    const auto& r = *m_report;
    const QString ancestor = r.ancestor ? shortId(*r.ancestor) : tr("none (the two share no checkpoint)");
    // A preview measures unsaved work as it is: say so beside the head it is on top of.
    auto state = [&r](const std::string& sandbox, const std::string& checkpoint) {
        const bool unsaved = std::find(r.unsaved.begin(), r.unsaved.end(), sandbox) != r.unsaved.end();
        return unsaved ? tr("%1 + unsaved changes").arg(shortId(checkpoint)) : shortId(checkpoint);
    };
    m_header->setText(tr("Source <b>%1</b> (%2) → target <b>%3</b> (%4) · common ancestor %5")
                          .arg(toQString(r.source).toHtmlEscaped(), state(r.source, r.sourceCheckpoint),
                               toQString(r.target).toHtmlEscaped(), state(r.target, r.targetCheckpoint), ancestor));

    m_risk->setStyleSheet(riskStyle(r.risk));
    m_risk->setText(riskText(r.risk));
    m_risk->ensurePolished();
    m_risk->setMinimumSize(m_risk->sizeHint()); // the badge never clips its text
    QStringList reasons;
    for (const auto& reason : r.riskReasons)
        reasons << tr("%1: %2").arg(riskLevelName(reason.level), messageText(reason.why)).toHtmlEscaped();
    m_riskReasons->setText(reasons.isEmpty() ? tr("No risk rule applies.")
                                             : tr("Why: %1").arg(reasons.join(QStringLiteral("; "))));
    const auto& i = r.impact;
    m_impact->setText((i.files == 1 ? tr("<b>%1 file</b> changes: %2 added, %3 modified, %4 removed · lines +%5 −%6 · "
                                         "bytes +%7 −%8")
                                      : tr("<b>%1 files</b> change: %2 added, %3 modified, %4 removed · lines +%5 −%6 · "
                                           "bytes +%7 −%8"))
                          .arg(i.files)
                          .arg(i.added)
                          .arg(i.modified)
                          .arg(i.removed)
                          .arg(i.linesAdded)
                          .arg(i.linesRemoved)
                          .arg(byteSizeText(i.bytesAdded), byteSizeText(i.bytesRemoved)));

    for (const auto& change : r.changes) {
        auto* item = new QTreeWidgetItem(m_files);
        item->setIcon(0, changeIcon(change.change.kind));
        item->setText(0, changeLetter(change.change.kind));
        item->setForeground(0, changeColor(change.change.kind));
        item->setText(1, toQString(sb::printable(change.change.path, 400)));
        item->setText(2, change.binary    ? tr("binary")
                         : !change.counted ? tr("too large")
                                           : QStringLiteral("+%1 −%2").arg(change.linesAdded).arg(change.linesRemoved));
    }
    m_files->resizeColumnToContents(0);
    m_files->resizeColumnToContents(2);

    const QIcon ok = style()->standardIcon(QStyle::SP_DialogApplyButton);
    const QIcon failed = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    for (const auto& check : r.compatibility) {
        auto* item = new QTreeWidgetItem(m_checks);
        item->setIcon(0, check.ok ? ok : failed);
        item->setText(0, toQString(check.check));
        item->setText(1, toQString(sb::printable(check.path, 400)));
        item->setText(2, check.ok ? tr("ok") : toQString(check.message));
        if (!check.ok)
            item->setForeground(2, QColor(0xc6, 0x28, 0x28));
    }
    if (r.compatibility.empty()) {
        auto* item = new QTreeWidgetItem(m_checks);
        item->setText(0, tr("policy"));
        item->setText(2, tr("No policy files to check."));
    }
    m_checks->resizeColumnToContents(0);
    m_checks->resizeColumnToContents(1);

    showRuleImpact();
    showConflicts();
    if (!r.conflicts.empty())
        m_conflicts->setCurrentItem(m_conflicts->topLevelItem(0)); // what blocks comes first
    else if (m_files->topLevelItemCount() > 0)
        m_files->setCurrentItem(m_files->topLevelItem(std::max(0, firstReviewableFile())));
    updateState();
}

int PromotionDialog::firstReviewableFile() const
{
    // The first change a reviewer can read as text: not binary, not too large, a file or a symlink.
    const auto& changes = m_report->changes;
    for (std::size_t i = 0; i < changes.size(); ++i) {
        const auto& c = changes[i];
        const sb::TreeEntry& entry = c.change.after ? *c.change.after : *c.change.before;
        if (!c.binary && c.counted && entry.type != sb::EntryType::Directory)
            return static_cast<int>(i);
    }
    return -1;
}

void PromotionDialog::showRuleImpact()
{
    const auto& r = *m_report;
    QStringList lines;
    for (const auto& d : r.decisionImpacts)
        lines << tr("<b>Rule impact</b>: %1 changes the decision of <b>%2 of %3</b> records (%4 %) in %5")
                     .arg(toQString(sb::printable(d.path, 400)).toHtmlEscaped())
                     .arg(d.changed)
                     .arg(d.records)
                     .arg(d.rate * 100, 0, 'f', 2)
                     .arg(toQString(sb::printable(d.data, 200)).toHtmlEscaped());
    // Rule sets the promotion adds or changes that no figure covers: new ones, or no data to measure on.
    QStringList added;
    QStringList unmeasured;
    for (const auto& check : r.compatibility) {
        if (check.check != "rules")
            continue;
        const auto change = std::find_if(r.changes.begin(), r.changes.end(),
                                         [&](const auto& c) { return c.change.path == check.path && c.change.after; });
        const bool measured = std::any_of(r.decisionImpacts.begin(), r.decisionImpacts.end(),
                                          [&](const auto& d) { return d.path == check.path; });
        if (change == r.changes.end() || measured)
            continue;
        (change->change.before ? unmeasured : added) << toQString(sb::printable(check.path, 400)).toHtmlEscaped();
    }
    if (!added.isEmpty())
        lines << tr("<b>New rule set</b> %1: no current version in %2 to count flipped decisions against; it decides "
                    "from now on.")
                     .arg(added.join(QStringLiteral(", ")), toQString(r.target).toHtmlEscaped());
    if (!unmeasured.isEmpty())
        lines << (m_dataName.isEmpty()
                      ? tr("<b>Rule impact not measured</b> for %1: sandbox %2 refers to no dataset "
                           "(<tt>sandbench sandbox set %2 --dataset NAME</tt>).")
                            .arg(unmeasured.join(QStringLiteral(", ")), m_source.toHtmlEscaped())
                      : tr("<b>Rule impact not measured</b> for %1: it does not compile against %2 (see the checks).")
                            .arg(unmeasured.join(QStringLiteral(", ")), m_dataName.toHtmlEscaped()));
    m_ruleImpact->setText(lines.join(QStringLiteral("<br>")));
    m_ruleImpact->setVisible(!lines.isEmpty());
}

void PromotionDialog::showConflicts()
{
    m_conflicts->clear();
    const auto& r = *m_report;
    auto add = [this](const sb::MergeConflict& conflict, ResolutionChoice choice) {
        auto* item = new QTreeWidgetItem(m_conflicts);
        const QString path = toQString(conflict.path);
        item->setText(0, toQString(sb::printable(conflict.path, 400)));
        item->setText(1, conflictKindText(conflict.kind));
        item->setToolTip(1, toQString(sb::toString(conflict.kind)));
        item->setText(2, toQString(conflict.detail));
        item->setToolTip(2, toQString(conflict.detail));
        item->setIcon(0, style()->standardIcon(choice == Unresolved ? QStyle::SP_MessageBoxWarning
                                                                    : QStyle::SP_DialogApplyButton));
        // A choice per path, for as many as a person settles by hand (an imported sandbox conflicts at every
        // path: those are settled in the sandbox, not here).
        if (m_conflicts->topLevelItemCount() > kMaxResolutionChoices) {
            item->setText(3, tr("edit the sandbox"));
            return;
        }
        auto* combo = new QComboBox(m_conflicts);
        combo->setObjectName(QStringLiteral("promotionResolution"));
        combo->addItem(tr("Unresolved"));
        combo->addItem(tr("Take source (%1)").arg(m_source));
        combo->addItem(tr("Take target (%1)").arg(m_target->currentText()));
        combo->setCurrentIndex(choice);
        combo->setProperty("path", path);
        m_conflicts->setItemWidget(item, 3, combo);
        connect(combo, &QComboBox::currentIndexChanged, this, [this, path](int index) {
            const std::string key = toStdString(path);
            if (index == TakeSource)
                m_resolutions[key] = sb::MergeSide::Source;
            else if (index == TakeTarget)
                m_resolutions[key] = sb::MergeSide::Target;
            else
                m_resolutions.erase(key);
            // The engine merges again with the choice; queued, since the new preview clears this combo box.
            QMetaObject::invokeMethod(this, &PromotionDialog::preview, Qt::QueuedConnection);
        });
    };
    for (const auto& conflict : r.conflicts)
        add(conflict, Unresolved);
    for (const auto& [conflict, side] : r.resolved)
        add(conflict, side == sb::MergeSide::Source ? TakeSource : TakeTarget);
    const bool any = !r.conflicts.empty() || !r.resolved.empty();
    m_conflictBox->setVisible(any);
    if (!r.conflicts.empty()) {
        m_conflictBox->setTitle(r.conflicts.size() == 1
                                    ? tr("A conflict blocks the promotion")
                                    : tr("%1 conflicts block the promotion").arg(r.conflicts.size()));
        m_conflictHelp->setText(
            tr("Both %1 and %2 changed these paths since their common ancestor. Resolve each: edit the sandbox "
               "(e.g. take the target's version there and redo your part), then press Preview again — or settle "
               "a path here by taking the source's or the target's version wholesale.")
                .arg(m_source, m_target->currentText()));
    } else if (any) {
        m_conflictBox->setTitle(tr("Conflicts settled"));
        m_conflictHelp->setText(tr("Every conflict is settled by the side chosen; the promotion records the choices."));
    }
    m_conflicts->resizeColumnToContents(0);
    m_conflicts->resizeColumnToContents(1);
    m_conflicts->setColumnWidth(2, 380);
}

void PromotionDialog::onFileSelected()
{
    auto* item = m_files->currentItem();
    const int row = item ? m_files->indexOfTopLevelItem(item) : -1;
    if (row < 0)
        return;
    m_conflicts->setCurrentItem(nullptr);
    const bool binary = m_report && static_cast<std::size_t>(row) < m_report->changes.size()
                        && m_report->changes[static_cast<std::size_t>(row)].binary;
    if (static_cast<std::size_t>(row) < m_diffs.size() && binary)
        m_diff->showNotice(tr("Binary file %1").arg(item->text(1)), m_diffs[static_cast<std::size_t>(row)]);
    else if (static_cast<std::size_t>(row) < m_diffs.size())
        m_diff->showDiff(m_diffs[static_cast<std::size_t>(row)]);
    else if (m_diffs.size() >= PromotionJobRunner::kMaxDiffFiles)
        m_diff->showDiff(tr("The diff of this file is not shown: the promotion changes more than %n files.", nullptr,
                            static_cast<int>(PromotionJobRunner::kMaxDiffFiles)));
    else
        m_diff->showDiff(tr("Press Preview again to see this file's diff."));
}

void PromotionDialog::onConflictSelected()
{
    auto* item = m_conflicts->currentItem();
    const int row = item ? m_conflicts->indexOfTopLevelItem(item) : -1;
    if (row < 0)
        return;
    m_files->setCurrentItem(nullptr);
    if (static_cast<std::size_t>(row) < m_conflictDiffs.size())
        m_diff->showDiff(m_conflictDiffs[static_cast<std::size_t>(row)]);
    else
        m_diff->showDiff(tr("Press Preview again to see this conflict's diff."));
}

bool PromotionDialog::approvalComplete() const
{
    return !m_approvalBy->text().trimmed().isEmpty() && !m_approvalNote->text().trimmed().isEmpty();
}

QString PromotionDialog::approvalProblem() const
{
    const bool required = m_report && m_report->approvalRequired;
    const bool by = !m_approvalBy->text().trimmed().isEmpty();
    const bool note = !m_approvalNote->text().trimmed().isEmpty();
    if (required && !by && !note)
        return tr("%1: a name and a note are required to promote.").arg(riskText(m_report->risk));
    if ((required || by || note) && !by)
        return tr("Name who approves.");
    if ((required || by || note) && !note)
        return tr("Write a note: why this change may go in.");
    return {};
}

void PromotionDialog::updateState()
{
    const bool busy = m_jobs->isBusy();
    const bool haveReport = m_report.has_value();
    const bool required = haveReport && m_report->approvalRequired;
    const QString problem = approvalProblem();

    m_progress->setVisible(busy);
    m_cancelJob->setVisible(busy);
    m_cancelJob->setEnabled(busy && m_running != sb::PromotionRequest::Mode::Apply);
    m_target->setEnabled(!busy && !m_applied);
    m_again->setEnabled(!busy && !m_applied);
    m_conflicts->setEnabled(!busy && !m_applied);

    m_approvalBox->setTitle(required ? tr("Approval (required: %1)").arg(riskText(m_report->risk).toLower())
                                     : tr("Approval (optional)"));
    m_approvalBox->setStyleSheet(required ? QStringLiteral("QGroupBox { font-weight: bold; color: #c62828; }")
                                          : QString());
    m_approvalHint->setText(problem.isEmpty() ? (required ? tr("The approval is recorded in the audit log.")
                                                          : tr("Optional: an approval given here is recorded."))
                                              : problem);
    m_approvalHint->setStyleSheet(problem.isEmpty() ? QStringLiteral("font-weight: normal; color: palette(text);")
                                                    : QStringLiteral("font-weight: normal; color: #c62828;"));
    m_approvalBy->setEnabled(!busy && !m_applied);
    m_approvalNote->setEnabled(!busy && !m_applied);

    // Blocked for a reason the dialog cannot settle (conflicts, failed checks); a missing approval is settled
    // by the fields, so that alone does not disable the fields, only the button until they are filled.
    bool blockedOtherwise = false;
    if (haveReport) {
        blockedOtherwise = !m_report->conflicts.empty();
        for (const auto& check : m_report->compatibility)
            blockedOtherwise = blockedOtherwise || !check.ok;
    }
    const bool somethingToDo = haveReport && !m_report->changes.empty();
    m_promote->setEnabled(!busy && !m_applied && somethingToDo && !blockedOtherwise && problem.isEmpty());
    if (haveReport && !m_report->conflicts.empty())
        m_promote->setToolTip(tr("Resolve the conflicts first"));
    else if (!problem.isEmpty())
        m_promote->setToolTip(problem);
    else
        m_promote->setToolTip(tr("Apply the change to %1, atomically, as a 'promote' checkpoint").arg(m_target->currentText()));
    m_export->setEnabled(!busy && somethingToDo);
    m_patch->setEnabled(!busy && somethingToDo);
    m_close->setText(m_applied ? tr("Done") : tr("Close"));
}

void PromotionDialog::askPath(bool folder)
{
    const auto mode = folder ? sb::PromotionRequest::Mode::Export : sb::PromotionRequest::Mode::Patch;
    if (!s_nextPath.isEmpty()) {
        const QString path = std::exchange(s_nextPath, QString());
        run(mode, path);
        return;
    }
    // Window-modal and without a nested event loop: the choice comes back by signal.
    auto* chooser = new QFileDialog(this, folder ? tr("Export the promotion to a new or empty folder")
                                                 : tr("Save the promotion as a patch"));
    chooser->setObjectName(QStringLiteral("promotionFileDialog"));
    chooser->setAttribute(Qt::WA_DeleteOnClose);
    if (folder) {
        chooser->setFileMode(QFileDialog::Directory);
        chooser->setOption(QFileDialog::ShowDirsOnly);
    } else {
        chooser->setAcceptMode(QFileDialog::AcceptSave);
        chooser->setNameFilter(tr("Patches (*.patch *.diff)"));
        chooser->selectFile(QStringLiteral("%1-to-%2.patch").arg(m_source, m_target->currentText()));
    }
    connect(chooser, &QFileDialog::fileSelected, this, [this, mode](const QString& path) {
        if (!path.isEmpty())
            run(mode, path);
    });
    chooser->open();
}

void PromotionDialog::exportFolder()
{
    askPath(true);
}

void PromotionDialog::savePatch()
{
    askPath(false);
}

} // namespace sb::ui
