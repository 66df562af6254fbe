#pragma once

#include "ui/cluster/ClusterJobsReader.h"

#include <QWidget>

class QLabel;
class QTableView;
class QTimer;

namespace sb::ui {

class ClusterJobsModel;

// The Dashboard's cluster jobs: the commands sent to Slurm (`--backend slurm`) whose folders are in the spool
// of the user's cluster configuration, each with what was asked, its phase and progress, its Slurm jobs, who
// runs it where and since when, and its state; Cancel for one that runs, Remove and Open folder for one that
// failed or is gone. The spool is listed off the GUI thread (ClusterJobsReader): every second while the panel
// shows, every few seconds while it is behind another tab, not at all while it is hidden. Without a Slurm
// configuration it says, in one line, how to write one.
class ClusterJobsPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRefreshMs = 1000;
    // Behind another tab, one listing every this many refreshes (the tab's title counts the jobs).
    static constexpr int kBehindTabEvery = 5;

    explicit ClusterJobsPanel(QWidget* parent = nullptr);

    // Lists the spool now, unless a listing is under way.
    void refresh();

    ClusterJobsModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QLabel* message() const { return m_message; }
    ClusterJobsReader* reader() const { return m_reader; }
    const ClusterJobsListing& listing() const { return m_listing; }
    // Listings shown since the panel was made (for tests).
    int listingCount() const { return m_listings; }

    // What the row's buttons do (the remove asks first).
    // Asks first: a cancelled command ends without its result.
    void askCancelJob(const QString& folder);
    void cancelJob(const QString& folder);
    void askRemoveJob(const QString& folder);
    void openJobFolder(const QString& folder);

signals:
    void statusMessage(const QString& message, int timeoutMs);
    // A document of the built-in documentation ("docs/SCALING.md") the panel's text links to.
    void documentationRequested(const QString& path);
    // The jobs listed changed in number (the dock's title counts them).
    void jobCountChanged(int count);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void tick();
    void apply(const ClusterJobsListing& listing);
    void showMessage(const QString& text);
    // Gives each row the buttons its state allows.
    void syncButtons();
    QWidget* makeButtons();

    ClusterJobsReader* m_reader = nullptr;
    ClusterJobsModel* m_model = nullptr;
    QLabel* m_message = nullptr;
    QTableView* m_view = nullptr;
    QTimer* m_timer = nullptr;
    ClusterJobsListing m_listing;
    int m_listings = 0;
    int m_ticksBehind = 0;
    int m_count = -1;
};

} // namespace sb::ui
