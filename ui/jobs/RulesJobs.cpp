#include "ui/jobs/RulesJobs.h"

#include "ui/models/Conversions.h"
#include "rules/dataset_store.h"
#include "rules/demo_data.h"
#include "store/store.h"
#include "usecases/dataset_source.h"
#include "usecases/rule_comparison.h"

#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <filesystem>

namespace sb::ui {

namespace rules = sb::rules;

namespace {

constexpr int kPollMs = 100;

int columnOf(const rules::Dataset& data, std::string_view name)
{
    const auto& fields = data.schema().fields;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].name == name)
            return static_cast<int>(i);
    }
    return -1;
}

// How the window reads a dataset: bad rows skipped (and reported), cancellable, progress running up to `upTo`
// percent.
rules::ReadOptions windowReadOptions(std::vector<rules::Field> declared, std::atomic<bool>& cancel,
                                     std::atomic<int>& percent, int upTo)
{
    rules::ReadOptions read;
    read.declared = std::move(declared);
    read.onBadRow = rules::BadRowPolicy::Skip;
    read.cancel = &cancel;
    read.progress = [&percent, upTo](std::uint64_t done, std::uint64_t total) {
        if (total > 0)
            percent = static_cast<int>(done * static_cast<std::uint64_t>(upTo) / total);
    };
    return read;
}

QStringList namesIn(const sb::Store& store)
{
    QStringList out;
    if (auto names = sb::storedDatasetNames(store)) {
        for (const auto& name : *names)
            out << toQString(name);
    }
    return out;
}

} // namespace

std::vector<std::int64_t> scoreHistogram(const rules::Evaluation& evaluation, double defaultScore)
{
    std::vector<std::int64_t> bins(10, 0);
    for (const auto& r : evaluation.records) {
        if (r.score == defaultScore)
            continue;
        const int bin = r.score >= 100.0 ? 9 : r.score <= 0.0 ? 0 : static_cast<int>(r.score / 10.0);
        ++bins[static_cast<std::size_t>(std::clamp(bin, 0, 9))];
    }
    return bins;
}

QString RulesJobRunner::labelColumnOf(const rules::Dataset& data)
{
    for (const char* name : {"is_fraud", "label", "fraud"}) {
        if (columnOf(data, name) >= 0)
            return QString::fromLatin1(name);
    }
    return {};
}

QString RulesJobRunner::amountColumnOf(const rules::Dataset& data)
{
    return columnOf(data, "amount") >= 0 ? QStringLiteral("amount") : QString();
}

RulesJobRunner::RulesJobRunner(QObject* parent)
    : QObject(parent)
    , m_watcher(new QFutureWatcher<Outcome>(this))
    , m_poll(new QTimer(this))
{
    qRegisterMetaType<sb::ui::RulesTask>();
    m_poll->setInterval(kPollMs);
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (m_shared)
            emit progress(m_shared->percent.load(), QString());
    });
    connect(m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        m_poll->stop();
        m_busy = false;
        m_shared.reset();
        const Outcome out = m_watcher->result();
        if (out.storedNames)
            emit storedDatasetsListed(*out.storedNames);
        if (out.cancelled || !out.error.isEmpty())
            emit failed(out.cancelled ? tr("Cancelled") : out.error, out.cancelled);
        else if (out.result)
            emit resultReady(out.result);
        else if (out.data)
            emit dataLoaded(out.data);
    });
}

RulesJobRunner::~RulesJobRunner()
{
    cancel();
    m_watcher->waitForFinished();
}

void RulesJobRunner::cancel()
{
    if (m_shared)
        m_shared->cancel = true;
}

bool RulesJobRunner::start(RulesTask task, std::function<Outcome(Shared&)> body)
{
    if (m_busy)
        return false;
    m_busy = true;
    m_task = task;
    m_shared = std::make_shared<Shared>();
    auto shared = m_shared;
    m_watcher->setFuture(QtConcurrent::run([shared, body = std::move(body)] { return body(*shared); }));
    m_poll->start();
    emit started(task);
    return true;
}

