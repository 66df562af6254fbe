#include "ui/agents/AgentWorkspace.h"

#include "ui/agents/AgentLauncher.h"
#include "ui/agents/AgentTimeline.h"
#include "ui/agents/SessionCompare.h"
#include "ui/agents/SessionControlBar.h"
#include "ui/agents/SessionListModel.h"
#include "ui/agents/StepDetails.h"
#include "ui/agents/StepListModel.h"
#include "ui/models/Conversions.h"

#include <QAction>
#include <QBuffer>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QMessageBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace sb::ui {

namespace {

constexpr int kSessionListEveryTicks = 4; // the session list is read again every 2 s
constexpr int kSearchDelayMs = 250;
constexpr int kPictureWidth = 1200;

QToolButton* toolButton(QWidget* parent, const char* name, const QString& text, const QString& tip)
{
    auto* button = new QToolButton(parent);
    button->setObjectName(QString::fromLatin1(name));
    button->setText(text);
    button->setToolTip(tip);
    button->setAccessibleName(tip); // some buttons show only a sign (▲, +): the tip says what they do
    button->setAutoRaise(true);
    return button;
}

} // namespace

AgentWorkspace::AgentWorkspace(QWidget* parent)
    : QWidget(parent)
    , m_jobs(new SessionJobRunner(this))
    , m_sessions(new SessionListModel(this))
    , m_steps(new StepListModel(this))
    , m_sessionView(new QTableView(this))
    , m_stepView(new QTableView(this))
    , m_timeline(new AgentTimeline(this))
    , m_details(new StepDetails(this))
    , m_header(new QLabel(this))
    , m_control(new SessionControlBar(this))
    , m_search(new QLineEdit(this))
    , m_searchStatus(new QLabel(this))
    , m_export(new QToolButton(this))
    , m_poll(new QTimer(this))
    , m_searchDelay(new QTimer(this))
    , m_launcher(new AgentLauncher(this))
{
    setObjectName(QStringLiteral("agentWorkspace"));
    buildLayout();
    m_timeline->setModel(m_steps, m_stepView->selectionModel());

    connect(m_jobs, &SessionJobRunner::sessionsLoaded, this, &AgentWorkspace::onSessionsLoaded);
    connect(m_jobs, &SessionJobRunner::stepsLoaded, this, &AgentWorkspace::onStepsLoaded);
    connect(m_jobs, &SessionJobRunner::stepLoaded, this, &AgentWorkspace::onStepLoaded);
    connect(m_jobs, &SessionJobRunner::searched, this, &AgentWorkspace::onSearched);
    connect(m_jobs, &SessionJobRunner::exported, this, &AgentWorkspace::onExported);
    connect(m_jobs, &SessionJobRunner::workspaceChanged, this, &AgentWorkspace::onWorkspaceChanged);
    m_stepView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_stepView, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        showStepMenu(m_stepView->viewport()->mapToGlobal(pos), m_stepView->indexAt(pos).row());
    });
    m_timeline->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_timeline, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        showStepMenu(m_timeline->mapToGlobal(pos), m_timeline->stepAt(pos));
    });
    connect(m_sessionView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &AgentWorkspace::onSessionSelected);
    connect(m_stepView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &AgentWorkspace::onCurrentStepChanged);

    m_poll->setInterval(kPollMs);
    connect(m_poll, &QTimer::timeout, this, &AgentWorkspace::poll);
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(kSearchDelayMs);
    connect(m_searchDelay, &QTimer::timeout, this, [this] { search(m_search->text()); });
    connect(m_search, &QLineEdit::textEdited, m_searchDelay, qOverload<>(&QTimer::start));
    // A call let go or refused: its step is read at once rather than at the next tick.
    connect(m_control, &SessionControlBar::commandDone, this, [this] {
        if (!m_sessionId.isEmpty() && !m_jobs->isLoadingSteps())
            m_jobs->loadSteps(m_sessionId, m_steps->resumeOffset());
    });
    // A launched session shows live as soon as it is recorded: the list is read again and the session opened.
    connect(m_launcher, &AgentLauncher::statusMessage, this, &AgentWorkspace::statusMessage);
    connect(m_launcher, &AgentLauncher::sessionStarted, this, [this](const QString& id) {
        m_launchedId = id;
        m_jobs->loadSessions();
    });
    connect(m_jobs, &SessionJobRunner::sessionsLoaded, this, [this] {
        if (!m_launchedId.isEmpty() && openSession(m_launchedId))
            m_launchedId.clear();
    });
    connect(m_launcher, &AgentLauncher::launchFinished, this, [this] { refresh(); });
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (m_searchDelay->isActive()) {
            m_searchDelay->stop();
            search(m_search->text());
        } else {
            nextMatch();
        }
    });
}

