#include "ui/cluster/ClusterJobsPanel.h"

#include "ui/cluster/ClusterJobsModel.h"
#include "ui/mainwindow/LivePanes.h"
#include "ui/style/Icons.h"

#include <QApplication>
#include <QDesktopServices>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace sb::ui {

namespace {

const char* const kFolderProperty = "folder";
const QString kScalingDoc = QStringLiteral("docs/SCALING.md");

// The progress column: a bar of the tasks done, the counts written on it.
class ProgressDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const QVariant fraction = index.data(ClusterJobsModel::ProgressRole);
        if (!fraction.isValid()) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        QStyleOptionViewItem item = option;
        initStyleOption(&item, index);
        item.text.clear();
        const QWidget* widget = option.widget;
        QStyle* style = widget ? widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget); // background, selection

        QStyleOptionProgressBar bar;
        if (widget)
            bar.initFrom(widget);
        bar.rect = option.rect.adjusted(4, 3, -4, -3);
        bar.minimum = 0;
        bar.maximum = 1000;
        bar.progress = static_cast<int>(std::clamp(fraction.toDouble(), 0.0, 1.0) * 1000);
        bar.text = index.data(Qt::DisplayRole).toString();
        bar.textVisible = true;
        bar.textAlignment = Qt::AlignCenter;
        bar.state |= QStyle::State_Horizontal;
        style->drawControl(QStyle::CE_ProgressBar, &bar, painter, widget);
    }
};

QToolButton* rowButton(QWidget* parent, const char* name, const QIcon& icon, const QString& text, const QString& tip)
{
    auto* button = new QToolButton(parent);
    button->setObjectName(QString::fromLatin1(name));
    button->setIcon(icon);
    button->setIconSize(kToolBarIconSize);
    button->setText(text);
    button->setToolTip(tip);
    button->setAccessibleName(tip);
    button->setAutoRaise(true);
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    return button;
}

} // namespace

ClusterJobsPanel::ClusterJobsPanel(QWidget* parent)
    : QWidget(parent), m_reader(new ClusterJobsReader(this)), m_model(new ClusterJobsModel(this)),
      m_message(new QLabel(this)), m_view(new QTableView(this)), m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("clusterJobsPanel"));
    m_message->setObjectName(QStringLiteral("clusterJobsMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_message->setTextFormat(Qt::RichText);
    m_message->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_message->setContentsMargins(6, 4, 6, 4);
    connect(m_message, &QLabel::linkActivated, this,
            [this](const QString& link) { emit documentationRequested(link); });

    m_view->setObjectName(QStringLiteral("clusterJobsView"));
    m_view->setAccessibleName(tr("Cluster jobs"));
    m_view->setModel(m_model);
    m_view->setItemDelegateForColumn(ClusterJobsModel::ProgressColumn, new ProgressDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    m_view->verticalHeader()->hide();
    auto* header = m_view->horizontalHeader();
    header->setHighlightSections(false);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(ClusterJobsModel::TitleColumn, QHeaderView::Stretch);
    header->resizeSection(ClusterJobsModel::KindColumn, 55);
    header->resizeSection(ClusterJobsModel::PhaseColumn, 85);
    header->resizeSection(ClusterJobsModel::ProgressColumn, 100);
    header->resizeSection(ClusterJobsModel::RecordsColumn, 95);
    header->resizeSection(ClusterJobsModel::JobsColumn, 90);
    header->resizeSection(ClusterJobsModel::WhereColumn, 120);
    header->resizeSection(ClusterJobsModel::StartedColumn, 75);
    header->resizeSection(ClusterJobsModel::StateColumn, 190);
    // The buttons' column as wide as the widest set a row shows (Cancel; Remove and Logs), each row as tall as a
    // button.
    {
        QWidget* sample = makeButtons();
        auto* cancel = sample->findChild<QToolButton*>(QStringLiteral("clusterJobCancel"));
        const int width = std::max(cancel->sizeHint().width(), sample->sizeHint().width() - cancel->sizeHint().width()
                                                                   - sample->layout()->spacing());
        const int height = sample->sizeHint().height();
        delete sample;
        header->setSectionResizeMode(ClusterJobsModel::ActionsColumn, QHeaderView::Fixed);
        header->resizeSection(ClusterJobsModel::ActionsColumn, width);
        m_view->verticalHeader()->setDefaultSectionSize(std::max(height, fontMetrics().height() + 8));
    }
    connect(m_model, &QAbstractItemModel::modelReset, this, &ClusterJobsPanel::syncButtons);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ClusterJobsPanel::syncButtons);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_message);
    layout->addWidget(m_view, 1);
    m_view->hide();
    showMessage(tr("Reading the cluster configuration…"));

    connect(m_reader, &ClusterJobsReader::listed, this, &ClusterJobsPanel::apply);
    connect(m_reader, &ClusterJobsReader::cancelDone, this, [this](const QString& folder, const QString& error) {
        if (error.isEmpty())
            return;
        m_model->clearMark(folder);
        emit statusMessage(tr("Cannot cancel the cluster job: %1").arg(error), 8000);
    });
    connect(m_reader, &ClusterJobsReader::removeDone, this, [this](const QString& folder, const QString& error) {
        if (error.isEmpty())
            return;
        m_model->clearMark(folder);
        emit statusMessage(tr("Cannot remove the cluster job's folder: %1").arg(error), 8000);
    });

    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &ClusterJobsPanel::tick);
    m_timer->start();
}

