#include "ui/agents/JsonTreeModel.h"

#include "ui/models/Conversions.h"

namespace sb::ui {

namespace {

constexpr int kMaxShownChars = 400;

std::string jsonText(const sb::agents::Json& value)
{
    return value.dump(-1, ' ', false, sb::agents::Json::error_handler_t::replace);
}

} // namespace

JsonTreeModel::JsonTreeModel(QObject* parent) : QAbstractItemModel(parent)
{
    m_nodes.emplace_back();
}

void JsonTreeModel::clear()
{
    beginResetModel();
    m_nodes.assign(1, Node{});
    endResetModel();
}

void JsonTreeModel::setJson(const sb::agents::Json& value)
{
    beginResetModel();
    m_nodes.assign(1, Node{});
    if (value.is_object() || value.is_array()) {
        for (const auto& [key, child] : value.items()) {
            if (static_cast<int>(m_nodes.size()) > kMaxNodes)
                break;
            add(0, toQString(key), child);
        }
    } else {
        add(0, QString(), value);
    }
    endResetModel();
}

int JsonTreeModel::add(int parent, QString key, const sb::agents::Json& value)
{
    const int id = static_cast<int>(m_nodes.size());
    Node node;
    node.key = std::move(key);
    node.parent = parent;
    node.row = static_cast<int>(m_nodes[static_cast<std::size_t>(parent)].children.size());
    if (value.is_object())
        node.value = value.size() == 1 ? tr("{1 member}") : tr("{%1 members}").arg(value.size());
    else if (value.is_array())
        node.value = value.size() == 1 ? tr("[1 item]") : tr("[%1 items]").arg(value.size());
    else {
        QString text = toQString(jsonText(value));
        // A long or many-line string shows its start; the tooltip has it whole (as text, not JSON).
        if (text.size() > kMaxShownChars || text.contains(QLatin1String("\\n"))) {
            node.full = value.is_string() ? toQString(value.get_ref<const std::string&>()) : text;
            const qsizetype newline = text.indexOf(QLatin1String("\\n"));
            text = text.left(std::min<qsizetype>(kMaxShownChars, newline < 0 ? kMaxShownChars : newline))
                   + QStringLiteral("…");
        }
        node.value = text;
    }
    m_nodes.push_back(std::move(node));
    m_nodes[static_cast<std::size_t>(parent)].children.push_back(id);
    if (value.is_object() || value.is_array()) {
        for (const auto& [childKey, child] : value.items()) {
            if (static_cast<int>(m_nodes.size()) >= kMaxNodes) {
                Node cut;
                cut.key = QStringLiteral("…");
                cut.value = tr("(cut: the value has more than %1 nodes)").arg(kMaxNodes);
                cut.parent = id;
                cut.row = static_cast<int>(m_nodes[static_cast<std::size_t>(id)].children.size());
                m_nodes.push_back(std::move(cut));
                m_nodes[static_cast<std::size_t>(id)].children.push_back(static_cast<int>(m_nodes.size()) - 1);
                break;
            }
            add(id, value.is_array() ? QStringLiteral("[%1]").arg(toQString(childKey)) : toQString(childKey), child);
        }
    }
    return id;
}

QModelIndex JsonTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    const int parentId = parent.isValid() ? static_cast<int>(parent.internalId()) : 0;
    const auto& children = m_nodes[static_cast<std::size_t>(parentId)].children;
    if (row < 0 || row >= static_cast<int>(children.size()) || column < 0 || column >= ColumnCount)
        return {};
    return createIndex(row, column, static_cast<quintptr>(children[static_cast<std::size_t>(row)]));
}

QModelIndex JsonTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const int parentId = m_nodes[child.internalId()].parent;
    if (parentId <= 0)
        return {};
    return createIndex(m_nodes[static_cast<std::size_t>(parentId)].row, 0, static_cast<quintptr>(parentId));
}

int JsonTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const int id = parent.isValid() ? static_cast<int>(parent.internalId()) : 0;
    return static_cast<int>(m_nodes[static_cast<std::size_t>(id)].children.size());
}

int JsonTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant JsonTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const Node& node = m_nodes[index.internalId()];
    if (role == Qt::DisplayRole)
        return index.column() == KeyColumn ? node.key : node.value;
    if (role == Qt::ToolTipRole && index.column() == ValueColumn && !node.full.isEmpty())
        return node.full.left(20000);
    return {};
}

QVariant JsonTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == KeyColumn ? tr("Key") : tr("Value");
}

} // namespace sb::ui
