#include "ui/checkpoints/CheckpointBrowser.h"

#include "ui/checkpoints/CheckpointDialogs.h"
#include "ui/checkpoints/GraphDelegate.h"
#include "ui/editor/DiffView.h"
#include "ui/models/CheckpointListModel.h"
#include "ui/models/Conversions.h"
#include "ui/models/DiffFileModel.h"
#include "ui/models/SandboxListModel.h"
#include "ui/promote/PromotionDialog.h"
#include "ui/style/Icons.h"
#include "util/printable.h"
#include "util/time_text.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <initializer_list>
#include <utility>

namespace sb::ui {

namespace {

constexpr int kProgressSteps = 1000;
const QString kNeutral = QStringLiteral("#5f666d");
const QString kBroken = QStringLiteral("#8a1c12");

void setUpTable(QTableView* table)
{
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setShowGrid(false);
    table->setTextElideMode(Qt::ElideRight);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->horizontalHeader()->setHighlightSections(false);
    table->horizontalHeader()->setStretchLastSection(true);
}

QString taskText(CheckpointTask task)
{
    switch (task) {
    case CheckpointTask::CreateSandbox: return CheckpointBrowser::tr("Creating the sandbox…");
    case CheckpointTask::DestroySandbox: return CheckpointBrowser::tr("Destroying the sandbox…");
    case CheckpointTask::Checkpoint: return CheckpointBrowser::tr("Creating a checkpoint…");
    case CheckpointTask::Restore: return CheckpointBrowser::tr("Restoring…");
    case CheckpointTask::Fork: return CheckpointBrowser::tr("Forking…");
    case CheckpointTask::Sweep: return CheckpointBrowser::tr("Sweeping expired and idle sandboxes…");
    case CheckpointTask::Demo: return CheckpointBrowser::tr("Making the demo sandboxes…");
    case CheckpointTask::Label: return CheckpointBrowser::tr("Labelling the checkpoint…");
    case CheckpointTask::Revive: return CheckpointBrowser::tr("Reviving the archived sandbox…");
    case CheckpointTask::Settings: return CheckpointBrowser::tr("Applying the sandbox's settings…");
    }
    return {};
}

// A column as wide as the wider of its header and the widest sample of what it shows, in the view's font (so the
// same on every screen and at every scale).
void fitColumn(QTableView* view, int column, std::initializer_list<QString> samples)
{
    QHeaderView* header = view->horizontalHeader();
    const QFontMetrics metrics(view->font());
    const int padding = 2 * view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 12;
    int width = header->sectionSizeHint(column);
    for (const QString& sample : samples)
        width = std::max(width, metrics.horizontalAdvance(sample) + padding);
    header->resizeSection(column, width);
}

} // namespace

CheckpointBrowser::CheckpointBrowser(QWidget* parent)
    : QWidget(parent)
    , m_jobs(new CheckpointJobRunner(this))
    , m_sandboxModel(new SandboxListModel(this))
    , m_checkpointModel(new CheckpointListModel(this))
    , m_fileModel(new DiffFileModel(this))
    , m_toolBar(new QToolBar(this))
    , m_checkpointBar(new QToolBar(this))
    , m_sandboxView(new QTableView(this))
    , m_sandboxDetails(new QLabel(this))
    , m_checkpointView(new QTableView(this))
    , m_diffSummary(new QLabel(this))
    , m_fileView(new QTableView(this))
    , m_diffStack(new QStackedWidget(this))
    , m_diffView(new DiffView(this))
    , m_diffMessage(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_progressText(new QLabel(this))
    , m_cancel(new QToolButton(this))
{
    setObjectName(QStringLiteral("checkpointBrowser"));
    createActions();
    setUpToolBar();
    QBoxLayout* top = buildTopRow();
    setUpSandboxView();
    setUpCheckpointView();
    setUpDiffViews();
    layOutPanes(top);
    connectSignals();

    m_progress->hide();
    m_cancel->hide();
    clearDiff(tr("The store is not open."));
    updateActions();
}

void CheckpointBrowser::setUpToolBar()
{
    // Two rows, so that every action shows in a dock half the window wide: the sandboxes' actions, then
    // the selected checkpoint's.
    m_toolBar->setObjectName(QStringLiteral("checkpointToolBar"));
    m_checkpointBar->setObjectName(QStringLiteral("checkpointActionsBar"));
    for (QToolBar* bar : {m_toolBar, m_checkpointBar}) {
        bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        bar->setIconSize(QSize(16, 16));
    }
    m_toolBar->addAction(m_newSandbox);
    m_toolBar->addAction(m_destroy);
    m_toolBar->addAction(m_openFolder);
    m_toolBar->addAction(m_settings);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_sweep);
    m_toolBar->addAction(m_refresh);
    m_checkpointBar->addAction(m_checkpoint);
    m_checkpointBar->addAction(m_restore);
    m_checkpointBar->addAction(m_fork);
    m_checkpointBar->addAction(m_label);
    m_checkpointBar->addAction(m_promote);
    // The folder's icon explains itself; its name is still read out and shown as a tooltip.
    if (auto* button = qobject_cast<QToolButton*>(m_toolBar->widgetForAction(m_openFolder))) {
        button->setToolButtonStyle(Qt::ToolButtonIconOnly);
        button->setAccessibleName(m_openFolder->text());
    }
}

// The sandboxes' toolbar, then the checkpoint's with the running operation's progress and its cancel button.
QBoxLayout* CheckpointBrowser::buildTopRow()
{
    m_progress->setObjectName(QStringLiteral("checkpointProgress"));
    m_progress->setFixedWidth(120);
    m_progress->setTextVisible(false);
    m_progressText->setObjectName(QStringLiteral("checkpointProgressText"));
    m_progressText->setStyleSheet(QStringLiteral("color: %1;").arg(kNeutral));
    m_progressText->setMinimumWidth(80);
    m_progressText->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_cancel->setObjectName(QStringLiteral("checkpointCancel"));
    m_cancel->setIcon(actionIcon(ActionIcon::Cancel));
    m_cancel->setToolTip(tr("Cancel the running checkpoint operation or diff"));
    m_cancel->setAccessibleName(tr("Cancel"));
    m_cancel->setAutoRaise(true);
    connect(m_cancel, &QToolButton::clicked, this, &CheckpointBrowser::cancel);
    auto* sandboxRow = new QHBoxLayout;
    sandboxRow->addWidget(m_toolBar);
    sandboxRow->addStretch(1);
    auto* checkpointRow = new QHBoxLayout;
    checkpointRow->setSpacing(6);
    checkpointRow->addWidget(m_checkpointBar);
    checkpointRow->addWidget(m_progressText, 1);
    checkpointRow->addWidget(m_progress);
    checkpointRow->addWidget(m_cancel);
    auto* top = new QVBoxLayout;
    top->setSpacing(0);
    top->addLayout(sandboxRow);
    top->addLayout(checkpointRow);
    return top;
}

void CheckpointBrowser::setUpSandboxView()
{
    m_sandboxView->setObjectName(QStringLiteral("sandboxTable"));
    m_sandboxView->setModel(m_sandboxModel);
    setUpTable(m_sandboxView);
    m_sandboxView->setSelectionMode(QAbstractItemView::SingleSelection);
    // Each column as wide as its header or a typical value, in the view's font; the origin takes what is left.
    fitColumn(m_sandboxView, SandboxListModel::NameColumn, {QStringLiteral("demo-upgrade-repo")});
    fitColumn(m_sandboxView, SandboxListModel::CheckpointsColumn, {QStringLiteral("1234")});
    fitColumn(m_sandboxView, SandboxListModel::CreatedColumn, {QStringLiteral("2026-12-31 23:59")});
    fitColumn(m_sandboxView, SandboxListModel::ExpiresColumn, {QStringLiteral("in 29d23h")});
    fitColumn(m_sandboxView, SandboxListModel::StateColumn,
              {SandboxListModel::tr("archived"), SandboxListModel::tr("active")});
    fitColumn(m_sandboxView, SandboxListModel::UsageColumn, {QStringLiteral("999.9 MiB")});
    m_sandboxDetails->setObjectName(QStringLiteral("sandboxDetails"));
    m_sandboxDetails->setWordWrap(true);
    m_sandboxDetails->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sandboxDetails->setStyleSheet(QStringLiteral("color: %1;").arg(kNeutral));
}

void CheckpointBrowser::setUpCheckpointView()
{
    m_checkpointView->setObjectName(QStringLiteral("checkpointTable"));
    m_checkpointView->setModel(m_checkpointModel);
    setUpTable(m_checkpointView);
    m_checkpointView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // Right-click on a checkpoint: what can be done with it.
    m_checkpointView->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_checkpointView->addAction(m_restore);
    m_checkpointView->addAction(m_fork);
    m_checkpointView->addAction(m_label);
    auto* delegate = new GraphDelegate(m_checkpointView);
    m_checkpointView->setItemDelegateForColumn(CheckpointListModel::GraphColumn, delegate);
    m_checkpointView->setToolTip(tr("Select a checkpoint to compare it with the live workspace; Ctrl-click a second "
                                    "one to compare the two"));
    auto* checkpointHeader = m_checkpointView->horizontalHeader();
    checkpointHeader->resizeSection(CheckpointListModel::GraphColumn, delegate->geometry().width(2));
    fitColumn(m_checkpointView, CheckpointListModel::IdColumn, {QStringLiteral("0123456789")});
    fitColumn(m_checkpointView, CheckpointListModel::KindColumn, {QStringLiteral("checkpoint"), QStringLiteral("promote")});
    fitColumn(m_checkpointView, CheckpointListModel::AuthorColumn, {QStringLiteral("root")});
    fitColumn(m_checkpointView, CheckpointListModel::TimeColumn,
              {QStringLiteral("12-31 23:59:59"), QStringLiteral("2025-12-31 23:59")});
    fitColumn(m_checkpointView, CheckpointListModel::FilesColumn, {QStringLiteral("9999")});
    fitColumn(m_checkpointView, CheckpointListModel::SizeColumn, {QStringLiteral("999.9 KiB")});
    // The label takes what is left; the other columns keep their widths.
    checkpointHeader->setStretchLastSection(false);
    checkpointHeader->setSectionResizeMode(CheckpointListModel::LabelColumn, QHeaderView::Stretch);
}

void CheckpointBrowser::setUpDiffViews()
{
    m_diffSummary->setObjectName(QStringLiteral("diffSummary"));
    m_diffSummary->setWordWrap(true);
    m_diffSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_fileView->setObjectName(QStringLiteral("diffFileTable"));
    m_fileView->setModel(m_fileModel);
    setUpTable(m_fileView);
    m_fileView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_fileView->setAlternatingRowColors(false);
    auto* fileHeader = m_fileView->horizontalHeader();
    fileHeader->setStretchLastSection(false);
    fileHeader->setSectionResizeMode(DiffFileModel::StatusColumn, QHeaderView::Fixed);
    fileHeader->resizeSection(DiffFileModel::StatusColumn, 44);
    fileHeader->setSectionResizeMode(DiffFileModel::PathColumn, QHeaderView::Stretch);
    fileHeader->setSectionResizeMode(DiffFileModel::LinesColumn, QHeaderView::ResizeToContents);

    m_diffView->setObjectName(QStringLiteral("diffView"));
    m_diffMessage->setObjectName(QStringLiteral("diffMessage"));
    m_diffMessage->setAlignment(Qt::AlignCenter);
    m_diffMessage->setWordWrap(true);
    m_diffMessage->setMargin(16);
    m_diffMessage->setStyleSheet(QStringLiteral("QLabel { color: %1; background: #f6f8fa; }").arg(kNeutral));
    m_diffStack->addWidget(m_diffView);
    m_diffStack->addWidget(m_diffMessage);
}

// Left: what there is (sandboxes over checkpoints); right: what changed (paths over the text).
void CheckpointBrowser::layOutPanes(QBoxLayout* top)
{
    m_left = new QSplitter(Qt::Vertical, this);
    m_left->setObjectName(QStringLiteral("checkpointLeftSplitter"));
    auto* sandboxPane = new QWidget(this);
    auto* sandboxLayout = new QVBoxLayout(sandboxPane);
    sandboxLayout->setContentsMargins(0, 0, 0, 0);
    sandboxLayout->setSpacing(2);
    sandboxLayout->addWidget(m_sandboxView, 1);
    sandboxLayout->addWidget(m_sandboxDetails);
    m_left->addWidget(sandboxPane);
    m_left->addWidget(m_checkpointView);
    m_left->setStretchFactor(0, 1);
    m_left->setStretchFactor(1, 2);
    m_left->setChildrenCollapsible(false);

    auto* filesPane = new QWidget(this);
    auto* filesLayout = new QVBoxLayout(filesPane);
    filesLayout->setContentsMargins(0, 0, 0, 0);
    filesLayout->setSpacing(2);
    filesLayout->addWidget(m_diffSummary);
    filesLayout->addWidget(m_fileView, 1);
    m_right = new QSplitter(Qt::Vertical, this);
    m_right->setObjectName(QStringLiteral("checkpointRightSplitter"));
    m_right->addWidget(filesPane);
    m_right->addWidget(m_diffStack);
    m_right->setStretchFactor(0, 1);
    m_right->setStretchFactor(1, 3);
    m_right->setChildrenCollapsible(false);

    m_split = new QSplitter(Qt::Vertical, this);
    m_split->setObjectName(QStringLiteral("checkpointSplitter"));
    m_split->addWidget(m_left);
    m_split->addWidget(m_right);
    m_split->setStretchFactor(0, 1);
    m_split->setStretchFactor(1, 1);
    m_split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 4);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_split, 1);
}