void ClusterJobsPanel::refresh()
{
    if (!m_reader->isListing())
        m_reader->list();
}

void ClusterJobsPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh();
}

void ClusterJobsPanel::tick()
{
    // Hidden (another workspace, or the dock closed): nothing is listed until it shows again.
    if (!isVisible())
        return;
    if (LivePanes::shows(this)) {
        m_ticksBehind = 0;
        refresh();
    } else if (++m_ticksBehind >= kBehindTabEvery) {
        m_ticksBehind = 0;
        refresh();
    }
}

void ClusterJobsPanel::showMessage(const QString& text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void ClusterJobsPanel::apply(const ClusterJobsListing& listing)
{
    ++m_listings;
    m_listing = listing;
    using State = ClusterJobsListing::State;
    switch (listing.state) {
    case State::NotConfigured:
        showMessage(tr("No Slurm cluster is configured. The commands sent with <code>--backend slurm</code> show "
                       "here once %1 has a <code>slurm</code> section naming their spool: see <a href=\"%2\">%2</a>.")
                        .arg(listing.configFile.toHtmlEscaped(), kScalingDoc));
        break;
    case State::ConfigError:
        showMessage(tr("The cluster configuration cannot be read: %1").arg(listing.error.toHtmlEscaped()));
        break;
    case State::SpoolError:
        showMessage(tr("The cluster spool cannot be listed: %1").arg(listing.error.toHtmlEscaped()));
        break;
    case State::Listed:
        if (listing.jobs.empty())
            showMessage(tr("No jobs in the cluster spool %1. A command sent with <code>--backend slurm</code> shows "
                           "here while it runs, and stays if it fails.")
                            .arg(listing.spool.toHtmlEscaped()));
        else
            showMessage(QString());
        break;
    }
    m_view->setVisible(listing.state == State::Listed && !listing.jobs.empty());

    // The selection follows its job through a reset.
    const QModelIndex selected = m_view->currentIndex();
    const QString folder = selected.isValid() ? selected.data(ClusterJobsModel::FolderRole).toString() : QString();
    const int column = selected.isValid() ? selected.column() : 0;
    m_model->setJobs(listing.state == State::Listed ? listing.jobs : std::vector<sb::cluster::JobStatus>{},
                     listing.listedMs);
    if (const int row = folder.isEmpty() ? -1 : m_model->rowOf(folder); row >= 0 && m_view->currentIndex().row() != row)
        m_view->setCurrentIndex(m_model->index(row, column));

    const int count = m_model->rowCount();
    if (count != m_count) {
        m_count = count;
        emit jobCountChanged(count);
    }
}

QWidget* ClusterJobsPanel::makeButtons()
{
    auto* buttons = new QWidget;
    buttons->setObjectName(QStringLiteral("clusterJobButtons"));
    auto* layout = new QHBoxLayout(buttons);
    layout->setContentsMargins(2, 0, 2, 0);
    layout->setSpacing(2);
    auto* cancel = rowButton(buttons, "clusterJobCancel", actionIcon(ActionIcon::Cancel), tr("Cancel"),
                             tr("Cancel this command's Slurm jobs"));
    auto* remove = rowButton(buttons, "clusterJobRemove", actionIcon(ActionIcon::Remove), tr("Remove"),
                             tr("Remove this job's folder from the spool, with its logs"));
    auto* open = rowButton(buttons, "clusterJobOpenFolder", actionIcon(ActionIcon::OpenFolder), tr("Logs"),
                           tr("Open this job's folder, with its logs, in the file manager"));
    for (auto* button : {cancel, remove, open})
        layout->addWidget(button);
    layout->addStretch(1);
    auto folderOf = [buttons] { return buttons->property(kFolderProperty).toString(); };
    connect(cancel, &QToolButton::clicked, this, [this, folderOf] { askCancelJob(folderOf()); });
    connect(remove, &QToolButton::clicked, this, [this, folderOf] { askRemoveJob(folderOf()); });
    connect(open, &QToolButton::clicked, this, [this, folderOf] { openJobFolder(folderOf()); });
    return buttons;
}

void ClusterJobsPanel::syncButtons()
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex index = m_model->index(row, ClusterJobsModel::ActionsColumn);
        QWidget* buttons = m_view->indexWidget(index);
        if (!buttons) {
            buttons = makeButtons();
            m_view->setIndexWidget(index, buttons);
        }
        buttons->setProperty(kFolderProperty, index.data(ClusterJobsModel::FolderRole));
        const auto state = static_cast<ClusterJobState>(index.data(ClusterJobsModel::StateRole).toInt());
        const bool ended =
            state == ClusterJobState::Failed || state == ClusterJobState::Gone || state == ClusterJobState::Unreadable;
        auto* cancel = buttons->findChild<QToolButton*>(QStringLiteral("clusterJobCancel"));
        auto* remove = buttons->findChild<QToolButton*>(QStringLiteral("clusterJobRemove"));
        auto* open = buttons->findChild<QToolButton*>(QStringLiteral("clusterJobOpenFolder"));
        cancel->setVisible(state == ClusterJobState::Running);
        remove->setVisible(ended);
        open->setVisible(ended);
        // A screen reader names the row's job with each button: every row has the same three.
        const QString job = QFileInfo(index.data(ClusterJobsModel::FolderRole).toString()).fileName();
        cancel->setAccessibleName(tr("Cancel job %1").arg(job));
        remove->setAccessibleName(tr("Remove job %1").arg(job));
        open->setAccessibleName(tr("Open the folder of job %1").arg(job));
    }
}

