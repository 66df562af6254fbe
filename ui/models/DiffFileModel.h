#pragma once

#include "sandboxes/sandbox_engine.h"

#include <QAbstractTableModel>

#include <vector>

namespace sb::ui {

// The changed paths of a diff: A / D / M, the path, and how much changed (+added −removed lines, or
// "binary", "too large").
class DiffFileModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StatusColumn, PathColumn, LinesColumn, ColumnCount };
    enum Role { PathRole = Qt::UserRole + 1 };

    struct LineCounts {
        int added = 0;
        int removed = 0;
    };
    // Lines a unified diff adds and removes (its "---"/"+++" header not counted).
    static LineCounts countLines(const std::string& unified);

    explicit DiffFileModel(QObject* parent);

    void setFiles(std::vector<sb::FileDiff> files);
    const sb::FileDiff* fileAt(int row) const;
    int rowOf(const QString& path) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<sb::FileDiff> m_files;
    std::vector<LineCounts> m_counts;
};

} // namespace sb::ui
