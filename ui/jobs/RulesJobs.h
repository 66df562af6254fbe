#pragma once
// Background work of the rules workspace: loading a dataset, evaluating rule sets on it and comparing
// variants with a baseline, and listing the store's snapshots. Each job runs on a worker thread on value inputs
// (rule set texts, a shared immutable dataset) and hands back an immutable snapshot; a job can be cancelled and
// reports progress. What data a name means and how rule sets compare are the use cases' (usecases/
// dataset_source.h, usecases/rule_comparison.h), as on the command line.

#include "rules/dataset.h"
#include "rules/evaluate.h"
#include "rules/ruleset.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace sb::ui {

// A dataset read into memory, shared read-only between the GUI and jobs.
struct LoadedDataset {
    QString label; // "Demo transactions", a file name
    sb::rules::Dataset data;
    sb::rules::ReadReport report;
};

// One rule set parsed, compiled against the dataset and evaluated.
struct EvaluatedRuleSet {
    QString name; // the tab's title
    sb::rules::ParsedRuleSet parsed;
    std::optional<sb::rules::CompiledRuleSet> compiled; // points into `parsed`: keep this object in place
    sb::rules::Evaluation evaluation;
    // Records whose score is not the default score, by score: [0, 10), [10, 20), ... [90, 100], and
    // below 0 / above 100 in the first / last bin.
    std::vector<std::int64_t> scoreBins;
    // Warnings only the data can give: rules fully shadowed by earlier ones, conditions that failed on records.
    std::vector<sb::rules::Diagnostic> dataDiagnostics;
    QString text; // the rule set as evaluated
};

// The score histogram of an evaluation (EvaluatedRuleSet::scoreBins).
std::vector<std::int64_t> scoreHistogram(const sb::rules::Evaluation& evaluation, double defaultScore);

// What Evaluate (one rule set) and Compare (a baseline and variants) produce.
struct RulesResult {
    std::shared_ptr<const LoadedDataset> dataset;
    std::vector<std::unique_ptr<EvaluatedRuleSet>> ruleSets; // [0]: the baseline (or the one evaluated)
    std::vector<sb::rules::Impact> impacts;                   // per variant (ruleSets[i + 1])
    std::vector<sb::rules::VariantSummary> summaries;         // per variant, with labels when there are
    std::optional<sb::rules::VariantSummary> baselineSummary; // the baseline's flagged figures, with labels
    bool compare = false;
    QString labelColumn;  // "" when the data has none
    QString amountColumn; // "" when the data has none
};

struct RuleSetSource {
    QString name;
    QString text;
};

enum class RulesTask { LoadData, Import, Evaluate, Compare };

class RulesJobRunner : public QObject {
    Q_OBJECT
public:
    explicit RulesJobRunner(QObject* parent);
    ~RulesJobRunner() override; // cancels what runs and waits for it

    // Each returns false (and does nothing) while another job runs.
    // Reads the demo transactions (path empty) or a CSV/JSON Lines file, with `declared` field types.
    bool loadData(const QString& path, std::vector<sb::rules::Field> declared);
    // Reads the stored snapshot `name` from the store at `store`; within `sandbox` (when not empty), `name` is
    // one of the sandbox's dataset references, resolved as usecases/dataset_source.h says.
    bool loadSnapshot(std::filesystem::path store, const QString& name, std::vector<sb::rules::Field> declared,
                      const QString& sandbox = {});
    // Imports a CSV/JSON Lines file into the store as snapshot `name` (bad rows skipped and reported), then
    // reads it back as the dataset. Whether it succeeds or not, storedDatasetsListed gives the store's names.
    bool importData(std::filesystem::path store, const QString& path, const QString& name,
                    std::vector<sb::rules::Field> declared);
    bool evaluate(std::shared_ptr<const LoadedDataset> data, RuleSetSource ruleSet);
    bool compare(std::shared_ptr<const LoadedDataset> data, std::vector<RuleSetSource> ruleSets);
    void cancel();
    bool isBusy() const { return m_busy; }

    // Label and amount columns the demo data (and data like it) has.
    static QString labelColumnOf(const sb::rules::Dataset& data);
    static QString amountColumnOf(const sb::rules::Dataset& data);

signals:
    void started(sb::ui::RulesTask task);
    void progress(int percent, const QString& phase);
    void dataLoaded(std::shared_ptr<const sb::ui::LoadedDataset> data);
    // The store's snapshot names as an import left them, before the import's dataLoaded or failed.
    void storedDatasetsListed(const QStringList& names);
    void resultReady(std::shared_ptr<const sb::ui::RulesResult> result);
    void failed(const QString& message, bool cancelled);

private:
    struct Shared {
        std::atomic<bool> cancel{false};
        std::atomic<int> percent{0};
        std::atomic<int> phase{0}; // index of the rule set being evaluated
    };
    struct Outcome {
        std::shared_ptr<const LoadedDataset> data;
        std::shared_ptr<const RulesResult> result;
        QString error;
        bool cancelled = false;
        std::optional<QStringList> storedNames;
    };
    bool start(RulesTask task, std::function<Outcome(Shared&)> body);

    QFutureWatcher<Outcome>* m_watcher = nullptr;
    QTimer* m_poll = nullptr;
    std::shared_ptr<Shared> m_shared;
    RulesTask m_task = RulesTask::LoadData;
    bool m_busy = false;
};

// Lists the store's snapshot names off the GUI thread. Each request has an id; only the newest request's
// answer is handed on, so a slow old listing never overwrites a newer one.
class StoredDatasetsLister : public QObject {
    Q_OBJECT
public:
    explicit StoredDatasetsLister(QObject* parent);
    ~StoredDatasetsLister() override; // waits for listings still running

    // Starts a listing and returns its id.
    int list(std::filesystem::path store);
    // Listings still running are not handed on (the caller learned the names in a newer way).
    void dropPending() { ++m_latest; }

signals:
    // The names, newest last (empty when the store cannot be read).
    void listed(int id, const QStringList& names);

private:
    int m_latest = 0;
};

} // namespace sb::ui

Q_DECLARE_METATYPE(sb::ui::RulesTask)
