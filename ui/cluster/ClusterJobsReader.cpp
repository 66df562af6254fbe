#include "ui/cluster/ClusterJobsReader.h"

#include "cluster/config.h"
#include "ui/models/Conversions.h"

#include <QDateTime>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>
#include <utility>

namespace sb::ui {

ClusterJobsReader::ClusterJobsReader(QObject* parent)
    : QObject(parent), m_watcher(new QFutureWatcher<ClusterJobsListing>(this))
{
    // One thread: a listing, a cancel and a removal never run at once, and never two listings.
    m_pool.setMaxThreadCount(1);
    connect(m_watcher, &QFutureWatcher<ClusterJobsListing>::finished, this, &ClusterJobsReader::onListed);
}

ClusterJobsReader::~ClusterJobsReader()
{
    m_watcher->disconnect(this);
    m_pool.waitForDone();
}

ClusterJobsListing ClusterJobsReader::read()
{
    ClusterJobsListing listing;
    listing.configFile = toQString(sb::cluster::configPath().string());
    auto config = sb::cluster::loadClusterConfig();
    listing.listedMs = QDateTime::currentMSecsSinceEpoch();
    if (!config) {
        listing.state = ClusterJobsListing::State::ConfigError;
        listing.error = toQString(config.error().message);
        return listing;
    }
    listing.configFile = toQString(config->file.string());
    if (!config->slurm)
        return listing; // NotConfigured
    listing.spool = toQString(config->slurm->spool.string());
    auto jobs = sb::cluster::listJobs(config->slurm->spool);
    listing.listedMs = QDateTime::currentMSecsSinceEpoch();
    if (!jobs) {
        listing.state = ClusterJobsListing::State::SpoolError;
        listing.error = toQString(jobs.error().message);
        return listing;
    }
    listing.state = ClusterJobsListing::State::Listed;
    listing.jobs = std::move(*jobs);
    return listing;
}

void ClusterJobsReader::list()
{
    if (m_listing) {
        m_again = true;
        return;
    }
    m_listing = true;
    m_watcher->setFuture(QtConcurrent::run(&m_pool, &ClusterJobsReader::read));
}

void ClusterJobsReader::onListed()
{
    m_listing = false;
    const auto future = m_watcher->future();
    if (future.resultCount() > 0)
        emit listed(future.result());
    if (std::exchange(m_again, false))
        list();
}

namespace {

QString errorText(const sb::Result<void>& result)
{
    return result ? QString() : toQString(result.error().message);
}

} // namespace

void ClusterJobsReader::requestCancel(const QString& folder)
{
    ++m_actions;
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, folder] {
        --m_actions;
        watcher->deleteLater();
        emit cancelDone(folder, watcher->result());
        list();
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [path = std::filesystem::path(toStdString(folder))] {
        return errorText(sb::cluster::requestCancel(path));
    }));
}

void ClusterJobsReader::removeJob(const QString& folder)
{
    ++m_actions;
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, folder] {
        --m_actions;
        watcher->deleteLater();
        emit removeDone(folder, watcher->result());
        list();
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [path = std::filesystem::path(toStdString(folder))] {
        return errorText(sb::cluster::removeJobFolder(path));
    }));
}

} // namespace sb::ui
