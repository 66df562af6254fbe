#include "ui/rules/RulesWorkspace.h"

#include "ui/editor/FindBar.h"
#include "ui/models/ChangedDecisionsModel.h"
#include "ui/models/Conversions.h"
#include "ui/rules/RuleSetEditor.h"
#include "ui/rules/RulesCharts.h"
#include "rules/dataset_store.h"
#include "rules/ruleset.h"
#include "ui/style/Icons.h"
#include "usecases/dataset_source.h"

#include <QAction>
#include <QBuffer>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QToolButton>
#include <QLocale>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QStackedWidget>
#include <QTabBar>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

QString readResource(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

// A grey cross for the rule sets' tabs, darker under the mouse; never red (red is for errors).
QIcon neutralCloseIcon()
{
    QIcon icon;
    for (const auto& [mode, color] : {std::pair{QIcon::Normal, QColor(0x80, 0x86, 0x8b)},
                                      std::pair{QIcon::Active, QColor(0x3c, 0x40, 0x43)}}) {
        QPixmap pixmap(24, 24);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(color, 2.5, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(QPointF(7, 7), QPointF(17, 17));
        painter.drawLine(QPointF(17, 7), QPointF(7, 17));
        painter.end();
        icon.addPixmap(pixmap, mode);
    }
    return icon;
}

QString percentText(double ratio)
{
    return QLocale().toString(ratio * 100.0, 'f', 2) + QStringLiteral(" %");
}

QString countText(std::int64_t n)
{
    return QLocale().toString(static_cast<qlonglong>(n));
}

bool writeText(const QString& path, const QString& text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(text.toUtf8());
    return file.commit();
}

QAction* newAction(QObject* parent, const QString& name, const QString& text, const QIcon& icon, const QString& tip)
{
    auto* action = new QAction(icon, text, parent);
    action->setObjectName(name);
    action->setToolTip(tip);
    return action;
}

} // namespace

RulesWorkspace::RulesWorkspace(QWidget* parent)
    : QWidget(parent)
    , m_jobs(new RulesJobRunner(this))
    , m_lister(new StoredDatasetsLister(this))
{
    QToolBar* toolBar = buildToolBar();
    QHBoxLayout* statusRow = buildStatusRow();
    QWidget* left = buildEditorPane();
    QWidget* right = buildResultTabs();

    m_split = new QSplitter(Qt::Horizontal, this);
    m_split->setObjectName(QStringLiteral("rulesSplitter"));
    m_split->addWidget(left);
    m_split->addWidget(right);
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 3);
    m_split->setSizes({360, 640}); // proportions: the editor gets a bit over a third
    m_split->setChildrenCollapsible(false);
    m_editors->setMinimumWidth(300);

    m_pages = new QStackedWidget(this);
    m_pages->setObjectName(QStringLiteral("rulesPages"));
    m_pages->addWidget(buildEmptyState());
    m_pages->addWidget(m_split);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(toolBar);
    layout->addLayout(statusRow);
    layout->addWidget(m_pages, 1);

    connectActions();
    connectJobs();
    updateActions();
}

void RulesWorkspace::createActions()
{
    m_demoAction = newAction(this, QStringLiteral("actionRulesDemo"), tr("Open demo"), actionIcon(ActionIcon::Demo),
                             tr("Open the demo rule sets (current, variant A, variant B) and the demo transactions"));
    m_openAction = newAction(this, QStringLiteral("actionRulesOpen"), tr("Open…"), actionIcon(ActionIcon::Open),
                             tr("Open a rule set (YAML) in a new tab; the first tab is the baseline"));
    m_saveAction = newAction(this, QStringLiteral("actionRulesSave"), tr("Save"), actionIcon(ActionIcon::Save),
                             tr("Save the rule set of the current tab"));
    m_dataAction = newAction(this, QStringLiteral("actionRulesData"), tr("Data file…"),
                             QIcon::fromTheme(QStringLiteral("document-open")),
                             tr("Read a CSV or JSON Lines file as the dataset"));
    m_dataFolderAction = newAction(this, QStringLiteral("actionRulesDataFolder"), tr("Data folder…"),
                                   QIcon::fromTheme(QStringLiteral("folder-open")),
                                   tr("Read a folder's CSV or JSON Lines files (its parts, in name order) as one "
                                      "dataset"));
    m_demoDataAction = newAction(this, QStringLiteral("actionRulesDemoData"), tr("Demo data"),
                                 QIcon::fromTheme(QStringLiteral("x-office-spreadsheet")),
                                 tr("Use the demo transactions (5,000 card payments with a fraud label)"));
    m_evaluateAction = newAction(this, QStringLiteral("actionRulesEvaluate"), tr("Evaluate"),
                                 actionIcon(ActionIcon::Run), tr("Evaluate the current tab's rule set on the dataset"));
    m_compareAction = newAction(this, QStringLiteral("actionRulesCompare"), tr("Compare"),
                                QIcon::fromTheme(QStringLiteral("view-split-left-right"),
                                                 style()->standardIcon(QStyle::SP_FileDialogDetailedView)),
                                tr("Compare the first tab (baseline) with every other tab (variants) on the dataset"));
    m_cancelAction = newAction(this, QStringLiteral("actionRulesCancel"), tr("Cancel"), actionIcon(ActionIcon::Cancel),
                               tr("Cancel the running job"));
    m_exportCsvAction =
        newAction(this, QStringLiteral("actionRulesExportCsv"), tr("Export CSV…"), actionIcon(ActionIcon::SaveAs),
                  tr("Save the changed decisions of the shown variant as CSV"));
    m_exportReportAction = newAction(this, QStringLiteral("actionRulesExportReport"), tr("Export report…"),
                                     QIcon::fromTheme(QStringLiteral("text-html")),
                                     tr("Save the comparison as an HTML report with its charts"));
}