void AgentWorkspace::buildLayout()
{
    m_sessionView->setObjectName(QStringLiteral("agentSessionList"));
    m_sessionView->setModel(m_sessions);
    m_sessionView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_sessionView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_sessionView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_sessionView->setShowGrid(false);
    m_sessionView->setWordWrap(false);
    m_sessionView->verticalHeader()->hide();
    m_sessionView->verticalHeader()->setDefaultSectionSize(m_sessionView->fontMetrics().height() + 6);
    // Few rows: the columns fit their contents, the command takes the rest.
    m_sessionView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_sessionView->horizontalHeader()->setSectionResizeMode(SessionListModel::CommandColumn, QHeaderView::Stretch);

    m_stepView->setObjectName(QStringLiteral("agentStepList"));
    m_stepView->setModel(m_steps);
    m_stepView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_stepView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_stepView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_stepView->setShowGrid(false);
    m_stepView->setWordWrap(false);
    m_stepView->setAlternatingRowColors(true);
    m_stepView->verticalHeader()->hide();
    // Fixed row heights and column widths: the view never measures 100 000 rows.
    m_stepView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_stepView->verticalHeader()->setDefaultSectionSize(m_stepView->fontMetrics().height() + 6);
    auto* header = m_stepView->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(StepListModel::ArgumentsColumn, QHeaderView::Stretch);
    const int digit = m_stepView->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    header->resizeSection(StepListModel::IndexColumn, digit * 7);
    header->resizeSection(StepListModel::ToolColumn, digit * 14);
    header->resizeSection(StepListModel::VerdictColumn, digit * 14);
    header->resizeSection(StepListModel::DurationColumn, digit * 9);
    header->resizeSection(StepListModel::CostColumn, digit * 7);

    m_header->setObjectName(QStringLiteral("agentSessionHeader"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_search->setObjectName(QStringLiteral("agentSearch"));
    m_search->setPlaceholderText(tr("Search tools, arguments, results…"));
    m_search->setClearButtonEnabled(true);
    m_search->setToolTip(tr("Steps whose tool, arguments, result, reasoning or message contain the text; Enter goes "
                            "to the next"));
    m_searchStatus->setObjectName(QStringLiteral("agentSearchStatus"));
    auto* previous = toolButton(this, "agentSearchPrevious", QStringLiteral("▲"), tr("Previous match"));
    auto* next = toolButton(this, "agentSearchNext", QStringLiteral("▼"), tr("Next match"));
    connect(previous, &QToolButton::clicked, this, &AgentWorkspace::previousMatch);
    connect(next, &QToolButton::clicked, this, &AgentWorkspace::nextMatch);
    auto* zoomIn = toolButton(this, "agentZoomIn", QStringLiteral("+"), tr("Zoom in on the timeline (+, Ctrl+wheel)"));
    auto* zoomOut = toolButton(this, "agentZoomOut", QStringLiteral("−"), tr("Zoom out (-)"));
    auto* fit = toolButton(this, "agentZoomFit", tr("Fit"), tr("Show the whole session (0)"));
    connect(zoomIn, &QToolButton::clicked, m_timeline, &AgentTimeline::zoomIn);
    connect(zoomOut, &QToolButton::clicked, m_timeline, &AgentTimeline::zoomOut);
    connect(fit, &QToolButton::clicked, m_timeline, &AgentTimeline::fitAll);
    auto* refresh = toolButton(this, "agentRefresh", tr("Refresh"), tr("Read the sessions again"));
    connect(refresh, &QToolButton::clicked, this, &AgentWorkspace::refresh);

    m_export->setObjectName(QStringLiteral("agentExport"));
    m_export->setText(tr("Export"));
    m_export->setToolTip(tr("Write the session as JSON Lines, or as an HTML report for a reviewer"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_export);
    auto* jsonLines = menu->addAction(tr("JSON Lines…"));
    jsonLines->setObjectName(QStringLiteral("actionExportSessionJsonl"));
    auto* report = menu->addAction(tr("HTML report…"));
    report->setObjectName(QStringLiteral("actionExportSessionHtml"));
    connect(jsonLines, &QAction::triggered, this, [this] { askExport(SessionExportFormat::JsonLines); });
    connect(report, &QAction::triggered, this, [this] { askExport(SessionExportFormat::Html); });
    m_export->setMenu(menu);
    m_export->setEnabled(false);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_search, 1);
    bar->addWidget(previous);
    bar->addWidget(next);
    bar->addWidget(m_searchStatus);
    bar->addSpacing(12);
    bar->addWidget(zoomIn);
    bar->addWidget(zoomOut);
    bar->addWidget(fit);
    bar->addSpacing(12);
    bar->addWidget(refresh);
    bar->addWidget(m_export);
    buildCompareActions(bar);

    auto* stepsAndDetails = new QSplitter(Qt::Horizontal, this);
    stepsAndDetails->setObjectName(QStringLiteral("agentStepSplit"));
    stepsAndDetails->addWidget(m_stepView);
    stepsAndDetails->addWidget(m_details);
    stepsAndDetails->setStretchFactor(0, 3);
    stepsAndDetails->setStretchFactor(1, 2);

    auto* session = new QWidget(this);
    auto* sessionLayout = new QVBoxLayout(session);
    sessionLayout->setContentsMargins(0, 0, 0, 0);
    sessionLayout->addWidget(m_header);
    sessionLayout->addWidget(m_control);
    sessionLayout->addLayout(bar);
    sessionLayout->addWidget(m_timeline);
    sessionLayout->addWidget(stepsAndDetails, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_sessionView);
    split->addWidget(session);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 5);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_launcher);
    layout->addWidget(split);
    updateHeader();
}

