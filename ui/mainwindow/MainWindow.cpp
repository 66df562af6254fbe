#include "ui/mainwindow/MainWindow.h"

#include "ui/agents/AgentLauncher.h"
#include "ui/agents/AgentWorkspace.h"
#include "ui/audit/AuditView.h"
#include "ui/charts/MetricsDashboard.h"
#include "ui/cluster/ClusterJobsPanel.h"
#include "ui/checkpoints/CheckpointBrowser.h"
#include "ui/demo/DemoTour.h"
#include "demo/demo.h"
#include "usecases/demo_run.h"
#include "usecases/run.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/FindBar.h"
#include "ui/mainwindow/Autosave.h"
#include "ui/mainwindow/FileDrop.h"
#include "ui/settings/AppSettings.h"
#include "ui/settings/SettingsDialog.h"
#include "ui/help/HelpWindows.h"
#include "isolation/doctor.h"
#include "ui/mainwindow/IsolationStatus.h"
#include "ui/mainwindow/LivePanes.h"
#include "ui/mainwindow/OutputPane.h"
#include "ui/mainwindow/WorkspaceModes.h"
#include "ui/rules/RulesWorkspace.h"
#include "ui/mainwindow/Snippets.h"
#include "ui/models/Conversions.h"
#include "ui/models/RunHistoryModel.h"
#include "ui/models/SandboxListModel.h"
#include "ui/models/Traceback.h"
#include "ui/jobs/SnapshotReader.h"
#include "ui/jobs/StoreFollower.h"
#include "util/input_file.h"
#include "ui/style/Icons.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace sb::ui {

namespace {

constexpr int kMaxRecentFiles = 8;
const QString kRecentFilesKey = QStringLiteral("recentFiles");

// Runs the window did not take from the editor: the demo's cases (labelled "demo: …") and agents' runs
// ("agent …").
bool isDemoOrAgentRun(const sb::RunRequest& request)
{
    return request.label.starts_with(sb::kDemoCaseLabelPrefix) || request.label.starts_with("agent ");
}

// The 0-based line of `source` that imports `module` (import m, import a, m, from m import x; a dotted
// module matches its top package), if there is one.
std::optional<int> importLine(const QString& source, const QString& module)
{
    const QString top = module.section(QLatin1Char('.'), 0, 0);
    if (top.isEmpty())
        return std::nullopt;
    const QString name = QRegularExpression::escape(top);
    const QRegularExpression pattern(QStringLiteral("^\\s*(?:import\\s+(?:[\\w.]+\\s*(?:as\\s+\\w+)?\\s*,\\s*)*%1\\b"
                                                    "|from\\s+%1\\b)")
                                         .arg(name));
    const QStringList lines = source.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        if (pattern.match(lines.at(i)).hasMatch())
            return i;
    }
    return std::nullopt;
}


} // namespace

MainWindow::MainWindow(const std::filesystem::path& storePath, QWidget* parent)
    : MainWindow(sb::StoreLocation{storePath, false}, parent)
{
}