QToolBar* RulesWorkspace::buildToolBar()
{
    auto* toolBar = new QToolBar(this);
    toolBar->setObjectName(QStringLiteral("rulesToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->setIconSize(kToolBarIconSize);
    createActions();
    toolBar->addAction(m_demoAction);
    toolBar->addAction(m_openAction);
    toolBar->addAction(m_saveAction);
    toolBar->addSeparator();
    toolBar->addWidget(buildDataButton(toolBar));
    toolBar->addSeparator();
    toolBar->addAction(m_evaluateAction);
    toolBar->addAction(m_compareAction);
    toolBar->addAction(m_cancelAction);
    toolBar->addSeparator();
    // Both exports behind one button, so that the bar fits a dock half the window wide (no "»").
    auto* exportMenu = new QMenu(tr("Export"), this);
    exportMenu->setObjectName(QStringLiteral("rulesExportMenu"));
    exportMenu->addAction(m_exportCsvAction);
    exportMenu->addAction(m_exportReportAction);
    auto* exportButton = m_exportButton = new QToolButton(toolBar);
    exportButton->setObjectName(QStringLiteral("rulesExportButton"));
    exportButton->setText(tr("Export"));
    exportButton->setIcon(m_exportReportAction->icon());
    exportButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    exportButton->setToolTip(tr("Save the changed decisions as CSV, or the comparison as an HTML report"));
    exportButton->setMenu(exportMenu);
    exportButton->setPopupMode(QToolButton::InstantPopup);
    toolBar->addWidget(exportButton);
    // Open and Save explain themselves by their icons; their names are read out and shown as tooltips.
    for (QAction* action : {m_openAction, m_saveAction}) {
        if (auto* button = qobject_cast<QToolButton*>(toolBar->widgetForAction(action))) {
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
            button->setAccessibleName(action->text());
        }
    }
    return toolBar;
}

QToolButton* RulesWorkspace::buildDataButton(QToolBar* toolBar)
{
    m_importAction =
        newAction(this, QStringLiteral("actionRulesImport"), tr("Import into store…"),
                  QIcon::fromTheme(QStringLiteral("document-import")),
                  tr("Import a CSV or JSON Lines file into the store as an immutable snapshot, then use it"));
    m_dataMenu = new QMenu(tr("Dataset"), this);
    m_dataMenu->setObjectName(QStringLiteral("rulesDataMenu"));
    m_dataMenu->addAction(m_demoDataAction);
    m_dataMenu->addAction(m_dataAction);
    m_dataMenu->addAction(m_dataFolderAction);
    m_dataMenu->addAction(m_importAction);
    m_storedMenu = m_dataMenu->addMenu(tr("Stored snapshots"));
    m_storedMenu->setObjectName(QStringLiteral("rulesStoredMenu"));
    connect(m_dataMenu, &QMenu::aboutToShow, this, [this] {
        fillStoredMenu();
        listStoredDatasets();
    });
    auto* dataButton = new QToolButton(toolBar);
    dataButton->setObjectName(QStringLiteral("rulesDataButton"));
    dataButton->setText(tr("Dataset"));
    dataButton->setIcon(QIcon::fromTheme(QStringLiteral("x-office-spreadsheet")));
    dataButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    dataButton->setToolTip(tr("Choose the records to evaluate on: the demo, a file, or a stored snapshot"));
    dataButton->setMenu(m_dataMenu);
    dataButton->setPopupMode(QToolButton::InstantPopup);
    return dataButton;
}

QHBoxLayout* RulesWorkspace::buildStatusRow()
{
    m_dataLabel = new QLabel(tr("No dataset"), this);
    m_dataLabel->setObjectName(QStringLiteral("rulesDataLabel"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("rulesProgress"));
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(180);
    m_progress->hide();
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("rulesStatus"));
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_dataLabel);
    statusRow->addStretch();
    statusRow->addWidget(m_status);
    statusRow->addWidget(m_progress);
    return statusRow;
}

// Left: the rule sets.
QWidget* RulesWorkspace::buildEditorPane()
{
    m_editors = new QTabWidget(this);
    m_editors->setObjectName(QStringLiteral("ruleSetTabs"));
    m_editors->setDocumentMode(true);
    // Close buttons are the workspace's own (markTabs): the style's turns red on the current tab, which
    // reads as an error.
    m_editors->setTabsClosable(false);
    m_findBar = new FindBar(nullptr, this);
    m_findBar->setObjectName(QStringLiteral("rulesFindBar"));
    connect(m_editors, &QTabWidget::currentChanged, this, [this] {
        m_findBar->setEditor(currentEditor());
        if (auto* ed = currentEditor())
            ed->checkNow();
    });
    m_checkLabel = new QLabel(this);
    m_checkLabel->setObjectName(QStringLiteral("rulesCheckLabel"));
    m_checkLabel->setWordWrap(true);
    m_checkLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_editors, 1);
    leftLayout->addWidget(m_findBar);
    leftLayout->addWidget(m_checkLabel);
    return left;
}