void AgentWorkspace::setStorePath(std::optional<std::filesystem::path> path)
{
    m_storePath = path;
    m_jobs->setStorePath(path);
    m_details->setStorePath(path);
    m_launcher->setStorePath(path);
    if (m_compare)
        m_compare->setStorePath(path);
    m_sessionId.clear();
    m_session.reset();
    m_steps->clear();
    m_sessions->setSessions({});
    updateHeader();
    if (m_storePath) {
        refresh();
        m_poll->start();
    } else {
        m_poll->stop();
    }
}

void AgentWorkspace::refresh()
{
    m_jobs->loadSessions();
    if (!m_sessionId.isEmpty() && !m_jobs->isLoadingSteps())
        m_jobs->loadSteps(m_sessionId, m_steps->resumeOffset());
}

void AgentWorkspace::poll()
{
    if (!isVisible())
        return; // a hidden panel reads nothing; showing it reads what changed (showEvent)
    if (++m_pollTicks % kSessionListEveryTicks == 0 && !m_jobs->isLoadingSessions())
        m_jobs->loadSessions();
    const bool running = m_session && m_session->status == sb::agents::SessionStatus::Running;
    if (running && !m_jobs->isLoadingSteps())
        m_jobs->loadSteps(m_sessionId, m_steps->resumeOffset());
    if (running)
        m_control->refresh();
}

void AgentWorkspace::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_storePath)
        refresh();
}

