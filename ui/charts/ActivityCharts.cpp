#include "ui/charts/ActivityCharts.h"

#include "ui/charts/ChartSupport.h"
#include "ui/models/Conversions.h"
#include "ui/models/MetricsChartData.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QDateTime>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QAction>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QLegend>
#include <QLocale>
#include <QMessageBox>
#include <QSaveFile>
#include <QScrollBar>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <map>
#include <set>

namespace sb::ui {

namespace {

// A category label longer than this is shortened on the axis (whole in its tooltip), so that a long path or
// host leaves the bars their room at 1366 px.
constexpr int kMaxCategoryChars = 30;
constexpr int kPromotionRows = 8;

// The colour of a kind of blocked event; kinds this version does not name share grey.
QColor kindColor(const std::string& kind)
{
    static const std::map<std::string, QColor, std::less<>> colors = {
        {"import", QColor(0x8e, 0x44, 0xad)},  {"syscall", QColor(0xc0, 0x39, 0x2b)},
        {"network", QColor(0x2e, 0x86, 0xc1)}, {"path", QColor(0xd6, 0x89, 0x10)},
        {"tool", QColor(0x16, 0xa0, 0x85)},    {"disk", QColor(0x6d, 0x4c, 0x41)},
    };
    const auto it = colors.find(kind);
    return it != colors.end() ? it->second : QColor(0x7f, 0x8c, 0x8d);
}

QColor verdictColor(std::optional<sb::agents::Verdict> verdict)
{
    using sb::agents::Verdict;
    if (!verdict)
        return QColor(0xa0, 0xa0, 0xa0);
    switch (*verdict) {
    case Verdict::Allowed:
        return QColor(0x2e, 0x9e, 0x4f);
    case Verdict::Blocked:
        return QColor(0xc0, 0x39, 0x2b);
    case Verdict::Approved:
        return QColor(0x2e, 0x6f, 0xc2);
    case Verdict::Denied:
        return QColor(0xe0, 0x7b, 0x20);
    case Verdict::Failed:
        return QColor(0x6c, 0x75, 0x7d);
    }
    return QColor(0xa0, 0xa0, 0xa0);
}

QString percentOf(std::int64_t part, std::int64_t whole)
{
    return QLocale().toString(whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0, 'f', 1);
}

// One row of a horizontal bar chart: its label, the set it belongs to, its value and its tooltip.
struct Row {
    QString label;
    int set = 0;
    std::int64_t value = 0;
    QString tip;
};
struct SetStyle {
    QString name;
    QColor color;
};

// Rebuilds `chart` as horizontal bars, rows top-down, one stacked set per style (each filling only its own
// rows, which is how Qt Charts colours bars apart).
void fillBars(QChart* chart, const std::vector<Row>& rows, const std::vector<SetStyle>& sets,
              const QString& categoryTitle, const QString& valueTitle)
{
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    auto* series = new QHorizontalStackedBarSeries;
    const auto count = static_cast<int>(rows.size());
    std::int64_t largest = 0;
    for (const SetStyle& style : sets) {
        auto* set = new QBarSet(style.name);
        set->setColor(style.color);
        set->setBorderColor(style.color.darker(110));
        QStringList tips;
        for (int i = count - 1; i >= 0; --i) { // bottom-up: the first row on top
            const Row& row = rows[static_cast<std::size_t>(i)];
            const bool mine = &style == &sets[static_cast<std::size_t>(row.set)];
            set->append(mine ? static_cast<qreal>(row.value) : 0);
            tips << (mine ? row.tip : QString());
        }
        setBarToolTips(set, tips);
        series->append(set);
    }
    QStringList labels;
    for (int i = count - 1; i >= 0; --i) {
        labels << rows[static_cast<std::size_t>(i)].label.toHtmlEscaped(); // axis labels are rich text
        largest = std::max(largest, rows[static_cast<std::size_t>(i)].value);
    }
    series->setBarWidth(0.75);
    showBarToolTips(series);
    chart->addSeries(series);
    auto* categories = new QBarCategoryAxis;
    categories->append(labels);
    categories->setGridLineVisible(false);
    categories->setTruncateLabels(false);
    categories->setTitleText(categoryTitle);
    chart->addAxis(categories, Qt::AlignLeft);
    series->attachAxis(categories);
    auto* values = new QValueAxis;
    values->setTitleText(valueTitle);
    const auto shape = countAxisFor(largest);
    values->setRange(0, static_cast<qreal>(shape.max));
    values->setTickCount(shape.tickCount);
    values->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(values);
}

QString events(std::int64_t n)
{
    return QCoreApplication::translate("sb::ui::ActivityCharts", "%n blocked event(s)", nullptr, static_cast<int>(n));
}

QString steps(std::int64_t n)
{
    return QCoreApplication::translate("sb::ui::ActivityCharts", "%n step(s)", nullptr, static_cast<int>(n));
}

QTableWidgetItem* cell(const QString& text, const QString& tip = {})
{
    auto* item = new QTableWidgetItem(text);
    item->setToolTip(tip.isEmpty() ? text : tip);
    return item;
}

} // namespace

ActivityCharts::ActivityCharts(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("activityCharts"));
    m_kindView = makeView(makeChart(tr("Blocked events by kind")), QStringLiteral("blockedKindChart"),
                          QStringLiteral("blocked-by-kind"));
    m_kindView->setMinimumHeight(220);
    auto* targetChart = makeChart(tr("Most blocked targets"));
    targetChart->legend()->setAlignment(Qt::AlignBottom);
    m_targetView = makeView(targetChart, QStringLiteral("blockedTargetChart"), QStringLiteral("blocked-targets"));
    m_targetView->setMinimumHeight(340); // ten targets and the legend of their kinds
    m_verdictView = makeView(makeChart(tr("Agent steps by verdict")), QStringLiteral("verdictChart"),
                             QStringLiteral("agent-steps-by-verdict"));
    m_verdictView->setMinimumHeight(230);