void ClusterJobsPanel::cancelJob(const QString& folder)
{
    const int row = m_model->rowOf(folder);
    if (row < 0 || m_model->state(row) != ClusterJobState::Running)
        return;
    m_model->markCancelling(folder);
    m_reader->requestCancel(folder);
    emit statusMessage(tr("Asked the command to cancel its Slurm jobs; it does so at its next look at the queue."),
                       6000);
}

void ClusterJobsPanel::askCancelJob(const QString& folder)
{
    const int row = m_model->rowOf(folder);
    if (row < 0 || m_model->state(row) != ClusterJobState::Running)
        return;
    const QString title = m_model->index(row, ClusterJobsModel::TitleColumn).data().toString();
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cancel cluster job"),
                                tr("Cancel <b>%1</b>?").arg(title.toHtmlEscaped()),
                                QMessageBox::Yes | QMessageBox::No, this);
    box->setObjectName(QStringLiteral("confirmCancelJobBox"));
    box->setInformativeText(tr("Its Slurm jobs are cancelled (scancel) and the command ends without a result: "
                               "what its tasks have done is not recorded. This cannot be undone."));
    box->button(QMessageBox::Yes)->setText(tr("Cancel jobs"));
    box->button(QMessageBox::No)->setText(tr("Keep running"));
    box->setDefaultButton(QMessageBox::No);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QDialog::finished, this, [this, box, folder] {
        if (box->clickedButton() == box->button(QMessageBox::Yes))
            cancelJob(folder);
    });
    box->open();
}

void ClusterJobsPanel::askRemoveJob(const QString& folder)
{
    const int row = m_model->rowOf(folder);
    if (row < 0)
        return;
    const QString title = m_model->index(row, ClusterJobsModel::TitleColumn).data().toString();
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Remove cluster job"),
                                tr("Remove the folder of <b>%1</b> from the spool?").arg(title.toHtmlEscaped()),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("confirmRemoveJobBox"));
    box->setInformativeText(tr("%1 is deleted with the logs in it. This cannot be undone.").arg(folder));
    box->button(QMessageBox::Yes)->setText(tr("Remove"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QDialog::finished, this, [this, box, folder] {
        if (box->clickedButton() != box->button(QMessageBox::Yes) || m_model->rowOf(folder) < 0)
            return;
        m_model->markRemoving(folder);
        m_reader->removeJob(folder);
    });
    box->open();
}

void ClusterJobsPanel::openJobFolder(const QString& folder)
{
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(folder)))
        emit statusMessage(tr("Cannot open %1 in a file manager").arg(folder), 8000);
}

} // namespace sb::ui
