#include "ui/jobs/AuditJobs.h"

#include "ui/models/Conversions.h"
#include "store/store.h"
#include "usecases/audit_verify.h"

#include <QFile>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace sb::ui {

namespace {

// Progress as the worker last reported it: entries done, and about how many there are.
struct WorkerProgress {
    std::atomic<qint64> done{0};
    std::atomic<qint64> total{0};
};

constexpr int kProgressSteps = 1000;

// The workers touch nothing but their arguments, so the runner may be gone by the time they end.
void loadInWorker(QPromise<AuditSnapshot>& promise, std::filesystem::path storePath, sb::AuditFilter filter,
                  std::optional<qint64> beforeSeq, std::int64_t pageSize)
{
    AuditSnapshot snapshot;
    snapshot.beforeSeq = beforeSeq;
    const auto failed = [&promise, &snapshot](const std::string& message) {
        snapshot.error = toQString(message);
        promise.addResult(std::move(snapshot));
    };
    auto store = sb::Store::open(storePath);
    if (!store)
        return failed(store.error().message);
    // One more than shown tells whether there are older matches.
    filter.limit = pageSize + 1;
    if (beforeSeq)
        filter.beforeSeq = *beforeSeq;
    auto records = sb::listAudit(*store, filter);
    if (!records)
        return failed(records.error().message);
    if (records->size() > static_cast<std::size_t>(pageSize)) {
        records->erase(records->begin());
        snapshot.more = true;
    }
    auto subjects = sb::describeAuditSubjects(*store, *records);
    if (!subjects)
        return failed(subjects.error().message);
    if (!beforeSeq) {
        auto facets = sb::auditFacets(*store);
        if (!facets)
            return failed(facets.error().message);
        snapshot.facets = std::move(*facets);
    }
    snapshot.rows.reserve(records->size());
    for (std::size_t i = records->size(); i-- > 0;) {
        std::string line = sb::auditDetailsLine((*records)[i].details, 400);
        snapshot.rows.push_back(AuditRow{std::move((*records)[i]), std::move((*subjects)[i]), std::move(line)});
    }
    promise.addResult(std::move(snapshot));
}

void verifyInWorker(QPromise<AuditCheck>& promise, std::filesystem::path storePath,
                    std::shared_ptr<std::atomic<bool>> cancel, std::shared_ptr<WorkerProgress> progress)
{
    AuditCheck check;
    auto store = sb::Store::open(storePath);
    if (!store) {
        check.error = toQString(store.error().message);
        promise.addResult(std::move(check));
        return;
    }
    promise.setProgressRange(0, kProgressSteps);
    // The keys in the default folder, no anchor: what `sandbench audit verify` checks when asked nothing.
    sb::AuditVerifyRequest request;
    request.cancel = cancel.get();
    request.progress = [&promise, &progress](std::int64_t done, std::int64_t total) {
        progress->done = done;
        progress->total = total;
        promise.setProgressValue(total > 0 ? static_cast<int>(done * kProgressSteps / total) : kProgressSteps);
    };
    auto verification = sb::verifyAuditLog(*store, request);
    if (verification)
        check.verification = std::move(*verification);
    else
        check.error = toQString(verification.error().message);
    promise.addResult(std::move(check));
}

void exportInWorker(QPromise<AuditExportDone>& promise, std::filesystem::path storePath,
                    sb::AuditExportRequest request, std::shared_ptr<std::atomic<bool>> cancel,
                    std::shared_ptr<WorkerProgress> progress)
{
    request.cancel = cancel.get();
    AuditExportDone done;
    done.file = toQString(request.file.string());
    auto store = sb::Store::open(storePath);
    if (!store) {
        done.error = toQString(store.error().message);
        promise.addResult(std::move(done));
        return;
    }
    promise.setProgressRange(0, kProgressSteps);
    request.progress = [&promise, &progress](std::int64_t written, std::int64_t total) {
        progress->done = written;
        progress->total = total;
        promise.setProgressValue(total > 0 ? static_cast<int>(written * kProgressSteps / total) : kProgressSteps);
    };
    auto written = sb::exportAudit(*store, request);
    if (written)
        done.entries = *written;
    else if (request.cancel && request.cancel->load())
        done.cancelled = true;
    else
        done.error = toQString(written.error().message);
    promise.addResult(std::move(done));
}

} // namespace

AuditJobRunner::AuditJobRunner(QObject* parent)
    : QObject(parent)
    , m_loadWatcher(new QFutureWatcher<AuditSnapshot>(this))
    , m_olderWatcher(new QFutureWatcher<AuditSnapshot>(this))
    , m_verifyWatcher(new QFutureWatcher<AuditCheck>(this))
    , m_exportWatcher(new QFutureWatcher<AuditExportDone>(this))
{
    // A load, a verification and an export at once; a superseded load winds down beside them.
    m_pool.setMaxThreadCount(3);
}

AuditJobRunner::~AuditJobRunner()
{
    cancelVerify();
    cancelExport();
    m_loadWatcher->disconnect(this);
    m_olderWatcher->disconnect(this);
    m_verifyWatcher->disconnect(this);
    m_exportWatcher->disconnect(this);
    m_pool.waitForDone();
}

