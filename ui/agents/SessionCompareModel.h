#pragma once

#include "agents/session_compare.h"

#include <QAbstractTableModel>
#include <QColor>

#include <memory>
#include <vector>

namespace sb::ui {

// Two sessions side by side, one row per step index: a marker for the rows that differ, the index, then tool,
// arguments, verdict and result of each side, and what changed. A differing row is tinted and marked "≠" (so it is
// not told by colour alone), its differing cells in bold; a side without the step shows empty cells. It holds the
// comparison a background job made and shares it, never copies it.
class SessionCompareModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        MarkerColumn,
        IndexColumn,
        LeftToolColumn,
        LeftArgumentsColumn,
        LeftVerdictColumn,
        LeftResultColumn,
        RightToolColumn,
        RightArgumentsColumn,
        RightVerdictColumn,
        RightResultColumn,
        ChangeColumn,
        ColumnCount
    };
    enum Role {
        StepIndexRole = Qt::UserRole + 1, // qlonglong
        DiffersRole,                      // bool
        ChangeRole,                       // QString: the change's contract name ("same", "blocked", ...)
    };

    explicit SessionCompareModel(QObject* parent);

    void setComparison(std::shared_ptr<const sb::agents::SessionComparison> comparison);
    void clear();
    const sb::agents::ComparedStep* stepAt(int row) const;
    int differingCount() const { return static_cast<int>(m_differing.size()); }
    // The first differing row after `row` (forward) or before it; -1 none. `row` -1: from the start or the end.
    int nextDifference(int row, bool forward) const;

    static QColor differenceTint();
    // "verdict", "result", "only in the left session", ... in words for the change column.
    static QString changeText(const std::string& change);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const sb::agents::ComparedStep& step, int column) const;
    bool cellDiffers(const sb::agents::ComparedStep& step, int column) const;

    std::shared_ptr<const sb::agents::SessionComparison> m_comparison;
    std::vector<int> m_differing; // rows, ascending
};

} // namespace sb::ui