QWidget* RulesWorkspace::buildEmptyState()
{
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("rulesEmptyState"));
    auto* title = new QLabel(tr("No rule set open"), page);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    title->setFont(titleFont);
    auto* text = new QLabel(tr("Rule sets decide what happens to each record of a dataset. Open the demo to compare "
                               "the current rule set with two variants on 5,000 card payments, or open your own rule "
                               "sets (YAML): the first tab is the baseline, every other tab a variant compared with "
                               "it."),
                            page);
    text->setObjectName(QStringLiteral("rulesEmptyText"));
    text->setWordWrap(true);
    text->setAlignment(Qt::AlignHCenter);
    text->setStyleSheet(QStringLiteral("color: #5f666d;"));
    auto* demo = new QPushButton(m_demoAction->icon(), tr("Open the demo"), page);
    demo->setObjectName(QStringLiteral("rulesEmptyDemoButton"));
    demo->setDefault(true);
    connect(demo, &QPushButton::clicked, m_demoAction, &QAction::trigger);
    auto* open = new QPushButton(m_openAction->icon(), tr("Open a rule set…"), page);
    open->setObjectName(QStringLiteral("rulesEmptyOpenButton"));
    connect(open, &QPushButton::clicked, m_openAction, &QAction::trigger);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(demo);
    buttons->addWidget(open);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(page);
    layout->addStretch(1);
    layout->addWidget(title, 0, Qt::AlignHCenter);
    layout->setContentsMargins(24, 12, 24, 12);
    layout->addWidget(text);
    layout->addSpacing(8);
    layout->addLayout(buttons);
    layout->addStretch(2);
    return page;
}

void RulesWorkspace::closeRuleSet(int index)
{
    QWidget* w = m_editors->widget(index);
    if (!w)
        return;
    m_editors->removeTab(index);
    w->deleteLater();
    markTabs();
    updateActions();
}

void RulesWorkspace::markTabs()
{
    QTabBar* bar = m_editors->tabBar();
    for (int i = 0; i < bar->count(); ++i) {
        if (!bar->tabButton(i, QTabBar::RightSide)) {
            auto* close = new QToolButton(bar);
            close->setObjectName(QStringLiteral("ruleSetCloseButton"));
            close->setIcon(neutralCloseIcon());
            close->setIconSize(QSize(12, 12));
            close->setAutoRaise(true);
            close->setToolTip(tr("Close this rule set"));
            close->setAccessibleName(tr("Close rule set"));
            connect(close, &QToolButton::clicked, this, [this, bar, close] {
                for (int k = 0; k < bar->count(); ++k) {
                    if (bar->tabButton(k, QTabBar::RightSide) == close) {
                        closeRuleSet(k);
                        return;
                    }
                }
            });
            bar->setTabButton(i, QTabBar::RightSide, close);
        }
        QWidget* badge = bar->tabButton(i, QTabBar::LeftSide);
        if (i == 0 && !badge) {
            auto* label = new QLabel(tr("baseline"), bar);
            label->setObjectName(QStringLiteral("baselineBadge"));
            label->setStyleSheet(QStringLiteral("QLabel { background: #e8eaed; color: #3c4043; border-radius: 6px;"
                                                " padding: 0px 6px; font-size: 8pt; }"));
            label->setToolTip(tr("The baseline: Compare measures every other tab against this rule set"));
            bar->setTabButton(i, QTabBar::LeftSide, label);
        } else if (i != 0 && badge) {
            bar->setTabButton(i, QTabBar::LeftSide, nullptr);
            badge->deleteLater();
        }
        m_editors->setTabToolTip(i, i == 0 ? tr("%1: the baseline").arg(m_editors->tabText(i))
                                           : tr("%1: a variant, compared with the baseline").arg(m_editors->tabText(i)));
    }
}

void RulesWorkspace::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Narrow (a dock beside the snippet editor): the rule set above its results, each the full width.
    m_split->setOrientation(width() < 900 ? Qt::Vertical : Qt::Horizontal);
}

// Right: charts, and the changed decisions with the explanation of the selected one.
QWidget* RulesWorkspace::buildResultTabs()
{
    QWidget* chartsPage = buildChartsPage();
    QWidget* tablePage = buildChangedPage();
    m_results = new QTabWidget(this);
    m_results->setObjectName(QStringLiteral("rulesResultTabs"));
    m_results->addTab(chartsPage, tr("Charts"));
    m_results->addTab(tablePage, tr("Changed decisions"));
    return m_results;
}

