#include "ui/jobs/AuditJobs.h"

#include "ui/models/Conversions.h"
#include "store/store.h"
#include "usecases/audit_verify.h"

#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::ui {

namespace {

// Progress as the worker last reported it: entries checked, and about how many there are.
struct VerifyProgress {
    std::atomic<qint64> done{0};
    std::atomic<qint64> total{0};
};

// The workers touch nothing but their arguments, so the runner may be gone by the time they end.
void loadInWorker(QPromise<AuditSnapshot>& promise, std::filesystem::path storePath, sb::AuditFilter filter)
{
    AuditSnapshot snapshot;
    auto store = sb::Store::open(storePath);
    if (!store) {
        snapshot.error = toQString(store.error().message);
        promise.addResult(std::move(snapshot));
        return;
    }
    // One more than shown tells whether there are older matches.
    filter.limit = kAuditViewLimit + 1;
    auto records = sb::listAudit(*store, filter);
    auto facets = sb::auditFacets(*store);
    if (!records || !facets) {
        snapshot.error = toQString(records ? facets.error().message : records.error().message);
        promise.addResult(std::move(snapshot));
        return;
    }
    if (records->size() > static_cast<std::size_t>(kAuditViewLimit)) {
        records->erase(records->begin());
        snapshot.limited = true;
    }
    snapshot.records = std::move(*records);
    snapshot.facets = std::move(*facets);
    promise.addResult(std::move(snapshot));
}

void verifyInWorker(QPromise<AuditCheck>& promise, std::filesystem::path storePath,
                    std::shared_ptr<std::atomic<bool>> cancel, std::shared_ptr<VerifyProgress> progress)
{
    AuditCheck check;
    auto store = sb::Store::open(storePath);
    if (!store) {
        check.error = toQString(store.error().message);
        promise.addResult(std::move(check));
        return;
    }
    constexpr int kSteps = 1000;
    promise.setProgressRange(0, kSteps);
    // The keys in the default folder, no anchor: what `sandbench audit verify` checks when asked nothing.
    sb::AuditVerifyRequest request;
    request.cancel = cancel.get();
    request.progress = [&promise, &progress](std::int64_t done, std::int64_t total) {
        progress->done = done;
        progress->total = total;
        promise.setProgressValue(total > 0 ? static_cast<int>(done * kSteps / total) : kSteps);
    };
    auto verification = sb::verifyAuditLog(*store, request);
    if (verification)
        check.verification = std::move(*verification);
    else
        check.error = toQString(verification.error().message);
    promise.addResult(std::move(check));
}

} // namespace

AuditJobRunner::AuditJobRunner(QObject* parent)
    : QObject(parent)
    , m_loadWatcher(new QFutureWatcher<AuditSnapshot>(this))
    , m_verifyWatcher(new QFutureWatcher<AuditCheck>(this))
{
    // A load and a verification at once; a superseded load winds down beside them.
    m_pool.setMaxThreadCount(2);
}

AuditJobRunner::~AuditJobRunner()
{
    if (m_verifyCancel)
        m_verifyCancel->store(true);
    m_loadWatcher->disconnect(this);
    m_verifyWatcher->disconnect(this);
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
    // A new future on the one watcher: the superseded load still ends, but nobody hears of it.
    m_loadWatcher->disconnect(this);
    connect(m_loadWatcher, &QFutureWatcher<AuditSnapshot>::finished, this, [this, id] { onLoaded(id); });
    m_loadWatcher->setFuture(QtConcurrent::run(&m_pool, loadInWorker, *m_storePath, filter));
    return id;
}

void AuditJobRunner::onLoaded(quint64 id)
{
    if (id != m_loadId)
        return;
    m_loadId = 0;
    const auto future = m_loadWatcher->future();
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
    auto progress = std::make_shared<VerifyProgress>();
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

} // namespace sb::ui
