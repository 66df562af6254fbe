#include "ui/demo/DemoTour.h"

#include "demo/demo.h"
#include "demo/demo_sandboxes.h"
#include "demo/worked_example.h"
#include "ui/agents/AgentWorkspace.h"
#include "ui/agents/SessionListModel.h"
#include "ui/agents/StepDetails.h"
#include "ui/checkpoints/CheckpointBrowser.h"
#include "ui/editor/CodeEditor.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/Conversions.h"
#include "ui/models/RunHistoryModel.h"
#include "ui/promote/PromotionDialog.h"
#include "ui/rules/RuleSetEditor.h"
#include "ui/rules/RulesCharts.h"
#include "ui/rules/RulesWorkspace.h"
#include "ui/style/OutcomeStyle.h"

#include <QApplication>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace sb::ui {

namespace {

constexpr int kCalloutWidth = 430;
constexpr int kMargin = 16;

// Brings `widget` to the front of every stack (a tab widget's pages) it sits in, up to its window.
void bringToFront(QWidget* widget)
{
    for (QWidget* child = widget; child && !child->isWindow(); child = child->parentWidget()) {
        if (auto* stack = qobject_cast<QStackedWidget*>(child->parentWidget()))
            stack->setCurrentWidget(child);
    }
}

void raiseDock(MainWindow* window, const QString& name)
{
    if (auto* dock = window->findChild<QDockWidget*>(name)) {
        dock->show();
        dock->raise();
    }
}

} // namespace

DemoTour::DemoTour(MainWindow* window)
    : QFrame(window)
    , m_window(window)
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("demoTour"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setStyleSheet(QStringLiteral("#demoTour { background: #fff8e1; border: 1px solid #e6c35c; border-radius: 6px; }"
                                 " #demoTour QLabel { color: #3e2f00; }"));
    setFixedWidth(kCalloutWidth);

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("demoTourTitle"));
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("demoTourText"));
    m_text->setWordWrap(true);

    m_play = new QPushButton(tr("Play demo"), this);
    m_play->setObjectName(QStringLiteral("demoTourPlay"));
    m_back = new QPushButton(tr("Back"), this);
    m_back->setObjectName(QStringLiteral("demoTourBack"));
    m_next = new QPushButton(tr("Next"), this);
    m_next->setObjectName(QStringLiteral("demoTourNext"));
    m_stop = new QPushButton(this);
    m_stop->setObjectName(QStringLiteral("demoTourStop"));
    m_stop->setToolTip(tr("End the walk (Esc)"));
    connect(m_play, &QPushButton::clicked, this, &DemoTour::play);
    connect(m_back, &QPushButton::clicked, this, &DemoTour::back);
    connect(m_next, &QPushButton::clicked, this, &DemoTour::next);
    connect(m_stop, &QPushButton::clicked, this, &DemoTour::stop);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_play);
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    buttons->addWidget(m_stop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->addWidget(m_title);
    layout->addWidget(m_text);
    layout->addLayout(buttons);

    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &DemoTour::next);
    m_window->installEventFilter(this);
    hide();
}

DemoTour::~DemoTour()
{
    qApp->removeEventFilter(this);
}

void DemoTour::setCallout(const QString& title, const QString& text)
{
    m_title->setText(title);
    m_text->setText(text);
    qApp->installEventFilter(this); // Esc, while shown
    show();
    raise();
    place();
    // Again once the workspace the step switched to has laid out its panels (the docks settle on the next turn).
    QTimer::singleShot(0, this, &DemoTour::place);
}

void DemoTour::offer()
{
    m_step = -1;
    m_timer->stop();
    closePromotion();
    m_play->show();
    m_back->hide();
    m_next->hide();
    m_stop->setText(tr("Close"));
    setCallout(tr("The demo store is ready"),
               tr("This window works on a demo store of its own, filled with snippets of every outcome, the rules "
                  "demo, a recorded agent session, sandboxes with checkpoints and a change ready to promote. Your "
                  "own store is untouched. Play demo walks through it in about a minute."));
    m_play->setFocus();
}

void DemoTour::play()
{
    m_play->hide();
    m_back->show();
    m_next->show();
    m_stop->setText(tr("Stop"));
    showStep(0);
}

void DemoTour::next()
{
    if (!isPlaying())
        return;
    if (m_step + 1 >= kStepCount) {
        stop();
        return;
    }
    showStep(m_step + 1);
}

void DemoTour::back()
{
    if (isPlaying() && m_step > 0)
        showStep(m_step - 1);
}

void DemoTour::stop()
{
    const bool wasShown = isVisible() || isPlaying();
    m_timer->stop();
    m_step = -1;
    closePromotion();
    qApp->removeEventFilter(this);
    hide();
    if (wasShown)
        emit stopped();
}

