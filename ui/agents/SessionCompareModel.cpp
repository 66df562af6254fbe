#include "ui/agents/SessionCompareModel.h"

#include "agents/session_export.h"
#include "ui/models/Conversions.h"

#include <QFont>

#include <algorithm>

namespace sb::ui {

namespace {

QColor verdictTextColor(const std::string& verdict)
{
    if (auto known = sb::agents::verdictFromString(verdict))
        return QColor(toQString(sb::agents::verdictColor(*known)));
    return QColor(QStringLiteral("#8a6d00")); // a replay's needs_approval, not_reached
}

} // namespace

SessionCompareModel::SessionCompareModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SessionCompareModel::setComparison(std::shared_ptr<const sb::agents::SessionComparison> comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    m_differing.clear();
    if (m_comparison)
        for (std::size_t row = 0; row < m_comparison->steps.size(); ++row)
            if (m_comparison->steps[row].differs())
                m_differing.push_back(static_cast<int>(row));
    endResetModel();
}

void SessionCompareModel::clear()
{
    setComparison(nullptr);
}

const sb::agents::ComparedStep* SessionCompareModel::stepAt(int row) const
{
    if (!m_comparison || row < 0 || row >= static_cast<int>(m_comparison->steps.size()))
        return nullptr;
    return &m_comparison->steps[static_cast<std::size_t>(row)];
}

int SessionCompareModel::nextDifference(int row, bool forward) const
{
    if (m_differing.empty())
        return -1;
    if (forward) {
        const auto it = std::upper_bound(m_differing.begin(), m_differing.end(), row);
        return it == m_differing.end() ? -1 : *it;
    }
    if (row < 0)
        return m_differing.back();
    const auto it = std::lower_bound(m_differing.begin(), m_differing.end(), row);
    return it == m_differing.begin() ? -1 : *std::prev(it);
}

QColor SessionCompareModel::differenceTint()
{
    return QColor(255, 224, 178); // a light amber, readable under black text
}

QString SessionCompareModel::changeText(const std::string& change)
{
    if (change == "same")
        return {};
    if (change == "only_left")
        return tr("only on the left");
    if (change == "only_right")
        return tr("only on the right");
    if (change == "call")
        return tr("another call");
    if (change == "verdict")
        return tr("verdict");
    if (change == "result" || change == "different_result")
        return tr("result");
    if (change == "blocked")
        return tr("now blocked");
    if (change == "needs_approval")
        return tr("now needs approval");
    if (change == "allowed")
        return tr("now allowed");
    if (change == "ends_session")
        return tr("ends the session");
    if (change == "not_reached")
        return tr("not reached");
    return toQString(change);
}

int SessionCompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_comparison ? 0 : static_cast<int>(m_comparison->steps.size());
}

int SessionCompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool SessionCompareModel::cellDiffers(const sb::agents::ComparedStep& step, int column) const
{
    switch (column) {
    case LeftToolColumn:
    case RightToolColumn:
    case LeftArgumentsColumn:
    case RightArgumentsColumn:
        return step.callDiffers;
    case LeftVerdictColumn:
    case RightVerdictColumn:
        return step.verdictDiffers;
    case LeftResultColumn:
    case RightResultColumn:
        return step.resultDiffers;
    default:
        return step.differs();
    }
}

QVariant SessionCompareModel::display(const sb::agents::ComparedStep& step, int column) const
{
    const bool left = column >= LeftToolColumn && column <= LeftResultColumn;
    const auto& side = left ? step.left : step.right;
    switch (column) {
    case MarkerColumn:
        return step.differs() ? QStringLiteral("≠") : QString();
    case IndexColumn:
        return QVariant::fromValue(static_cast<qlonglong>(step.index));
    case ChangeColumn:
        return changeText(step.change);
    default:
        break;
    }
    if (!side)
        return {};
    switch (column) {
    case LeftToolColumn:
    case RightToolColumn:
        return toQString(side->tool);
    case LeftArgumentsColumn:
    case RightArgumentsColumn:
        return toQString(side->arguments);
    case LeftVerdictColumn:
    case RightVerdictColumn:
        return toQString(side->verdict);
    case LeftResultColumn:
    case RightResultColumn:
        return side->isError ? tr("error: %1").arg(toQString(side->result)) : toQString(side->result);
    default:
        return {};
    }
}

QVariant SessionCompareModel::data(const QModelIndex& index, int role) const
{
    const auto* step = stepAt(index.row());
    if (!step)
        return {};
    const int column = index.column();
    switch (role) {
    case StepIndexRole:
        return QVariant::fromValue(static_cast<qlonglong>(step->index));
    case DiffersRole:
        return step->differs();
    case ChangeRole:
        return toQString(step->change);
    case Qt::DisplayRole:
        return display(*step, column);
    case Qt::BackgroundRole:
        if (step->differs())
            return differenceTint();
        return {};
    case Qt::FontRole:
        if (step->differs() && cellDiffers(*step, column)) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ForegroundRole:
        if (column == LeftVerdictColumn && step->left)
            return verdictTextColor(step->left->verdict);
        if (column == RightVerdictColumn && step->right)
            return verdictTextColor(step->right->verdict);
        return {};
    case Qt::TextAlignmentRole:
        if (column == IndexColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        if (column == MarkerColumn)
            return QVariant::fromValue(Qt::AlignCenter);
        return {};
    case Qt::ToolTipRole: {
        if (column == MarkerColumn || column == ChangeColumn)
            return step->differs() ? tr("Step %1 differs: %2").arg(step->index).arg(changeText(step->change))
                                   : QVariant();
        const bool left = column >= LeftToolColumn && column <= LeftResultColumn;
        const auto& side = left ? step->left : step->right;
        if (!side)
            return column == IndexColumn ? QVariant() : tr("No such step in this session");
        if (column == LeftVerdictColumn || column == RightVerdictColumn)
            return side->rule.empty() && side->message.empty()
                       ? QVariant()
                       : QVariant(tr("%1\n%2").arg(toQString(side->rule), toQString(side->message)).trimmed());
        const QString text = display(*step, column).toString();
        return text.isEmpty() ? QVariant() : QVariant(text);
    }
    default:
        return {};
    }
}

QVariant SessionCompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MarkerColumn:
        return QString();
    case IndexColumn:
        return tr("#");
    case LeftToolColumn:
    case RightToolColumn:
        return tr("Tool");
    case LeftArgumentsColumn:
    case RightArgumentsColumn:
        return tr("Arguments");
    case LeftVerdictColumn:
    case RightVerdictColumn:
        return tr("Verdict");
    case LeftResultColumn:
    case RightResultColumn:
        return tr("Result");
    case ChangeColumn:
        return tr("Change");
    default:
        return {};
    }
}

} // namespace sb::ui