MainWindow::MainWindow(sb::StoreLocation store, QWidget* parent)
    : QMainWindow(parent)
    , m_store(std::move(store))
    , m_jobs(new JobRunner(this))
    , m_historyModel(new RunHistoryModel(this))
    , m_follower(new StoreFollower(this))
    , m_snapshots(new SnapshotReader(this))
    , m_live(new LivePanes(this))
    , m_editor(new CodeEditor(this))
    , m_output(new OutputPane(this))
    , m_dashboard(new MetricsDashboard(this))
    , m_auditView(new AuditView(this))
    , m_checkpointBrowser(new CheckpointBrowser(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(applicationIcon());
    m_editor->setObjectName(QStringLiteral("codeEditor"));

    m_storeBanner = new QLabel(this);
    m_storeBanner->setObjectName(QStringLiteral("storeBanner"));
    m_storeBanner->setWordWrap(true);
    m_storeBanner->setStyleSheet(QStringLiteral("QLabel { background: #fdecea; color: #8a1c12; border: 1px solid #f5c2bc;"
                                                " border-radius: 4px; padding: 6px 10px; }"));
    m_recoveryBar = new RecoveryBar(this);

    // The find bar sits under the editor it searches, as in common editors.
    auto* editorPane = new QWidget(this);
    auto* editorLayout = new QVBoxLayout(editorPane);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editorLayout->addWidget(m_editor, 1);
    m_findBar = new FindBar(m_editor, editorPane);
    editorLayout->addWidget(m_findBar);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("editorSplitter"));
    splitter->addWidget(editorPane);
    splitter->addWidget(m_output);
    // The output gets as much height as the snippet: a run's result is read there.
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    m_central = new QWidget(this);
    m_central->setObjectName(QStringLiteral("snippetArea"));
    auto* layout = new QVBoxLayout(m_central);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->setSpacing(4);
    layout->addWidget(m_recoveryBar);
    layout->addWidget(splitter, 1);
    setCentralWidget(m_central);

    createActions();
    createToolBar();
    // The store's banner in a row of its own under the toolbar, above every workspace: the store is what all
    // of them show. The row is there while the banner is.
    auto* bannerBar = m_storeBannerBar = new QToolBar(tr("Store"), this);
    bannerBar->setObjectName(QStringLiteral("storeBannerBar"));
    bannerBar->setMovable(false);
    bannerBar->setFloatable(false);
    bannerBar->toggleViewAction()->setVisible(false);
    m_storeBanner->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    bannerBar->addWidget(m_storeBanner);
    bannerBar->hide();
    addToolBarBreak(Qt::TopToolBarArea);
    addToolBar(Qt::TopToolBarArea, bannerBar);
    createDocks();
    createWorkspaces();
    createMenus();
    createLivePanes();

    m_statusLabel = new QLabel(tr("Ready"), this);
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("demoProgress"));
    m_progress->setMaximumWidth(240);
    m_progress->setTextVisible(true);
    m_progress->hide();
    // Cancel belongs to the running job, beside its progress: shown only while something runs, in words,
    // and apart from the store's name so that it never reads as a state of the store.
    m_statusCancel = new QToolButton(this);
    m_statusCancel->setObjectName(QStringLiteral("statusCancelButton"));
    m_statusCancel->setText(tr("Cancel"));
    m_statusCancel->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_statusCancel->setToolTip(m_cancelAction->toolTip());
    m_statusCancel->setAccessibleName(tr("Cancel the running job"));
    m_statusCancel->setAutoRaise(true);
    connect(m_statusCancel, &QToolButton::clicked, this, &MainWindow::cancelJob);
    auto* storeSeparator = new QFrame(this);
    storeSeparator->setFrameShape(QFrame::VLine);
    storeSeparator->setFrameShadow(QFrame::Sunken);
    m_storeLabel = new QLabel(this);
    m_storeLabel->setObjectName(QStringLiteral("storeLabel"));
    m_storeLabel->setForegroundRole(QPalette::PlaceholderText); // secondary text, in the theme's colour
    m_isolationStatus = new IsolationStatus(this);
    m_isolationStatus->setLevel(askedPolicy().level);
    auto* isolationSeparator = new QFrame(this);
    isolationSeparator->setFrameShape(QFrame::VLine);
    isolationSeparator->setFrameShadow(QFrame::Sunken);
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_statusCancel);
    statusBar()->addPermanentWidget(isolationSeparator);
    statusBar()->addPermanentWidget(m_isolationStatus);
    statusBar()->addPermanentWidget(storeSeparator);
    statusBar()->addPermanentWidget(m_storeLabel);

    connect(m_jobs, &JobRunner::runStarted, this, &MainWindow::onRunStarted);
    connect(m_jobs, &JobRunner::runFinished, this, &MainWindow::onRunFinished);
    connect(m_jobs, &JobRunner::jobFinished, this, &MainWindow::onJobFinished);
    connect(m_editor, &QsciScintilla::modificationChanged, this, &QWidget::setWindowModified);
    connect(m_checkpointBrowser, &CheckpointBrowser::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(m_checkpointBrowser, &CheckpointBrowser::storeChanged, m_auditView, &AuditView::storeChanged);
    connect(m_checkpointBrowser->sandboxModel(), &QAbstractItemModel::modelReset, this, &MainWindow::fillSandboxes);
    m_tour = new DemoTour(this);

    setBusy(false);
    resize(1440, 900);
    restoreSettings();
    updateTitle();
    setUpRecovery();
    // A default policy that no longer loads is said at once, not only when it refuses a run.
    if (const auto problem = policyProblem(AppSettings::load().defaultPolicy))
        statusBar()->showMessage(tr("The default policy in Edit ▸ Settings cannot rule a run: %1").arg(*problem), 20000);
    setAcceptDrops(true);
    m_editor->viewport()->installEventFilter(this);
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    m_newAction = new QAction(actionIcon(ActionIcon::New), tr("&New"), this);
    m_newAction->setObjectName(QStringLiteral("actionNew"));
    m_newAction->setShortcut(QKeySequence::New);
    connect(m_newAction, &QAction::triggered, this, &MainWindow::newFile);

    m_openAction = new QAction(actionIcon(ActionIcon::Open), tr("&Open…"), this);
    m_openAction->setObjectName(QStringLiteral("actionOpen"));
    m_openAction->setShortcut(QKeySequence::Open);
    connect(m_openAction, &QAction::triggered, this, &MainWindow::openFileDialog);

    m_saveAction = new QAction(actionIcon(ActionIcon::Save), tr("&Save"), this);
    m_saveAction->setObjectName(QStringLiteral("actionSave"));
    m_saveAction->setShortcut(QKeySequence::Save);
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::save);

    m_saveAsAction = new QAction(actionIcon(ActionIcon::SaveAs), tr("Save &As…"), this);
    m_saveAsAction->setObjectName(QStringLiteral("actionSaveAs"));
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::saveAs);

    m_quitAction = new QAction(actionIcon(ActionIcon::Quit), tr("&Quit"), this);
    m_quitAction->setObjectName(QStringLiteral("actionQuit"));
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_runAction = new QAction(actionIcon(ActionIcon::Run), tr("&Run"), this);
    m_runAction->setObjectName(QStringLiteral("actionRun"));
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_runAction->setToolTip(tr("Run the snippet in the sandbox (Ctrl+Return)"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::runSnippet);

    m_cancelAction = new QAction(actionIcon(ActionIcon::Cancel), tr("&Cancel"), this);
    m_cancelAction->setObjectName(QStringLiteral("actionCancel"));
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setToolTip(tr("Cancel the running job (Esc)"));
    connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancelJob);

    m_demoAction = new QAction(actionIcon(ActionIcon::Demo), tr("&Demo"), this);
    m_demoAction->setObjectName(QStringLiteral("actionDemo"));
    m_demoAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    m_demoAction->setToolTip(tr("Run every demo case: moves every counter and chart"));
    connect(m_demoAction, &QAction::triggered, this, &MainWindow::runDemo);

    m_openDemoStoreAction = new QAction(tr("Open &Demo Store"), this);
    m_openDemoStoreAction->setObjectName(QStringLiteral("actionOpenDemoStore"));
    m_openDemoStoreAction->setToolTip(tr("Open a new window on a fresh demo store, for training; your store stays "
                                         "as it is"));
    connect(m_openDemoStoreAction, &QAction::triggered, this, &MainWindow::openDemoStore);

    m_playDemoAction = new QAction(actionIcon(ActionIcon::Demo), tr("&Play Demo"), this);
    m_playDemoAction->setObjectName(QStringLiteral("actionPlayDemo"));
    m_playDemoAction->setToolTip(tr("Walk through the demo store's parts in about a minute (in a window on your own "
                                    "store, a demo store opens first)"));
    connect(m_playDemoAction, &QAction::triggered, this, &MainWindow::playDemo);

    m_docsAction = new QAction(QIcon::fromTheme(QStringLiteral("help-contents")), tr("&Documentation"), this);
    m_docsAction->setObjectName(QStringLiteral("actionDocumentation"));
    m_docsAction->setShortcut(QKeySequence::HelpContents);
    m_docsAction->setToolTip(tr("Read Sandbench's documentation (F1)"));
    connect(m_docsAction, &QAction::triggered, this, [this] { showDocumentation(); });

    m_shortcutsAction = new QAction(tr("&Keyboard Shortcuts"), this);
    m_shortcutsAction->setObjectName(QStringLiteral("actionShortcuts"));
    connect(m_shortcutsAction, &QAction::triggered, this, [this] {
        auto* dialog = new ShortcutsDialog(this, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });

    m_aboutAction = new QAction(actionIcon(ActionIcon::About), tr("&About Sandbench"), this);
    m_aboutAction->setObjectName(QStringLiteral("actionAbout"));
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::about);

    m_findAction = new QAction(QIcon::fromTheme(QStringLiteral("edit-find")), tr("&Find…"), this);
    m_findAction->setObjectName(QStringLiteral("actionFind"));
    m_findAction->setShortcut(QKeySequence::Find);
    m_findAction->setToolTip(tr("Find in the snippet, or in the rule set being edited (Ctrl+F)"));
    connect(m_findAction, &QAction::triggered, this, [this] { activeFindBar()->showFind(); });

    m_replaceAction = new QAction(QIcon::fromTheme(QStringLiteral("edit-find-replace")), tr("&Replace…"), this);
    m_replaceAction->setObjectName(QStringLiteral("actionReplace"));
    m_replaceAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    m_replaceAction->setToolTip(tr("Find and replace in the snippet, or in the rule set being edited (Ctrl+H)"));
    connect(m_replaceAction, &QAction::triggered, this, [this] { activeFindBar()->showReplace(); });

    // F3 belongs to the editor's area: the agent comparison uses it for its next difference.
    m_findNextAction = new QAction(tr("Find &Next"), this);
    m_findNextAction->setObjectName(QStringLiteral("actionFindNext"));
    m_findNextAction->setShortcut(QKeySequence(Qt::Key_F3));
    m_findNextAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_findNextAction, &QAction::triggered, m_findBar, &FindBar::findNext);
    m_findPreviousAction = new QAction(tr("Find &Previous"), this);
    m_findPreviousAction->setObjectName(QStringLiteral("actionFindPrevious"));
    m_findPreviousAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));
    m_findPreviousAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_findPreviousAction, &QAction::triggered, m_findBar, &FindBar::findPrevious);
    m_findBar->parentWidget()->addActions({m_findNextAction, m_findPreviousAction});

    m_settingsAction = new QAction(QIcon::fromTheme(QStringLiteral("preferences-system")), tr("&Settings…"), this);
    m_settingsAction->setObjectName(QStringLiteral("actionSettings"));
    m_settingsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    m_settingsAction->setMenuRole(QAction::PreferencesRole);
    m_settingsAction->setToolTip(tr("Store, default policy, editor font, theme and language (Ctrl+,)"));
    connect(m_settingsAction, &QAction::triggered, this, &MainWindow::showSettings);

    // The workspaces, Ctrl+1 … Ctrl+6 in the order of the bar (WorkspaceModes switches on their triggers).
    auto workspace = [this](const char* name, const QIcon& icon, const QString& text, int number, const QString& tip) {
        auto* action = new QAction(icon, text, this);
        action->setObjectName(QString::fromLatin1(name));
        action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_0 + number)));
        action->setToolTip(tip + tr(" (Ctrl+%1)").arg(number));
        return action;
    };
    auto themed = [this](const char* name, QStyle::StandardPixmap fallback) {
        return QIcon::fromTheme(QString::fromLatin1(name), style()->standardIcon(fallback));
    };
    m_snippetsAction = workspace("actionSnippets", themed("text-x-script", QStyle::SP_FileIcon), tr("&Snippets"), 1,
                                 tr("Snippets: the editor, a run's output and the run history"));
    m_rulesAction = workspace("actionRules", themed("view-filter", QStyle::SP_FileDialogDetailedView), tr("&Rules"), 2,
                              tr("Rules: rule sets, evaluation on a dataset, A/B comparison"));
    m_agentsAction = workspace("actionAgentSessions", themed("view-list-details", QStyle::SP_FileDialogListView),
                               tr("&Agents"), 3, tr("Agents: sessions, their timeline, steps and diffs"));
    m_checkpointsAction = workspace("actionCheckpoints",
                                    themed("document-open-recent", QStyle::SP_FileDialogContentsView),
                                    tr("Check&points"), 4,
                                    tr("Checkpoints & promotion: sandboxes, their checkpoints, diffs and the gate"));
    m_auditAction = workspace("actionAudit", themed("security-high", QStyle::SP_FileDialogInfoView), tr("A&udit"), 5,
                              tr("Audit: the signed log of everything done, verified"));
    m_dashboardAction = workspace("actionDashboard", actionIcon(ActionIcon::Dashboard), tr("Das&hboard"), 6,
                                  tr("Dashboard: outcomes, durations, blocked events, agent steps and promotions"));

    m_resetLayoutAction = new QAction(tr("Reset Workspace &Layout"), this);
    m_resetLayoutAction->setObjectName(QStringLiteral("actionResetLayout"));
    m_resetLayoutAction->setToolTip(tr("Show the current workspace's panels as they were at first"));
}