QWidget* RulesWorkspace::buildChartsPage()
{
    m_charts = new RulesCharts(this);
    m_charts->setObjectName(QStringLiteral("rulesCharts"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("rulesSummary"));
    m_summary->setWordWrap(true);
    auto* chartsPage = new QWidget(this);
    auto* chartsLayout = new QVBoxLayout(chartsPage);
    chartsLayout->addWidget(m_summary);
    auto* chartsScroll = new QScrollArea(chartsPage);
    chartsScroll->setObjectName(QStringLiteral("rulesChartsScroll"));
    chartsScroll->setWidgetResizable(true);
    chartsScroll->setFrameShape(QFrame::NoFrame);
    chartsScroll->setWidget(m_charts);
    chartsLayout->addWidget(chartsScroll, 1);
    return chartsPage;
}

QWidget* RulesWorkspace::buildChangedPage()
{
    m_model = new ChangedDecisionsModel(this);
    m_filter = new ChangedDecisionsFilter(this);
    m_filter->setSourceModel(m_model);
    setUpChangedTable();
    m_variantCombo = new QComboBox(this);
    m_variantCombo->setObjectName(QStringLiteral("variantCombo"));
    m_variantCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_variantCombo, &QComboBox::currentIndexChanged, this, &RulesWorkspace::showVariant);
    m_filterEdit = new QLineEdit(this);
    m_filterEdit->setObjectName(QStringLiteral("changedFilter"));
    m_filterEdit->setPlaceholderText(tr("Filter: record, decision or rule"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, m_filter,
            [this](const QString& text) { m_filter->setFilterFixedString(text); });
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(new QLabel(tr("Variant:"), this));
    filterRow->addWidget(m_variantCombo);
    filterRow->addWidget(m_filterEdit, 1);
    m_explanation = new QTextBrowser(this);
    m_explanation->setObjectName(QStringLiteral("explanationView"));
    m_explanation->setPlaceholderText(tr("Select a record to see why it got its decisions"));
    auto* tablePage = new QWidget(this);
    auto* tableLayout = new QVBoxLayout(tablePage);
    tableLayout->addLayout(filterRow);
    // The explanation below the table: both need the width (seven columns; expressions with their values).
    auto* tableSplit = new QSplitter(Qt::Vertical, tablePage);
    tableSplit->addWidget(m_table);
    tableSplit->addWidget(m_explanation);
    tableSplit->setStretchFactor(0, 1);
    tableSplit->setStretchFactor(1, 1);
    tableLayout->addWidget(tableSplit, 1);
    return tablePage;
}

void RulesWorkspace::setUpChangedTable()
{
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("changedView"));
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Fixed row heights and no per-row sizing: a million rows scroll without measuring them.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Columns as wide as the longest line of their titles (measuring a million rows' contents is not an option).
    for (int c = 0; c < ChangedDecisionsModel::ColumnCount; ++c) {
        int title = 0;
        for (const QString& line : m_model->headerData(c, Qt::Horizontal).toString().split(QLatin1Char('\n')))
            title = std::max(title, m_table->fontMetrics().horizontalAdvance(line));
        m_table->horizontalHeader()->resizeSection(c, std::max(72, title + 28));
    }
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showExplanation(current); });
}

void RulesWorkspace::connectActions()
{
    connect(m_demoAction, &QAction::triggered, this, &RulesWorkspace::openDemo);
    connect(m_openAction, &QAction::triggered, this, &RulesWorkspace::openRuleSetDialog);
    connect(m_saveAction, &QAction::triggered, this, &RulesWorkspace::saveRuleSet);
    connect(m_dataAction, &QAction::triggered, this, &RulesWorkspace::openDataDialog);
    connect(m_dataFolderAction, &QAction::triggered, this, &RulesWorkspace::openDataFolderDialog);
    connect(m_demoDataAction, &QAction::triggered, this, [this] { loadDataFile({}); });
    connect(m_importAction, &QAction::triggered, this, &RulesWorkspace::importDialog);
    connect(m_evaluateAction, &QAction::triggered, this, &RulesWorkspace::evaluate);
    connect(m_compareAction, &QAction::triggered, this, &RulesWorkspace::compare);
    connect(m_cancelAction, &QAction::triggered, this, &RulesWorkspace::cancel);
    connect(m_exportCsvAction, &QAction::triggered, this, &RulesWorkspace::exportCsvDialog);
    connect(m_exportReportAction, &QAction::triggered, this, &RulesWorkspace::exportReportDialog);
}