    auto* promotionsTitle = new QLabel(tr("Recent promotions"), this);
    QFont titleFont = promotionsTitle->font();
    titleFont.setBold(true);
    promotionsTitle->setFont(titleFont);
    m_promotions = new QTableWidget(0, 6, this);
    m_promotions->setObjectName(QStringLiteral("promotionTable"));
    m_promotions->setHorizontalHeaderLabels(
        {tr("When"), tr("Promotion"), tr("Risk"), tr("Approved by"), tr("Files"), tr("Outcome")});
    m_promotions->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_promotions->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_promotions->setWordWrap(false);
    m_promotions->setShowGrid(false);
    m_promotions->setAlternatingRowColors(true);
    m_promotions->verticalHeader()->hide();
    m_promotions->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_promotions->horizontalHeader()->setStretchLastSection(true);
    m_promotions->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    const int rowHeight = m_promotions->fontMetrics().height() + 8;
    m_promotions->verticalHeader()->setDefaultSectionSize(rowHeight);
    m_promotionsEmpty = new QLabel(tr("No promotion in this span of time. Promote a sandbox from Checkpoints."), this);
    m_promotionsEmpty->setObjectName(QStringLiteral("promotionsEmpty"));
    m_promotionsEmpty->setWordWrap(true);
    m_promotionsEmpty->setForegroundRole(QPalette::PlaceholderText); // secondary text, in the theme's colour

    m_promotionsBox = new QWidget(this);
    auto* box = new QVBoxLayout(m_promotionsBox);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(4);
    box->addWidget(promotionsTitle);
    box->addWidget(m_promotionsEmpty);
    box->addWidget(m_promotions);
    box->addStretch();
    auto* saveCsv = new QAction(tr("Save as CSV…"), m_promotions);
    saveCsv->setObjectName(QStringLiteral("actionPromotionsCsv"));
    connect(saveCsv, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save promotions"),
                                                          QStringLiteral("recent-promotions.csv"), tr("CSV (*.csv)"));
        if (path.isEmpty())
            return;
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(promotionsCsv().toUtf8()) < 0 || !file.commit())
            QMessageBox::warning(this, tr("Save promotions"), tr("Cannot write %1").arg(path));
    });
    m_promotions->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_promotions->addAction(saveCsv);

    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(8);
    arrange(false);
    setActivity({}, 0, 0);
}

void ActivityCharts::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Two charts side by side need about 450 px each for their labels and axes.
    const bool wide = width() >= 960;
    if (wide != m_twoColumns)
        arrange(wide);
}