void MainWindow::createToolBar()
{
    auto* toolBar = addToolBar(tr("Run"));
    toolBar->setObjectName(QStringLiteral("runToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->setIconSize(kToolBarIconSize);
    toolBar->setMovable(false);
    toolBar->addAction(m_runAction);
    toolBar->addAction(m_cancelAction);
    toolBar->addAction(m_demoAction);
    toolBar->addSeparator();

    auto labelled = [toolBar](const QString& text, QWidget* widget) {
        auto* label = new QLabel(text, toolBar);
        label->setBuddy(widget);
        label->setContentsMargins(8, 0, 4, 0);
        toolBar->addWidget(label);
        toolBar->addWidget(widget);
    };

    // Where the next run works: a sandbox's workspace (its checkpoints, its policy), or a fresh folder.
    m_sandboxCombo = new QComboBox(toolBar);
    m_sandboxCombo->setObjectName(QStringLiteral("sandboxCombo"));
    m_sandboxCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_sandboxCombo->setMinimumContentsLength(10);
    m_sandboxCombo->setToolTip(tr("The sandbox the next runs work in: its workspace is theirs, their changes are "
                                  "checkpointed there"));
    m_sandboxCombo->addItem(tr("None (a fresh folder)"), QString());
    connect(m_sandboxCombo, &QComboBox::currentIndexChanged, this, [this] {
        const QString name = currentSandbox();
        if (!name.isEmpty())
            m_checkpointBrowser->selectSandbox(name);
        onPolicyChosen(); // "the sandbox's own" follows the sandbox
        updateTitle();
    });
    labelled(tr("San&dbox:"), m_sandboxCombo);

    // The policy of the next run: the default, a preset, the sandbox's own, or a file.
    m_policyCombo = new QComboBox(toolBar);
    m_policyCombo->setObjectName(QStringLiteral("policyCombo"));
    m_policyCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_policyCombo->setToolTip(tr("The policy of the next run: what it may read, write, import and reach"));
    m_policyCombo->addItem(tr("Default"), QString());
    for (const auto& preset : sb::builtinPresetNames())
        m_policyCombo->addItem(toQString(preset), toQString(preset));
    m_policyCombo->addItem(tr("The sandbox's own"), QStringLiteral(":sandbox"));
    m_policyCombo->insertSeparator(m_policyCombo->count());
    m_policyCombo->addItem(tr("Policy file…"), QStringLiteral(":choose"));
    connect(m_policyCombo, &QComboBox::activated, this, [this] {
        if (m_policyCombo->currentData().toString() == QLatin1String(":choose"))
            choosePolicyFile();
        else
            onPolicyChosen();
    });
    labelled(tr("&Policy:"), m_policyCombo);

    m_languageCombo = new QComboBox(toolBar);
    m_languageCombo->setObjectName(QStringLiteral("languageCombo"));
    m_languageCombo->addItem(tr("Python"), static_cast<int>(sb::Language::Python));
    m_languageCombo->addItem(tr("Shell"), static_cast<int>(sb::Language::Shell));
    connect(m_languageCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_editor->setLanguage(static_cast<sb::Language>(m_languageCombo->itemData(index).toInt()));
    });
    labelled(tr("&Language:"), m_languageCombo);

    const sb::Limits defaults;
    m_timeoutSpin = new QSpinBox(toolBar);
    m_timeoutSpin->setObjectName(QStringLiteral("timeoutSpin"));
    m_timeoutSpin->setRange(100, 600000);
    m_timeoutSpin->setSingleStep(500);
    m_timeoutSpin->setValue(static_cast<int>(defaults.wallMs));
    m_timeoutSpin->setSuffix(tr(" ms"));
    m_timeoutSpin->setGroupSeparatorShown(true);
    m_timeoutSpin->setToolTip(tr("Wall-clock limit: the whole run is killed when it is reached"));
    labelled(tr("&Timeout:"), m_timeoutSpin);

    m_memorySpin = new QSpinBox(toolBar);
    m_memorySpin->setObjectName(QStringLiteral("memorySpin"));
    m_memorySpin->setRange(16, 16384);
    m_memorySpin->setSingleStep(64);
    m_memorySpin->setValue(static_cast<int>(defaults.memoryMb));
    m_memorySpin->setSuffix(tr(" MB"));
    m_memorySpin->setToolTip(tr("Address-space limit of the run"));
    labelled(tr("&Memory:"), m_memorySpin);

    // The isolation level of the next run: levels this machine cannot give are shown but not selectable.
    m_levelCombo = new QComboBox(toolBar);
    m_levelCombo->setObjectName(QStringLiteral("levelCombo"));
    m_levelCombo->setToolTip(tr("Isolation level of the run (sandbench doctor explains what this machine offers)"));
    // The level the policy names (the deepest this machine offers when it names none), as `run` without --level.
    m_levelCombo->addItem(tr("from the policy"), -1);
    const sb::IsolationLevel deepest = sb::highestAvailableLevel();
    for (const auto level : {sb::IsolationLevel::Process, sb::IsolationLevel::Container, sb::IsolationLevel::Strict}) {
        const auto name = sb::toString(level);
        m_levelCombo->addItem(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())),
                              static_cast<int>(level));
        if (level > deepest) {
            if (auto* model = qobject_cast<QStandardItemModel*>(m_levelCombo->model()))
                model->item(m_levelCombo->count() - 1)->setEnabled(false);
        }
    }
    m_levelCombo->setCurrentIndex(m_levelCombo->findData(static_cast<int>(deepest)));
    connect(m_levelCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (m_isolationStatus)
            m_isolationStatus->setLevel(askedPolicy().level);
    });
    labelled(tr("&Isolation:"), m_levelCombo);
}

QString MainWindow::currentSandbox() const
{
    return m_sandboxCombo->currentData().toString();
}

bool MainWindow::setCurrentSandbox(const QString& name)
{
    const int index = m_sandboxCombo->findData(name);
    if (index < 0)
        return false;
    m_sandboxCombo->setCurrentIndex(index);
    return true;
}

QString MainWindow::currentPolicy() const
{
    const QString chosen = m_policyCombo->currentData().toString();
    return chosen.startsWith(QLatin1Char(':')) ? QString() : chosen;
}

void MainWindow::fillSandboxes()
{
    const QString current = currentSandbox();
    const QSignalBlocker blocker(m_sandboxCombo);
    while (m_sandboxCombo->count() > 1)
        m_sandboxCombo->removeItem(1);
    const auto* model = m_checkpointBrowser->sandboxModel();
    for (const auto& sandbox : model->sandboxes()) {
        const QString name = toQString(sandbox.name);
        m_sandboxCombo->addItem(sandbox.archived ? tr("%1 (archived)").arg(name) : name, name);
    }
    const int index = m_sandboxCombo->findData(current);
    m_sandboxCombo->setCurrentIndex(std::max(index, 0));
    if (index < 0 && !current.isEmpty()) {
        statusBar()->showMessage(tr("Sandbox %1 is gone: the next runs work in a fresh folder").arg(current), 6000);
        onPolicyChosen();
        updateTitle();
    }
}

void MainWindow::choosePolicyFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Policy for the next runs"), QString(),
                                                      tr("Policies (*.yaml *.yml);;All files (*)"));
    if (path.isEmpty()) {
        m_policyCombo->setCurrentIndex(0);
        onPolicyChosen();
        return;
    }
    addPolicyFile(path);
}