void DemoTour::setStepInterval(int ms)
{
    m_stepMs = ms;
    if (ms <= 0)
        m_timer->stop();
    else if (isPlaying())
        m_timer->start(ms);
}

QString DemoTour::title() const
{
    switch (step()) {
    case Step::Snippets: return tr("Snippets and their outcomes");
    case Step::BlockedRun: return tr("A blocked run, explained");
    case Step::Rules: return tr("Rules: an A/B comparison");
    case Step::AgentSession: return tr("A recorded agent session");
    case Step::Checkpoints: return tr("Sandboxes and their checkpoints");
    case Step::Promotion: return tr("Reviewing a promotion");
    case Step::Dashboard: return tr("The dashboard");
    }
    return {};
}

QString DemoTour::caption() const
{
    switch (step()) {
    case Step::Snippets:
        return tr("Every snippet runs in an operating-system sandbox and ends in one outcome: ok, error, blocked, "
                  "timeout, memory limit or crashed. The history lists the demo's snippets, one of each.");
    case Step::BlockedRun:
        return tr("This snippet tried something its policy refuses. The output names what the sandbox blocked and "
                  "the isolation the run had; the run is recorded with it, as every run is.");
    case Step::Rules:
        return tr("The rules workspace runs rule sets on a dataset. The current rules against two variants on "
                  "5,000 demo transactions: the charts show the decisions each variant changes.");
    case Step::AgentSession:
        return tr("A scripted agent upgraded a dependency in a sandbox of its own. Every tool call is a step on the "
                  "timeline, with its arguments, its result and the policy's decision.");
    case Step::Checkpoints:
        return tr("A sandbox keeps checkpoints of its workspace, like commits: the graph shows them, and "
                  "demo-rules-strict is a fork made from one. Select one, or two, to see what changed.");
    case Step::Promotion:
        return tr("The agent's change waits to be promoted into the repository it came from. The review shows the "
                  "changed files, the risk and the checks first; the walk closes it without promoting.");
    case Step::Dashboard:
        return tr("Every run is measured: outcomes, durations, blocked events, agent steps and promotions over time. "
                  "Click a bar to narrow the history to its runs.");
    }
    return {};
}

void DemoTour::showStep(int index)
{
    m_step = std::clamp(index, 0, kStepCount - 1);
    enter(step());
    m_back->setEnabled(m_step > 0);
    m_next->setText(m_step + 1 == kStepCount ? tr("Finish") : tr("Next"));
    setCallout(tr("Step %1 of %2: %3").arg(m_step + 1).arg(kStepCount).arg(title()), caption());
    m_next->setFocus();
    if (m_stepMs > 0)
        m_timer->start(m_stepMs);
    emit stepShown(m_step);
}

void DemoTour::enter(Step step)
{
    if (step != Step::Promotion)
        closePromotion();
    switch (step) {
    case Step::Snippets:
        m_window->showSnippets();
        raiseDock(m_window, QStringLiteral("historyDock"));
        showNewestDemoCase();
        break;
    case Step::BlockedRun:
        m_window->showSnippets();
        raiseDock(m_window, QStringLiteral("historyDock"));
        showBlockedRun();
        break;
    case Step::Rules:
        m_window->showRules();
        bringToFront(m_window->rulesWorkspace()->charts());
        break;
    case Step::AgentSession:
        m_window->showAgents();
        showAgentSession();
        break;
    case Step::Checkpoints:
        m_window->showCheckpoints();
        m_window->checkpointBrowser()->selectSandbox(toQString(sb::kDemoSandbox));
        break;
    case Step::Promotion:
        m_window->showCheckpoints();
        m_window->checkpointBrowser()->selectSandbox(toQString(sb::kWorkedExampleSandbox));
        openPromotion();
        break;
    case Step::Dashboard:
        m_window->showDashboard();
        break;
    }
}

// The newest run of a demo case: the history's newest rows may be the recorded agent session's commands.
void DemoTour::showNewestDemoCase()
{
    QTableView* view = m_window->historyView();
    const QString prefix = toQString(sb::kDemoCaseLabelPrefix);
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        const QModelIndex index = view->model()->index(row, RunHistoryModel::LabelColumn);
        if (index.data().toString().startsWith(prefix)) {
            view->selectRow(row);
            view->scrollTo(index);
            return;
        }
    }
}

void DemoTour::showBlockedRun()
{
    QTableView* view = m_window->historyView();
    const QString blocked = outcomeName(sb::Outcome::Blocked);
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        const QModelIndex index = view->model()->index(row, RunHistoryModel::OutcomeColumn);
        if (index.data(RunHistoryModel::OutcomeRole).toString() != blocked)
            continue;
        view->selectRow(row);
        view->scrollTo(index);
        // The run's snippet goes into the editor only when that holds nothing of the person's own.
        if (!m_window->editor()->isModified()) {
            m_window->loadHistoryRow(index);
            m_window->editor()->setModified(false);
        }
        return;
    }
}