void AgentWorkspace::onSessionsLoaded(const SessionsSnapshot& snapshot)
{
    if (!snapshot.error.isEmpty()) {
        emit statusMessage(tr("Cannot read the agent sessions: %1").arg(snapshot.error), 0);
        return;
    }
    m_sessions->setSessions(snapshot.sessions);
    // After a reset (a session came or went), the open one selected again without reopening it.
    if (const int row = m_sessions->rowOf(m_sessionId); row >= 0 && m_sessionView->currentIndex().row() != row) {
        const QSignalBlocker blocker(m_sessionView->selectionModel());
        m_sessionView->selectRow(row);
        m_sessionView->viewport()->update();
    }
    // A session the list shows ended while it was open: read what came in since.
    if (const int row = m_sessions->rowOf(m_sessionId); row >= 0 && m_session) {
        const auto* listed = m_sessions->sessionAt(row);
        if (listed->status != m_session->status && !m_jobs->isLoadingSteps())
            m_jobs->loadSteps(m_sessionId, m_steps->resumeOffset());
    }
}

bool AgentWorkspace::openSession(const QString& sessionId)
{
    const int row = m_sessions->rowOf(sessionId);
    if (row < 0)
        return false;
    m_sessionView->selectRow(row);
    if (m_sessionId != sessionId)
        onSessionSelected();
    return true;
}

void AgentWorkspace::onSessionSelected()
{
    const auto* session = m_sessions->sessionAt(m_sessionView->currentIndex().row());
    if (!session)
        return;
    m_sessionId = toQString(session->id);
    m_session = *session;
    m_steps->clear();
    m_search->clear();
    m_searchStatus->clear();
    m_details->clear(tr("Select a step to see its details."));
    m_timeline->setOrigin(session->startedAtMs);
    m_export->setEnabled(true);
    updateHeader();
    m_jobs->loadSteps(m_sessionId, 0);
}

void AgentWorkspace::onStepsLoaded(const StepBatch& batch)
{
    if (batch.sessionId != m_sessionId)
        return;
    if (!batch.error.isEmpty()) {
        emit statusMessage(tr("Cannot read the steps of session %1: %2").arg(m_sessionId.left(8), batch.error), 0);
        return;
    }
    if (batch.session) {
        m_session = *batch.session;
        m_steps->reserve(m_session->steps);
        updateHeader();
    }
    const bool wasEmpty = m_steps->rowCount() == 0;
    m_steps->setSteps(batch.offset, batch.steps);
    if (wasEmpty && m_steps->rowCount() > 0)
        m_stepView->setFocus(Qt::OtherFocusReason);
    // A step shown in full whose result has come in since: show it again.
    const QModelIndex current = m_stepView->currentIndex();
    if (current.isValid() && current.row() >= batch.offset
        && current.row() < batch.offset + static_cast<std::int64_t>(batch.steps.size()))
        onCurrentStepChanged();
}

void AgentWorkspace::selectStep(std::int64_t index)
{
    const int row = static_cast<int>(index - 1);
    if (row < 0 || row >= m_steps->rowCount())
        return;
    const QModelIndex at = m_steps->index(row, 0);
    m_stepView->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_stepView->scrollTo(at);
}

void AgentWorkspace::onCurrentStepChanged()
{
    const QModelIndex current = m_stepView->currentIndex();
    const auto* step = m_steps->stepAt(current.row());
    if (!step) {
        m_details->clear(tr("Select a step to see its details."));
        return;
    }
    m_stepView->scrollTo(current);
    m_jobs->loadStep(m_sessionId, step->index);
}

void AgentWorkspace::onStepLoaded(const StepDetail& detail)
{
    if (detail.sessionId != m_sessionId)
        return;
    const auto* current = m_steps->stepAt(m_stepView->currentIndex().row());
    if (!current || current->index != detail.index)
        return;
    m_details->showStep(detail, m_steps->costSoFar(static_cast<int>(detail.index - 1)));
}

void AgentWorkspace::search(const QString& text)
{
    if (m_sessionId.isEmpty())
        return;
    if (text.isEmpty()) {
        m_steps->setMatches({});
        m_searchStatus->clear();
        m_timeline->update();
        return;
    }
    m_searchStatus->setText(tr("Searching…"));
    m_jobs->search(m_sessionId, text);
}