void CheckpointBrowser::connectSignals()
{
    connect(m_sandboxView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CheckpointBrowser::onSandboxSelected);
    connect(m_checkpointView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CheckpointBrowser::onCheckpointsSelected);
    connect(m_fileView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &CheckpointBrowser::onFileSelected);
    connect(m_jobs, &CheckpointJobRunner::sandboxesLoaded, this, &CheckpointBrowser::onSandboxesLoaded);
    connect(m_jobs, &CheckpointJobRunner::checkpointsLoaded, this, &CheckpointBrowser::onCheckpointsLoaded);
    connect(m_jobs, &CheckpointJobRunner::diffReady, this, &CheckpointBrowser::onDiffReady);
    connect(m_jobs, &CheckpointJobRunner::diffProgress, this, &CheckpointBrowser::onDiffProgress);
    connect(m_jobs, &CheckpointJobRunner::taskStarted, this, &CheckpointBrowser::onTaskStarted);
    connect(m_jobs, &CheckpointJobRunner::taskProgress, this, &CheckpointBrowser::onTaskProgress);
    connect(m_jobs, &CheckpointJobRunner::taskFinished, this, &CheckpointBrowser::onTaskFinished);
}

void CheckpointBrowser::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Side by side where the browser is wide (a floating or bottom dock), stacked where it is tall (the right
    // column): what there is above what changed.
    const Qt::Orientation wanted = width() >= height() * 3 / 2 ? Qt::Horizontal : Qt::Vertical;
    if (m_split->orientation() == wanted && m_laidOut)
        return;
    m_laidOut = true;
    m_split->setOrientation(wanted);
    const int total = wanted == Qt::Horizontal ? m_split->width() : m_split->height();
    // Stacked, the diff text gets the most: the lists show a handful of rows each and scroll.
    // Side by side, the lists get three fifths: their columns are many, the paths of a change are one.
    const int top = wanted == Qt::Horizontal ? total * 3 / 5 : total * 21 / 50;
    m_split->setSizes({top, total - top});
    const int leftHeight = wanted == Qt::Horizontal ? m_split->height() : top;
    const int rightHeight = wanted == Qt::Horizontal ? m_split->height() : total - top;
    m_left->setSizes({leftHeight * 21 / 50, leftHeight - leftHeight * 21 / 50});
    m_right->setSizes({rightHeight * 7 / 20, rightHeight - rightHeight * 7 / 20});
}