void RulesWorkspace::connectJobs()
{
    connect(m_jobs, &RulesJobRunner::started, this, [this](RulesTask task) {
        m_progress->setValue(0);
        m_progress->show();
        setStatus(task == RulesTask::LoadData ? tr("Reading data…")
                  : task == RulesTask::Import   ? tr("Importing…")
                  : task == RulesTask::Evaluate ? tr("Evaluating…")
                                                : tr("Comparing…"));
        updateActions();
    });
    connect(m_jobs, &RulesJobRunner::progress, this, [this](int percent, const QString&) { m_progress->setValue(percent); });
    connect(m_jobs, &RulesJobRunner::failed, this, [this](const QString& message, bool) {
        m_progress->hide();
        setStatus(message);
        updateActions();
    });
    connect(m_jobs, &RulesJobRunner::storedDatasetsListed, this, [this](const QStringList& names) {
        m_lister->dropPending();
        m_storedNames = names;
    });
    connect(m_lister, &StoredDatasetsLister::listed, this, [this](int, const QStringList& names) {
        m_storedNames = names;
        if (m_storedMenu->isVisible())
            fillStoredMenu();
    });
    connect(m_jobs, &RulesJobRunner::dataLoaded, this, [this](std::shared_ptr<const LoadedDataset> loaded) {
        m_progress->hide();
        m_data = std::move(loaded);
        const auto& r = m_data->report;
        QString text = tr("Dataset: %1 — %2 records, %3 fields")
                           .arg(m_data->label, countText(static_cast<std::int64_t>(m_data->data.rowCount())))
                           .arg(m_data->data.columnCount());
        // A folder's bad row is in one of its files: named, as its line is that file's.
        const bool inFile = !r.badRowExamples.empty() && !r.badRowExamples.front().file.empty();
        if (r.badRows > 0 && inFile)
            text += tr(", %1 bad rows skipped (first: %4, line %2: %3)")
                        .arg(countText(r.badRows))
                        .arg(r.badRowExamples.front().line)
                        .arg(toQString(r.badRowExamples.front().message),
                             QFileInfo(toQString(r.badRowExamples.front().file)).fileName());
        else if (r.badRows > 0)
            text += tr(", %1 bad rows skipped (first: line %2: %3)")
                        .arg(countText(r.badRows))
                        .arg(r.badRowExamples.empty() ? 0 : r.badRowExamples.front().line)
                        .arg(r.badRowExamples.empty() ? QString() : toQString(r.badRowExamples.front().message));
        m_dataLabel->setText(text);
        setStatus(tr("Data read"));
        for (int i = 0; i < ruleSetCount(); ++i)
            editor(i)->setSchema(m_data->data.schema());
        updateActions();
    });
    connect(m_jobs, &RulesJobRunner::resultReady, this, [this](std::shared_ptr<const RulesResult> result) {
        m_progress->hide();
        showResult(std::move(result));
        updateActions();
    });
}

void RulesWorkspace::setStorePath(std::optional<std::filesystem::path> path)
{
    m_storePath = std::move(path);
    m_storedNames.clear();
    listStoredDatasets();
    updateActions();
}

void RulesWorkspace::listStoredDatasets()
{
    if (m_storePath)
        m_lister->list(*m_storePath);
}

void RulesWorkspace::fillStoredMenu()
{
    m_storedMenu->clear();
    for (const QString& name : std::as_const(m_storedNames)) {
        auto* a = m_storedMenu->addAction(name);
        connect(a, &QAction::triggered, this, [this, name] { loadSnapshot(name); });
    }
    if (m_storedNames.isEmpty())
        m_storedMenu->addAction(tr("(none yet: import a file)"))->setEnabled(false);
}

bool RulesWorkspace::loadSnapshot(const QString& name, const QString& sandbox)
{
    if (!m_storePath)
        return false;
    auto declared = declaredFields();
    if (!declared) {
        setStatus(toQString(declared.error().message));
        return false;
    }
    return m_jobs->loadSnapshot(*m_storePath, name, std::move(*declared), sandbox);
}

bool RulesWorkspace::importDataFile(const QString& path, const QString& name)
{
    if (!m_storePath)
        return false;
    auto declared = declaredFields();
    if (!declared) {
        setStatus(toQString(declared.error().message));
        return false;
    }
    return m_jobs->importData(*m_storePath, path, name, std::move(*declared));
}

void RulesWorkspace::importDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import dataset"), QString(),
                                                      tr("Data (*.csv *.jsonl *.ndjson);;All files (*)"));
    if (path.isEmpty())
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Import dataset"),
                                               tr("Name of the snapshot (letters, digits, '_', '-', '.'):"),
                                               QLineEdit::Normal, QFileInfo(path).completeBaseName(), &ok);
    if (ok && !name.isEmpty())
        importDataFile(path, name);
}

int RulesWorkspace::ruleSetCount() const
{
    return m_editors->count();
}

RuleSetEditor* RulesWorkspace::editor(int index) const
{
    return qobject_cast<RuleSetEditor*>(m_editors->widget(index));
}

RuleSetEditor* RulesWorkspace::currentEditor() const
{
    return qobject_cast<RuleSetEditor*>(m_editors->currentWidget());
}

QString RulesWorkspace::statusText() const
{
    return m_status->text();
}

void RulesWorkspace::setStatus(const QString& text)
{
    m_status->setText(text);
}