bool RulesJobRunner::loadData(const QString& path, std::vector<rules::Field> declared)
{
    return start(RulesTask::LoadData, [path, declared = std::move(declared)](Shared& shared) {
        Outcome out;
        rules::ReadOptions read = windowReadOptions(declared, shared.cancel, shared.percent, 100);
        auto loaded = std::make_shared<LoadedDataset>();
        sb::Result<rules::Dataset> data;
        if (path.isEmpty()) {
            loaded->label = QObject::tr("Demo transactions");
            const std::string csv = rules::demoTransactionsCsv(rules::kDemoRows, rules::kDemoSeed);
            data = rules::readDatasetText(csv, "transactions.csv", read, &loaded->report);
        } else {
            // A data file or a folder of them, as every front end reads one (sb::fileReading refuses the rest).
            const std::filesystem::path file(toStdString(path));
            loaded->label = toQString((file.has_filename() ? file : file.parent_path()).filename().string());
            sb::DatasetRequest request;
            request.data = file.string();
            request.declared = read.declared;
            request.onBadRow = "skip";
            request.cancel = read.cancel;
            request.progress = read.progress;
            auto resolved = sb::resolveDataset(request, []() -> sb::Result<sb::Store> {
                return sb::fail("a data file needs no store");
            });
            if (resolved) {
                loaded->report = resolved->report;
                data = std::move(resolved->data);
            } else {
                data = std::unexpected(resolved.error());
            }
        }
        if (shared.cancel) {
            out.cancelled = true;
            return out;
        }
        if (!data) {
            out.error = toQString(data.error().message);
            return out;
        }
        loaded->data = std::move(*data);
        out.data = std::move(loaded);
        return out;
    });
}

bool RulesJobRunner::loadSnapshot(std::filesystem::path store, const QString& name,
                                  std::vector<rules::Field> declared, const QString& sandbox)
{
    return start(RulesTask::LoadData, [store = std::move(store), name, declared = std::move(declared),
                                       sandbox](Shared& shared) {
        Outcome out;
        sb::DatasetRequest request;
        request.data = toStdString(name);
        request.declared = declared;
        request.sandbox = toStdString(sandbox);
        auto resolved = sb::resolveDataset(request, [&store, &shared]() -> sb::Result<sb::Store> {
            auto opened = sb::Store::open(store);
            shared.percent = 10;
            return opened;
        });
        if (!resolved) {
            out.error = toQString(resolved.error().message);
            return out;
        }
        auto loaded = std::make_shared<LoadedDataset>();
        loaded->label = sandbox.isEmpty() ? QObject::tr("stored %1").arg(name)
                                          : QObject::tr("stored %1 of sandbox %2").arg(name, sandbox);
        loaded->data = std::move(resolved->data);
        loaded->report = resolved->report;
        out.data = std::move(loaded);
        return out;
    });
}

bool RulesJobRunner::importData(std::filesystem::path store, const QString& path, const QString& name,
                                std::vector<rules::Field> declared)
{
    return start(RulesTask::Import, [store = std::move(store), path, name, declared = std::move(declared)](Shared& shared) {
        Outcome out;
        const std::filesystem::path file(toStdString(path));
        const auto format = rules::formatForPath(file);
        if (!format) {
            out.error = QObject::tr("%1: not a .csv, .jsonl or .ndjson file").arg(path);
            return out;
        }
        if (!rules::isValidDatasetName(toStdString(name))) {
            out.error = QObject::tr("'%1' is not a valid dataset name (letters, digits, '_', '-', '.')").arg(name);
            return out;
        }
        const rules::ReadOptions read = windowReadOptions(declared, shared.cancel, shared.percent, 90);
        sb::DatasetImport request;
        request.file = file.string();
        request.name = toStdString(name);
        request.declared = read.declared;
        request.onBadRow = "skip";
        request.cancel = read.cancel;
        request.progress = read.progress;
        auto imported = sb::importDatasetFile(request, [&store] { return sb::Store::open(store); });
        auto opened = sb::Store::open(store);
        if (opened)
            out.storedNames = namesIn(*opened);
        if (!imported) {
            out.cancelled = shared.cancel.load();
            out.error = toQString(imported.error().message);
            return out;
        }
        if (!opened) {
            out.error = toQString(opened.error().message);
            return out;
        }
        auto data = rules::loadDataset(*opened, toStdString(name));
        if (!data) {
            out.error = toQString(data.error().message);
            return out;
        }
        auto loaded = std::make_shared<LoadedDataset>();
        loaded->label = QObject::tr("stored %1").arg(name);
        loaded->data = std::move(*data);
        loaded->report = imported->report;
        out.data = std::move(loaded);
        return out;
    });
}

