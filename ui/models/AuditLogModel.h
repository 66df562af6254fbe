#pragma once

#include "store/audit.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace sb::ui {

// The audit log as a table, oldest entry first. It holds one immutable snapshot of entries (reset when a new
// one arrives from a background job) and, once a verification has run, which entry the chain breaks at.
class AuditLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SeqColumn, TimeColumn, ActorColumn, OperationColumn, SubjectColumn, DetailsColumn, ColumnCount };
    enum Role {
        SeqRole = Qt::UserRole + 1, // qint64
        HashRole,                   // QString: the entry's hash as stored
        BrokenRole,                 // bool: the entry verification named, or a row that cannot be read
    };

    explicit AuditLogModel(QObject* parent);

    void setRecords(std::vector<sb::AuditRecord> records);
    // The entry the last verification named (nullopt: none, or not verified).
    void setBrokenSeq(std::optional<std::int64_t> seq);
    std::optional<std::int64_t> brokenSeq() const { return m_brokenSeq; }

    const sb::AuditRecord* recordAt(int row) const;
    int rowOfSeq(std::int64_t seq) const; // -1 when the entry is not in the snapshot

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    bool isBroken(const sb::AuditRecord& record) const;

    std::vector<sb::AuditRecord> m_records;
    std::optional<std::int64_t> m_brokenSeq;
};

} // namespace sb::ui
