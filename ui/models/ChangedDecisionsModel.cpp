#include "ui/models/ChangedDecisionsModel.h"

#include "ui/models/Conversions.h"

namespace sb::ui {

ChangedDecisionsModel::ChangedDecisionsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ChangedDecisionsModel::setResult(std::shared_ptr<const RulesResult> result, std::size_t variant)
{
    beginResetModel();
    m_result = std::move(result);
    m_variant = m_result && variant >= 1 && variant <= m_result->impacts.size() ? variant : 0;
    endResetModel();
}

int ChangedDecisionsModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_result || m_variant == 0)
        return 0;
    return static_cast<int>(m_result->impacts[m_variant - 1].changedRows.size());
}

int ChangedDecisionsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ChangedDecisionsModel::cell(int row, int column) const
{
    const std::size_t record = m_result->impacts[m_variant - 1].changedRows[static_cast<std::size_t>(row)];
    const EvaluatedRuleSet& base = *m_result->ruleSets.front();
    const EvaluatedRuleSet& cand = *m_result->ruleSets[m_variant];
    const auto& o = base.evaluation.records[record];
    const auto& n = cand.evaluation.records[record];
    auto ruleName = [](const EvaluatedRuleSet& rs, std::int32_t rule) {
        return rule < 0 ? QObject::tr("(default)") : toQString(rs.compiled->rule(static_cast<std::size_t>(rule)).id);
    };
    switch (column) {
    case RecordColumn: return toQString(m_result->dataset->data.recordId(record));
    case OldDecisionColumn: return toQString(base.compiled->decisions[o.decision]);
    case NewDecisionColumn: return toQString(cand.compiled->decisions[n.decision]);
    case OldScoreColumn: return QString::number(o.score);
    case NewScoreColumn: return QString::number(n.score);
    case OldRuleColumn: return ruleName(base, o.rule);
    case NewRuleColumn: return ruleName(cand, n.rule);
    default: return {};
    }
}

QVariant ChangedDecisionsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_result || m_variant == 0)
        return {};
    const std::size_t record = m_result->impacts[m_variant - 1].changedRows[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return cell(index.row(), index.column());
    case RowRole: return QVariant::fromValue(static_cast<qulonglong>(record));
    case SortRole:
        if (index.column() == OldScoreColumn)
            return m_result->ruleSets.front()->evaluation.records[record].score;
        if (index.column() == NewScoreColumn)
            return m_result->ruleSets[m_variant]->evaluation.records[record].score;
        if (index.column() == RecordColumn)
            return QVariant::fromValue(static_cast<qulonglong>(record)); // record order
        return cell(index.row(), index.column());
    case Qt::TextAlignmentRole:
        if (index.column() == OldScoreColumn || index.column() == NewScoreColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default: return {};
    }
}

QVariant ChangedDecisionsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    // Two lines each: the columns are as wide as their values need, and all seven fit a laptop's screen.
    switch (section) {
    case RecordColumn: return tr("Record");
    case OldDecisionColumn: return tr("Current\ndecision");
    case NewDecisionColumn: return tr("Proposed\ndecision");
    case OldScoreColumn: return tr("Current\nscore");
    case NewScoreColumn: return tr("Proposed\nscore");
    case OldRuleColumn: return tr("Current\nrule");
    case NewRuleColumn: return tr("Proposed\nrule");
    default: return {};
    }
}

QString ChangedDecisionsModel::toCsv() const
{
    auto quote = [](QString text) -> QString {
        if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n')))
            return QLatin1Char('"') + text.replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"');
        return text;
    };
    QString out = QStringLiteral("record_id,old_decision,new_decision,old_score,new_score,old_rule,new_rule\n");
    const int rows = rowCount();
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < ColumnCount; ++c) {
            if (c > 0)
                out += QLatin1Char(',');
            out += quote(cell(r, c));
        }
        out += QLatin1Char('\n');
    }
    return out;
}

ChangedDecisionsFilter::ChangedDecisionsFilter(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ChangedDecisionsModel::SortRole);
    setFilterKeyColumn(-1);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

} // namespace sb::ui