void CheckpointBrowser::createActions()
{
    QStyle* style = QApplication::style();
    auto make = [this](const QIcon& icon, const QString& text, const char* name, const QString& tip) {
        auto* action = new QAction(icon, text, this);
        action->setObjectName(QString::fromLatin1(name));
        action->setToolTip(tip);
        return action;
    };
    m_newSandbox = make(QIcon::fromTheme(QStringLiteral("folder-new"), style->standardIcon(QStyle::SP_FileDialogNewFolder)),
                        tr("New sandbox…"), "actionNewSandbox",
                        tr("Make a sandbox from main, a sandbox, the selected checkpoint or an imported folder"));
    m_destroy = make(QIcon::fromTheme(QStringLiteral("edit-delete"), style->standardIcon(QStyle::SP_TrashIcon)),
                     tr("Destroy"), "actionDestroySandbox", tr("Delete the selected sandbox, its workspace and its checkpoints"));
    m_openFolder = make(actionIcon(ActionIcon::OpenFolder),
                        tr("Open folder"), "actionOpenWorkspace", tr("Open the sandbox's workspace folder in the file manager"));
    m_settings = make(QIcon::fromTheme(QStringLiteral("document-properties"),
                                       style->standardIcon(QStyle::SP_FileDialogContentsView)),
                      tr("Settings…"), "actionSandboxSettings",
                      tr("Change the selected sandbox's size quota and idle timeout"));
    m_checkpoint = make(QIcon::fromTheme(QStringLiteral("document-save"), style->standardIcon(QStyle::SP_DialogSaveButton)),
                        tr("Checkpoint…"), "actionCreateCheckpoint", tr("Snapshot the sandbox's workspace as it is now"));
    m_restore = make(QIcon::fromTheme(QStringLiteral("edit-undo"), style->standardIcon(QStyle::SP_ArrowBack)),
                     tr("Restore…"), "actionRestoreCheckpoint",
                     tr("Make the workspace equal to the selected checkpoint (unsaved changes are checkpointed first)"));
    m_fork = make(QIcon::fromTheme(QStringLiteral("edit-copy"), style->standardIcon(QStyle::SP_FileDialogDetailedView)),
                  tr("Fork…"), "actionForkCheckpoint", tr("A new sandbox whose workspace is the selected checkpoint"));
    m_label = make(QIcon::fromTheme(QStringLiteral("tag"), style->standardIcon(QStyle::SP_FileDialogInfoView)),
                   tr("Label…"), "actionLabelCheckpoint",
                   tr("Give the selected checkpoint a label, or clear it (its id stays)"));
    m_sweep = make(QIcon::fromTheme(QStringLiteral("edit-clear"), style->standardIcon(QStyle::SP_DialogResetButton)),
                   tr("Sweep now"), "actionSweepSandboxes",
                   tr("Destroy every expired sandbox, archive every idle one (its work kept), and free what nothing "
                      "uses"));
    m_promote = make(QIcon::fromTheme(QStringLiteral("go-up"), style->standardIcon(QStyle::SP_ArrowUp)),
                     tr("Promote…"), "actionPromoteSandbox",
                     tr("Review what the selected sandbox changed and promote it into main (or another sandbox)"));
    m_refresh = make(actionIcon(ActionIcon::Refresh), tr("Refresh"), "actionRefreshCheckpoints",
                     tr("Read the sandboxes and checkpoints again and redo the diff"));
    connect(m_newSandbox, &QAction::triggered, this, &CheckpointBrowser::newSandbox);
    connect(m_destroy, &QAction::triggered, this, &CheckpointBrowser::destroySandbox);
    connect(m_openFolder, &QAction::triggered, this, &CheckpointBrowser::openFolder);
    connect(m_checkpoint, &QAction::triggered, this, &CheckpointBrowser::createCheckpoint);
    connect(m_restore, &QAction::triggered, this, &CheckpointBrowser::restoreCheckpoint);
    connect(m_fork, &QAction::triggered, this, &CheckpointBrowser::forkCheckpoint);
    connect(m_label, &QAction::triggered, this, &CheckpointBrowser::labelCheckpoint);
    connect(m_settings, &QAction::triggered, this, &CheckpointBrowser::editSettings);
    connect(m_sweep, &QAction::triggered, this, [this] { sweep(false); });
    connect(m_refresh, &QAction::triggered, this, &CheckpointBrowser::reload);
    connect(m_promote, &QAction::triggered, this, [this] { promote(); });
}