namespace {

// Parses, compiles and evaluates one rule set; an error message when it cannot be used.
QString evaluateOne(EvaluatedRuleSet& rs, const RuleSetSource& source, const rules::Dataset& data,
                    std::atomic<bool>& cancel, const std::function<void(double)>& progress)
{
    rs.name = source.name;
    rs.parsed = rules::parseRuleSet(toStdString(source.text), toStdString(source.name));
    auto firstError = [&](const std::vector<rules::Diagnostic>& diagnostics) {
        for (const auto& d : diagnostics) {
            if (d.severity == rules::Severity::Error)
                return QObject::tr("%1: %2").arg(source.name, toQString(d.format(toStdString(source.name))));
        }
        return QString();
    };
    if (rs.parsed.hasErrors())
        return firstError(rs.parsed.diagnostics);
    rules::EvalOptions options;
    options.cancel = &cancel;
    options.progress = [&progress](std::size_t done, std::size_t total) {
        if (total > 0)
            progress(static_cast<double>(done) / static_cast<double>(total));
    };
    auto evaluated = sb::evaluateOn(rs.parsed.ruleSet, toStdString(source.name), data, options);
    if (!evaluated) {
        const std::string& message = evaluated.error().message;
        return QObject::tr("%1: %2").arg(source.name, toQString(message.substr(0, message.find('\n'))));
    }
    rs.compiled = std::move(evaluated->compiled);
    rs.evaluation = std::move(evaluated->evaluation);
    rs.scoreBins = scoreHistogram(rs.evaluation, rs.compiled->defaultScore);
    rs.dataDiagnostics = rules::dataDiagnostics(*rs.compiled, rs.evaluation, data);
    rs.text = source.text;
    return {};
}

} // namespace

bool RulesJobRunner::evaluate(std::shared_ptr<const LoadedDataset> data, RuleSetSource ruleSet)
{
    return compare(std::move(data), {std::move(ruleSet)});
}

bool RulesJobRunner::compare(std::shared_ptr<const LoadedDataset> data, std::vector<RuleSetSource> ruleSets)
{
    const RulesTask task = ruleSets.size() > 1 ? RulesTask::Compare : RulesTask::Evaluate;
    return start(task, [data = std::move(data), ruleSets = std::move(ruleSets)](Shared& shared) {
        Outcome out;
        auto result = std::make_shared<RulesResult>();
        result->dataset = data;
        result->compare = ruleSets.size() > 1;
        const auto n = static_cast<double>(ruleSets.size());
        for (std::size_t i = 0; i < ruleSets.size(); ++i) {
            auto rs = std::make_unique<EvaluatedRuleSet>();
            const QString error = evaluateOne(*rs, ruleSets[i], data->data, shared.cancel, [&](double f) {
                shared.percent = static_cast<int>((static_cast<double>(i) + f) / n * 100.0);
            });
            if (shared.cancel) {
                out.cancelled = true;
                return out;
            }
            if (!error.isEmpty()) {
                out.error = error;
                return out;
            }
            result->ruleSets.push_back(std::move(rs));
        }
        result->labelColumn = labelColumnOf(data->data);
        result->amountColumn = amountColumnOf(data->data);
        rules::ImpactOptions options;
        options.labelColumn = toStdString(result->labelColumn);
        options.amountColumn = toStdString(result->amountColumn);
        auto sideOf = [](const EvaluatedRuleSet& rs) {
            return sb::ComparedRuleSet{toStdString(rs.name), &*rs.compiled, &rs.evaluation};
        };
        std::vector<sb::ComparedRuleSet> variants;
        for (std::size_t i = 1; i < result->ruleSets.size(); ++i)
            variants.push_back(sideOf(*result->ruleSets[i]));
        auto compared = sb::compareRuleSets(sideOf(*result->ruleSets.front()), variants, data->data, options);
        if (!compared) {
            out.error = toQString(compared.error().message);
            return out;
        }
        result->impacts = std::move(compared->impacts);
        result->summaries = std::move(compared->summaries);
        // Flagged-vs-label figures for every rule set, the baseline included (the charts show all).
        if (compared->baselineFlagged) {
            rules::VariantSummary baseline;
            baseline.flagged = compared->baselineFlagged;
            baseline.f1 = sb::f1Of(*baseline.flagged);
            result->baselineSummary = std::move(baseline);
        }
        shared.percent = 100;
        out.result = std::move(result);
        return out;
    });
}

StoredDatasetsLister::StoredDatasetsLister(QObject* parent)
    : QObject(parent)
{
}

StoredDatasetsLister::~StoredDatasetsLister()
{
    for (auto* watcher : findChildren<QFutureWatcher<QStringList>*>())
        watcher->waitForFinished();
}

int StoredDatasetsLister::list(std::filesystem::path store)
{
    const int id = ++m_latest;
    auto* watcher = new QFutureWatcher<QStringList>(this);
    connect(watcher, &QFutureWatcher<QStringList>::finished, this, [this, watcher, id] {
        watcher->deleteLater();
        if (id == m_latest)
            emit listed(id, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([store = std::move(store)] {
        auto opened = sb::Store::open(store);
        return opened ? namesIn(*opened) : QStringList();
    }));
    return id;
}

} // namespace sb::ui