void RulesWorkspace::updateActions()
{
    const bool busy = m_jobs->isBusy();
    const bool ready = !busy && m_data && ruleSetCount() > 0;
    m_evaluateAction->setEnabled(ready);
    m_compareAction->setEnabled(ready && ruleSetCount() > 1);
    m_cancelAction->setEnabled(busy);
    m_cancelAction->setVisible(busy); // shown only while there is something to cancel
    m_demoAction->setEnabled(!busy);
    m_dataAction->setEnabled(!busy);
    m_dataFolderAction->setEnabled(!busy);
    m_demoDataAction->setEnabled(!busy);
    m_importAction->setEnabled(!busy && m_storePath.has_value());
    m_storedMenu->setEnabled(!busy && m_storePath.has_value());
    m_saveAction->setEnabled(ruleSetCount() > 0);
    const bool compared = m_result && m_result->compare;
    m_exportCsvAction->setEnabled(compared);
    m_exportReportAction->setEnabled(m_result != nullptr);
    m_exportButton->setEnabled(m_result != nullptr);
    m_pages->setCurrentIndex(ruleSetCount() > 0 ? 1 : 0);
}

RuleSetEditor* RulesWorkspace::addRuleSet(const QString& name, const QString& text, const QString& path)
{
    auto* ed = new RuleSetEditor(m_editors);
    ed->setObjectName(QStringLiteral("ruleSetEditor%1").arg(m_editors->count()));
    ed->setText(text);
    ed->setProperty("path", path);
    if (m_data)
        ed->setSchema(m_data->data.schema());
    connect(ed, &RuleSetEditor::checked, this, [this, ed](int errors, int warnings) {
        if (ed != currentEditor())
            return;
        if (errors == 0 && warnings == 0) {
            m_checkLabel->setText(tr("✔ No problems"));
            return;
        }
        QStringList lines;
        for (const auto& d : ed->diagnostics())
            lines << d.message.toHtmlEscaped();
        const int shown = 4;
        QString summary = tr("%1 error(s), %2 warning(s)").arg(errors).arg(warnings) + QStringLiteral("<br>")
                          + lines.mid(0, shown).join(QStringLiteral("<br>"));
        if (lines.size() > shown)
            summary += QStringLiteral("<br>…");
        m_checkLabel->setText(summary);
    });
    m_editors->addTab(ed, name);
    markTabs();
    m_editors->setCurrentWidget(ed);
    ed->checkNow();
    updateActions();
    return ed;
}

void RulesWorkspace::openDemo()
{
    while (m_editors->count() > 0)
        closeRuleSet(0);
    addRuleSet(QStringLiteral("current"), readResource(QStringLiteral(":/demo/rules/current.yaml")));
    addRuleSet(QStringLiteral("variant_a"), readResource(QStringLiteral(":/demo/rules/variant_a.yaml")));
    addRuleSet(QStringLiteral("variant_b"), readResource(QStringLiteral(":/demo/rules/variant_b.yaml")));
    m_editors->setCurrentIndex(0);
    loadDataFile({});
}

bool RulesWorkspace::openRuleSetFile(const QString& path)
{
    auto text = sb::rules::readRuleSetFile(toStdString(path));
    if (!text) {
        setStatus(toQString(text.error().message));
        return false;
    }
    addRuleSet(QFileInfo(path).completeBaseName(), toQString(*text), path);
    return true;
}

void RulesWorkspace::openRuleSetDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open rule set"), QString(),
                                                      tr("Rule sets (*.yaml *.yml);;All files (*)"));
    if (!path.isEmpty())
        openRuleSetFile(path);
}

void RulesWorkspace::saveRuleSet()
{
    auto* ed = currentEditor();
    if (!ed)
        return;
    QString path = ed->property("path").toString();
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save rule set"), m_editors->tabText(m_editors->currentIndex())
                                                + QStringLiteral(".yaml"), tr("Rule sets (*.yaml *.yml)"));
    if (path.isEmpty())
        return;
    if (!writeText(path, ed->text())) {
        setStatus(tr("Cannot write %1").arg(path));
        return;
    }
    ed->setProperty("path", path);
    ed->setModified(false);
    setStatus(tr("Saved %1").arg(QFileInfo(path).fileName()));
}

sb::Result<std::vector<sb::rules::Field>> RulesWorkspace::declaredFields() const
{
    // The rule sets' `fields:` type the columns (a file's "1" is then a double where the rules say so).
    std::vector<sb::rules::ParsedRuleSet> parsed;
    std::vector<QString> titles;
    for (int i = 0; i < ruleSetCount(); ++i) {
        const QString title = m_editors->tabText(i);
        auto one = sb::rules::parseRuleSet(toStdString(editor(i)->text()), toStdString(title));
        if (one.hasErrors())
            continue;
        parsed.push_back(std::move(one));
        titles.push_back(title);
    }
    std::vector<sb::DeclaringRuleSet> declaring;
    for (std::size_t i = 0; i < parsed.size(); ++i)
        declaring.push_back(sb::DeclaringRuleSet{toStdString(titles[i]), &parsed[i].ruleSet});
    return sb::declaredFields(declaring);
}