void CheckpointBrowser::setStorePath(std::optional<std::filesystem::path> path)
{
    m_storeUsable = path.has_value();
    m_jobs->setStorePath(std::move(path));
    if (!m_storeUsable) {
        m_sandboxModel->setSandboxes({}, 0);
        m_checkpointModel->setCheckpoints({}, {});
        m_sandbox.clear();
        clearDiff(tr("The store is unavailable: there are no sandboxes to show."));
        updateActions();
        return;
    }
    reload();
}

void CheckpointBrowser::reload()
{
    m_following = false;
    m_jobs->loadSandboxes();
}

void CheckpointBrowser::follow()
{
    if (!m_storeUsable)
        return;
    m_jobs->loadSandboxes();
    m_following = true;
}

void CheckpointBrowser::sweep(bool automatic)
{
    started(m_jobs->sweep(automatic));
}

void CheckpointBrowser::seedDemo()
{
    // A task may still run (the sweep at start, when the demo follows the store's opening): the demo's sandboxes
    // are made once it ends, rather than refused.
    if (m_jobs->isBusy() && m_jobs->storePath()) {
        connect(m_jobs, &CheckpointJobRunner::taskFinished, this, [this] { started(m_jobs->seedDemo()); },
                Qt::SingleShotConnection);
        return;
    }
    started(m_jobs->seedDemo());
}

const sb::SandboxInfo* CheckpointBrowser::currentSandboxInfo() const
{
    return m_sandboxModel->sandboxAt(m_sandboxModel->rowOf(m_sandbox));
}

bool CheckpointBrowser::selectSandbox(const QString& name)
{
    const int row = m_sandboxModel->rowOf(name);
    if (row < 0)
        return false;
    m_sandboxView->selectRow(row);
    return true;
}

bool CheckpointBrowser::selectCheckpoints(const QStringList& ids)
{
    QItemSelection selection;
    for (const QString& id : ids) {
        const int row = m_checkpointModel->rowOf(id);
        if (row < 0)
            return false;
        selection.select(m_checkpointModel->index(row, 0),
                         m_checkpointModel->index(row, CheckpointListModel::ColumnCount - 1));
    }
    m_checkpointView->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (!ids.isEmpty())
        m_checkpointView->selectionModel()->setCurrentIndex(m_checkpointModel->index(m_checkpointModel->rowOf(ids.constFirst()), 0),
                                                            QItemSelectionModel::NoUpdate);
    return true;
}

bool CheckpointBrowser::showCheckpoint(const QString& sandbox, const QString& id)
{
    if (sandbox == m_sandbox && m_checkpointModel->rowOf(id) >= 0)
        return selectCheckpoints({id});
    if (!selectSandbox(sandbox))
        return false;
    m_checkpointsToSelect = {id}; // selected when the sandbox's checkpoints come in (onCheckpointsLoaded)
    return true;
}

QString CheckpointBrowser::shownDiffText() const
{
    return m_diffStack->currentWidget() == m_diffView ? m_diffView->text() : m_diffMessage->text();
}

