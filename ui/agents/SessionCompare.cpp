#include "ui/agents/SessionCompare.h"

#include "ui/agents/JsonTreeModel.h"
#include "ui/agents/SessionCompareModel.h"
#include "ui/models/Conversions.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QScreen>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

QString sessionTitle(const sb::agents::SessionInfo& session)
{
    QString policy = toQString(session.policyRef);
    if (policy.isEmpty() && !session.policy.name.empty())
        policy = toQString(session.policy.name + "@" + std::to_string(session.policy.version));
    return QObject::tr("session %1 · %2 · policy %3 · %n step(s)", nullptr, static_cast<int>(session.steps))
        .arg(toQString(session.id).left(8), toQString(sb::agents::toString(session.status)),
             policy.isEmpty() ? QStringLiteral("-") : policy);
}

QTreeView* jsonView(QWidget* parent, const char* name, JsonTreeModel* model)
{
    auto* view = new QTreeView(parent);
    view->setObjectName(QString::fromLatin1(name));
    view->setModel(model);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->header()->setStretchLastSection(true);
    view->setColumnWidth(JsonTreeModel::KeyColumn, view->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 22);
    return view;
}

QLabel* detailsLabel(QWidget* parent, const char* name)
{
    auto* label = new QLabel(parent);
    label->setObjectName(QString::fromLatin1(name));
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return label;
}

// A step's verdict, rule and message, as the details show them.
QString stepText(const sb::agents::ComparedSide* side, const std::optional<sb::agents::StepRecord>& step)
{
    if (!side && !step)
        return QObject::tr("No such step in this session.");
    QString text;
    const std::string verdict = side ? side->verdict : std::string(sb::agents::toString(step->verdict));
    const std::string rule = side ? side->rule : step->rule;
    const std::string message = side ? side->message : step->message;
    text = QObject::tr("%1 · %2").arg(toQString(side ? side->tool : step->tool), toQString(verdict));
    if (!rule.empty())
        text += QObject::tr("\nrule: %1").arg(toQString(rule));
    if (!message.empty())
        text += QObject::tr("\n%1").arg(toQString(message));
    if (step && step->edited)
        text += QObject::tr("\narguments edited by a person");
    return text;
}

sb::agents::Json stepJson(const std::optional<sb::agents::StepRecord>& step)
{
    if (!step)
        return sb::agents::Json::object();
    return sb::agents::Json{{"arguments", step->arguments},
                            {"result", step->result ? *step->result : sb::agents::Json()}};
}

} // namespace