bool RulesWorkspace::loadDataFile(const QString& path)
{
    auto declared = declaredFields();
    if (!declared) {
        setStatus(toQString(declared.error().message));
        return false;
    }
    return m_jobs->loadData(path, std::move(*declared));
}

void RulesWorkspace::openDataDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open dataset"), QString(),
                                                      tr("Data (*.csv *.jsonl *.ndjson);;All files (*)"));
    if (!path.isEmpty())
        loadDataFile(path);
}

void RulesWorkspace::openDataFolderDialog()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open data folder"));
    if (!path.isEmpty())
        loadDataFile(path);
}

bool RulesWorkspace::evaluate()
{
    auto* ed = currentEditor();
    if (!ed || !m_data)
        return false;
    return m_jobs->evaluate(m_data, {m_editors->tabText(m_editors->currentIndex()), ed->text()});
}

bool RulesWorkspace::compare()
{
    if (!m_data || ruleSetCount() < 2)
        return false;
    std::vector<RuleSetSource> sources;
    for (int i = 0; i < ruleSetCount(); ++i)
        sources.push_back({m_editors->tabText(i), editor(i)->text()});
    return m_jobs->compare(m_data, std::move(sources));
}

void RulesWorkspace::cancel()
{
    m_jobs->cancel();
}

void RulesWorkspace::showResult(std::shared_ptr<const RulesResult> result)
{
    m_result = std::move(result);
    m_charts->setResult(m_result);
    const auto& base = *m_result->ruleSets.front();
    QString summary;
    const auto total = static_cast<std::int64_t>(m_result->dataset->data.rowCount());
    if (!m_result->compare) {
        QStringList parts;
        for (std::size_t d = 0; d < base.compiled->decisions.size(); ++d)
            parts << QStringLiteral("%1 %2").arg(toQString(base.compiled->decisions[d]),
                                                 countText(base.evaluation.decisionCounts[d]));
        summary = tr("<b>%1</b> on %2 records: %3 (%4 s)")
                      .arg(base.name.toHtmlEscaped(), countText(total), parts.join(QStringLiteral(", ")))
                      .arg(base.evaluation.seconds, 0, 'f', 3);
        setStatus(tr("Evaluated %1").arg(base.name));
    } else {
        QStringList parts;
        for (std::size_t i = 0; i < m_result->impacts.size(); ++i) {
            const auto& impact = m_result->impacts[i];
            parts << tr("<b>%1</b>: %2 changed (%3)")
                         .arg(m_result->ruleSets[i + 1]->name.toHtmlEscaped(), countText(impact.affected),
                              percentText(impact.impactRate));
        }
        summary = tr("Against <b>%1</b> on %2 records — %3")
                      .arg(base.name.toHtmlEscaped(), countText(total), parts.join(QStringLiteral("; ")));
        setStatus(tr("Compared %n variant(s)", nullptr, static_cast<int>(m_result->impacts.size())));
    }
    m_summary->setText(summary);
    // What only the data shows (shadowed rules, failing conditions) goes to the editors that still hold
    // the evaluated text.
    for (const auto& rs : m_result->ruleSets) {
        for (int i = 0; i < ruleSetCount(); ++i) {
            if (m_editors->tabText(i) == rs->name && editor(i)->text() == rs->text)
                editor(i)->setDataDiagnostics(rs->text, rs->dataDiagnostics);
        }
    }

    const QSignalBlocker block(m_variantCombo);
    m_variantCombo->clear();
    for (std::size_t i = 1; i < m_result->ruleSets.size(); ++i)
        m_variantCombo->addItem(m_result->ruleSets[i]->name);
    showVariant(m_result->compare ? 0 : -1);
    m_results->setCurrentIndex(0);
}

void RulesWorkspace::showVariant(int index)
{
    m_model->setResult(m_result, index >= 0 ? static_cast<std::size_t>(index) + 1 : 0);
    m_explanation->clear();
}