QStringList CheckpointBrowser::selectedCheckpoints() const
{
    QModelIndexList rows = m_checkpointView->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList ids;
    for (const auto& index : rows)
        ids << index.data(CheckpointListModel::IdRole).toString();
    return ids;
}

QString CheckpointBrowser::checkpointText(const QString& id) const
{
    const auto* checkpoint = m_checkpointModel->checkpointAt(m_checkpointModel->rowOf(id));
    const QString prefix = id.left(kShortIdLength);
    if (!checkpoint || checkpoint->label.empty())
        return prefix;
    return QStringLiteral("%1 “%2”").arg(prefix, toQString(sb::printable(checkpoint->label, 80)));
}

void CheckpointBrowser::onSandboxesLoaded(const SandboxesSnapshot& snapshot)
{
    if (!snapshot.error.isEmpty()) {
        clearDiff(tr("Cannot read the sandboxes: %1").arg(snapshot.error));
        m_diffMessage->setStyleSheet(QStringLiteral("QLabel { color: %1; background: #fdecea; }").arg(kBroken));
        return;
    }
    QString wanted = m_selectAfterLoad.isEmpty() ? m_sandbox : m_selectAfterLoad;
    m_selectAfterLoad.clear();
    if (m_checkpointsToSelect.isEmpty() && wanted == m_sandbox)
        m_checkpointsToSelect = selectedCheckpoints();
    {
        const QSignalBlocker blocker(m_sandboxView->selectionModel());
        // Followed (another process's change): the list stays where it was scrolled.
        const int scrolled = m_sandboxView->verticalScrollBar()->value();
        m_sandboxModel->setSandboxes(snapshot.sandboxes, snapshot.nowMs, snapshot.usage);
        if (m_sandboxModel->rowOf(wanted) < 0)
            wanted = toQString(sb::SandboxEngine::kMain);
        const int row = m_sandboxModel->rowOf(wanted);
        if (row >= 0)
            m_sandboxView->selectRow(row);
        if (m_following && wanted == m_sandbox)
            m_sandboxView->verticalScrollBar()->setValue(scrolled);
    }
    if (wanted != m_sandbox) {
        m_checkpointsToSelect.clear();
        const QSignalBlocker blocker(m_checkpointView->selectionModel());
        m_checkpointModel->setCheckpoints({}, {});
    }
    m_sandbox = wanted;
    m_jobs->loadCheckpoints(m_sandbox);
    updateActions();
}

void CheckpointBrowser::onSandboxSelected()
{
    const QModelIndexList rows = m_sandboxView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    const QString name = rows.constFirst().data(SandboxListModel::NameRole).toString();
    if (name == m_sandbox)
        return;
    m_sandbox = name;
    m_following = false;
    m_checkpointsToSelect.clear();
    {
        const QSignalBlocker blocker(m_checkpointView->selectionModel());
        m_checkpointModel->setCheckpoints({}, {});
    }
    onCheckpointsSelected();
    m_jobs->loadCheckpoints(m_sandbox);
}

void CheckpointBrowser::onCheckpointsLoaded(const CheckpointsSnapshot& snapshot)
{
    if (snapshot.sandbox != m_sandbox)
        return;
    if (!snapshot.error.isEmpty()) {
        clearDiff(tr("Cannot read the checkpoints of %1: %2").arg(snapshot.sandbox, snapshot.error));
        return;
    }
    const QStringList wanted = m_checkpointsToSelect;
    m_checkpointsToSelect.clear();
    {
        const QSignalBlocker blocker(m_checkpointView->selectionModel());
        // Followed (another process's change): the graph stays where it was scrolled.
        const bool again = m_following && m_checkpointModel->rowCount() > 0;
        const int scrolled = m_checkpointView->verticalScrollBar()->value();
        m_checkpointModel->setCheckpoints(snapshot.checkpoints, snapshot.head);
        QStringList present;
        for (const QString& id : wanted) {
            if (m_checkpointModel->rowOf(id) >= 0)
                present << id;
        }
        selectCheckpoints(present);
        if (again)
            m_checkpointView->verticalScrollBar()->setValue(scrolled);
    }
    auto* delegate = qobject_cast<GraphDelegate*>(m_checkpointView->itemDelegateForColumn(CheckpointListModel::GraphColumn));
    if (delegate)
        m_checkpointView->horizontalHeader()->resizeSection(
            CheckpointListModel::GraphColumn, delegate->geometry().width(std::max(2, m_checkpointModel->maxLanes())));
    const QStringList ids = selectedCheckpoints();
    if (std::exchange(m_following, false) && ids.size() == 2 && ids.at(1) == m_diffFrom && ids.at(0) == m_diffTo) {
        updateActions(); // the same two checkpoints: their diff stands
        return;
    }
    onCheckpointsSelected();
}

void CheckpointBrowser::onCheckpointsSelected()
{
    // A list reload under way restores the selection it captured when it began; a choice made since is newer
    // and is the one it keeps (a reload after another process's change must not undo a click).
    if (!m_checkpointsToSelect.isEmpty())
        m_checkpointsToSelect = selectedCheckpoints();
    updateActions();
    const QStringList ids = selectedCheckpoints();
    if (ids.isEmpty()) {
        m_diffFrom.clear();
        m_diffTo.clear();
        m_jobs->cancelDiff();
        const auto& sandboxes = m_sandboxModel->sandboxes();
        const bool onlyMain = sandboxes.size() <= 1 && (sandboxes.empty() || sandboxes.front().checkpoints <= 1);
        if (!m_storeUsable)
            clearDiff(tr("The store is unavailable: there are no sandboxes to show."));
        else if (onlyMain)
            clearDiff(tr("Only main so far. New sandbox… makes a world to experiment in; the Demo (Ctrl+Shift+D) "
                         "also adds two demo sandboxes with a few checkpoints to explore."));
        else
            clearDiff(tr("Select a checkpoint to see how the live workspace differs from it; Ctrl-click a second "
                         "checkpoint to compare the two."));
        return;
    }
    if (ids.size() > 2) {
        m_diffFrom.clear();
        m_diffTo.clear();
        m_jobs->cancelDiff();
        clearDiff(tr("Select one checkpoint (compared with the live workspace) or two (compared with each other)."));
        return;
    }
    startDiff();
}