void DemoTour::showAgentSession()
{
    AgentWorkspace* agents = m_window->agentWorkspace();
    const SessionListModel* sessions = agents->sessionModel();
    if (sessions->rowCount() == 0)
        return;
    if (const auto* session = sessions->sessionAt(0))
        agents->openSession(toQString(session->id));
}

void DemoTour::openPromotion()
{
    const auto& storePath = m_window->jobs()->storePath();
    if (m_promotion || !storePath)
        return;
    const QString source = toQString(sb::kWorkedExampleSandbox);
    const QString target = toQString(sb::kWorkedExampleRepoSandbox);
    auto* review = new PromotionDialog(*storePath, source, target, {target, QStringLiteral("main")}, m_window);
    review->setAttribute(Qt::WA_DeleteOnClose);
    review->setModal(false); // the callout over it stays usable
    review->installEventFilter(this);
    // The callout lives over the review while it is open, and goes back to the window before the review goes.
    connect(review, &QDialog::finished, this, [this] {
        setParent(m_window);
        if (isPlaying()) {
            show();
            place();
        }
    });
    m_promotion = review;
    review->show();
    setParent(review);
}

void DemoTour::closePromotion()
{
    if (!m_promotion)
        return;
    setParent(m_window);
    m_promotion->reject();
    m_promotion = nullptr;
}

void DemoTour::place()
{
    auto* host = parentWidget();
    if (!host)
        return;
    resize(kCalloutWidth, hasHeightForWidth() ? heightForWidth(kCalloutWidth) : sizeHint().height());
    if (host != m_window) {
        // Over the review: the foot of its diff (a short one leaves room there), clear of the changed files, the
        // risk, the checks, the approval and the buttons the step names; its lower left without a diff pane.
        const QWidget* diff = host->findChild<QWidget*>(QStringLiteral("promotionDiffPane"));
        const QRect area = diff && diff->isVisible() ? QRect(diff->mapTo(host, QPoint(0, 0)), diff->size())
                                                     : QRect(0, 0, width() + 2 * kMargin, host->height());
        move(std::max(area.left(), area.right() - width() - kMargin),
             std::max(area.top(), area.bottom() - height() - kMargin));
        raise();
        return;
    }
    // Over a part of the window the step does not name, so that what it names stays in view: the snippet editor's
    // top right (a short snippet leaves room there), the foot of the rule-set editor (the charts stay clear), the foot
    // of the agent step's details (the session, its timeline and steps stay clear); else the window's lower right
    // (the checkpoint browser's diff, the dashboard's lower charts).
    QWidget* quiet = nullptr;
    bool atTop = false;
    switch (isPlaying() ? step() : Step::Snippets) {
    case Step::Snippets:
    case Step::BlockedRun:
        quiet = m_window->centralWidget();
        atTop = true;
        break;
    case Step::Rules: quiet = m_window->rulesWorkspace()->currentEditor(); break;
    case Step::AgentSession: quiet = m_window->agentWorkspace()->details(); break;
    case Step::Checkpoints:
    case Step::Promotion:
    case Step::Dashboard: break;
    }
    QRect area;
    if (quiet && quiet->isVisible()) {
        area = QRect(quiet->mapTo(m_window, QPoint(0, 0)), quiet->size());
    } else {
        const QStatusBar* status = m_window->statusBar();
        area = QRect(0, 0, m_window->width(), m_window->height() - (status->isVisible() ? status->height() : 0));
        atTop = false;
    }
    const int x = std::max(area.left(), area.right() - width() - kMargin);
    const int y = atTop ? area.top() + kMargin : std::max(area.top(), area.bottom() - height() - kMargin);
    move(x, y);
    raise();
}

bool DemoTour::eventFilter(QObject* watched, QEvent* event)
{
    if ((watched == m_window || watched == m_promotion.data()) && event->type() == QEvent::Resize && isVisible()) {
        place();
        return false;
    }
    if (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress)
        return false;
    const auto* key = static_cast<QKeyEvent*>(event);
    const auto* widget = qobject_cast<QWidget*>(watched);
    if (key->key() != Qt::Key_Escape || key->modifiers() != Qt::NoModifier || !widget || !isVisible())
        return false;
    const QWidget* window = widget->window();
    if (window != m_window && window != m_promotion.data())
        return false;
    // Esc ends the walk before the window's Cancel or the review's Close can take it.
    event->accept();
    if (event->type() == QEvent::KeyPress)
        stop();
    return true;
}

} // namespace sb::ui