void ActivityCharts::arrange(bool twoColumns)
{
    m_twoColumns = twoColumns;
    for (QWidget* w : {static_cast<QWidget*>(m_kindView), static_cast<QWidget*>(m_verdictView),
                       static_cast<QWidget*>(m_targetView), m_promotionsBox})
        m_grid->removeWidget(w);
    if (twoColumns) {
        // Kinds beside verdicts, then the targets beside the promotions.
        m_grid->addWidget(m_kindView, 0, 0);
        m_grid->addWidget(m_verdictView, 0, 1);
        m_grid->addWidget(m_targetView, 1, 0);
        m_grid->addWidget(m_promotionsBox, 1, 1);
        m_grid->setColumnStretch(0, 1);
        m_grid->setColumnStretch(1, 1);
    } else {
        m_grid->addWidget(m_kindView, 0, 0);
        m_grid->addWidget(m_targetView, 1, 0);
        m_grid->addWidget(m_verdictView, 2, 0);
        m_grid->addWidget(m_promotionsBox, 3, 0);
        m_grid->setColumnStretch(0, 1);
        m_grid->setColumnStretch(1, 0);
    }
}

QString ActivityCharts::promotionsCsv() const
{
    auto field = [](QString text) -> QString {
        if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n'))
            || text.contains(QLatin1Char('\r'))) {
            text.replace(QLatin1Char('"'), QStringLiteral("\"\""));
            return QStringLiteral("\"%1\"").arg(text);
        }
        return text;
    };
    QStringList lines{QStringLiteral("time,actor,source,target,risk,approved_by,approval_note,files,checkpoint,recovered")};
    for (int row = 0; row < m_promotions->rowCount(); ++row) {
        const sb::PromotionRecord& p = m_data.promotions[static_cast<std::size_t>(row)];
        lines << QStringList{QDateTime::fromMSecsSinceEpoch(p.atMs).toString(Qt::ISODate), field(toQString(p.actor)),
                             field(toQString(p.source)), field(toQString(p.target)), field(toQString(p.risk)),
                             field(toQString(p.approvedBy)), field(toQString(p.approvalNote)),
                             p.files < 0 ? QString() : QString::number(p.files), field(toQString(p.checkpoint)),
                             p.recovered ? QStringLiteral("true") : QStringLiteral("false")}
                     .join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QChartView* ActivityCharts::makeView(QChart* chart, const QString& objectName, const QString& fileStem)
{
    auto* view = new QChartView(chart, this);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setWhatsThis(tr("Hover a bar for its count; right-click to save the chart or its data"));
    addChartExportActions(view, fileStem);
    followPalette(view);
    return view;
}

void ActivityCharts::setActivity(const DashboardActivity& activity, std::int64_t fromMs, std::int64_t untilMs)
{
    m_data = activityChartDataFrom(activity, fromMs, untilMs);
    showKinds();
    showTargets();
    showVerdicts();
    showPromotions();
}

void ActivityCharts::showKinds()
{
    const auto& blocked = m_data.blocked;
    std::vector<Row> rows;
    std::vector<SetStyle> sets;
    for (const auto& kind : blocked.byKind) {
        const QString name = toQString(kind.name);
        rows.push_back({shortLabel(name, kMaxCategoryChars), static_cast<int>(sets.size()), kind.count,
                        tr("%1: %2 (%3 % of %4)")
                            .arg(name, events(kind.count), percentOf(kind.count, blocked.total))
                            .arg(QLocale().toString(blocked.total))});
        sets.push_back({name, kindColor(kind.name)});
    }
    QChart* chart = m_kindView->chart();
    chart->setTitle(rows.empty() ? tr("Blocked events by kind: none") : tr("Blocked events by kind"));
    fillBars(chart, rows, sets, tr("Kind"), tr("Blocked events"));
}

void ActivityCharts::showTargets()
{
    const auto& blocked = m_data.blocked;
    std::vector<SetStyle> sets;
    std::map<std::string, int, std::less<>> setOf;
    std::map<std::string, int, std::less<>> targetUses; // a target blocked under two kinds names its kind
    for (const auto& target : blocked.topTargets)
        ++targetUses[target.target];
    std::vector<Row> rows;
    std::set<QString> labels;
    for (const auto& target : blocked.topTargets) {
        auto [it, added] = setOf.try_emplace(target.kind, static_cast<int>(sets.size()));
        if (added)
            sets.push_back({toQString(target.kind), kindColor(target.kind)});
        const QString name = toQString(target.target);
        const QString kind = toQString(target.kind);
        QString label = targetUses[target.target] > 1 ? QStringLiteral("%1 (%2)").arg(name, kind) : name;
        label = shortLabel(label, kMaxCategoryChars);
        while (!labels.insert(label).second) // two long names shortened alike stay two rows
            label += QLatin1Char(' ');
        rows.push_back({label, it->second, target.count,
                        tr("%1 — %2: %3").arg(name, kind, events(target.count))});
    }
    QChart* chart = m_targetView->chart();
    chart->setTitle(rows.empty() ? tr("Most blocked targets: none")
                    : blocked.otherTargets > 0
                        ? tr("Most blocked targets (%1 more elsewhere)").arg(QLocale().toString(blocked.otherTargets))
                        : tr("Most blocked targets"));
    fillBars(chart, rows, sets, tr("Blocked target"), tr("Blocked events"));
    chart->legend()->setVisible(!sets.empty());
}

void ActivityCharts::showVerdicts()
{
    const auto& verdicts = m_data.verdicts;
    std::vector<Row> rows;
    std::vector<SetStyle> sets;
    for (sb::agents::Verdict verdict : sb::agents::kAllVerdicts) {
        const QString name = toQString(sb::agents::toString(verdict));
        const std::int64_t n = verdicts.of(verdict);
        rows.push_back({name, static_cast<int>(sets.size()), n,
                        tr("%1: %2 (%3 % of %4)")
                            .arg(name, steps(n), percentOf(n, verdicts.total))
                            .arg(QLocale().toString(verdicts.total))});
        sets.push_back({name, verdictColor(verdict)});
    }
    if (verdicts.unknown > 0) {
        const QString name = tr("unknown");
        rows.push_back({name, static_cast<int>(sets.size()), verdicts.unknown,
                        tr("%1 of a verdict this version does not know (%2 % of %3)")
                            .arg(steps(verdicts.unknown), percentOf(verdicts.unknown, verdicts.total))
                            .arg(QLocale().toString(verdicts.total))});
        sets.push_back({name, verdictColor(std::nullopt)});
    }
    fillBars(m_verdictView->chart(), rows, sets, tr("Verdict"), tr("Agent steps"));
}

void ActivityCharts::showPromotions()
{
    const auto& promotions = m_data.promotions;
    const int shown = std::min(kPromotionRows, static_cast<int>(promotions.size()));
    m_promotions->setRowCount(shown);
    const QLocale locale;
    for (int row = 0; row < shown; ++row) {
        const sb::PromotionRecord& p = promotions[static_cast<std::size_t>(row)];
        const QDateTime when = QDateTime::fromMSecsSinceEpoch(p.atMs);
        const QString source = p.source.empty() ? tr("(unknown)") : toQString(p.source);
        const QString target = p.target.empty() ? tr("(unknown)") : toQString(p.target);
        m_promotions->setItem(row, 0, cell(locale.toString(when, QLocale::ShortFormat),
                                           tr("%1 by %2").arg(locale.toString(when, QLocale::LongFormat),
                                                              toQString(p.actor))));
        m_promotions->setItem(row, 1, cell(QStringLiteral("%1 → %2").arg(source, target),
                                           tr("Sandbox %1 promoted into %2; checkpoint %3")
                                               .arg(source, target, toQString(p.checkpoint))));
        m_promotions->setItem(row, 2, cell(p.risk.empty() ? tr("(not recorded)") : toQString(p.risk)));
        m_promotions->setItem(row, 3, cell(p.approvedBy.empty() ? tr("no approval") : toQString(p.approvedBy),
                                           p.approvedBy.empty() ? tr("Promoted without an approval")
                                                                : tr("Approved by %1: %2")
                                                                      .arg(toQString(p.approvedBy),
                                                                           toQString(p.approvalNote))));
        m_promotions->setItem(row, 4, cell(p.files < 0 ? QStringLiteral("–") : locale.toString(p.files)));
        m_promotions->setItem(row, 5, cell(p.recovered ? tr("applied after a crash") : tr("applied")));
    }
    // As tall as its rows, so the dashboard does not scroll past blank lines.
    const int rowHeight = m_promotions->verticalHeader()->defaultSectionSize();
    // Room for a horizontal scroll bar too, which a narrow dashboard shows below the rows.
    m_promotions->setFixedHeight(m_promotions->horizontalHeader()->sizeHint().height() + rowHeight * shown
                                 + m_promotions->horizontalScrollBar()->sizeHint().height()
                                 + 2 * m_promotions->frameWidth());
    m_promotions->setVisible(shown > 0);
    m_promotionsEmpty->setVisible(shown == 0);
}

} // namespace sb::ui