void CheckpointBrowser::startDiff()
{
    const QStringList ids = selectedCheckpoints();
    if (ids.isEmpty() || m_sandbox.isEmpty())
        return;
    // Newest first: the older of two is where the diff starts.
    m_diffFrom = ids.size() == 2 ? ids.at(1) : ids.at(0);
    m_diffTo = ids.size() == 2 ? ids.at(0) : QString();
    if (m_diffSummary->text().isEmpty() || m_fileModel->rowCount() == 0)
        m_diffSummary->setText(tr("Comparing…"));
    m_jobs->diff(m_sandbox, m_diffFrom, m_diffTo);
    if (!m_jobs->isBusy())
        showProgress(JobProgress{tr("comparing"), 0, 0, {}}, true);
}

void CheckpointBrowser::onDiffReady(const DiffSnapshot& snapshot)
{
    if (!m_jobs->isBusy()) {
        m_progress->hide();
        m_progressText->clear();
        m_cancel->hide();
    }
    if (snapshot.sandbox != m_sandbox || snapshot.from != m_diffFrom || snapshot.to != m_diffTo)
        return;
    if (snapshot.cancelled) {
        clearDiff(tr("Diff cancelled."));
        return;
    }
    if (!snapshot.diff) {
        clearDiff(tr("Cannot compare: %1").arg(snapshot.error));
        m_diffMessage->setStyleSheet(QStringLiteral("QLabel { color: %1; background: #fdecea; }").arg(kBroken));
        return;
    }
    const sb::DiffResult& diff = *snapshot.diff;
    const QString from = checkpointText(snapshot.from);
    const QString to = snapshot.to.isEmpty() ? tr("live workspace") : checkpointText(snapshot.to);
    const auto& counts = diff.counts;
    const int paths = static_cast<int>(diff.files.size());
    QString summary = tr("<b>%1</b> → <b>%2</b>: %n changed path(s)", nullptr, paths).arg(from.toHtmlEscaped(), to.toHtmlEscaped());
    if (paths > 0)
        summary += QStringLiteral(" — <span style='color:#1e7d32'>%1</span>, <span style='color:#b26a00'>%2</span>, "
                                  "<span style='color:#c0392b'>%3</span>")
                       .arg(tr("%1 added").arg(counts.added), tr("%1 modified").arg(counts.modified),
                            tr("%1 removed").arg(counts.removed));
    if (!diff.skipped.empty())
        summary += QLatin1String("<br>") + tr("Not compared (skipped by the walk): %1").arg(diff.skipped.size());
    m_diffSummary->setText(summary);

    const QString keep = m_fileToSelect.isEmpty() ? m_fileView->currentIndex().data(DiffFileModel::PathRole).toString()
                                                  : m_fileToSelect;
    m_fileToSelect.clear();
    {
        const QSignalBlocker blocker(m_fileView->selectionModel());
        m_fileModel->setFiles(diff.files);
    }
    if (paths == 0) {
        showMessage(snapshot.to.isEmpty() ? tr("No differences: the live workspace is exactly this checkpoint.")
                                          : tr("No differences: both checkpoints hold the same files."));
        return;
    }
    const int row = std::max(0, m_fileModel->rowOf(keep));
    m_fileView->selectRow(row);
    onFileSelected();
}

void CheckpointBrowser::onFileSelected()
{
    const auto* file = m_fileModel->fileAt(m_fileView->currentIndex().row());
    if (!file) {
        showMessage(m_fileModel->rowCount() == 0 ? QString() : tr("Select a changed path to see its diff."));
        return;
    }
    const auto& change = file->change;
    auto sizeOf = [](const std::optional<sb::TreeEntry>& entry) { return entry ? byteSizeText(entry->size) : QString(); };
    if (file->binary) {
        QString text = tr("Binary file differs");
        if (change.kind == sb::ChangeKind::Modified)
            text += QLatin1Char('\n') + tr("%1 → %2").arg(sizeOf(change.before), sizeOf(change.after));
        else if (change.kind == sb::ChangeKind::Added)
            text = tr("Binary file added (%1)").arg(sizeOf(change.after));
        else
            text = tr("Binary file removed (%1)").arg(sizeOf(change.before));
        showMessage(text);
        return;
    }
    if (file->tooLarge) {
        const auto& entry = change.after ? change.after : change.before;
        showMessage(tr("Too large for a line diff (%1)").arg(sizeOf(entry)));
        return;
    }
    if (file->unified.empty()) {
        const auto& entry = change.after ? change.after : change.before;
        if (entry && entry->type == sb::EntryType::Directory)
            showMessage(change.kind == sb::ChangeKind::Modified ? tr("Folder permissions changed") : tr("Empty folder"));
        else if (entry && entry->type == sb::EntryType::Symlink)
            showMessage(tr("Symbolic link → %1").arg(toQString(sb::printable(entry->data, 400))));
        else if (change.before && change.after && change.before->mode != change.after->mode)
            showMessage(tr("Permissions changed: %1 → %2")
                            .arg(QString::number(change.before->mode, 8), QString::number(change.after->mode, 8)));
        else
            showMessage(tr("No text differences (an empty file)."));
        return;
    }
    m_diffView->showDiff(toQString(file->unified));
    m_diffStack->setCurrentWidget(m_diffView);
}

void CheckpointBrowser::clearDiff(const QString& message)
{
    m_diffSummary->clear();
    {
        const QSignalBlocker blocker(m_fileView->selectionModel());
        m_fileModel->setFiles({});
    }
    showMessage(message);
}