void MainWindow::addPolicyFile(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    int index = m_policyCombo->findData(absolute);
    if (index < 0) {
        index = m_policyCombo->count() - 1; // before "Policy file…"
        m_policyCombo->insertItem(index, QFileInfo(absolute).fileName(), absolute);
        m_policyCombo->setItemData(index, absolute, Qt::ToolTipRole);
    }
    m_policyCombo->setCurrentIndex(index);
    onPolicyChosen();
}

void MainWindow::onPolicyChosen()
{
    const QString chosen = m_policyCombo->currentData().toString();
    // The sandbox's own policy applies only with no level asked (usecases/run.h, asksPolicy()).
    const bool sandboxOwn = chosen == QLatin1String(":sandbox");
    const int sandboxRow = m_policyCombo->findData(QStringLiteral(":sandbox"));
    if (auto* model = qobject_cast<QStandardItemModel*>(m_policyCombo->model()))
        model->item(sandboxRow)->setEnabled(!currentSandbox().isEmpty());
    if (sandboxOwn && currentSandbox().isEmpty()) {
        m_policyCombo->setCurrentIndex(0);
        return onPolicyChosen();
    }
    // A policy named: its level, unless the person picks one; the default policy: the deepest level.
    if (!chosen.isEmpty())
        m_levelCombo->setCurrentIndex(m_levelCombo->findData(-1));
    m_levelCombo->setEnabled(!sandboxOwn);
    if (m_isolationStatus)
        m_isolationStatus->setLevel(askedPolicy().level);
}