void AgentWorkspace::onSearched(const StepSearch& search)
{
    if (search.sessionId != m_sessionId)
        return;
    if (!search.error.isEmpty()) {
        m_searchStatus->setText(tr("Search failed"));
        emit statusMessage(tr("Cannot search: %1").arg(search.error), 0);
        return;
    }
    m_steps->setMatches(search.steps);
    m_timeline->update();
    const auto found = search.steps.size();
    m_searchStatus->setText(found == 0 ? tr("No match") : found == 1 ? tr("1 match") : tr("%1 matches").arg(found));
    if (!search.steps.empty())
        jumpToMatch(true);
}

void AgentWorkspace::nextMatch()
{
    jumpToMatch(true);
}

void AgentWorkspace::previousMatch()
{
    jumpToMatch(false);
}

void AgentWorkspace::jumpToMatch(bool forward)
{
    const auto& matches = m_steps->matches();
    if (matches.empty())
        return;
    const std::int64_t current = m_stepView->currentIndex().isValid() ? m_stepView->currentIndex().row() + 1 : 0;
    std::int64_t target = 0;
    if (forward) {
        const auto after = std::upper_bound(matches.begin(), matches.end(), current);
        target = after == matches.end() ? matches.front() : *after;
    } else {
        const auto before = std::lower_bound(matches.begin(), matches.end(), current);
        target = before == matches.begin() ? matches.back() : *(before - 1);
    }
    const auto position = std::lower_bound(matches.begin(), matches.end(), target) - matches.begin();
    m_searchStatus->setText(tr("%1 of %2").arg(position + 1).arg(matches.size()));
    selectStep(target);
}

void AgentWorkspace::askExport(SessionExportFormat format)
{
    if (m_sessionId.isEmpty())
        return;
    const bool html = format == SessionExportFormat::Html;
    const QString suggested = QStringLiteral("session-%1.%2").arg(m_sessionId.left(8), html ? QStringLiteral("html")
                                                                                             : QStringLiteral("jsonl"));
    const QString path = QFileDialog::getSaveFileName(
        this, html ? tr("Export the session as an HTML report") : tr("Export the session as JSON Lines"), suggested,
        html ? tr("HTML report (*.html)") : tr("JSON Lines (*.jsonl)"));
    if (!path.isEmpty())
        exportSession(path, format);
}

bool AgentWorkspace::exportSession(const QString& path, SessionExportFormat format)
{
    if (m_sessionId.isEmpty() || !m_storePath)
        return false;
    QString image;
    if (format == SessionExportFormat::Html) {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        m_timeline->picture(kPictureWidth).save(&buffer, "PNG");
        image = QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
    }
    emit statusMessage(tr("Exporting session %1…").arg(m_sessionId.left(8)), 0);
    m_jobs->exportSession(m_sessionId, path, format, image);
    return true;
}

void AgentWorkspace::onExported(const SessionExport& outcome)
{
    if (outcome.error.isEmpty())
        emit statusMessage(tr("Session exported to %1").arg(outcome.path), 5000);
    else
        emit statusMessage(outcome.error, 0);
    emit exportFinished(outcome.path, outcome.error);
}

void AgentWorkspace::showStepMenu(const QPoint& globalPos, int row)
{
    const auto* step = m_steps->stepAt(row);
    if (!step)
        return;
    const std::int64_t index = step->index;
    QMenu menu(this);
    auto* fork = menu.addAction(tr("Fork a sandbox from before step %1…").arg(index));
    fork->setObjectName(QStringLiteral("actionForkAtStep"));
    connect(fork, &QAction::triggered, this, [this, index] { askFork(index); });
    auto* rewind = menu.addAction(tr("Rewind the sandbox to before step %1…").arg(index));
    rewind->setObjectName(QStringLiteral("actionRewindToStep"));
    const bool running = m_session && m_session->status == sb::agents::SessionStatus::Running;
    rewind->setEnabled(!running);
    if (running)
        rewind->setToolTip(tr("Not while the session runs: the agent is working in that sandbox"));
    connect(rewind, &QAction::triggered, this, [this, index] { askRewind(index); });
    fork->setEnabled(!m_jobs->isChangingWorkspace());
    rewind->setEnabled(rewind->isEnabled() && !m_jobs->isChangingWorkspace());
    menu.exec(globalPos);
}

