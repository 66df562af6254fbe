#include "ui/agents/StepDetails.h"

#include "agents/session_export.h"
#include "ui/agents/JsonTreeModel.h"
#include "ui/agents/StepListModel.h"
#include "ui/editor/DiffView.h"
#include "ui/jobs/CheckpointJobs.h"
#include "ui/models/Conversions.h"
#include "ui/models/DiffFileModel.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

QTreeView* jsonView(JsonTreeModel* model, const char* name, QWidget* parent)
{
    auto* view = new QTreeView(parent);
    view->setObjectName(QString::fromLatin1(name));
    view->setModel(model);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->header()->setStretchLastSection(true);
    view->header()->setSectionResizeMode(JsonTreeModel::KeyColumn, QHeaderView::Interactive);
    view->header()->resizeSection(JsonTreeModel::KeyColumn, 160);
    return view;
}

// A JSON-RPC line exactly as it went by.
QString frameText(const std::string& frame)
{
    return frame.empty() ? QObject::tr("(none)") : toQString(frame);
}

QString shortCheckpoint(const std::string& id)
{
    return id.empty() ? QObject::tr("none") : toQString(id).left(12);
}

} // namespace

StepDetails::StepDetails(QWidget* parent)
    : QWidget(parent)
    , m_diffJobs(new CheckpointJobRunner(this))
    , m_summary(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_arguments(new JsonTreeModel(this))
    , m_result(new JsonTreeModel(this))
    , m_frames(new QPlainTextEdit(this))
    , m_diffSummary(new QLabel(this))
    , m_files(new DiffFileModel(this))
    , m_fileView(new QTableView(this))
    , m_diffStack(new QStackedWidget(this))
    , m_diffView(new DiffView(this))
    , m_diffMessage(new QLabel(this))
{
    setObjectName(QStringLiteral("stepDetails"));
    m_summary->setObjectName(QStringLiteral("stepSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_summary->setMargin(4);

    m_argumentsView = jsonView(m_arguments, "stepArguments", this);
    m_resultView = jsonView(m_result, "stepResult", this);
    m_frames->setObjectName(QStringLiteral("stepFrames"));
    m_frames->setReadOnly(true);
    m_frames->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_frames->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    m_diffSummary->setObjectName(QStringLiteral("stepDiffSummary"));
    m_diffSummary->setWordWrap(true);
    m_fileView->setObjectName(QStringLiteral("stepDiffFiles"));
    m_fileView->setModel(m_files);
    m_fileView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_fileView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_fileView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_fileView->verticalHeader()->hide();
    m_fileView->setShowGrid(false);
    m_fileView->horizontalHeader()->setSectionResizeMode(DiffFileModel::PathColumn, QHeaderView::Stretch);
    m_diffView->setObjectName(QStringLiteral("stepDiffView"));
    m_diffMessage->setObjectName(QStringLiteral("stepDiffMessage"));
    m_diffMessage->setAlignment(Qt::AlignCenter);
    m_diffMessage->setWordWrap(true);
    m_diffMessage->setMargin(16);
    m_diffStack->addWidget(m_diffView);
    m_diffStack->addWidget(m_diffMessage);
    auto* diffPage = new QWidget(this);
    auto* diffLayout = new QVBoxLayout(diffPage);
    diffLayout->setContentsMargins(0, 0, 0, 0);
    diffLayout->addWidget(m_diffSummary);
    auto* diffSplit = new QSplitter(Qt::Vertical, diffPage);
    diffSplit->addWidget(m_fileView);
    diffSplit->addWidget(m_diffStack);
    diffSplit->setStretchFactor(0, 1);
    diffSplit->setStretchFactor(1, 4);
    diffSplit->setSizes({80, 320});
    diffLayout->addWidget(diffSplit, 1);
    connect(m_fileView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showFile(current.row()); });

    m_tabs->setObjectName(QStringLiteral("stepTabs"));
    m_tabs->addTab(m_argumentsView, tr("Arguments"));
    m_tabs->addTab(m_resultView, tr("Result"));
    m_tabs->addTab(diffPage, tr("Workspace diff"));
    m_tabs->addTab(m_frames, tr("Raw frames"));

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_summary);
    split->addWidget(m_tabs);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_diffJobs, &CheckpointJobRunner::diffReady, this, &StepDetails::onDiffReady);
    clear(tr("Select a step to see its details."));
}

void StepDetails::setStorePath(std::optional<std::filesystem::path> path)
{
    m_diffJobs->setStorePath(std::move(path));
}

void StepDetails::clear(const QString& message)
{
    m_summary->setText(message.toHtmlEscaped());
    m_arguments->clear();
    m_result->clear();
    m_frames->clear();
    m_diffFrom.clear();
    m_diffTo.clear();
    m_diffJobs->cancelDiff();
    m_diffSummary->clear();
    m_files->setFiles({});
    showDiffMessage(QString());
}

