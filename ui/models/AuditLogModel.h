#pragma once

#include "ui/jobs/AuditJobs.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace sb::ui {

// The audit log as a table, newest entry first, read a page at a time: the view's scrolling to the end asks
// for older entries (fetchMore → olderWanted), which a background job reads and appendOlder adds. It also
// knows, once a verification has run, which entry the chain breaks at.
class AuditLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // What happened first (time, who, what, to what, with what result), then the rest.
    enum Column {
        TimeColumn,
        ActorColumn,
        OperationColumn,
        SubjectColumn,
        OutcomeColumn,
        DetailsColumn,
        SeqColumn,
        ColumnCount
    };
    enum Role {
        SeqRole = Qt::UserRole + 1, // qint64
        HashRole,                   // QString: the entry's hash as stored
        BrokenRole,                 // bool: the entry verification named, or a row that cannot be read
        SubjectIdRole,              // QString: the subject's full id (a run's UUID, a checkpoint's id…)
        SubjectKindRole,            // int: sb::AuditSubjectKind
    };

    explicit AuditLogModel(QObject* parent);

    // A new first page (newest first); `more`: there are older matches to fetch.
    void setRows(std::vector<AuditRow> rows, bool more);
    // The page below the oldest row; ignored unless it is (a load that a newer first page made stale).
    void appendOlder(std::vector<AuditRow> rows, bool more, qint64 beforeSeq);
    // The entry the last verification named (nullopt: none, or not verified).
    void setBrokenSeq(std::optional<std::int64_t> seq);
    std::optional<std::int64_t> brokenSeq() const { return m_brokenSeq; }

    const AuditRow* rowAt(int row) const;
    const sb::AuditRecord* recordAt(int row) const;
    int rowOfSeq(std::int64_t seq) const; // -1 when the entry is not among the rows read
    std::optional<std::int64_t> oldestSeq() const;
    bool hasMore() const { return m_more; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

    // An outcome as the table shows it: the recorded one, or "done" for an operation that records none.
    static QString outcomeText(const sb::AuditSubject& subject);

signals:
    // The rows below `beforeSeq` are wanted (answered by appendOlder).
    void olderWanted(qint64 beforeSeq);

private:
    bool isBroken(const sb::AuditRecord& record) const;

    std::vector<AuditRow> m_rows;
    std::optional<std::int64_t> m_brokenSeq;
    bool m_more = false;
    bool m_fetching = false; // an older page was asked for and has not come
};

} // namespace sb::ui
