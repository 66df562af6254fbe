#include "ui/jobs/PromotionJobs.h"

#include "ui/models/Conversions.h"
#include "usecases/promotion.h"
#include "store/store.h"
#include "util/hash.h"
#include "util/printable.h"
#include "checkpoints/diff.h"

#include <QPromise>
#include <QStringList>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <mutex>

namespace sb::ui {

namespace {

constexpr int kProgressPollMs = 100;

// The text a path shows in the diff view: a unified diff from `before` to `after`, or why there is none.
QString entriesDiff(sb::SandboxEngine& engine, const std::string& rawPath, const std::optional<sb::TreeEntry>& before,
                    const std::optional<sb::TreeEntry>& after, bool binary, const std::string& fromSide = "a/",
                    const std::string& toSide = "b/")
{
    const QString path = toQString(sb::printable(rawPath, 400));
    if ((before && before->type == sb::EntryType::Directory) || (after && after->type == sb::EntryType::Directory))
        return PromotionJobRunner::tr("Folder %1: its permissions or presence changed.").arg(path);
    if ((before && before->size > PromotionJobRunner::kMaxDiffBytes) || (after && after->size > PromotionJobRunner::kMaxDiffBytes))
        return PromotionJobRunner::tr("%1 is too large to show as text.").arg(path);
    auto read = [&engine](const std::optional<sb::TreeEntry>& entry) -> sb::Result<std::string> {
        if (!entry)
            return std::string();
        if (entry->type == sb::EntryType::Symlink)
            return entry->data + '\n'; // a symlink's target, never followed
        return engine.readFile(*entry, PromotionJobRunner::kMaxDiffBytes);
    };
    auto from = read(before);
    auto to = read(after);
    if (!from)
        return toQString(from.error().message);
    if (!to)
        return toQString(to.error().message);
    if (binary || sb::looksBinary(*from) || sb::looksBinary(*to))
        return PromotionJobRunner::tr("Binary files differ: %1").arg(path);
    const std::string name = sb::printable(rawPath, 400);
    const std::string unified = sb::unifiedDiff(*from, *to, before ? fromSide + name : std::string("/dev/null"),
                                                after ? toSide + name : std::string("/dev/null"));
    if (unified.empty())
        return PromotionJobRunner::tr("Only the permissions of %1 changed.").arg(path);
    return toQString(unified);
}

// A binary file's sides: size and SHA-256 of each, as a reviewer compares them with a file at hand.
QString binaryDescription(sb::SandboxEngine& engine, const std::optional<sb::TreeEntry>& before,
                          const std::optional<sb::TreeEntry>& after)
{
    auto side = [&engine](const QString& label, const sb::TreeEntry& entry) -> QString {
        QString hash = PromotionJobRunner::tr("not hashed: larger than %1 bytes").arg(PromotionJobRunner::kMaxDiffBytes);
        if (entry.size <= PromotionJobRunner::kMaxDiffBytes) {
            auto bytes = engine.readFile(entry, PromotionJobRunner::kMaxDiffBytes);
            auto hex = bytes ? sb::sha256Hex(*bytes) : std::unexpected(bytes.error());
            hash = hex ? QStringLiteral("SHA-256 %1").arg(toQString(*hex)) : toQString(hex.error().message);
        }
        return PromotionJobRunner::tr("%1: %2 bytes, %3").arg(label, QString::number(entry.size), hash);
    };
    QStringList lines;
    if (before && before->type == sb::EntryType::File)
        lines << side(PromotionJobRunner::tr("Before"), *before);
    if (after && after->type == sb::EntryType::File)
        lines << side(PromotionJobRunner::tr("After"), *after);
    lines << PromotionJobRunner::tr("A binary file cannot be shown as text: compare its checksum with the file you "
                                    "expect, or export the promotion to inspect it.");
    return lines.join(QLatin1Char('\n'));
}

} // namespace

struct PromotionJobRunner::Shared : ProgressChannel {};

PromotionJobRunner::PromotionJobRunner(std::filesystem::path storePath, QObject* parent)
    : QObject(parent)
    , m_storePath(std::move(storePath))
    , m_watcher(new QFutureWatcher<PromotionOutcome>(this))
    , m_progressTimer(new QTimer(this))
{
    m_pool.setMaxThreadCount(1);
    m_progressTimer->setInterval(kProgressPollMs);
    connect(m_progressTimer, &QTimer::timeout, this, &PromotionJobRunner::pollProgress);
}

PromotionJobRunner::~PromotionJobRunner()
{
    if (m_shared)
        m_shared->cancel = true;
    m_watcher->disconnect(this);
    m_pool.waitForDone();
}

void PromotionJobRunner::cancel()
{
    if (m_shared)
        m_shared->cancel = true;
}

void PromotionJobRunner::pollProgress()
{
    if (!m_shared) {
        m_progressTimer->stop();
        return;
    }
    if (auto p = m_shared->take())
        emit progress(*p);
}

bool PromotionJobRunner::start(sb::PromotionRequest request)
{
    return start(sb::PromotionPlan{std::move(request), {}, {}});
}

bool PromotionJobRunner::start(sb::PromotionPlan plan)
{
    if (isBusy())
        return false;
    const quint64 id = m_nextId++;
    m_jobId = id;
    auto shared = std::make_shared<Shared>();
    m_shared = shared;
    m_watcher->disconnect(this);
    connect(m_watcher, &QFutureWatcher<PromotionOutcome>::finished, this, [this, id, shared] {
        if (id != m_jobId)
            return;
        m_jobId = 0;
        m_shared.reset();
        m_progressTimer->stop();
        const auto future = m_watcher->future();
        if (future.resultCount() == 0)
            return;
        PromotionOutcome outcome = future.result();
        // Cancel pressed while the engine was finishing: nothing of a preview is shown. (An apply that got
        // through is reported as done: it cannot be undone by a button.)
        if (shared->cancel && !(outcome.report && outcome.report->applied)) {
            outcome.cancelled = true;
            outcome.error.clear();
        }
        emit finished(outcome);
    });
    m_progressTimer->start();
    m_watcher->setFuture(QtConcurrent::run(
        &m_pool, [path = m_storePath, shared, plan = std::move(plan)](QPromise<PromotionOutcome>& promise) {
            PromotionOutcome outcome;
            outcome.mode = plan.request.mode;
            // The gate's rules for rule sets and data, as on the command line.
            auto prepared = sb::preparePromotion(plan, [&path] { return sb::Store::open(path); });
            if (!prepared) {
                outcome.error = toQString(prepared.error().message);
                promise.addResult(std::move(outcome));
                return;
            }
            const sb::PromotionRequest& request = prepared->request;
            outcome.dataName = toQString(prepared->dataName);
            outcome.dataSource = toQString(prepared->dataSource);
            auto store = sb::Store::open(path);
            if (!store) {
                outcome.error = toQString(store.error().message);
                promise.addResult(std::move(outcome));
                return;
            }
            auto engine = sb::SandboxEngine::open(*store);
            if (!engine) {
                outcome.error = toQString(engine.error().message);
                promise.addResult(std::move(outcome));
                return;
            }
            const sb::ProgressCallback progress = [shared](const sb::Progress& p) { return shared->report(p); };
            auto report = (*engine)->promote(request, progress);
            if (!report) {
                if (shared->cancel)
                    outcome.cancelled = true;
                else
                    outcome.error = toQString(report.error().message);
                promise.addResult(std::move(outcome));
                return;
            }
            if (request.mode == sb::PromotionRequest::Mode::Preview) {
                const std::size_t count = std::min(report->changes.size(), kMaxDiffFiles);
                outcome.diffs.reserve(count);
                for (std::size_t i = 0; i < count && !shared->cancel; ++i) {
                    shared->report(sb::Progress{SB_TR("checkpoint progress", "diffing"), i, count,
                                                report->changes[i].change.path});
                    const auto& change = report->changes[i];
                    if (change.binary)
                        outcome.diffs.push_back(binaryDescription(**engine, change.change.before, change.change.after));
                    else if (change.counted)
                        outcome.diffs.push_back(entriesDiff(**engine, change.change.path, change.change.before,
                                                            change.change.after, change.binary));
                    else
                        outcome.diffs.push_back(tr("%1 is too large to show as text.")
                                                    .arg(toQString(sb::printable(change.change.path, 400))));
                }
                // What each side holds at a conflicting path: the target's version against the source's.
                const std::size_t conflicts = std::min(report->conflicts.size(), kMaxDiffFiles);
                for (std::size_t i = 0; i < conflicts && !shared->cancel; ++i) {
                    const auto& conflict = report->conflicts[i];
                    outcome.conflictDiffs.push_back(
                        entriesDiff(**engine, conflict.path, conflict.target, conflict.source, false,
                                    "target " + request.target + ": ", "source " + request.source + ": "));
                }
            }
            outcome.report = std::move(*report);
            promise.addResult(std::move(outcome));
        }));
    return true;
}

} // namespace sb::ui