void CheckpointBrowser::showMessage(const QString& text)
{
    m_diffMessage->setStyleSheet(QStringLiteral("QLabel { color: %1; background: #f6f8fa; }").arg(kNeutral));
    m_diffMessage->setText(text);
    m_diffView->clear();
    m_diffStack->setCurrentWidget(m_diffMessage);
}

void CheckpointBrowser::showProgress(const JobProgress& progress, bool cancellable)
{
    if (progress.total > 0) {
        m_progress->setRange(0, kProgressSteps);
        m_progress->setValue(static_cast<int>(std::min<quint64>(progress.done, progress.total) * kProgressSteps / progress.total));
    } else {
        m_progress->setRange(0, 0); // busy: how much is left is not known
    }
    QString text = progress.phase;
    if (progress.done > 0)
        text += progress.total > 0 ? QStringLiteral(" %L1/%L2").arg(progress.done).arg(progress.total)
                                   : QStringLiteral(" %L1").arg(progress.done);
    if (!progress.path.isEmpty())
        text += QStringLiteral("  ") + progress.path;
    m_progressText->setText(text);
    m_progressText->setToolTip(text);
    m_progress->show();
    m_cancel->setVisible(true);
    m_cancel->setEnabled(cancellable);
}

void CheckpointBrowser::onTaskStarted(CheckpointTask task)
{
    showProgress(JobProgress{taskText(task), 0, 0, {}}, CheckpointJobRunner::cancellable(task));
    updateActions();
}

void CheckpointBrowser::onTaskProgress(const JobProgress& progress)
{
    const auto task = m_jobs->currentTask();
    if (!task)
        return;
    JobProgress shown = progress;
    shown.phase = taskText(*task) + QLatin1Char(' ') + progress.phase;
    showProgress(shown, CheckpointJobRunner::cancellable(*task));
}

void CheckpointBrowser::onDiffProgress(const JobProgress& progress)
{
    if (m_jobs->isBusy())
        return; // the task's progress has the place
    JobProgress shown = progress;
    shown.phase = tr("Comparing: %1").arg(progress.phase);
    showProgress(shown, true);
}

void CheckpointBrowser::onTaskFinished(const TaskOutcome& outcome)
{
    m_progress->hide();
    m_progressText->clear();
    m_cancel->hide();
    updateActions();
    if (outcome.cancelled) {
        emit statusMessage(tr("Cancelled: nothing was changed."), 5000);
        return;
    }
    if (!outcome.error.isEmpty()) {
        emit statusMessage(tr("Failed: %1").arg(outcome.error), 8000);
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Checkpoints"), taskText(outcome.task),
                                    QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("checkpointErrorBox"));
        box->setText(tr("This could not be done:"));
        box->setInformativeText(outcome.error);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        reload();
        return;
    }
    QString summary = outcome.summary;
    if (!outcome.skipped.isEmpty())
        summary += QLatin1Char(' ')
                   + tr("(%n path(s) skipped; first: %1)", nullptr, static_cast<int>(outcome.skipped.size()))
                         .arg(outcome.skipped.constFirst());
    if (outcome.automatic)
        summary = tr("At start: %1").arg(summary);
    emit statusMessage(summary, 10000);
    if (!outcome.sandbox.isEmpty())
        m_selectAfterLoad = outcome.sandbox;
    if (outcome.task == CheckpointTask::Checkpoint || outcome.task == CheckpointTask::Restore
        || outcome.task == CheckpointTask::Label)
        m_checkpointsToSelect = selectedCheckpoints();
    // Open folder on an archived sandbox revived it first: now there is a folder to open.
    if (outcome.task == CheckpointTask::Revive && !outcome.workspace.isEmpty()
        && !QDesktopServices::openUrl(QUrl::fromLocalFile(outcome.workspace)))
        emit statusMessage(tr("Cannot open %1 in a file manager").arg(outcome.workspace), 8000);
    m_fileToSelect = m_fileView->currentIndex().data(DiffFileModel::PathRole).toString();
    reload();
    emit storeChanged();
}

void CheckpointBrowser::updateActions()
{
    const bool usable = m_storeUsable;
    const bool busy = m_jobs->isBusy();
    const auto* sandbox = currentSandboxInfo();
    const int selected = static_cast<int>(m_checkpointView->selectionModel()->selectedRows().size());
    const bool isMain = sandbox && sandbox->name == sb::SandboxEngine::kMain;
    m_newSandbox->setEnabled(usable && !busy);
    m_destroy->setEnabled(usable && !busy && sandbox && !isMain);
    m_openFolder->setEnabled(usable && sandbox && (!sandbox->archived || !busy));
    m_settings->setEnabled(usable && !busy && sandbox);
    m_sandboxDetails->setText(sandbox ? SandboxListModel::detailsText(*sandbox, m_sandboxModel->usageOf(sandbox->name),
                                                                      sb::nowEpochMs())
                                      : QString());
    m_checkpoint->setEnabled(usable && !busy && sandbox);
    m_restore->setEnabled(usable && !busy && sandbox && selected == 1);
    m_fork->setEnabled(usable && !busy && sandbox && selected == 1);
    m_label->setEnabled(usable && !busy && sandbox && selected == 1);
    m_sweep->setEnabled(usable && !busy);
    m_promote->setEnabled(usable && !busy && sandbox && !isMain);
    m_refresh->setEnabled(usable);
}

bool CheckpointBrowser::started(bool started)
{
    // A dialog accepted while another task ran, or no store: say so rather than do nothing silently.
    if (!started)
        emit statusMessage(m_storeUsable ? tr("Another checkpoint operation is running: try again when it ends.")
                                         : tr("The store is unavailable."),
                           6000);
    return started;
}

void CheckpointBrowser::cancel()
{
    if (m_jobs->isBusy())
        m_jobs->cancelTask();
    else
        m_jobs->cancelDiff();
    m_progressText->setText(tr("Cancelling…"));
}