void AuditJobRunner::setStorePath(std::optional<std::filesystem::path> path)
{
    m_storePath = std::move(path);
}

quint64 AuditJobRunner::load(const sb::AuditFilter& filter)
{
    if (!m_storePath)
        return 0;
    const quint64 id = m_nextId++;
    m_loadId = id;
    m_olderId = 0; // an older page of the rows being replaced is of no use
    // A new future on the one watcher: the superseded load still ends, but nobody hears of it.
    m_loadWatcher->disconnect(this);
    connect(m_loadWatcher, &QFutureWatcher<AuditSnapshot>::finished, this,
            [this, id] { onLoaded(id, m_loadWatcher, m_loadId); });
    m_loadWatcher->setFuture(
        QtConcurrent::run(&m_pool, loadInWorker, *m_storePath, filter, std::optional<qint64>{}, kAuditPageSize));
    return id;
}

quint64 AuditJobRunner::loadOlder(const sb::AuditFilter& filter, qint64 beforeSeq, std::optional<qint64> downToSeq)
{
    if (!m_storePath || m_loadId != 0)
        return 0;
    const quint64 id = m_nextId++;
    m_olderId = id;
    const std::int64_t pageSize = downToSeq ? std::max<std::int64_t>(kAuditPageSize, beforeSeq - *downToSeq)
                                            : kAuditPageSize;
    m_olderWatcher->disconnect(this);
    connect(m_olderWatcher, &QFutureWatcher<AuditSnapshot>::finished, this,
            [this, id] { onLoaded(id, m_olderWatcher, m_olderId); });
    m_olderWatcher->setFuture(QtConcurrent::run(&m_pool, loadInWorker, *m_storePath, filter,
                                                std::optional<qint64>(beforeSeq), pageSize));
    return id;
}

void AuditJobRunner::onLoaded(quint64 id, QFutureWatcher<AuditSnapshot>* watcher, quint64& wanted)
{
    if (id != wanted)
        return;
    wanted = 0;
    const auto future = watcher->future();
    if (future.resultCount() > 0)
        emit loaded(future.result());
}

quint64 AuditJobRunner::verify()
{
    if (!m_storePath || isVerifying())
        return 0;
    const quint64 id = m_nextId++;
    m_verifyId = id;
    m_verifyCancel = std::make_shared<std::atomic<bool>>(false);
    auto progress = std::make_shared<WorkerProgress>();
    m_verifyWatcher->disconnect(this);
    connect(m_verifyWatcher, &QFutureWatcher<AuditCheck>::progressValueChanged, this,
            [this, progress] { emit verifyProgress(progress->done.load(), progress->total.load()); });
    connect(m_verifyWatcher, &QFutureWatcher<AuditCheck>::finished, this, [this, id] { onVerified(id); });
    m_verifyWatcher->setFuture(QtConcurrent::run(&m_pool, verifyInWorker, *m_storePath, m_verifyCancel, progress));
    return id;
}

void AuditJobRunner::cancelVerify()
{
    if (m_verifyCancel)
        m_verifyCancel->store(true);
}

void AuditJobRunner::onVerified(quint64 id)
{
    if (id != m_verifyId)
        return;
    m_verifyId = 0;
    m_verifyCancel.reset();
    const auto future = m_verifyWatcher->future();
    const AuditCheck check = future.resultCount() > 0 ? future.result() : AuditCheck{};
    // A cancel that came after the last entry was checked changes nothing: the result is whole.
    emit verified(check, check.verification && check.verification->cancelled);
}

quint64 AuditJobRunner::exportEntries(const sb::AuditFilter& filter, sb::AuditExportFormat format, const QString& file)
{
    if (!m_storePath || isExporting())
        return 0;
    const quint64 id = m_nextId++;
    m_exportId = id;
    m_exportCancel = std::make_shared<std::atomic<bool>>(false);
    auto progress = std::make_shared<WorkerProgress>();
    sb::AuditExportRequest request;
    request.filter = filter;
    request.filter.limit = 0;
    request.format = format;
    request.file = std::filesystem::path(QFile::encodeName(file).toStdString());
    m_exportWatcher->disconnect(this);
    connect(m_exportWatcher, &QFutureWatcher<AuditExportDone>::progressValueChanged, this,
            [this, progress] { emit exportProgress(progress->done.load(), progress->total.load()); });
    connect(m_exportWatcher, &QFutureWatcher<AuditExportDone>::finished, this, [this, id] { onExported(id); });
    m_exportWatcher->setFuture(
        QtConcurrent::run(&m_pool, exportInWorker, *m_storePath, request, m_exportCancel, progress));
    return id;
}

void AuditJobRunner::cancelExport()
{
    if (m_exportCancel)
        m_exportCancel->store(true);
}

void AuditJobRunner::onExported(quint64 id)
{
    if (id != m_exportId)
        return;
    m_exportId = 0;
    m_exportCancel.reset();
    const auto future = m_exportWatcher->future();
    emit exported(future.resultCount() > 0 ? future.result() : AuditExportDone{});
}

} // namespace sb::ui
