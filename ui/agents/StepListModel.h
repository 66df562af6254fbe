#pragma once

#include "agents/session_browse.h"

#include <QAbstractTableModel>
#include <QColor>

#include <vector>

namespace sb::ui {

// The steps of one session as a table: index, tool, one-line arguments, verdict, duration, cost. It holds
// summaries only (the full step is read when one is selected), grows as batches arrive and takes back steps whose
// results came in since (a live session). Row r is step r + 1.
class StepListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IndexColumn, ToolColumn, ArgumentsColumn, VerdictColumn, DurationColumn, CostColumn, ColumnCount };
    enum Role {
        StepIndexRole = Qt::UserRole + 1, // qlonglong
        VerdictRole,                      // QString: the verdict's contract name
        MatchRole,                        // bool: found by the current search
    };

    explicit StepListModel(QObject* parent);

    void clear();
    // Room for `count` steps, so that growing to a session's size does not move the steps held.
    void reserve(std::int64_t count);
    // Steps offset + 1 ... as read: those already held are replaced, the rest appended. Steps must come in
    // order with no gap (offset at most rowCount()).
    void setSteps(std::int64_t offset, std::vector<sb::agents::StepSummary> steps);
    const std::vector<sb::agents::StepSummary>& steps() const { return m_steps; }
    const sb::agents::StepSummary* stepAt(int row) const;
    // The sum of the costs of steps 1 ... row + 1.
    double costSoFar(int row) const;
    // Where a live session's reading goes on from: before the first step still in flight, else the end.
    std::int64_t resumeOffset() const;
    // The longest a step took, for finding the steps a time range shows.
    std::int64_t longestMs() const { return m_longestMs; }

    void setMatches(const std::vector<std::int64_t>& stepIndexes);
    bool isMatch(int row) const;
    const std::vector<std::int64_t>& matches() const { return m_matches; }

    static QColor verdictColor(sb::agents::Verdict verdict);
    // "in flight", "0 ms", "75 ms", "1s250ms".
    static QString durationText(std::int64_t startedAtMs, std::int64_t endedAtMs);
    static QString durationText(const sb::agents::StepSummary& step)
    {
        return durationText(step.startedAtMs, step.endedAtMs);
    }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<sb::agents::StepSummary> m_steps;
    std::vector<double> m_costSoFar;
    std::vector<std::int64_t> m_matches; // sorted step indexes
    std::vector<bool> m_isMatch;
    std::int64_t m_longestMs = 0;
};

} // namespace sb::ui
