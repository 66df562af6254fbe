#include "ui/jobs/RulesJobs.h"

#include "ui/models/Conversions.h"
#include "rules/dataset_store.h"
#include "rules/demo_data.h"
#include "store/store.h"

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
            const std::filesystem::path file(toStdString(path));
            const auto format = rules::formatForPath(file);
            if (!format) {
                out.error = QObject::tr("%1: not a .csv, .jsonl or .ndjson file").arg(path);
                return out;
            }
            read.format = *format;
            loaded->label = toQString(file.filename().string());
            data = rules::readDataset(file, read, &loaded->report);
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
                                  std::vector<rules::Field> declared)
{
    return start(RulesTask::LoadData, [store = std::move(store), name, declared = std::move(declared)](Shared& shared) {
        Outcome out;
        auto opened = sb::Store::open(store);
        if (!opened) {
            out.error = toQString(opened.error().message);
            return out;
        }
        shared.percent = 10;
        auto data = rules::loadDataset(*opened, toStdString(name));
        if (!data) {
            out.error = toQString(data.error().message);
            return out;
        }
        if (auto ok = data->adaptTo(declared); !ok) {
            out.error = toQString(ok.error().message);
            return out;
        }
        auto loaded = std::make_shared<LoadedDataset>();
        loaded->label = QObject::tr("stored %1").arg(name);
        loaded->data = std::move(*data);
        loaded->report.records = loaded->report.kept = static_cast<std::int64_t>(loaded->data.rowCount());
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
        auto opened = sb::Store::open(store);
        if (!opened) {
            out.error = toQString(opened.error().message);
            return out;
        }
        rules::ReadOptions read = windowReadOptions(declared, shared.cancel, shared.percent, 90);
        read.format = *format;
        auto imported = rules::importDataset(*opened, file, toStdString(name), read);
        if (!imported) {
            out.cancelled = shared.cancel.load();
            out.error = toQString(imported.error().message);
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
    auto compiled = rules::compileRuleSet(rs.parsed.ruleSet, &data.schema());
    if (!compiled.compiled)
        return firstError(compiled.diagnostics);
    rs.compiled = std::move(compiled.compiled);
    rules::EvalOptions options;
    options.cancel = &cancel;
    options.progress = [&progress](std::size_t done, std::size_t total) {
        if (total > 0)
            progress(static_cast<double>(done) / static_cast<double>(total));
    };
    auto ev = rules::evaluate(*rs.compiled, data, options);
    if (!ev)
        return toQString(ev.error().message);
    rs.evaluation = std::move(*ev);
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
        const EvaluatedRuleSet& base = *result->ruleSets.front();
        const std::string notFlagged = base.compiled->decisions[base.compiled->defaultDecision];
        for (std::size_t i = 1; i < result->ruleSets.size(); ++i) {
            const EvaluatedRuleSet& cand = *result->ruleSets[i];
            auto impact = rules::computeImpact(*base.compiled, base.evaluation, *cand.compiled, cand.evaluation,
                                               data->data, options);
            if (!impact) {
                out.error = toQString(impact.error().message);
                return out;
            }
            rules::VariantSummary summary;
            summary.name = toStdString(cand.name);
            summary.impactRate = impact->impactRate;
            summary.affected = impact->affected;
            result->impacts.push_back(std::move(*impact));
            result->summaries.push_back(std::move(summary));
        }
        // Flagged-vs-label figures for every rule set, the baseline included (the charts show all).
        if (!result->labelColumn.isEmpty()) {
            for (std::size_t i = 0; i < result->ruleSets.size(); ++i) {
                const EvaluatedRuleSet& rs = *result->ruleSets[i];
                rules::VariantSummary summary;
                if (i > 0)
                    summary = result->summaries[i - 1];
                summary.flagged = rules::flaggedFigures(*rs.compiled, rs.evaluation, data->data, options, notFlagged);
                const auto& f = *summary.flagged;
                if (f.precision && f.recall && *f.precision + *f.recall > 0)
                    summary.f1 = 2 * *f.precision * *f.recall / (*f.precision + *f.recall);
                if (i == 0)
                    result->baselineSummary = summary;
                else
                    result->summaries[i - 1] = summary;
            }
        }
        shared.percent = 100;
        out.result = std::move(result);
        return out;
    });
}

} // namespace sb::ui