void AgentWorkspace::askFork(std::int64_t step)
{
    bool ok = false;
    const QString suggested = QStringLiteral("fork-%1-step-%2").arg(m_sessionId.left(8)).arg(step);
    const QString name = QInputDialog::getText(this, tr("Fork a sandbox"),
                                               tr("A new sandbox whose workspace is the session's before step %1. "
                                                  "Its name:")
                                                   .arg(step),
                                               QLineEdit::Normal, suggested, &ok);
    if (ok && !name.trimmed().isEmpty())
        forkAtStep(step, name.trimmed());
}

void AgentWorkspace::askRewind(std::int64_t step)
{
    const auto answer = QMessageBox::question(
        this, tr("Rewind the sandbox"),
        tr("Make the sandbox %1 as it was before step %2? Unsaved changes are checkpointed first: nothing is lost.")
            .arg(m_session ? toQString(m_session->sandbox) : QString())
            .arg(step));
    if (answer == QMessageBox::Yes)
        rewindToStep(step);
}

bool AgentWorkspace::forkAtStep(std::int64_t step, const QString& name)
{
    if (m_sessionId.isEmpty() || !m_jobs->forkAtStep(m_sessionId, step, name))
        return false;
    emit statusMessage(tr("Forking %1 from before step %2…").arg(name).arg(step), 0);
    return true;
}

bool AgentWorkspace::rewindToStep(std::int64_t step)
{
    if (m_sessionId.isEmpty() || !m_jobs->rewindToStep(m_sessionId, step))
        return false;
    emit statusMessage(tr("Rewinding to before step %1…").arg(step), 0);
    return true;
}

void AgentWorkspace::onWorkspaceChanged(const SessionWorkspaceTask& outcome)
{
    if (!outcome.error.isEmpty()) {
        emit statusMessage(outcome.fork ? tr("Cannot fork: %1").arg(outcome.error)
                                        : tr("Cannot rewind: %1").arg(outcome.error),
                           0);
    } else {
        emit statusMessage(outcome.fork ? tr("Sandbox %1 forked from before step %2 (checkpoint %3)")
                                              .arg(outcome.sandbox)
                                              .arg(outcome.step)
                                              .arg(outcome.checkpoint.left(12))
                                        : tr("Sandbox %1 rewound to before step %2 (checkpoint %3)")
                                              .arg(outcome.sandbox)
                                              .arg(outcome.step)
                                              .arg(outcome.checkpoint.left(12)),
                           8000);
        emit storeChanged();
    }
    emit workspaceTaskFinished(outcome);
}

void AgentWorkspace::updateHeader()
{
    m_control->setSession(m_session);
    if (!m_session) {
        m_header->setText(m_storePath ? tr("Select a session: each agent run or wrapped MCP server the store recorded.")
                                      : tr("The store is not open."));
        return;
    }
    const auto& s = *m_session;
    QStringList command;
    for (const auto& argument : s.command)
        command << toQString(argument);
    QString policy = toQString(s.policyRef);
    if (s.policy.id != 0)
        policy = tr("%1 v%2").arg(toQString(s.policy.name)).arg(s.policy.version);
    QString text = tr("<b>%1</b> session <code>%2</code> · <b>%3</b> · %4 steps · cost %5 · sandbox %6 · policy %7")
                       .arg(toQString(sb::agents::toString(s.kind)), m_sessionId.left(8),
                            toQString(sb::agents::toString(s.status)))
                       .arg(s.steps)
                       .arg(QString::number(s.cost, 'g', 4), toQString(s.sandbox).toHtmlEscaped(), policy.toHtmlEscaped());
    text += QStringLiteral("<br><code>%1</code>").arg(command.join(QLatin1Char(' ')).toHtmlEscaped());
    if (!s.message.empty())
        text += QStringLiteral(" — ") + toQString(s.message).toHtmlEscaped();
    m_header->setText(text);
}

} // namespace sb::ui