void MainWindow::createDocks()
{
    m_historyView = new QTableView(this);
    m_historyView->setObjectName(QStringLiteral("historyView"));
    // A click on the metrics dashboard (an outcome, a duration bin, a point in time) narrows the history.
    auto* historyFilter = new RunHistoryFilter(this);
    historyFilter->setSourceModel(m_historyModel);
    connect(m_dashboard, &MetricsDashboard::filterChanged, historyFilter, &RunHistoryFilter::setRunFilter);
    m_historyView->setModel(historyFilter);
    m_historyView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_historyView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_historyView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_historyView->setAlternatingRowColors(true);
    m_historyView->setWordWrap(false);
    m_historyView->setShowGrid(false);
    m_historyView->verticalHeader()->hide();
    m_historyView->verticalHeader()->setDefaultSectionSize(m_historyView->fontMetrics().height() + 8);
    auto* header = m_historyView->horizontalHeader();
    header->setStretchLastSection(true);
    header->setHighlightSections(false);
    header->resizeSection(RunHistoryModel::TimeColumn, 150);
    header->resizeSection(RunHistoryModel::LabelColumn, 170);
    header->resizeSection(RunHistoryModel::SandboxColumn, 120);
    header->resizeSection(RunHistoryModel::LanguageColumn, 80);
    header->resizeSection(RunHistoryModel::OutcomeColumn, 110);
    header->resizeSection(RunHistoryModel::DurationColumn, 70);
    m_historyView->setToolTip(tr("Double-click a run to load its snippet into the editor"));
    connect(m_historyView, &QAbstractItemView::doubleClicked, this, &MainWindow::loadHistoryRow);

    auto* historyDock = new QDockWidget(tr("Run history"), this);
    historyDock->setObjectName(QStringLiteral("historyDock"));
    historyDock->setWidget(m_historyView);
    addDockWidget(Qt::BottomDockWidgetArea, historyDock);

    auto* metricsDock = new QDockWidget(tr("Metrics"), this);
    metricsDock->setObjectName(QStringLiteral("metricsDock"));
    metricsDock->setWidget(m_dashboard);
    addDockWidget(Qt::RightDockWidgetArea, metricsDock);

    // The audit log shares the bottom area with the history, one tab each; history is in front.
    auto* auditDock = new QDockWidget(tr("Audit log"), this);
    auditDock->setObjectName(QStringLiteral("auditDock"));
    auditDock->setWidget(m_auditView);
    addDockWidget(Qt::BottomDockWidgetArea, auditDock);
    tabifyDockWidget(historyDock, auditDock);
    historyDock->raise();
    // A log is read by scanning many rows: in front, the bottom area gets at least two fifths of the height.
    connect(auditDock, &QDockWidget::visibilityChanged, this, [this, auditDock](bool visible) {
        const int wanted = height() * 2 / 5;
        if (visible && !auditDock->isFloating() && auditDock->height() < wanted)
            resizeDocks({auditDock}, {wanted}, Qt::Vertical);
    });
    connect(m_auditView, &AuditView::openRequested, this, &MainWindow::openAuditSubject);

    // The cluster jobs are a third tab there (in the Dashboard): their title counts them, so that jobs behind
    // the history's tab are seen.
    m_clusterJobs = new ClusterJobsPanel(this);
    auto* clusterDock = new QDockWidget(tr("Cluster jobs"), this);
    clusterDock->setObjectName(QStringLiteral("clusterJobsDock"));
    clusterDock->setWidget(m_clusterJobs);
    addDockWidget(Qt::BottomDockWidgetArea, clusterDock);
    tabifyDockWidget(auditDock, clusterDock);
    historyDock->raise();
    connect(m_clusterJobs, &ClusterJobsPanel::jobCountChanged, clusterDock, [clusterDock](int count) {
        clusterDock->setWindowTitle(count > 0 ? tr("Cluster jobs (%1)").arg(count) : tr("Cluster jobs"));
    });
    connect(m_clusterJobs, &ClusterJobsPanel::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(m_clusterJobs, &ClusterJobsPanel::documentationRequested, this,
            [this](const QString& path) { showDocumentation(path); });

    // The checkpoint browser shares the full-height right column with the metrics, one tab each: it needs
    // height for the graph and the diff, and gets width when shown (showCheckpoints). Metrics is in front.
    auto* checkpointDock = new QDockWidget(tr("Checkpoints"), this);
    checkpointDock->setObjectName(QStringLiteral("checkpointDock"));
    checkpointDock->setWidget(m_checkpointBrowser);
    addDockWidget(Qt::RightDockWidgetArea, checkpointDock);
    tabifyDockWidget(metricsDock, checkpointDock);
    // The rules workspace is a third tab of that column; showRules() widens it.
    m_rulesWorkspace = new RulesWorkspace(this);
    m_rulesWorkspace->setObjectName(QStringLiteral("rulesWorkspace"));
    auto* rulesDock = new QDockWidget(tr("Rules"), this);
    rulesDock->setObjectName(QStringLiteral("rulesDock"));
    rulesDock->setWidget(m_rulesWorkspace);
    addDockWidget(Qt::RightDockWidgetArea, rulesDock);
    tabifyDockWidget(checkpointDock, rulesDock);
    // The agent workspace is a fourth tab; showAgents() widens it.
    m_agentWorkspace = new AgentWorkspace(this);
    auto* agentsDock = new QDockWidget(tr("Agent sessions"), this);
    agentsDock->setObjectName(QStringLiteral("agentsDock"));
    agentsDock->setWidget(m_agentWorkspace);
    addDockWidget(Qt::RightDockWidgetArea, agentsDock);
    tabifyDockWidget(rulesDock, agentsDock);
    connect(m_agentWorkspace, &AgentWorkspace::statusMessage, statusBar(), &QStatusBar::showMessage);
    // A fork or rewind from a step shows in the checkpoint browser and the audit log.
    connect(m_agentWorkspace, &AgentWorkspace::storeChanged, m_checkpointBrowser, &CheckpointBrowser::reload);
    connect(m_agentWorkspace, &AgentWorkspace::storeChanged, m_auditView, &AuditView::storeChanged);
    metricsDock->raise();

    // A panel added to a workspace beside others runs the full height at the right.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
}

void MainWindow::createWorkspaces()
{
    auto dock = [this](const char* name) { return findChild<QDockWidget*>(QString::fromLatin1(name)); };
    m_modes = new WorkspaceModes(this, m_central);
    using Mode = WorkspaceModes::Mode;
    m_modes->addMode(Mode::Snippets, m_snippetsAction, {true, {}, dock("historyDock"), {}});
    m_modes->addMode(Mode::Rules, m_rulesAction, {false, {dock("rulesDock")}, nullptr, {}});
    m_modes->addMode(Mode::Agents, m_agentsAction, {false, {dock("agentsDock")}, nullptr, {}});
    m_modes->addMode(Mode::Checkpoints, m_checkpointsAction, {false, {dock("checkpointDock")}, nullptr, {}});
    m_modes->addMode(Mode::Audit, m_auditAction, {false, {dock("auditDock")}, nullptr, {}});
    // The dashboard's clicks narrow the history below it; the cluster jobs are a tab beside the history.
    m_modes->addMode(Mode::Dashboard, m_dashboardAction,
                     {false, {dock("metricsDock")}, dock("historyDock"), {dock("clusterJobsDock")}});
    m_modes->createBar();
    connect(m_resetLayoutAction, &QAction::triggered, m_modes, &WorkspaceModes::resetCurrent);
    connect(m_modes, &WorkspaceModes::modeChanged, this, [this] {
        updateTitle();
        // A workspace's arrangement holds the toolbars' too: the store's banner is there while it has news.
        m_storeBannerBar->setVisible(!m_storeBanner->text().isEmpty());
    });
}

void MainWindow::createLivePanes()
{
    // Each pane reads through its own background job, as after the window's own work, keeping its selection and
    // scroll; one read at a time each, and only while it shows.
    m_live->add({QStringLiteral("history"),
                 {m_historyView, m_dashboard},
                 [this] { return m_snapshots->isReading(); },
                 [this] { m_snapshots->read(); }});
    m_live->add({QStringLiteral("audit"),
                 {m_auditView},
                 [this] { return m_auditView->jobs()->isLoading(); },
                 [this] { m_auditView->follow(); }});
    m_live->add(
        {QStringLiteral("checkpoints"),
         {m_checkpointBrowser},
         [this] { return m_checkpointBrowser->jobs()->isLoading() || m_checkpointBrowser->jobs()->isDiffing(); },
         [this] { m_checkpointBrowser->follow(); }});
    m_live->add(
        {QStringLiteral("agents"),
         {m_agentWorkspace},
         [this] { return m_agentWorkspace->jobs()->isLoadingSessions() || m_agentWorkspace->jobs()->isLoadingSteps(); },
         [this] { m_agentWorkspace->refresh(); }});
    connect(m_follower, &StoreFollower::changed, m_live, &LivePanes::storeChanged);
    connect(m_follower, &StoreFollower::stopped, this, [this](const QString& error) {
        statusBar()->showMessage(tr("The window no longer follows the store: %1").arg(error));
    });
    connect(m_snapshots, &SnapshotReader::snapshotRead, this, &MainWindow::applySnapshot);
    connect(m_snapshots, &SnapshotReader::failed, this, [this](const QString& error) {
        statusBar()->showMessage(tr("Cannot read the store again: %1").arg(error), 6000);
    });
}

void MainWindow::createMenus()
{
    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(m_newAction);
    fileMenu->addAction(m_openAction);
    m_recentMenu = fileMenu->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    rebuildRecentMenu();
    fileMenu->addAction(m_openDemoStoreAction);
    fileMenu->addSeparator();
    fileMenu->addAction(m_saveAction);
    fileMenu->addAction(m_saveAsAction);
    fileMenu->addSeparator();
    fileMenu->addAction(m_quitAction);

    auto* editMenu = menuBar()->addMenu(tr("&Edit"));
    editMenu->setObjectName(QStringLiteral("editMenu"));
    editMenu->addAction(m_findAction);
    editMenu->addAction(m_replaceAction);
    editMenu->addAction(m_findNextAction);
    editMenu->addAction(m_findPreviousAction);
    editMenu->addSeparator();
    editMenu->addAction(m_settingsAction);

    auto* runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(m_runAction);
    runMenu->addAction(m_cancelAction);
    runMenu->addSeparator();
    runMenu->addAction(m_demoAction);
    runMenu->addSeparator();
    // Launching an agent shows the agent workspace, where its session appears live.
    runMenu->addAction(m_agentWorkspace->launcher()->launchAction());
    runMenu->addAction(m_agentWorkspace->launcher()->stopAction());
    connect(m_agentWorkspace->launcher()->launchAction(), &QAction::triggered, this, &MainWindow::showAgents);

    // The workspaces in a submenu of their own; then each panel once, to add it to the current workspace.
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->setObjectName(QStringLiteral("viewMenu"));
    auto* workspacesMenu = m_viewMenu->addMenu(tr("&Workspace"));
    workspacesMenu->setObjectName(QStringLiteral("workspacesMenu"));
    for (auto* action : {m_snippetsAction, m_rulesAction, m_agentsAction, m_checkpointsAction, m_auditAction,
                         m_dashboardAction})
        workspacesMenu->addAction(action);
    m_viewMenu->addSeparator();
    for (auto* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayoutAction);

    auto* sandboxMenu = menuBar()->addMenu(tr("&Sandboxes"));
    sandboxMenu->setObjectName(QStringLiteral("sandboxMenu"));
    sandboxMenu->addAction(m_checkpointBrowser->newSandboxAction());
    sandboxMenu->addAction(m_checkpointBrowser->sweepAction());
    sandboxMenu->addAction(m_checkpointBrowser->promoteAction());
    sandboxMenu->addSeparator();
    sandboxMenu->addAction(m_checkpointsAction);

    auto* helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->setObjectName(QStringLiteral("helpMenu"));
    helpMenu->addAction(m_docsAction);
    helpMenu->addAction(m_shortcutsAction);
    helpMenu->addAction(m_playDemoAction);
    helpMenu->addSeparator();
    helpMenu->addAction(m_aboutAction);
}

void MainWindow::showDocumentation(const QString& path)
{
    if (!m_docs) {
        m_docs = new DocsBrowser(this);
        m_docs->setModal(false);
    }
    if (!path.isEmpty())
        m_docs->openDocument(path);
    m_docs->show();
    m_docs->raise();
    m_docs->activateWindow();
}

void MainWindow::restoreSettings()
{
    const QSettings s; // organization and application come from main.cpp
    if (const auto geometry = s.value(QStringLiteral("geometry")).toByteArray(); !geometry.isEmpty())
        restoreGeometry(geometry);
    m_modes->restore(s);
    if (s.contains(QStringLiteral("timeoutMs")))
        m_timeoutSpin->setValue(s.value(QStringLiteral("timeoutMs")).toInt());
    if (s.contains(QStringLiteral("memoryMb")))
        m_memorySpin->setValue(s.value(QStringLiteral("memoryMb")).toInt());
    if (s.contains(QStringLiteral("policy"))) {
        const QString policy = s.value(QStringLiteral("policy")).toString();
        if (policy.startsWith(QLatin1Char('/')))
            addPolicyFile(policy); // a file gone by now is refused, with its reason, when a run asks for it
        else if (const int index = m_policyCombo->findData(policy); index >= 0 && !policy.startsWith(QLatin1Char(':')))
            m_policyCombo->setCurrentIndex(index);
    }
    onPolicyChosen();
    if (s.contains(QStringLiteral("isolationLevel"))) {
        const QString saved = s.value(QStringLiteral("isolationLevel")).toString();
        const int index = saved.isEmpty() ? m_levelCombo->findData(-1) : m_levelCombo->findText(saved);
        const auto* model = qobject_cast<QStandardItemModel*>(m_levelCombo->model());
        if (index >= 0 && (!model || model->item(index)->isEnabled()))
            m_levelCombo->setCurrentIndex(index);
    }
}

void MainWindow::saveSettings() const
{
    QSettings s;
    s.setValue(QStringLiteral("geometry"), saveGeometry());
    s.remove(QStringLiteral("windowState")); // the arrangement before workspaces
    m_modes->save(s);
    s.setValue(QStringLiteral("timeoutMs"), m_timeoutSpin->value());
    s.setValue(QStringLiteral("memoryMb"), m_memorySpin->value());
    s.setValue(QStringLiteral("isolationLevel"),
               m_levelCombo->currentData().toInt() < 0 ? QString() : m_levelCombo->currentText());
    s.setValue(QStringLiteral("policy"), currentPolicy());
}

std::optional<QString> MainWindow::openStore()
{
    const QString path = QString::fromStdString(m_store.path.string());
    m_storeLabel->setText(m_demoStore ? tr("Demo store") : tr("Store: %1").arg(QFileInfo(path).fileName()));
    m_storeLabel->setToolTip(path);
    m_storeLabel->setMinimumWidth(m_storeLabel->sizeHint().width()); // status messages must not squeeze it
    auto snapshot = loadStoreSnapshot(m_store);
    if (!snapshot) {
        m_storeUsable = false;
        m_follower->stop();
        m_snapshots->setStore(std::nullopt);
        m_jobs->setStorePath(std::nullopt);
        m_auditView->setStorePath(std::nullopt);
        m_rulesWorkspace->setStorePath(std::nullopt);
        m_checkpointBrowser->setStorePath(std::nullopt);
        m_agentWorkspace->setStorePath(std::nullopt);
        const QString message = toQString(snapshot.error().message);
        showStoreError(tr("The store %1 could not be opened: %2\nRuns still work but are not recorded; the file was "
                          "left untouched.")
                           .arg(path, message));
        if (m_editor->text().isEmpty())
            m_editor->setText(welcomeSnippet());
        m_editor->setModified(false);
        return message;
    }
    m_storeUsable = true;
    m_storeBanner->clear();
    m_storeBannerBar->hide();
    m_snapshots->setStore(m_store);
    if (const auto error = m_follower->follow(m_store.path))
        statusBar()->showMessage(tr("The window does not follow changes made by other programs: %1").arg(*error), 8000);
    m_jobs->setStorePath(m_store.path);
    m_auditView->setStorePath(m_store.path);
    m_rulesWorkspace->setStorePath(m_store.path);
    m_checkpointBrowser->setStorePath(m_store.path);
    m_agentWorkspace->setStorePath(m_store.path);
    m_checkpointBrowser->sweep(true); // at start, off the GUI thread: expired sandboxes go, idle ones are archived
    applySnapshot(*snapshot);
    if (m_editor->text().isEmpty() && m_currentFile.isEmpty()) {
        if (snapshot->history.empty()) {
            setLanguage(sb::Language::Python);
            m_editor->setText(welcomeSnippet());
        } else {
            // Pick up where the person left off: their most recent snippet. The demo's cases and an agent's
            // runs are not theirs, and neither is the language those used.
            const auto own = std::find_if(snapshot->history.begin(), snapshot->history.end(),
                                          [](const sb::StoredRun& run) { return !isDemoOrAgentRun(run.request); });
            if (own == snapshot->history.end()) {
                setLanguage(sb::Language::Python);
                m_editor->setText(welcomeSnippet());
            } else {
                setLanguage(own->request.language);
                m_editor->setText(toQString(own->request.source));
            }
        }
        m_editor->setModified(false);
    }
    return std::nullopt;
}

void MainWindow::showStoreError(const QString& message)
{
    m_storeBanner->setText(message);
    m_storeBannerBar->show();
    statusBar()->showMessage(tr("Store unavailable"), 5000);
}

void MainWindow::applySnapshot(const StoreSnapshot& snapshot)
{
    // A history scrolled down keeps its top run in place; at the top, the new runs show.
    QString topRun;
    if (m_historyView->verticalScrollBar()->value() > 0)
        topRun = m_historyView->indexAt(QPoint(0, 0)).data(RunHistoryModel::RunIdRole).toString();
    m_historyModel->setRuns(snapshot.history);
    const auto* shown = m_historyView->model();
    for (int row = 0; !topRun.isEmpty() && row < shown->rowCount(); ++row) {
        const QModelIndex index = shown->index(row, 0);
        if (index.data(RunHistoryModel::RunIdRole).toString() == topRun) {
            m_historyView->scrollTo(index, QAbstractItemView::PositionAtTop);
            break;
        }
    }
    m_dashboard->setSnapshot(snapshot.metrics, snapshot.runs);
    m_dashboard->setActivity(snapshot.activity);
}

sb::RunPolicyRequest MainWindow::askedPolicy() const
{
    sb::RunPolicyRequest asked;
    if (const int level = m_levelCombo->currentData().toInt(); level >= 0 && m_levelCombo->isEnabled())
        asked.level = static_cast<sb::IsolationLevel>(level);
    // The toolbar's "Default" is the default policy of Edit ▸ Settings when there is one; a bad one refuses the
    // run, saying why. "The sandbox's own" asks for none.
    const bool sandboxOwn = m_policyCombo->currentData().toString() == QLatin1String(":sandbox");
    const QString chosen = currentPolicy();
    asked.policy = toStdString(chosen.isEmpty() && !sandboxOwn ? AppSettings::load().defaultPolicy : chosen);
    asked.timeoutMs = m_timeoutSpin->value();
    asked.memoryMb = m_memorySpin->value();
    return asked;
}

void MainWindow::setLanguage(sb::Language language)
{
    const int index = m_languageCombo->findData(static_cast<int>(language));
    if (index >= 0)
        m_languageCombo->setCurrentIndex(index);
    m_editor->setLanguage(language);
}

void MainWindow::runSnippet()
{
    if (m_jobs->isRunning())
        return;
    const sb::RunPolicyRequest asked = askedPolicy();
    auto policy = sb::resolveRunPolicy(asked);
    if (!policy) {
        m_statusLabel->setText(tr("The run was not started: %1").arg(toQString(policy.error().message)));
        return;
    }
    sb::RunRequest request;
    request.language = m_editor->language();
    request.source = toStdString(m_editor->text());
    request.policy = std::move(*policy);
    request.label = m_currentFile.isEmpty() ? std::string() : toStdString(QFileInfo(m_currentFile).fileName());
    m_editor->clearErrorMarks();
    m_demoRunning = false;
    const QString label = toQString(request.label);
    m_jobs->startRun(sb::RunOrder{std::move(request), asked, toStdString(currentSandbox())});
    setBusy(true);
    // At once, not when the job's thread reports the start (the store opened, the sandbox prepared): until then
    // the pane would still show the last run's outcome as if it were this one's.
    m_output->showRunning(label);
    m_statusLabel->setText(tr("Running…"));
    m_runAwaitingOutcome = true;
}

void MainWindow::runDemo()
{
    if (m_jobs->isRunning())
        return;
    if (m_agentWorkspace->launcher()->isRunning()) {
        // The demo records the worked example in the sandboxes a launched one may be using.
        m_statusLabel->setText(tr("The demo was not started: an agent launched from the agent workspace runs; stop it "
                                  "or let it end first"));
        return;
    }
    // The demo's cases expect the toolbar's level and limits, not the default policy of the snippets.
    sb::RunPolicyRequest asked = askedPolicy();
    asked.policy.clear();
    auto basePolicy = sb::resolveRunPolicy(asked);
    if (!basePolicy) {
        m_statusLabel->setText(tr("The demo was not started: %1").arg(toQString(basePolicy.error().message)));
        return;
    }
    m_editor->clearErrorMarks(); // the marks belong to the snippet's last run, not to the demo
    m_demoRunning = true;
    m_demoUnexpected = 0;
    const int total = demoJobSteps();
    m_progress->setRange(0, total);
    m_progress->setValue(0);
    m_progress->setFormat(tr("Demo %v/%m"));
    m_progress->show();
    m_output->beginLog(tr("Demo: %n case(s)", nullptr, static_cast<int>(sb::demoCases().size())));
    m_jobs->startDemo(*basePolicy);
    setBusy(true);
    // The demo's sandboxes and checkpoints, beside its runs, for the checkpoint browser.
    if (m_storeUsable)
        m_checkpointBrowser->seedDemo();
}

void MainWindow::markDemoStore()
{
    m_demoStore = true;
    updateTitle();
}

void MainWindow::seedDemoStore()
{
    if (!m_storeUsable || m_jobs->isRunning())
        return;
    // The rules demo, compared once its transactions are read (the workspace takes them first), so that the
    // walk's rules step has its A/B charts.
    connect(m_rulesWorkspace->jobs(), &RulesJobRunner::dataLoaded, m_rulesWorkspace,
            [this] { m_rulesWorkspace->compare(); }, Qt::SingleShotConnection);
    m_rulesWorkspace->openDemo();
    runDemo(); // its cases, the worked example's agent session and the demo's sandboxes, with progress and Cancel
    m_seedingDemoStore = m_demoRunning;
}

void MainWindow::openDemoStore()
{
    const QString program = QCoreApplication::applicationFilePath();
    if (QProcess::startDetached(program, {QStringLiteral("--demo")}))
        statusBar()->showMessage(tr("A demo store opens in a new window…"), 6000);
    else
        m_statusLabel->setText(tr("The demo store was not opened: %1 did not start").arg(program));
}

void MainWindow::playDemo()
{
    if (!m_demoStore) {
        openDemoStore();
        return;
    }
    m_tour->play();
}

void MainWindow::showSnippets()
{
    m_modes->switchTo(WorkspaceModes::Mode::Snippets);
}

void MainWindow::showCheckpoints()
{
    m_modes->switchTo(WorkspaceModes::Mode::Checkpoints);
}

void MainWindow::showRules()
{
    m_modes->switchTo(WorkspaceModes::Mode::Rules);
}

void MainWindow::showAgents()
{
    m_modes->switchTo(WorkspaceModes::Mode::Agents);
}

void MainWindow::showAudit()
{
    m_modes->switchTo(WorkspaceModes::Mode::Audit);
}

void MainWindow::showDashboard()
{
    m_modes->switchTo(WorkspaceModes::Mode::Dashboard);
}

void MainWindow::cancelJob()
{
    if (!m_jobs->isRunning())
        return;
    m_jobs->cancel();
    m_statusLabel->setText(tr("Cancelling…"));
}

void MainWindow::setBusy(bool busy)
{
    m_runAction->setEnabled(!busy);
    m_demoAction->setEnabled(!busy);
    m_cancelAction->setEnabled(busy);
    m_statusCancel->setVisible(busy);
    m_agentWorkspace->launcher()->setDemoRunning(busy && m_demoRunning);
    if (!busy)
        m_progress->hide();
}

void MainWindow::onRunStarted(const RunEvent& event)
{
    // A snippet's run shows as running from the moment it is asked for (runSnippet); a demo names each case.
    if (m_demoRunning)
        m_statusLabel->setText(tr("Demo case %1 of %2: %3")
                                   .arg(event.index + 1)
                                   .arg(event.total)
                                   .arg(toQString(event.request.label)));
}

void MainWindow::onRunFinished(const RunEvent& event)
{
    m_runAwaitingOutcome = false;
    if (!event.refusal.isEmpty()) {
        m_output->showIdle();
        showStoreError(tr("The run was not started: %1").arg(event.refusal));
        return;
    }
    const auto& result = event.result;
    if (m_demoRunning && event.agentSession) {
        if (!event.agentSession->asExpected)
            ++m_demoUnexpected;
        m_output->appendNote(agentSessionSummary(*event.agentSession));
        m_progress->setValue(event.index + 1);
    } else if (m_demoRunning) {
        const auto& cases = sb::demoCases();
        bool expected = true;
        if (event.index >= 0 && static_cast<std::size_t>(event.index) < cases.size())
            expected = sb::endedAsExpected(cases[static_cast<std::size_t>(event.index)], result.outcome);
        if (!expected)
            ++m_demoUnexpected;
        m_output->appendLogLine(result, toQString(event.request.label), expected);
        m_progress->setValue(event.index + 1);
    } else {
        m_output->showResult(result);
        if (result.outcome == sb::Outcome::Error) {
            if (const auto line = errorLineFromStderr(toQString(result.stderrText)))
                m_editor->markErrorLine(*line, toQString(result.stderrText).trimmed().section(QLatin1Char('\n'), -1));
        }
        markBlockedImports(event.request, result);
    }

    if (!event.request.workspace.empty())
        m_checkpointBrowser->reload(); // the run worked in a sandbox: its workspace may differ from its head
    if (event.store) {
        applySnapshot(*event.store);
        m_auditView->storeChanged(); // the run and its audit entry were recorded together
    }
    if (!event.storeError.isEmpty())
        showStoreError(tr("The run could not be recorded: %1").arg(event.storeError));
}

void MainWindow::markBlockedImports(const sb::RunRequest& request, const sb::RunResult& result)
{
    // Only when the editor still holds the snippet that ran: a line number in another text would mislead.
    if (request.language != sb::Language::Python || toStdString(m_editor->text()) != request.source)
        return;
    for (const auto& event : result.blocked) {
        if (event.kind != "import")
            continue;
        const QString module = toQString(event.detail);
        if (const auto line = importLine(m_editor->text(), module))
            m_editor->markBlockedLine(*line, tr("Blocked by the sandbox: import of %1").arg(module));
    }
}

void MainWindow::onJobFinished(quint64 /*jobId*/, bool cancelled)
{
    if (m_demoRunning) {
        QString summary;
        if (cancelled)
            summary = tr("Demo cancelled.");
        else if (m_demoUnexpected == 0)
            summary = tr("Demo finished: every case ended as expected.");
        else
            summary = tr("Demo finished: %n case(s) ended unexpectedly.", nullptr, m_demoUnexpected);
        m_output->appendNote(summary);
        m_output->finishLog(summary);
        // The worked example made sandboxes and recorded a session: the browser and the workspace list them.
        m_checkpointBrowser->reload();
        m_agentWorkspace->refresh();
    }
    if (std::exchange(m_runAwaitingOutcome, false))
        m_output->showNotStarted(cancelled ? tr("Cancelled before the sandbox started: nothing ran.")
                                           : tr("The run ended before its sandbox started: nothing ran."));
    m_statusLabel->setText(cancelled ? tr("Cancelled") : tr("Ready"));
    m_demoRunning = false;
    setBusy(false);
    if (m_seedingDemoStore) {
        m_seedingDemoStore = false;
        if (cancelled)
            m_statusLabel->setText(tr("Cancelled: the demo store holds only what ran before"));
        else
            m_tour->offer();
    }
}

void MainWindow::loadHistoryRow(const QModelIndex& index)
{
    const auto* filter = qobject_cast<const RunHistoryFilter*>(index.model());
    const auto* run = filter ? filter->runAt(index.row()) : nullptr;
    if (!run)
        return;
    setLanguage(run->request.language);
    m_editor->setText(toQString(run->request.source));
    m_editor->setModified(true);
    m_output->showResult(run->result);
    statusBar()->showMessage(tr("Loaded the snippet of the run from %1")
                                 .arg(index.siblingAtColumn(RunHistoryModel::TimeColumn).data().toString()),
                             4000);
}

void MainWindow::openAuditSubject(const QString& kind, const QString& id, const QString& sandbox)
{
    bool shown = false;
    if (kind == QLatin1String("run")) {
        for (int row = 0; row < m_historyModel->rowCount() && !shown; ++row) {
            const QModelIndex index = m_historyModel->index(row, 0);
            if (index.data(RunHistoryModel::RunIdRole).toString() != id)
                continue;
            showSnippets();
            if (auto* history = findChild<QDockWidget*>(QStringLiteral("historyDock")); history->isHidden())
                history->show();
            findChild<QDockWidget*>(QStringLiteral("historyDock"))->raise();
            m_historyView->selectRow(row);
            m_historyView->scrollTo(index);
            shown = true;
        }
    } else if (kind == QLatin1String("checkpoint")) {
        showCheckpoints();
        shown = m_checkpointBrowser->showCheckpoint(sandbox, id);
    } else if (kind == QLatin1String("sandbox")) {
        showCheckpoints();
        shown = m_checkpointBrowser->selectSandbox(id);
    } else if (kind == QLatin1String("session")) {
        showAgents();
        shown = m_agentWorkspace->openSession(id);
    }
    if (!shown)
        statusBar()->showMessage(tr("%1 %2 is not listed in the window (removed, or older than the list shows)")
                                     .arg(kind, id.left(12)),
                                 6000);
}

void MainWindow::newFile()
{
    if (!maybeSave())
        return;
    m_editor->clear();
    m_editor->setModified(false);
    setCurrentFile({});
}

void MainWindow::openFileDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open snippet"), QString(),
                                                      tr("Snippets (*.py *.sh);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

bool MainWindow::openFile(const QString& path)
{
    auto read = sb::readInputText(toStdString(path), sb::input::kSnippet);
    if (!read) {
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Open snippet"), tr("This file cannot be opened:"),
                                    QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("openSnippetErrorBox"));
        box->setInformativeText(toQString(read.error().message));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return false;
    }
    const QString text = toQString(*read);
    const bool shell = path.endsWith(QStringLiteral(".sh")) || text.startsWith(QStringLiteral("#!/bin/sh"))
                       || text.startsWith(QStringLiteral("#!/bin/bash"));
    setLanguage(shell ? sb::Language::Shell : sb::Language::Python);
    m_editor->setText(text);
    m_editor->setModified(false);
    setCurrentFile(path);
    addRecentFile(path);
    return true;
}

bool MainWindow::saveFile(const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_editor->text().toUtf8()) < 0 || !file.commit()) {
        QMessageBox::warning(this, tr("Save snippet"), tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    m_editor->setModified(false);
    setCurrentFile(path);
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 3000);
    return true;
}