SessionCompare::SessionCompare(QWidget* parent)
    : QDialog(parent)
    , m_jobs(new SessionCompareRunner(this))
    , m_model(new SessionCompareModel(this))
    , m_table(new QTableView(this))
    , m_leftTitle(new QLabel(this))
    , m_rightTitle(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_leftDetails(detailsLabel(this, "compareLeftDetails"))
    , m_rightDetails(detailsLabel(this, "compareRightDetails"))
    , m_leftTree(new JsonTreeModel(this))
    , m_rightTree(new JsonTreeModel(this))
    , m_leftTreeView(jsonView(this, "compareLeftTree", m_leftTree))
    , m_rightTreeView(jsonView(this, "compareRightTree", m_rightTree))
{
    setObjectName(QStringLiteral("sessionCompare"));
    setWindowTitle(tr("Compare agent sessions"));
    setSizeGripEnabled(true);

    m_leftTitle->setObjectName(QStringLiteral("compareLeftTitle"));
    m_rightTitle->setObjectName(QStringLiteral("compareRightTitle"));
    for (QLabel* title : {m_leftTitle, m_rightTitle}) {
        title->setWordWrap(true);
        title->setTextFormat(Qt::PlainText);
        title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setObjectName(QStringLiteral("compareProgress"));
    m_progress->setRange(0, 0); // busy until a replay says how far it is (a comparison never does)
    m_progress->setMaximumWidth(160);
    m_progress->setFormat(tr("%v/%m steps"));
    m_progress->hide();
    m_cancel = new QToolButton(this);
    m_cancel->setObjectName(QStringLiteral("compareCancel"));
    m_cancel->setText(tr("Cancel replay"));
    m_cancel->setToolTip(tr("Stop the replay after the step it is on; it is recorded as interrupted"));
    m_cancel->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_cancel->hide();
    connect(m_cancel, &QToolButton::clicked, this, [this] {
        m_jobs->cancelReplay();
        m_cancel->setEnabled(false);
        m_status->setText(tr("Stopping the replay after the step it is on…"));
    });
    connect(m_jobs, &SessionCompareRunner::replayProgress, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    m_previous->setObjectName(QStringLiteral("comparePreviousDifference"));
    m_previous->setText(tr("▲ Previous difference"));
    m_previous->setToolTip(tr("The previous step that differs (Shift+F3)"));
    m_previous->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_next->setObjectName(QStringLiteral("compareNextDifference"));
    m_next->setText(tr("▼ Next difference"));
    m_next->setToolTip(tr("The next step that differs (F3)"));
    connect(m_previous, &QToolButton::clicked, this, &SessionCompare::previousDifference);
    connect(m_next, &QToolButton::clicked, this, &SessionCompare::nextDifference);
    connect(new QShortcut(QKeySequence(Qt::Key_F3), this), &QShortcut::activated, this,
            &SessionCompare::nextDifference);
    connect(new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3), this), &QShortcut::activated, this,
            &SessionCompare::previousDifference);

    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Fixed row heights and column widths: the view never measures 100 000 rows.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    auto* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    const int digit = m_table->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    header->resizeSection(SessionCompareModel::MarkerColumn, digit * 3);
    header->resizeSection(SessionCompareModel::IndexColumn, digit * 9);
    for (int column : {SessionCompareModel::LeftToolColumn, SessionCompareModel::RightToolColumn})
        header->resizeSection(column, digit * 12);
    for (int column : {SessionCompareModel::LeftVerdictColumn, SessionCompareModel::RightVerdictColumn})
        header->resizeSection(column, digit * 13);
    header->resizeSection(SessionCompareModel::ChangeColumn, digit * 16);
    for (int column : {SessionCompareModel::LeftArgumentsColumn, SessionCompareModel::LeftResultColumn,
                       SessionCompareModel::RightArgumentsColumn, SessionCompareModel::RightResultColumn})
        header->setSectionResizeMode(column, QHeaderView::Stretch);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &SessionCompare::onCurrentRowChanged);

    auto* titles = new QHBoxLayout;
    titles->addWidget(m_leftTitle, 1);
    titles->addWidget(m_rightTitle, 1);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_summary);
    bar->addSpacing(12);
    bar->addWidget(m_previous);
    bar->addWidget(m_next);
    bar->addSpacing(12);
    bar->addWidget(m_progress);
    bar->addWidget(m_cancel);
    bar->addWidget(m_status, 1);

    auto* details = new QSplitter(Qt::Horizontal, this);
    details->setObjectName(QStringLiteral("compareDetails"));
    for (auto [label, view] : {std::pair{m_leftDetails, m_leftTreeView}, std::pair{m_rightDetails, m_rightTreeView}}) {
        auto* side = new QWidget(details);
        auto* layout = new QVBoxLayout(side);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(label);
        layout->addWidget(view, 1);
        details->addWidget(side);
    }
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(titles);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_jobs, &SessionCompareRunner::started, this, &SessionCompare::onStarted);
    connect(m_jobs, &SessionCompareRunner::finished, this, &SessionCompare::onFinished);
    connect(m_jobs, &SessionCompareRunner::stepPairLoaded, this, &SessionCompare::onStepPairLoaded);

    // Fits a 1366×768 screen with room for the panel and the task bar.
    QSize size(1280, 680);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableSize() * 0.95);
    resize(size);
    setSideLabels();
    m_summary->setText(tr("Nothing compared yet"));
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
}

void SessionCompare::setStorePath(std::optional<std::filesystem::path> path)
{
    m_jobs->setStorePath(std::move(path));
    m_model->clear();
    m_result = {};
    setSideLabels();
}

bool SessionCompare::replay(const QString& sessionId, const QString& policy, const QString& sessionLabel)
{
    m_pending = tr("Replaying session %1 under %2…").arg(sessionLabel, policy);
    return m_jobs->replay(sessionId, policy);
}

bool SessionCompare::compare(const QString& leftId, const QString& rightId)
{
    m_pending = tr("Reading sessions %1 and %2…").arg(leftId.left(8), rightId.left(8));
    return m_jobs->compare(leftId, rightId);
}

QString SessionCompare::summaryText() const
{
    return m_summary->text();
}

QString SessionCompare::statusText() const
{
    return m_status->text();
}

QString SessionCompare::detailsText(bool left) const
{
    return (left ? m_leftDetails : m_rightDetails)->text();
}

