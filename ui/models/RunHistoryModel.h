#pragma once

#include "store/store.h"
#include "ui/models/MetricsChartData.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <vector>

namespace sb::ui {

// The run history as a table. It holds one immutable snapshot of stored runs (newest first), read by a background
// job; a new snapshot that only adds newer runs (and drops the oldest past the limit) inserts and removes rows, any
// other resets the model.
class RunHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        LabelColumn,
        SandboxColumn,
        LanguageColumn,
        OutcomeColumn,
        DurationColumn,
        DetailColumn,
        ColumnCount
    };
    enum Role {
        OutcomeRole = Qt::UserRole + 1, // QString: the outcome's contract name
        SourceRole,                     // QString: the snippet that ran
        LanguageRole,                   // int: sb::Language
        RunIdRole,                      // QString
    };

    explicit RunHistoryModel(QObject* parent);

    void setRuns(std::vector<sb::StoredRun> runs);
    const sb::StoredRun* runAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // What the detail column says about a run: its first blocked event, else the engine's message.
    static QString detailOf(const sb::RunResult& result);

private:
    std::vector<sb::StoredRun> m_runs;
};

// The runs of a RunHistoryModel that a filter (a click on the metrics dashboard) accepts.
class RunHistoryFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunHistoryFilter(QObject* parent);

    void setRunFilter(const sb::ui::RunFilter& filter);
    const RunFilter& runFilter() const { return m_filter; }
    // The stored run behind a row of this model; nullptr when there is none.
    const sb::StoredRun* runAt(int row) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    RunFilter m_filter;
};

} // namespace sb::ui