bool MainWindow::save()
{
    return m_currentFile.isEmpty() ? saveAs() : saveFile(m_currentFile);
}

bool MainWindow::saveAs()
{
    const QString suggested = m_currentFile.isEmpty()
                                  ? (m_editor->language() == sb::Language::Shell ? tr("snippet.sh") : tr("snippet.py"))
                                  : m_currentFile;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save snippet"), suggested,
                                                      tr("Snippets (*.py *.sh);;All files (*)"));
    return !path.isEmpty() && saveFile(path);
}

bool MainWindow::maybeSave()
{
    if (!m_editor->isModified())
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
                                             tr("The snippet has been modified. Save your changes?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::setCurrentFile(const QString& path)
{
    m_currentFile = path;
    updateTitle();
}

void MainWindow::updateTitle()
{
    const QString name = m_currentFile.isEmpty() ? tr("untitled") : QFileInfo(m_currentFile).fileName();
    const QString sandbox = m_sandboxCombo ? currentSandbox() : QString();
    const QString title = sandbox.isEmpty() ? tr("%1[*] — Sandbench").arg(name)
                                            : tr("%1[*] in sandbox %2 — Sandbench").arg(name, sandbox);
    setWindowTitle(m_demoStore ? tr("%1 (demo store)").arg(title) : title);
}

void MainWindow::addRecentFile(const QString& path)
{
    QSettings s;
    QStringList files = s.value(kRecentFilesKey).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    s.setValue(kRecentFilesKey, files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(kRecentFilesKey).toStringList();
    for (const QString& path : files) {
        auto* action = m_recentMenu->addAction(QFileInfo(path).fileName());
        action->setToolTip(path);
        connect(action, &QAction::triggered, this, [this, path] {
            if (maybeSave())
                openFile(path);
        });
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        auto* clear = m_recentMenu->addAction(tr("Clear list"));
        connect(clear, &QAction::triggered, this, [this] {
            QSettings().remove(kRecentFilesKey);
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About Sandbench"),
                       tr("<h3>Sandbench %1</h3>"
                          "<p>A workbench for running what you do not trust: snippets run in an operating-system "
                          "sandbox, every outcome is measured and kept in one SQLite store.</p>"
                          "<p>Store: <code>%2</code></p>")
                           .arg(QApplication::applicationVersion(),
                                QString::fromStdString(m_store.path.string()).toHtmlEscaped()));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    shutDown();
    // Saved, discarded on purpose, or nothing unsaved. An orphan offered and left unanswered stays for the next
    // start: the window's claim on it ends with the window.
    m_autosave->discard();
    event->accept();
}

void MainWindow::endWithoutAsking()
{
    // What is unsaved stays in the recovery file, written now, for the next start to offer.
    if (!m_autosave->writeNow())
        std::fprintf(stderr, "sandbench-gui: unsaved text not backed up: %s\n", qPrintable(m_autosave->errorString()));
    shutDown();
}

void MainWindow::shutDown()
{
    m_tour->stop();
    m_follower->stop();
    m_jobs->cancel();
    m_agentWorkspace->launcher()->stop(); // the worker ends with the window, waited for as it goes
    if (!m_demoStore) // a demo window's layout (the walk shows its workspaces) is not the person's
        saveSettings();
}

void MainWindow::setUpRecovery()
{
    m_autosave = new Autosave(m_editor, [this] { return m_currentFile; }, this);
    connect(m_autosave, &Autosave::failed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Unsaved changes are not backed up: %1").arg(message), 10000);
    });
    // What a window that crashed or was killed left unsaved; the offer does not stop this window's own autosave.
    const auto orphan = m_autosave->claimOrphan();
    if (!orphan)
        return;
    m_recoveryBar->offer(*orphan);
    connect(m_recoveryBar, &RecoveryBar::restoreRequested, this, [this, snippet = *orphan] {
        setLanguage(snippet.language);
        m_editor->setText(snippet.text);
        m_editor->setModified(true);
        setCurrentFile(snippet.path);
        // In this window's recovery file before the orphan's goes: there is no moment it is in neither.
        if (!m_autosave->writeNow()) {
            statusBar()->showMessage(tr("Restored, but not backed up: %1").arg(m_autosave->errorString()), 10000);
            return;
        }
        m_autosave->settleClaim();
        statusBar()->showMessage(tr("Restored the unsaved snippet of the last session"), 5000);
    });
    connect(m_recoveryBar, &RecoveryBar::discardRequested, this, [this] { m_autosave->settleClaim(); });
}

FindBar* MainWindow::activeFindBar() const
{
    const QWidget* focus = QApplication::focusWidget();
    if (focus && m_rulesWorkspace->isAncestorOf(focus) && m_rulesWorkspace->currentEditor())
        return m_rulesWorkspace->findBar();
    return m_findBar;
}

void MainWindow::showSettings()
{
    auto* dialog = new SettingsDialog(QString::fromStdString(m_store.path.string()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this] {
        statusBar()->showMessage(tr("Settings saved"), 4000);
    });
    dialog->open();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QStringList files = droppedFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    for (const QString& path : files)
        openDroppedFile(path);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_editor->viewport()) {
        if (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove) {
            auto* drag = static_cast<QDragMoveEvent*>(event);
            if (!droppedFiles(drag->mimeData()).isEmpty()) {
                drag->acceptProposedAction();
                return true;
            }
        } else if (event->type() == QEvent::Drop) {
            auto* drop = static_cast<QDropEvent*>(event);
            if (!droppedFiles(drop->mimeData()).isEmpty()) {
                dropEvent(drop);
                return true;
            }
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

bool MainWindow::openDroppedFile(const QString& path)
{
    const QString name = QFileInfo(path).fileName();
    switch (droppedFileKind(path)) {
    case DroppedFile::Snippet:
        return maybeSave() && openFile(path);
    case DroppedFile::RuleSet:
        showRules();
        return m_rulesWorkspace->openRuleSetFile(path);
    case DroppedFile::Dataset:
        showRules();
        return m_rulesWorkspace->loadDataFile(path);
    case DroppedFile::Policy: {
        auto* box = new QMessageBox(QMessageBox::Question, tr("Policy"),
                                    tr("%1 is a policy. Use it as the default policy of your runs?").arg(name),
                                    QMessageBox::Yes | QMessageBox::No, this);
        box->setObjectName(QStringLiteral("dropPolicyBox"));
        box->setInformativeText(tr("It can be changed in Edit ▸ Settings."));
        box->setAttribute(Qt::WA_DeleteOnClose);
        connect(box, &QMessageBox::buttonClicked, this, [this, box, path](QAbstractButton* button) {
            if (box->standardButton(button) != QMessageBox::Yes)
                return;
            AppSettings settings = AppSettings::load();
            settings.defaultPolicy = path;
            settings.save();
            statusBar()->showMessage(tr("Runs use the policy %1").arg(path), 5000);
        });
        box->open();
        return true;
    }
    case DroppedFile::Unknown:
        break;
    }
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Open"), tr("Sandbench does not know how to open %1.").arg(name),
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("dropErrorBox"));
    box->setInformativeText(tr("Drop a snippet (.py, .sh), a rule set or policy (.yaml), or a dataset (.csv, .jsonl)."));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    return false;
}

} // namespace sb::ui