void RulesWorkspace::showExplanation(const QModelIndex& index)
{
    if (!index.isValid() || !m_result) {
        m_explanation->clear();
        return;
    }
    const auto row = static_cast<std::size_t>(index.data(ChangedDecisionsModel::RowRole).toULongLong());
    const auto& records = m_result->dataset->data;
    QString html;
    auto explainOne = [&](const EvaluatedRuleSet& rs) {
        auto ex = sb::rules::explainRecord(*rs.compiled, records, row);
        if (!ex) {
            html += QStringLiteral("<p>%1</p>").arg(toQString(ex.error().message).toHtmlEscaped());
            return;
        }
        const QString decision = toQString(rs.compiled->decisions[ex->outcome.decision]);
        const QString by = ex->outcome.rule < 0 ? tr("the default")
                                                : toQString(rs.compiled->rule(static_cast<std::size_t>(ex->outcome.rule)).id);
        html += tr("<h3>%1: <span style='color:#1f4e9e'>%2</span> (score %3) by %4</h3>")
                    .arg(rs.name.toHtmlEscaped(), decision.toHtmlEscaped())
                    .arg(ex->outcome.score)
                    .arg(by.toHtmlEscaped());
        // The rules that matched, failed or are disabled, with the sub-expressions that decided them; the
        // rules that simply did not match in one line.
        QStringList noMatch;
        html += QStringLiteral("<table cellspacing=0 cellpadding=2>");
        for (const auto& r : ex->rules) {
            const auto& rule = rs.compiled->rule(r.rule);
            const QString id = toQString(rule.id).toHtmlEscaped();
            if (r.enabled && r.matched && !*r.matched && !r.decided) {
                noMatch << id;
                continue;
            }
            const QString mark = !r.enabled ? tr("disabled")
                                 : !r.matched ? tr("error: %1").arg(toQString(r.error))
                                              : tr("matched");
            const QString color = r.decided ? QStringLiteral("#c0392b") : QStringLiteral("#b35000");
            html += QStringLiteral("<tr><td colspan=2><b style='color:%1'>%2</b> %3%4</td></tr>")
                        .arg(color, id, mark.toHtmlEscaped(), r.decided ? tr(" — decided") : QString());
            for (const auto& step : r.steps) {
                QStringList ops;
                for (const auto& [name, value] : step.operands)
                    ops << QStringLiteral("%1 = %2").arg(toQString(name), toQString(value));
                html += QStringLiteral("<tr><td width=16></td><td><code>%1</code> → <code>%2</code>%3</td></tr>")
                            .arg(toQString(step.expression).toHtmlEscaped(), toQString(step.text).toHtmlEscaped(),
                                 ops.isEmpty() ? QString()
                                               : QStringLiteral(" <span style='color:#6a737d'>(%1)</span>")
                                                     .arg(ops.join(QStringLiteral(", ")).toHtmlEscaped()));
            }
        }
        html += QStringLiteral("</table>");
        if (!noMatch.isEmpty())
            html += QStringLiteral("<p style='color:#6a737d'>%1</p>")
                        .arg(tr("No match: %1").arg(noMatch.join(QStringLiteral(", "))));
    };
    html += tr("<h2>Record %1</h2>").arg(toQString(records.recordId(row)).toHtmlEscaped());
    if (m_model->variant() > 0)
        explainOne(*m_result->ruleSets[m_model->variant()]);
    explainOne(*m_result->ruleSets.front());
    m_explanation->setHtml(html);
}

bool RulesWorkspace::exportChangedCsv(const QString& path) const
{
    return writeText(path, m_model->toCsv());
}

void RulesWorkspace::exportCsvDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export changed decisions"),
                                                      QStringLiteral("changed-decisions.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    setStatus(exportChangedCsv(path) ? tr("Exported %1").arg(QFileInfo(path).fileName())
                                     : tr("Cannot write %1").arg(path));
}

bool RulesWorkspace::exportReport(const QString& path) const
{
    if (!m_result)
        return false;
    QString html = QStringLiteral("<!doctype html><html><head><meta charset='utf-8'><title>%1</title>"
                                  "<style>body{font-family:sans-serif;margin:2em}td,th{padding:2px 8px;text-align:left}"
                                  "table{border-collapse:collapse}tr:nth-child(even){background:#f3f5f7}</style></head><body>")
                       .arg(tr("Sandbench rules report"));
    html += tr("<h1>Rules report</h1><p>%1</p><p>Dataset: %2, %3 records.</p>")
                .arg(m_summary->text(), m_result->dataset->label.toHtmlEscaped(),
                     countText(static_cast<std::int64_t>(m_result->dataset->data.rowCount())));
    if (m_result->compare) {
        html += tr("<h2>Variants</h2><table><tr><th>Variant</th><th>Changed</th><th>Impact rate</th>"
                   "<th>Precision</th><th>Recall</th></tr>");
        auto pct = [](const std::optional<double>& v) { return v ? percentText(*v) : QStringLiteral("–"); };
        for (std::size_t i = 0; i < m_result->impacts.size(); ++i) {
            const auto& s = m_result->summaries[i];
            html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                        .arg(m_result->ruleSets[i + 1]->name.toHtmlEscaped(), countText(m_result->impacts[i].affected),
                             percentText(m_result->impacts[i].impactRate),
                             s.flagged ? pct(s.flagged->precision) : QStringLiteral("–"),
                             s.flagged ? pct(s.flagged->recall) : QStringLiteral("–"));
        }
        html += QStringLiteral("</table>");
    }
    html += tr("<h2>Charts</h2>");
    for (QChartView* view : m_charts->visibleCharts()) {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        view->grab().save(&buffer, "PNG");
        html += QStringLiteral("<img alt='%1' src='data:image/png;base64,%2'> ")
                    .arg(view->chart()->title().toHtmlEscaped(), QString::fromLatin1(png.toBase64()));
    }
    html += QStringLiteral("</body></html>\n");
    return writeText(path, html);
}

void RulesWorkspace::exportReportDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export report"), QStringLiteral("rules-report.html"),
                                                      tr("HTML (*.html)"));
    if (path.isEmpty())
        return;
    setStatus(exportReport(path) ? tr("Exported %1").arg(QFileInfo(path).fileName())
                                 : tr("Cannot write %1").arg(path));
}

} // namespace sb::ui