void StepDetails::showStep(const StepDetail& detail, double costSoFar)
{
    if (!detail.step) {
        clear(tr("Cannot read step %1: %2").arg(detail.index).arg(detail.error));
        return;
    }
    const sb::agents::StepRecord& step = *detail.step;
    const QString color = toQString(sb::agents::verdictColor(step.verdict));
    QString html = tr("<b>Step %1</b> · <code>%2</code> · <span style='background:%3; color:white; padding:1px 4px'>"
                      "&nbsp;%4&nbsp;</span>")
                       .arg(step.index)
                       .arg(toQString(step.tool).toHtmlEscaped(), color, toQString(sb::agents::toString(step.verdict)));
    if (step.edited)
        html += tr(" · arguments edited by a person");
    html += QStringLiteral("<br>");
    html += tr("Decided by: <b>%1</b>").arg(step.rule.empty() ? tr("the policy's default") : toQString(step.rule).toHtmlEscaped());
    if (!step.message.empty())
        html += QStringLiteral(" — ") + toQString(step.message).toHtmlEscaped();
    html += QStringLiteral("<br>");
    const QString duration = StepListModel::durationText(step.startedAtMs, step.endedAtMs);
    QString cost = tr("Duration %1 · cost %2 · so far %3").arg(duration, QString::number(step.cost, 'g', 4),
                                                              QString::number(costSoFar, 'g', 4));
    if (detail.maxCost)
        cost += tr(" of max_cost %1").arg(QString::number(*detail.maxCost, 'g', 4));
    html += cost;
    html += QStringLiteral("<br>") + tr("Checkpoints: before %1, after %2")
                                         .arg(shortCheckpoint(step.checkpointBefore), shortCheckpoint(step.checkpointAfter));
    if (!step.reasoning.empty())
        html += QStringLiteral("<br>") + tr("Reasoning: <i>%1</i>").arg(toQString(step.reasoning).toHtmlEscaped());
    m_summary->setText(html);

    m_arguments->setJson(step.arguments);
    m_argumentsView->expandToDepth(1);
    if (step.result) {
        m_result->setJson(*step.result);
        m_resultView->expandToDepth(2);
    } else {
        m_result->clear();
    }
    QString frames = tr("→ request\n%1\n\n← response\n%2").arg(frameText(step.requestFrame), frameText(step.responseFrame));
    if (step.originalArguments)
        frames += tr("\n\nArguments as the agent sent them (before a person edited them):\n%1")
                      .arg(toQString(step.originalArguments->dump(2, ' ', false, sb::agents::Json::error_handler_t::replace)));
    m_frames->setPlainText(frames);

    m_files->setFiles({});
    m_diffSummary->clear();
    if (!detail.change) {
        m_diffFrom.clear();
        m_diffTo.clear();
        showDiffMessage(tr("No workspace diff: %1").arg(detail.changeError));
        return;
    }
    m_diffFrom = toQString(detail.change->before);
    m_diffTo = toQString(detail.change->after);
    if (m_diffTo.isEmpty()) {
        m_diffJobs->cancelDiff();
        showDiffMessage(tr("No checkpoint was taken after this step began: what it changed in the workspace is not "
                           "recorded."));
        return;
    }
    if (m_diffFrom == m_diffTo) {
        m_diffJobs->cancelDiff();
        showDiffMessage(tr("No checkpoint records a change of the workspace by this step (before and after it: %1).")
                            .arg(m_diffFrom.left(12)));
        return;
    }
    m_diffSummary->setText(tr("Comparing %1 → %2…").arg(m_diffFrom.left(12), m_diffTo.left(12)));
    showDiffMessage(tr("Comparing…"));
    m_diffJobs->diff(detail.sandbox, m_diffFrom, m_diffTo);
}

void StepDetails::onDiffReady(const DiffSnapshot& snapshot)
{
    if (snapshot.from != m_diffFrom || snapshot.to != m_diffTo)
        return;
    if (snapshot.cancelled)
        return;
    if (!snapshot.diff) {
        m_diffSummary->clear();
        showDiffMessage(tr("Cannot compare: %1").arg(snapshot.error));
        return;
    }
    const auto& diff = *snapshot.diff;
    const int paths = static_cast<int>(diff.files.size());
    m_diffSummary->setText(tr("%1 → %2: %n changed path(s) (%3 added, %4 modified, %5 removed)", nullptr, paths)
                               .arg(m_diffFrom.left(12), m_diffTo.left(12))
                               .arg(diff.counts.added)
                               .arg(diff.counts.modified)
                               .arg(diff.counts.removed));
    {
        const QSignalBlocker blocker(m_fileView->selectionModel());
        m_files->setFiles(diff.files);
    }
    if (paths == 0) {
        showDiffMessage(tr("No differences: the checkpoints around this step hold the same files."));
        return;
    }
    m_fileView->selectRow(0);
    showFile(0);
}

void StepDetails::showFile(int row)
{
    const auto* file = m_files->fileAt(row);
    if (!file) {
        showDiffMessage(tr("Select a changed path to see its diff."));
        return;
    }
    if (file->binary) {
        showDiffMessage(tr("Binary file differs"));
        return;
    }
    if (file->tooLarge) {
        showDiffMessage(tr("Too large for a line diff"));
        return;
    }
    if (file->unified.empty()) {
        showDiffMessage(tr("No text differences (a folder, a link, permissions or an empty file)."));
        return;
    }
    m_diffView->showDiff(toQString(file->unified));
    m_diffStack->setCurrentWidget(m_diffView);
}

void StepDetails::showDiffMessage(const QString& message)
{
    m_diffMessage->setText(message);
    m_diffView->clear();
    m_diffStack->setCurrentWidget(m_diffMessage);
}

QString StepDetails::summaryText() const
{
    return m_summary->text();
}

QString StepDetails::diffText() const
{
    return m_diffSummary->text() + QLatin1Char('\n')
           + (m_diffStack->currentWidget() == m_diffView ? m_diffView->text() : m_diffMessage->text());
}

bool StepDetails::isDiffing() const
{
    return m_diffJobs->isDiffing();
}

} // namespace sb::ui
