#pragma once
// The records whose decision a variant changes, as a virtual table over the impact's changed rows: nothing is
// copied per row, so a million changed records cost the index vector the impact already has.

#include "ui/jobs/RulesJobs.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>

namespace sb::ui {

class ChangedDecisionsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { RecordColumn, OldDecisionColumn, NewDecisionColumn, OldScoreColumn, NewScoreColumn,
                  OldRuleColumn, NewRuleColumn, ColumnCount };
    static constexpr int RowRole = Qt::UserRole + 1; // the record's row in the dataset
    static constexpr int SortRole = Qt::UserRole + 2;

    explicit ChangedDecisionsModel(QObject* parent);

    // Shows the records `variant` (1-based index into result->ruleSets) changes against the baseline.
    void setResult(std::shared_ptr<const RulesResult> result, std::size_t variant);
    const RulesResult* result() const { return m_result.get(); }
    std::size_t variant() const { return m_variant; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The whole table as CSV (RFC 4180), header first.
    QString toCsv() const;

private:
    QString cell(int row, int column) const;

    std::shared_ptr<const RulesResult> m_result;
    std::size_t m_variant = 0;
};

// Sorts by the typed values and filters on every column: "block" finds rows with that decision anywhere.
class ChangedDecisionsFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ChangedDecisionsFilter(QObject* parent);
};

} // namespace sb::ui
