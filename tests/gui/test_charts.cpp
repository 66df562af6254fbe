// The charts of the rules A/B screen and of the metrics dashboard, read as a person reads them at 1366×768 and
// 1440×900: every title, category, legend entry and axis title shown whole inside its chart; the change
// against the baseline equal to the transitions core computes; the time range and a click narrowing what the
// dashboard and the run history show; exports. Screenshots of both screens at both sizes go to the build tree.

#include "chart_reading.h"
#include "gui_test_main.h"
#include "ui/charts/ActivityCharts.h"
#include "ui/charts/ChartSupport.h"
#include "ui/charts/MetricsDashboard.h"
#include "ui/jobs/RunJob.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/models/RunHistoryModel.h"
#include "ui/rules/RulesCharts.h"
#include "ui/rules/RulesWorkspace.h"
#include "agents/session_store.h"
#include "store/audit.h"
#include "store/store.h"

#include <QAbstractBarSeries>
#include <QAction>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QImage>
#include <QLocale>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QValueAxis>

#include <map>
#include <memory>

using namespace sb::ui;
using sb::guitest::plain;
using sb::guitest::unreadable;

namespace {

template <typename Series>
Series* seriesOf(QChartView* view)
{
    for (QAbstractSeries* s : view->chart()->series())
        if (auto* typed = qobject_cast<Series*>(s))
            return typed;
    return nullptr;
}

QBarSet* setLabelled(QAbstractBarSeries* series, const QString& label)
{
    for (QBarSet* set : series->barSets())
        if (set->label() == label)
            return set;
    return nullptr;
}

// The categories of a bar chart top-down (horizontal charts list them bottom-up).
QStringList categoriesTopDown(QChartView* view)
{
    for (QAbstractAxis* axis : view->chart()->axes()) {
        if (auto* cats = qobject_cast<QBarCategoryAxis*>(axis)) {
            QStringList out;
            for (const QString& c : cats->categories())
                out << plain(c);
            if (axis->alignment() == Qt::AlignLeft)
                std::reverse(out.begin(), out.end());
            return out;
        }
    }
    return {};
}

// The value of `set` at a category shown top-down at `row`.
double valueAt(QBarSet* set, int row, int rows, bool horizontal)
{
    return set->at(horizontal ? rows - 1 - row : row);
}

// Each row's value top-down, summed over the sets (a stacked chart gives each row its own set), by label.
std::map<QString, double> rowValues(QChartView* view)
{
    std::map<QString, double> out;
    auto* series = seriesOf<QAbstractBarSeries>(view);
    if (!series)
        return out;
    const QStringList rows = categoriesTopDown(view);
    const int n = static_cast<int>(rows.size());
    for (int r = 0; r < n; ++r)
        for (QBarSet* set : series->barSets())
            out[rows[r]] += valueAt(set, r, n, true);
    return out;
}

// The tooltip of the bar at row `row` (top-down) of a horizontal stacked chart: the one set that fills it.
QString rowToolTip(QChartView* view, int row)
{
    auto* series = seriesOf<QAbstractBarSeries>(view);
    const int n = static_cast<int>(categoriesTopDown(view).size());
    for (QBarSet* set : series->barSets())
        if (const QString tip = barToolTip(set, n - 1 - row); !tip.isEmpty())
            return tip;
    return {};
}

// What a person could not read in one of the activity charts: as unreadable(), except a category label the
// chart shortened itself (its whole text is in the bar's tooltip).
QStringList unreadableActivity(QChartView* view)
{
    QStringList problems = unreadable(view);
    const QStringList rows = categoriesTopDown(view);
    problems.removeIf([&](const QString& p) {
        for (const QString& row : rows)
            if (p == QStringLiteral("elided '%1'").arg(row.simplified()))
                return true;
        return false;
    });
    return problems;
}

sb::RunResult seededResult(sb::Outcome outcome, std::int64_t startedAtMs, double durationMs)
{
    sb::RunResult r;
    r.outcome = outcome;
    r.startedAtMs = startedAtMs;
    r.durationMs = durationMs;
    r.message = sb::Message::plain("seeded for the chart tests");
    r.runId = "seeded-" + std::to_string(startedAtMs);
    return r;
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void changeChartEqualsCoreTransitions();
    void rulesChartsReadWhole_data();
    void rulesChartsReadWhole();
    void metricsChartsHaveAxisTitlesAndATimeAxis();
    void timeRangeNarrowsAndIsRemembered();
    void clickOnAnOutcomeFiltersTheHistory();
    void clickOnATimelinePointFilters();
    void chartsExportPngAndCsv();
    void activityChartsShowTheStoresCounts();
    void activityChartsNarrowWithTheRange();
    void metricsReadWholeAfterTheDemo_data();
    void metricsReadWholeAfterTheDemo();
    void dashboardFillsAWindow_data();
    void dashboardFillsAWindow();

private:
    RulesWorkspace* ws() const { return m_window->rulesWorkspace(); }
    MetricsDashboard* dashboard() const { return m_window->findChild<MetricsDashboard*>(QStringLiteral("metricsDashboard")); }
    QTableView* history() const { return m_window->findChild<QTableView*>(QStringLiteral("historyView")); }
    void showAt(const QSize& size);
    void screenshot(const QString& name, QWidget* widget = nullptr);

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    std::map<sb::Outcome, int> m_seeded; // runs recorded before the window opened, by outcome
    // Blocked events of the seeded runs: what the activity charts must count.
    struct SeededBlock {
        std::int64_t agoMs;
        sb::BlockedEvent event;
    };
    std::vector<SeededBlock> m_blocked;
    std::int64_t m_seedNow = 0;
};

void TestCharts::screenshot(const QString& name, QWidget* widget)
{
    QDir().mkpath(QStringLiteral(SANDBENCH_SCREENSHOT_DIR));
    const QString path = QStringLiteral(SANDBENCH_SCREENSHOT_DIR) + QLatin1Char('/') + name;
    QVERIFY((widget ? widget : m_window.get())->grab().save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

void TestCharts::showAt(const QSize& size)
{
    m_window->showNormal();
    m_window->resize(size);
    QTRY_COMPARE(m_window->size(), size);
    QTest::qWait(300); // the charts lay out their titles and axes at the final size
    QApplication::processEvents();
}

void TestCharts::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString storePath = m_dir.path() + QStringLiteral("/store.db");
    {
        // Runs over the last two days, so the time range has something to narrow.
        auto store = sb::Store::open(storePath.toStdString());
        QVERIFY(store.has_value());
        m_seedNow = QDateTime::currentMSecsSinceEpoch();
        const std::int64_t minute = 60 * 1000;
        struct Seed {
            sb::Outcome outcome;
            std::int64_t agoMs;
            double durationMs;
        };
        const Seed seeds[] = {
            {sb::Outcome::Ok, 20 * minute, 12},       {sb::Outcome::Ok, 25 * minute, 30},
            {sb::Outcome::Blocked, 30 * minute, 8},   {sb::Outcome::Timeout, 5 * 60 * minute, 5000},
            {sb::Outcome::Ok, 6 * 60 * minute, 40},   {sb::Outcome::Blocked, 30 * 60 * minute, 9},
            {sb::Outcome::Error, 40 * 60 * minute, 70},
        };
        // The blocked runs' events: a module twice, a host, a syscall, a path; the last a day and more ago.
        const std::string longPath = "/home/someone/projects/a-rather-long-folder-name/with/deeper/secrets.txt";
        m_blocked = {
            {30 * minute, {"import", "numpy"}},
            {30 * minute, {"network", "evil.example.com:443 (not on the policy's allowlist)"}},
            {30 * minute, {"path", "open " + longPath + " (read): outside the policy's readable paths"}},
            {30 * 60 * minute, {"import", "numpy"}},
            {30 * 60 * minute, {"syscall", "ptrace(PTRACE_TRACEME, 0)"}},
        };
        for (const Seed& s : seeds) {
            sb::RunRequest request;
            request.source = "print('seeded')";
            request.label = "seeded";
            sb::RunResult result = seededResult(s.outcome, m_seedNow - s.agoMs, s.durationMs);
            for (const SeededBlock& b : m_blocked)
                if (s.outcome == sb::Outcome::Blocked && b.agoMs == s.agoMs)
                    result.blocked.push_back(b.event);
            const auto recorded = store->recordRun(request, result);
            QVERIFY2(recorded.has_value(), recorded ? "" : recorded.error().message.c_str());
            ++m_seeded[s.outcome];
        }
        // An agent session ten minutes ago: two steps allowed, two blocked (one tool twice), one denied, one
        // approved, one failed; and a step two days ago, allowed.
        sb::agents::SessionStore sessions(*store);
        sb::agents::SessionInfo info;
        info.command = {"python3", "agent.py"};
        info.sandbox = "main";
        info.startedAtMs = m_seedNow - 10 * minute;
        auto live = sessions.begin(info);
        QVERIFY2(live.has_value(), live ? "" : live.error().message.c_str());
        using sb::agents::Verdict;
        const std::pair<const char*, Verdict> steps[] = {
            {"read_file", Verdict::Allowed}, {"list_dir", Verdict::Allowed}, {"write_file", Verdict::Blocked},
            {"write_file", Verdict::Blocked}, {"rm_rf", Verdict::Denied},    {"git_push", Verdict::Approved},
            {"fetch_url", Verdict::Failed},
        };
        std::int64_t at = m_seedNow - 10 * minute;
        for (const auto& [tool, verdict] : steps) {
            sb::agents::StepRecord step;
            step.tool = tool;
            step.verdict = verdict;
            step.startedAtMs = ++at;
            step.endedAtMs = at;
            QVERIFY(live->addStep(step).has_value());
        }
        QVERIFY(live->end(sb::agents::SessionStatus::Completed, "seeded").has_value());
        info.startedAtMs = m_seedNow - 48 * 60 * minute;
        auto old = sessions.begin(info);
        QVERIFY(old.has_value());
        sb::agents::StepRecord oldStep;
        oldStep.tool = "read_file";
        oldStep.startedAtMs = m_seedNow - 48 * 60 * minute;
        QVERIFY(old->addStep(oldStep).has_value());
        QVERIFY(old->end(sb::agents::SessionStatus::Completed, "seeded").has_value());
        // Two promotions into main: one at high risk with its approval five minutes ago, one two days ago.
        sb::AuditEntry approved(sb::audit_op::kPromote, "main",
                                {{"source", "try-upgrade"}, {"target", "main"}, {"risk", "high"},
                                 {"approval", {{"by", "reviewer"}, {"note", "checked the impact"}}},
                                 {"impact", {{"files", 3}}}, {"checkpoint", "c-approved"}, {"recovered", false}});
        approved.atMs = m_seedNow - 5 * minute;
        approved.actor = "analyst";
        QVERIFY(sb::appendAudit(*store, approved).has_value());
        sb::AuditEntry older(sb::audit_op::kPromote, "main",
                             {{"source", "tweak-rules"}, {"target", "main"}, {"risk", "low"}, {"approval", nullptr},
                              {"impact", {{"files", 1}}}, {"checkpoint", "c-low"}, {"recovered", false}});
        older.atMs = m_seedNow - 48 * 60 * minute;
        older.actor = "analyst";
        QVERIFY(sb::appendAudit(*store, older).has_value());
    }
    m_window = std::make_unique<MainWindow>(storePath.toStdString());
    const auto storeError = m_window->openStore();
    QVERIFY2(!storeError, storeError ? qPrintable(*storeError) : "");
    m_window->resize(1366, 768);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QCOMPARE(dashboard()->data().total, 7);

    // The demo's A/B: the demo rule sets compared on the demo transactions.
    m_window->findChild<QAction*>(QStringLiteral("actionRules"))->trigger();
    QTRY_VERIFY(ws()->isVisible());
    ws()->findChild<QAction*>(QStringLiteral("actionRulesDemo"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(ws()->dataset() != nullptr && !ws()->jobs()->isBusy(), 30000);
    QVERIFY(ws()->compare());
    QTRY_VERIFY_WITH_TIMEOUT(ws()->result() != nullptr && ws()->result()->compare && !ws()->jobs()->isBusy(), 30000);
}

void TestCharts::changeChartEqualsCoreTransitions()
{
    const RulesResult* result = ws()->result();
    QCOMPARE(result->impacts.size(), std::size_t(2));
    RulesCharts* charts = ws()->charts();
    QVERIFY(!charts->changeChart()->isHidden());
    auto* change = seriesOf<QAbstractBarSeries>(charts->changeChart());
    QVERIFY(change);
    const QStringList variants = categoriesTopDown(charts->changeChart());
    QCOMPARE(variants, QStringList({QStringLiteral("variant_a"), QStringLiteral("variant_b")}));
    // Net change of each decision = records moving into it minus records moving out, from core's transitions.
    int nonZero = 0;
    for (std::size_t v = 0; v < result->impacts.size(); ++v) {
        std::map<QString, std::int64_t> net;
        for (const auto& [move, n] : result->impacts[v].transitions) {
            net[QString::fromStdString(move.first)] -= n;
            net[QString::fromStdString(move.second)] += n;
        }
        for (const auto& [decision, n] : net) {
            QBarSet* set = setLabelled(change, decision);
            if (n == 0 && !set)
                continue;
            QVERIFY2(set, qPrintable(decision));
            QCOMPARE(valueAt(set, static_cast<int>(v), 2, true), static_cast<double>(n));
            QVERIFY2(barToolTip(set, 1 - static_cast<int>(v)).contains(QLocale().toString(static_cast<qlonglong>(std::abs(n)))),
                     qPrintable(barToolTip(set, 1 - static_cast<int>(v))));
            nonZero += n != 0;
        }
    }
    QVERIFY(nonZero > 0);
    // Its own scale: the largest change fills at least a third of the axis, not a sliver of 5,000.
    auto* axis = qobject_cast<QValueAxis*>(charts->changeChart()->chart()->axes(Qt::Horizontal).front());
    double largest = 0;
    for (QBarSet* set : change->barSets())
        for (int i = 0; i < set->count(); ++i)
            largest = std::max(largest, std::abs(set->at(i)));
    QVERIFY2(largest >= axis->max() / 3, qPrintable(QStringLiteral("%1 on ±%2").arg(largest).arg(axis->max())));
    QVERIFY(change->isLabelsVisible());

    // The transitions chart: one bar per move and variant, the count core computed.
    auto* moves = seriesOf<QAbstractBarSeries>(charts->transitionsChart());
    QVERIFY(moves);
    const QStringList rows = categoriesTopDown(charts->transitionsChart());
    for (std::size_t v = 0; v < result->impacts.size(); ++v) {
        QBarSet* set = setLabelled(moves, result->ruleSets[v + 1]->name);
        QVERIFY(set);
        for (const auto& [move, n] : result->impacts[v].transitions) {
            const int row = static_cast<int>(rows.indexOf(QStringLiteral("%1 → %2").arg(QString::fromStdString(move.first),
                                                                                      QString::fromStdString(move.second))));
            QVERIFY(row >= 0);
            QCOMPARE(valueAt(set, row, static_cast<int>(rows.size()), true), static_cast<double>(n));
        }
    }
    // The baseline is named as such wherever rule sets are listed.
    QVERIFY(categoriesTopDown(charts->distributionChart()).front().contains(QStringLiteral("baseline")));
}

void TestCharts::rulesChartsReadWhole_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1366x768") << QSize(1366, 768);
    QTest::newRow("1440x900") << QSize(1440, 900);
}

void TestCharts::rulesChartsReadWhole()
{
    QFETCH(QSize, size);
    m_window->findChild<QAction*>(QStringLiteral("actionRules"))->trigger();
    showAt(size);
    auto* scroll = ws()->findChild<QScrollArea*>(QStringLiteral("rulesChartsScroll"));
    QVERIFY(scroll);
    const auto views = ws()->charts()->visibleCharts();
    QCOMPARE(views.size(), std::size_t(7));
    for (QChartView* view : views) {
        // Each chart is looked at where the page scrolls it into view.
        scroll->ensureWidgetVisible(view, 0, 0);
        QApplication::processEvents();
        const QStringList problems = unreadable(view);
        QVERIFY2(problems.isEmpty(), qPrintable(view->objectName() + QStringLiteral(": ") + problems.join(QStringLiteral("; "))));
        QVERIFY2(view->width() >= RulesCharts::kMinChartWidth - 40, qPrintable(QString::number(view->width())));
    }
    // Variant names are whole on every axis that lists rule sets.
    for (QChartView* view : {ws()->charts()->changeChart(), ws()->charts()->impactChart()})
        QCOMPARE(categoriesTopDown(view), QStringList({QStringLiteral("variant_a"), QStringLiteral("variant_b")}));
    scroll->ensureWidgetVisible(ws()->charts()->changeChart(), 0, 0);
    QTest::qWait(100);
    screenshot(QStringLiteral("charts-rules-ab-%1x%2.png").arg(size.width()).arg(size.height()));
    scroll->ensureWidgetVisible(ws()->charts()->scoresChart(), 0, 0);
    QTest::qWait(100);
    screenshot(QStringLiteral("charts-rules-ab-%1x%2-scrolled.png").arg(size.width()).arg(size.height()));
    // Every chart of the page at once, as laid out at this size.
    screenshot(QStringLiteral("charts-rules-ab-%1x%2-all.png").arg(size.width()).arg(size.height()), ws()->charts());
}

void TestCharts::metricsChartsHaveAxisTitlesAndATimeAxis()
{
    MetricsDashboard* d = dashboard();
    for (QChartView* view : {d->outcomeChart(), d->durationChart(), d->timelineChart()}) {
        for (QAbstractAxis* axis : view->chart()->axes())
            QVERIFY2(!axis->titleText().isEmpty(), qPrintable(view->objectName()));
    }
    const auto horizontal = d->timelineChart()->chart()->axes(Qt::Horizontal);
    QCOMPARE(horizontal.size(), 1);
    auto* time = qobject_cast<QDateTimeAxis*>(horizontal.front());
    QVERIFY(time);
    // Every seeded run lies within the time axis.
    QVERIFY(time->min().toMSecsSinceEpoch() <= m_seedNow - 40 * 3600 * 1000LL);
    QVERIFY(time->max().toMSecsSinceEpoch() >= m_seedNow - 20 * 60 * 1000LL);
    QVERIFY(!d->timelineChart()->chart()->series().isEmpty());
}

void TestCharts::timeRangeNarrowsAndIsRemembered()
{
    MetricsDashboard* d = dashboard();
    auto* combo = d->findChild<QComboBox*>(QStringLiteral("metricsRange"));
    QVERIFY(combo);
    auto pick = [&](TimeRange range) { combo->setCurrentIndex(combo->findData(static_cast<int>(range))); };
    auto timelineTotal = [&] {
        std::int64_t n = 0;
        for (const auto& s : d->data().timeline.series)
            for (auto c : s.counts)
                n += c;
        return n;
    };
    auto pointsTotal = [&] {
        double n = 0;
        for (QAbstractSeries* s : d->timelineChart()->chart()->series())
            for (const QPointF& p : static_cast<QLineSeries*>(s)->points())
                n += p.y();
        return n;
    };
    pick(TimeRange::LastHour);
    QCOMPARE(d->timeRange(), TimeRange::LastHour);
    QCOMPARE(d->data().total, 3); // 20, 25 and 30 minutes ago
    QCOMPARE(timelineTotal(), 3);
    QCOMPARE(pointsTotal(), 3.0);
    auto* time = qobject_cast<QDateTimeAxis*>(d->timelineChart()->chart()->axes(Qt::Horizontal).front());
    QVERIFY(time->min().toMSecsSinceEpoch() >= m_seedNow - 2 * 3600 * 1000LL);
    QCOMPARE(time->format(), QStringLiteral("HH:mm"));
    pick(TimeRange::LastDay);
    QCOMPARE(d->data().total, 5);
    QCOMPARE(pointsTotal(), 5.0);
    pick(TimeRange::LastWeek);
    QCOMPARE(d->data().total, 7);
    QCOMPARE(pointsTotal(), 7.0);
    // The choice outlives the window: a new dashboard starts with it.
    pick(TimeRange::LastDay);
    QCOMPARE(QSettings().value(QStringLiteral("metrics/timeRange")).toString(), QStringLiteral("day"));
    MetricsDashboard fresh;
    QCOMPARE(fresh.timeRange(), TimeRange::LastDay);
    pick(TimeRange::All);
    QCOMPARE(d->data().total, 7);
}

void TestCharts::clickOnAnOutcomeFiltersTheHistory()
{
    MetricsDashboard* d = dashboard();
    QSignalSpy spy(d, &MetricsDashboard::filterChanged);
    m_window->showDashboard();
    showAt(QSize(1366, 768));
    QCOMPARE(history()->model()->rowCount(), 7);

    // A real click on the middle of the "blocked" bar.
    QChartView* view = d->outcomeChart();
    view->window()->activateWindow();
    auto* series = seriesOf<QAbstractBarSeries>(view);
    const int rows = static_cast<int>(sb::kAllOutcomes.size());
    const int blockedIndex = static_cast<int>(std::find(sb::kAllOutcomes.begin(), sb::kAllOutcomes.end(), sb::Outcome::Blocked)
                                              - sb::kAllOutcomes.begin());
    const QPointF inChart = view->chart()->mapToPosition(QPointF(m_seeded[sb::Outcome::Blocked] / 2.0, rows - 1 - blockedIndex), series);
    const QPoint at = view->mapFromScene(view->chart()->mapToScene(inChart));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
    QTRY_COMPARE(spy.count(), 1);
    const auto filter = spy.takeFirst().at(0).value<RunFilter>();
    QVERIFY(filter.outcome == sb::Outcome::Blocked);
    QCOMPARE(history()->model()->rowCount(), m_seeded[sb::Outcome::Blocked]);
    for (int r = 0; r < history()->model()->rowCount(); ++r)
        QCOMPARE(history()->model()->index(r, RunHistoryModel::OutcomeColumn).data().toString(), QStringLiteral("blocked"));
    // The counters narrow to the selection, the outcome bars do not (another outcome stays clickable).
    QCOMPARE(d->data().total, m_seeded[sb::Outcome::Blocked]);
    QCOMPARE(d->data().countOf(sb::Outcome::Ok), m_seeded[sb::Outcome::Ok]);
    auto* clear = d->findChild<QToolButton*>(QStringLiteral("metricsFilter"));
    QVERIFY(clear->isVisible());
    QVERIFY(clear->text().contains(QStringLiteral("blocked")));
    screenshot(QStringLiteral("charts-metrics-filtered-1366x768.png"));

    // A duration bin narrows further; the button clears both.
    d->clickDurationBin(0); // below 10 ms: both blocked runs
    QCOMPARE(history()->model()->rowCount(), 2);
    d->clickDurationBin(1);
    QCOMPARE(history()->model()->rowCount(), 0);
    clear->click();
    QVERIFY(d->filter().isEmpty());
    QCOMPARE(history()->model()->rowCount(), 7);
    QVERIFY(!clear->isVisible());
}

void TestCharts::clickOnATimelinePointFilters()
{
    MetricsDashboard* d = dashboard();
    const Timeline& line = d->data().timeline;
    QVERIFY(line.buckets > 0);
    // The bucket of the timeout run (five hours ago).
    const int bucket = static_cast<int>((m_seedNow - 5 * 3600 * 1000LL - line.startMs) / line.bucketMs);
    d->clickTimelinePoint(sb::Outcome::Timeout, bucket);
    QCOMPARE(history()->model()->rowCount(), 1);
    QCOMPARE(history()->model()->index(0, RunHistoryModel::OutcomeColumn).data().toString(), QStringLiteral("timeout"));
    d->clickTimelinePoint(sb::Outcome::Timeout, bucket); // again: cleared
    QCOMPARE(history()->model()->rowCount(), 7);
}

void TestCharts::chartsExportPngAndCsv()
{
    QTemporaryDir out;
    QChartView* change = ws()->charts()->changeChart();
    QVERIFY(saveChartPng(change, out.filePath(QStringLiteral("change.png"))));
    QVERIFY(QImage(out.filePath(QStringLiteral("change.png"))).width() > 100);
    const QString csv = chartCsv(change->chart());
    QVERIFY2(csv.startsWith(QStringLiteral("category,")), qPrintable(csv));
    QVERIFY2(csv.contains(QStringLiteral("\nvariant_a,")) && csv.contains(QStringLiteral("\nvariant_b,")), qPrintable(csv));
    const QString timeline = chartCsv(dashboard()->timelineChart()->chart());
    QVERIFY2(timeline.startsWith(QStringLiteral("series,time,value\n")), qPrintable(timeline));
    QVERIFY(saveChartCsv(dashboard()->outcomeChart()->chart(), out.filePath(QStringLiteral("outcomes.csv"))));
    QFile file(out.filePath(QStringLiteral("outcomes.csv")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(file.readAll()).contains(QStringLiteral("blocked")));
    // Both are offered in each chart's context menu.
    QVERIFY(change->findChild<QAction*>(QStringLiteral("actionChartPng")));
    QVERIFY(dashboard()->durationChart()->findChild<QAction*>(QStringLiteral("actionChartCsv")));
}

void TestCharts::activityChartsShowTheStoresCounts()
{
    MetricsDashboard* d = dashboard();
    QCOMPARE(d->timeRange(), TimeRange::All);
    ActivityCharts* a = d->activityCharts();
    QVERIFY(a);

    // Blocked events by kind: the runs' five and the three refused tool calls (two blocked, one denied).
    QCOMPARE(categoriesTopDown(a->blockedKindChart()),
             (QStringList{QStringLiteral("tool"), QStringLiteral("import"), QStringLiteral("network"),
                          QStringLiteral("path"), QStringLiteral("syscall")}));
    const std::map<QString, double> kinds = {{QStringLiteral("tool"), 3},    {QStringLiteral("import"), 2},
                                             {QStringLiteral("network"), 1}, {QStringLiteral("path"), 1},
                                             {QStringLiteral("syscall"), 1}};
    QCOMPARE(rowValues(a->blockedKindChart()), kinds);
    QVERIFY2(rowToolTip(a->blockedKindChart(), 0).contains(QStringLiteral("tool: 3 blocked event")),
             qPrintable(rowToolTip(a->blockedKindChart(), 0)));

    // The most blocked targets: the module, the tool, then the host, the path (shortened), the syscall, the tool.
    const QStringList targets = categoriesTopDown(a->blockedTargetChart());
    QCOMPARE(targets.size(), 6);
    QCOMPARE(targets.mid(0, 3), (QStringList{QStringLiteral("numpy"), QStringLiteral("write_file"),
                                             QStringLiteral("evil.example.com")}));
    QVERIFY2(targets[3].startsWith(QStringLiteral("/home/")) && targets[3].endsWith(QStringLiteral("secrets.txt"))
                 && targets[3].size() <= 30,
             qPrintable(targets[3]));
    QCOMPARE(targets.mid(4), (QStringList{QStringLiteral("ptrace"), QStringLiteral("rm_rf")}));
    const auto targetValues = rowValues(a->blockedTargetChart());
    QCOMPARE(targetValues.at(QStringLiteral("numpy")), 2.0);
    QCOMPARE(targetValues.at(QStringLiteral("write_file")), 2.0);
    QCOMPARE(targetValues.at(QStringLiteral("ptrace")), 1.0);
    // The whole path is in its bar's tooltip.
    QVERIFY2(rowToolTip(a->blockedTargetChart(), 3).contains(QStringLiteral("deeper/secrets.txt — path: 1 blocked event")),
             qPrintable(rowToolTip(a->blockedTargetChart(), 3)));
    // The legend names the kinds, one colour each.
    QCOMPARE(a->blockedTargetChart()->chart()->legend()->markers().size(), 5);

    // Agent steps by verdict, every verdict in its order.
    QCOMPARE(categoriesTopDown(a->verdictChart()),
             (QStringList{QStringLiteral("allowed"), QStringLiteral("blocked"), QStringLiteral("approved"),
                          QStringLiteral("denied"), QStringLiteral("failed")}));
    const std::map<QString, double> verdicts = {{QStringLiteral("allowed"), 3}, {QStringLiteral("blocked"), 2},
                                                {QStringLiteral("approved"), 1}, {QStringLiteral("denied"), 1},
                                                {QStringLiteral("failed"), 1}};
    QCOMPARE(rowValues(a->verdictChart()), verdicts);
    QVERIFY2(rowToolTip(a->verdictChart(), 1).contains(QStringLiteral("blocked: 2 step")), qPrintable(rowToolTip(a->verdictChart(), 1)));

    // Recent promotions, newest first, with risk and approval.
    QTableWidget* table = a->promotionTable();
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("try-upgrade → main"));
    QCOMPARE(table->item(0, 2)->text(), QStringLiteral("high"));
    QCOMPARE(table->item(0, 3)->text(), QStringLiteral("reviewer"));
    QVERIFY(table->item(0, 3)->toolTip().contains(QStringLiteral("checked the impact")));
    QCOMPARE(table->item(0, 4)->text(), QStringLiteral("3"));
    QCOMPARE(table->item(1, 1)->text(), QStringLiteral("tweak-rules → main"));
    QCOMPARE(table->item(1, 3)->text(), QStringLiteral("no approval"));

    // Every chart has its axis titles, and exports as PNG and CSV.
    for (QChartView* view : {a->blockedKindChart(), a->blockedTargetChart(), a->verdictChart()}) {
        for (QAbstractAxis* axis : view->chart()->axes())
            QVERIFY2(!axis->titleText().isEmpty(), qPrintable(view->objectName()));
        QVERIFY(view->findChild<QAction*>(QStringLiteral("actionChartPng")));
        QVERIFY(view->findChild<QAction*>(QStringLiteral("actionChartCsv")));
    }
    const QString csv = chartCsv(a->blockedKindChart()->chart());
    QVERIFY2(csv.startsWith(QStringLiteral("Kind,")) && csv.contains(QStringLiteral("\ntool,")), qPrintable(csv));
    QTemporaryDir out;
    QVERIFY(saveChartPng(a->verdictChart(), out.filePath(QStringLiteral("verdicts.png"))));
    QVERIFY(QImage(out.filePath(QStringLiteral("verdicts.png"))).width() > 100);

    // The duration histogram names its percentiles.
    const QString title = d->durationChart()->chart()->title();
    QVERIFY2(title.contains(QStringLiteral("p50")) && title.contains(QStringLiteral("p95"))
                 && title.contains(QStringLiteral("p99")),
             qPrintable(title));
}

void TestCharts::activityChartsNarrowWithTheRange()
{
    MetricsDashboard* d = dashboard();
    ActivityCharts* a = d->activityCharts();
    auto* combo = d->findChild<QComboBox*>(QStringLiteral("metricsRange"));
    combo->setCurrentIndex(combo->findData(static_cast<int>(TimeRange::LastHour)));
    // The last hour: the blocked run of thirty minutes ago and the session of ten; the newer promotion.
    const std::map<QString, double> kinds = {{QStringLiteral("tool"), 3}, {QStringLiteral("import"), 1},
                                             {QStringLiteral("network"), 1}, {QStringLiteral("path"), 1}};
    QCOMPARE(rowValues(a->blockedKindChart()), kinds);
    QCOMPARE(a->data().blocked.total, 6);
    QCOMPARE(rowValues(a->verdictChart()).at(QStringLiteral("allowed")), 2.0);
    QCOMPARE(a->data().verdicts.total, 7);
    QCOMPARE(a->promotionTable()->rowCount(), 1);
    QCOMPARE(a->promotionTable()->item(0, 1)->text(), QStringLiteral("try-upgrade → main"));
    // A click on a point of the timeline narrows them to its window of time: the timeout run five hours ago
    // blocked nothing, and no step or promotion falls there.
    combo->setCurrentIndex(combo->findData(static_cast<int>(TimeRange::All)));
    const Timeline& line = d->data().timeline;
    const int bucket = static_cast<int>((m_seedNow - 5 * 3600 * 1000LL - line.startMs) / line.bucketMs);
    d->clickTimelinePoint(sb::Outcome::Timeout, bucket);
    QCOMPARE(a->data().blocked.total, 0);
    QCOMPARE(a->data().verdicts.total, 0);
    QVERIFY(a->promotionTable()->isHidden());
    QVERIFY(a->blockedKindChart()->chart()->title().contains(QStringLiteral("none")));
    d->setFilter({});
    QCOMPARE(a->data().blocked.total, 8);
    QCOMPARE(a->promotionTable()->rowCount(), 2);
}

void TestCharts::metricsReadWholeAfterTheDemo_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1366x768") << QSize(1366, 768);
    QTest::newRow("1440x900") << QSize(1440, 900);
}

void TestCharts::metricsReadWholeAfterTheDemo()
{
    QFETCH(QSize, size);
    if (dashboard()->data().total == 7) {
        auto* demo = m_window->findChild<QAction*>(QStringLiteral("actionDemo"));
        demo->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->jobs()->isRunning(), 180000);
        QVERIFY(dashboard()->data().total > 7);
    }
    m_window->showDashboard();
    showAt(size);
    MetricsDashboard* d = dashboard();
    auto* scroll = d->findChild<QScrollArea*>(QStringLiteral("metricsChartsScroll"));
    for (QChartView* view : {d->outcomeChart(), d->durationChart(), d->timelineChart()}) {
        QVERIFY2(view->height() >= view->minimumHeight(), qPrintable(view->objectName()));
        scroll->ensureWidgetVisible(view, 0, 0);
        QApplication::processEvents();
        const QStringList problems = unreadable(view);
        QVERIFY2(problems.isEmpty(), qPrintable(view->objectName() + QStringLiteral(": ") + problems.join(QStringLiteral("; "))));
    }
    ActivityCharts* a = d->activityCharts();
    for (QChartView* view : {a->blockedKindChart(), a->blockedTargetChart(), a->verdictChart()}) {
        QVERIFY2(view->height() >= view->minimumHeight(), qPrintable(view->objectName()));
        scroll->ensureWidgetVisible(view, 0, 0);
        QApplication::processEvents();
        const QStringList problems = unreadableActivity(view);
        QVERIFY2(problems.isEmpty(), qPrintable(view->objectName() + QStringLiteral(": ") + problems.join(QStringLiteral("; "))));
    }
    scroll->ensureWidgetVisible(a->blockedKindChart(), 0, 0);
    QTest::qWait(100);
    screenshot(QStringLiteral("charts-activity-%1x%2.png").arg(size.width()).arg(size.height()));
    screenshot(QStringLiteral("charts-activity-%1x%2-all.png").arg(size.width()).arg(size.height()), a);
    scroll->ensureWidgetVisible(d->outcomeChart(), 0, 0);
    QTest::qWait(100);
    screenshot(QStringLiteral("charts-metrics-%1x%2.png").arg(size.width()).arg(size.height()));
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    QTest::qWait(100);
    screenshot(QStringLiteral("charts-metrics-%1x%2-timeline.png").arg(size.width()).arg(size.height()), d);
}

void TestCharts::dashboardFillsAWindow_data()
{
    metricsReadWholeAfterTheDemo_data();
}

// The dashboard as a workspace of its own, the whole window wide: its activity charts in two columns, each
// readable; the store as the demo left it.
void TestCharts::dashboardFillsAWindow()
{
    QFETCH(QSize, size);
    const auto snapshot = loadStoreSnapshot(sb::StoreLocation{m_dir.filePath(QStringLiteral("store.db")).toStdString()});
    QVERIFY2(snapshot.has_value(), snapshot ? "" : snapshot.error().message.c_str());
    MetricsDashboard full;
    full.setSnapshot(snapshot->metrics, snapshot->runs);
    full.setActivity(snapshot->activity);
    full.resize(size);
    full.show();
    QVERIFY(QTest::qWaitForWindowExposed(&full));
    QTest::qWait(300);
    ActivityCharts* a = full.activityCharts();
    QVERIFY(a->twoColumns());
    QCOMPARE(a->promotionTable()->rowCount(), 2);
    QVERIFY(a->data().verdicts.total > 8); // the demo's worked example added its steps
    auto* scroll = full.findChild<QScrollArea*>(QStringLiteral("metricsChartsScroll"));
    for (QChartView* view : {a->blockedKindChart(), a->blockedTargetChart(), a->verdictChart()}) {
        scroll->ensureWidgetVisible(view, 0, 0);
        QApplication::processEvents();
        const QStringList problems = unreadableActivity(view);
        QVERIFY2(problems.isEmpty(), qPrintable(view->objectName() + QStringLiteral(": ") + problems.join(QStringLiteral("; "))));
    }
    // The promotions as CSV: a header and a row each, newest first.
    const QStringList csv = a->promotionsCsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(csv.size(), 3);
    QVERIFY2(csv[1].contains(QStringLiteral(",try-upgrade,main,high,reviewer,checked the impact,3,")), qPrintable(csv[1]));
    QVERIFY(a->promotionTable()->findChild<QAction*>(QStringLiteral("actionPromotionsCsv")));
    scroll->verticalScrollBar()->setValue(0);
    QTest::qWait(100);
    screenshot(QStringLiteral("dashboard-%1x%2.png").arg(size.width()).arg(size.height()), &full);
    scroll->ensureWidgetVisible(a, 0, 0);
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    QTest::qWait(100);
    screenshot(QStringLiteral("dashboard-%1x%2-activity.png").arg(size.width()).arg(size.height()), &full);
}

int main(int argc, char* argv[])
{
    return sb::guitest::runWindowTest<TestCharts>(argc, argv);
}

#include "test_charts.moc"