void SessionCompare::onStarted(bool replay)
{
    m_progress->setRange(0, 0);
    m_progress->show();
    m_cancel->setVisible(replay);
    m_cancel->setEnabled(true);
    m_status->setStyleSheet(QString());
    m_status->setText(m_pending);
    m_previous->setEnabled(false);
    m_next->setEnabled(false);
    if (replay)
        setWindowTitle(tr("Replay under a policy"));
}

void SessionCompare::setSideLabels()
{
    const bool replay = m_result.replay;
    m_leftTitle->setText(m_result.left ? (replay ? tr("Original: %1") : tr("Left: %1")).arg(sessionTitle(*m_result.left))
                                       : QString());
    m_rightTitle->setText(m_result.right
                              ? (replay ? tr("Replay: %1").arg(sessionTitle(*m_result.right))
                                        : tr("Right: %1").arg(sessionTitle(*m_result.right)))
                              : QString());
}

void SessionCompare::onFinished(const SessionCompareResult& result)
{
    m_progress->hide();
    m_cancel->hide();
    if (!result.error.isEmpty()) {
        m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_status->setText(result.replay ? tr("The replay failed: %1").arg(result.error)
                                        : tr("Cannot compare the sessions: %1").arg(result.error));
        return;
    }
    m_result = result;
    m_status->setStyleSheet(QString());
    m_doneStatus = result.replay ? tr("Replay recorded as session %1 (sandbox %2).")
                                       .arg(toQString(result.right->id).left(8), toQString(result.right->sandbox))
                                 : QString();
    m_status->setText(m_doneStatus);
    setWindowTitle(result.replay ? tr("Replay of session %1").arg(toQString(result.left->id).left(8))
                                 : tr("Compare agent sessions"));
    setSideLabels();
    m_model->setComparison(result.comparison);
    m_summary->setText(tr("%1 of %2 steps differ").arg(m_model->differingCount()).arg(m_model->rowCount()));
    m_previous->setEnabled(m_model->differingCount() > 0);
    m_next->setEnabled(m_model->differingCount() > 0);
    m_leftTree->clear();
    m_rightTree->clear();
    m_leftDetails->setText(tr("Select a step to see both sides in full."));
    m_rightDetails->clear();
    if (const int first = m_model->nextDifference(-1, true); first >= 0)
        selectRow(first);
    if (result.replay)
        emit sessionRecorded(toQString(result.right->id));
}

void SessionCompare::selectRow(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return;
    const QModelIndex at = m_model->index(row, SessionCompareModel::IndexColumn);
    m_table->setCurrentIndex(at);
    m_table->scrollTo(at, QAbstractItemView::PositionAtCenter);
}

void SessionCompare::jumpToDifference(bool forward)
{
    const int row = m_model->nextDifference(m_table->currentIndex().row(), forward);
    if (row >= 0) {
        selectRow(row);
        m_status->setText(m_doneStatus);
    } else
        m_status->setText(forward ? tr("No difference after this step.") : tr("No difference before this step."));
}

void SessionCompare::nextDifference()
{
    jumpToDifference(true);
}

void SessionCompare::previousDifference()
{
    jumpToDifference(false);
}

void SessionCompare::onCurrentRowChanged()
{
    const auto* step = m_model->stepAt(m_table->currentIndex().row());
    if (!step || !m_result.left || !m_result.right)
        return;
    m_leftDetails->setText(stepText(step->left ? &*step->left : nullptr, std::nullopt));
    m_rightDetails->setText(stepText(step->right ? &*step->right : nullptr, std::nullopt));
    m_jobs->loadStepPair(toQString(m_result.left->id), toQString(m_result.right->id), step->index);
}

void SessionCompare::onStepPairLoaded(const StepPair& pair)
{
    const auto* step = m_model->stepAt(m_table->currentIndex().row());
    if (!step || step->index != pair.index || !m_result.left || pair.leftId != toQString(m_result.left->id))
        return;
    if (!pair.error.isEmpty()) {
        m_status->setText(tr("Cannot read step %1: %2").arg(pair.index).arg(pair.error));
        return;
    }
    // The compared sides rule the verdicts (a replay's report); the steps read give the rest in full.
    m_leftDetails->setText(stepText(step->left ? &*step->left : nullptr, pair.left));
    m_rightDetails->setText(stepText(step->right ? &*step->right : nullptr, pair.right));
    m_leftTree->setJson(stepJson(pair.left));
    m_rightTree->setJson(stepJson(pair.right));
    m_leftTreeView->expandToDepth(2);
    m_rightTreeView->expandToDepth(2);
}

} // namespace sb::ui