void CheckpointBrowser::newSandbox()
{
    const QStringList ids = selectedCheckpoints();
    const QString checkpoint = ids.size() == 1 ? ids.constFirst() : QString();
    auto* dialog = new NewSandboxDialog(m_sandboxModel->sandboxes(), m_sandbox, checkpoint,
                                        checkpoint.isEmpty() ? QString() : checkpointText(checkpoint), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const auto request = dialog->request();
        if (started(m_jobs->createSandbox(request)))
            m_selectAfterLoad = toQString(request.name);
    });
    dialog->open();
}

void CheckpointBrowser::destroySandbox()
{
    const auto* sandbox = currentSandboxInfo();
    if (!sandbox || sandbox->name == sb::SandboxEngine::kMain)
        return;
    const QString name = toQString(sandbox->name);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Destroy sandbox"),
                                tr("Destroy the sandbox <b>%1</b>?").arg(name.toHtmlEscaped()),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("confirmDestroyBox"));
    box->setInformativeText(tr("Its workspace folder and its %n checkpoint(s) are deleted. This cannot be undone.",
                               nullptr, static_cast<int>(sandbox->checkpoints)));
    box->button(QMessageBox::Yes)->setText(tr("Destroy"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QDialog::finished, this, [this, box, name] {
        if (box->clickedButton() == box->button(QMessageBox::Yes))
            started(m_jobs->destroySandbox(name));
    });
    box->open();
}

void CheckpointBrowser::openFolder()
{
    const auto* sandbox = currentSandboxInfo();
    if (!sandbox)
        return;
    // An archived sandbox has no folder until it is used: revive it first, then open it (onTaskFinished).
    if (sandbox->archived) {
        started(m_jobs->revive(toQString(sandbox->name)));
        return;
    }
    const QString path = toQString(sandbox->workspace.string());
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
        emit statusMessage(tr("Cannot open %1 in a file manager").arg(path), 8000);
}

void CheckpointBrowser::createCheckpoint()
{
    if (m_sandbox.isEmpty())
        return;
    auto* dialog = new CheckpointDialog(m_sandbox, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, sandbox = m_sandbox] {
        sb::CheckpointRequest request;
        request.sandbox = toStdString(sandbox);
        request.label = toStdString(dialog->label());
        request.message = toStdString(dialog->message());
        started(m_jobs->checkpoint(std::move(request)));
    });
    dialog->open();
}

void CheckpointBrowser::labelCheckpoint()
{
    const QStringList ids = selectedCheckpoints();
    if (ids.size() != 1)
        return;
    const QString id = ids.constFirst();
    const auto* checkpoint = m_checkpointModel->checkpointAt(m_checkpointModel->rowOf(id));
    auto* dialog = new LabelDialog(id.left(kShortIdLength), checkpoint ? toQString(checkpoint->label) : QString(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, id] { started(m_jobs->label(id, dialog->label())); });
    dialog->open();
}

void CheckpointBrowser::editSettings()
{
    const auto* sandbox = currentSandboxInfo();
    if (!sandbox)
        return;
    auto* dialog = new SandboxSettingsDialog(*sandbox, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { started(m_jobs->settings(dialog->settings())); });
    dialog->open();
}

void CheckpointBrowser::restoreCheckpoint()
{
    const QStringList ids = selectedCheckpoints();
    if (ids.size() != 1 || m_sandbox.isEmpty())
        return;
    const QString id = ids.constFirst();
    auto* box = new QMessageBox(QMessageBox::Question, tr("Restore checkpoint"),
                                tr("Restore the workspace of <b>%1</b> to checkpoint %2?")
                                    .arg(m_sandbox.toHtmlEscaped(), checkpointText(id).toHtmlEscaped()),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("confirmRestoreBox"));
    box->setInformativeText(tr("Unsaved changes in the workspace are checkpointed first, and the restore is recorded "
                               "as a new checkpoint: nothing is lost."));
    box->button(QMessageBox::Yes)->setText(tr("Restore"));
    box->setDefaultButton(QMessageBox::Yes);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QDialog::finished, this, [this, box, id, sandbox = m_sandbox] {
        if (box->clickedButton() == box->button(QMessageBox::Yes))
            started(m_jobs->restore(id, sandbox));
    });
    box->open();
}

void CheckpointBrowser::forkCheckpoint()
{
    const QStringList ids = selectedCheckpoints();
    if (ids.size() != 1)
        return;
    const QString id = ids.constFirst();
    QString suggested = m_sandbox + QStringLiteral("-fork");
    for (int n = 2; m_sandboxModel->rowOf(suggested) >= 0; ++n)
        suggested = m_sandbox + QStringLiteral("-fork%1").arg(n);
    auto* dialog = new ForkDialog(checkpointText(id), suggested, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, id] {
        const QString name = dialog->name();
        if (started(m_jobs->fork(id, name)))
            m_selectAfterLoad = name;
    });
    dialog->open();
}

} // namespace sb::ui

namespace sb::ui {

void CheckpointBrowser::promote(const QString& target)
{
    const auto* sandbox = currentSandboxInfo();
    const auto& storePath = m_jobs->storePath();
    if (!sandbox || sandbox->name == sb::SandboxEngine::kMain || !storePath)
        return;
    QStringList targets;
    for (const auto& other : m_sandboxModel->sandboxes()) {
        if (other.name != sandbox->name)
            targets << toQString(other.name);
    }
    auto* dialog = new PromotionDialog(*storePath, toQString(sandbox->name), target, targets, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PromotionDialog::storeChanged, this, [this] {
        reload();
        emit storeChanged();
    });
    connect(dialog, &PromotionDialog::promoted, this, [this](const QString& into, const QString& checkpoint) {
        emit statusMessage(tr("Promoted %1 into %2: checkpoint %3").arg(m_sandbox, into, checkpoint.left(10)), 10000);
    });
    dialog->open();
}

} // namespace sb::ui
