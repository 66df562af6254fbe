#include "ui/agents/AgentTimeline.h"

#include "ui/agents/StepListModel.h"
#include "ui/models/Conversions.h"

#include <QHelpEvent>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace sb::ui {

namespace {

using sb::agents::StepSummary;
using sb::agents::Verdict;

constexpr int kMargin = 12;      // left and right of the plot
constexpr int kMarkerTop = 4;    // checkpoint markers
constexpr int kMarkerHeight = 9;
constexpr int kBarTop = 16;      // the bars
constexpr int kBarHeight = 30;
constexpr int kMatchTop = 48;    // search matches
constexpr int kMatchHeight = 4;
constexpr int kAxisTop = 56;
constexpr int kHeight = 78;
constexpr double kNarrow = 3;    // bars narrower than this many pixels are drawn per pixel column
constexpr double kZoomStep = 1.5;
const QColor kInFlight(0x8c, 0x95, 0x9f);
const QColor kCheckpoint(0x1b, 0x7c, 0x83);
const QColor kMatch(0xd4, 0xa7, 0x2c);
const QColor kSelectedBand(0x54, 0xae, 0xff, 60);
const QColor kCurrent(0x1f, 0x23, 0x28);

// Which of the verdicts in one pixel column shows: the one a person most needs to see.
constexpr int kSevere = 4; // failed, denied, blocked
int severity(const StepSummary& step)
{
    if (step.endedAtMs == 0)
        return 1;
    switch (step.verdict) {
    case Verdict::Allowed: return 2;
    case Verdict::Approved: return 3;
    case Verdict::Failed: return 4;
    case Verdict::Denied: return 5;
    case Verdict::Blocked: return 6;
    }
    return 0;
}

QColor colorOf(const StepSummary& step)
{
    return step.endedAtMs == 0 ? kInFlight : StepListModel::verdictColor(step.verdict);
}

QString tickText(double ms, double tick)
{
    if (tick < 1000)
        return AgentTimeline::tr("%1 ms").arg(ms, 0, 'f', tick < 1 ? 2 : 0);
    if (tick < 60000)
        return AgentTimeline::tr("%1 s").arg(ms / 1000, 0, 'f', tick < 10000 ? 1 : 0);
    return AgentTimeline::tr("%1 min").arg(ms / 60000, 0, 'f', tick < 600000 ? 1 : 0);
}

} // namespace

AgentTimeline::AgentTimeline(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("agentTimeline"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(QString()); // tooltips come from event(), step by step
    setWhatsThis(tr("Steps as bars on a time axis, coloured by verdict; checkpoints marked above, search matches "
                    "below. Click a step to select it, Shift+drag to select a range; Ctrl+wheel or +/- zoom, drag, "
                    "wheel or the arrow keys pan, 0 shows the whole session."));
}

void AgentTimeline::setModel(StepListModel* model, QItemSelectionModel* selection)
{
    if (m_model)
        m_model->disconnect(this);
    if (m_selection)
        m_selection->disconnect(this);
    m_model = model;
    m_selection = selection;
    const auto repaint = [this] { update(); };
    connect(model, &QAbstractItemModel::rowsInserted, this, &AgentTimeline::onStepsChanged);
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        m_fitted = true;
        onStepsChanged();
    });
    connect(model, &QAbstractItemModel::dataChanged, this, &AgentTimeline::onStepsChanged);
    connect(selection, &QItemSelectionModel::selectionChanged, this, repaint);
    connect(selection, &QItemSelectionModel::currentChanged, this, repaint);
    onStepsChanged();
}

void AgentTimeline::setOrigin(std::int64_t originMs)
{
    m_originMs = originMs;
    m_fitted = true;
    onStepsChanged();
}

double AgentTimeline::spanMs() const
{
    if (!m_model || m_model->steps().empty())
        return 1;
    const StepSummary& last = m_model->steps().back();
    const std::int64_t end = std::max(last.startedAtMs, last.endedAtMs);
    return std::max(1.0, static_cast<double>(end - m_originMs));
}

int AgentTimeline::plotWidth() const
{
    return std::max(1, width() - 2 * kMargin);
}

void AgentTimeline::onStepsChanged()
{
    if (m_fitted)
        m_scale.fit(spanMs(), plotWidth());
    else
        m_scale.clamp(spanMs(), plotWidth());
    update();
}

void AgentTimeline::zoomIn()
{
    m_fitted = false;
    m_scale.zoomAt(plotWidth() / 2.0, kZoomStep, spanMs(), plotWidth());
    update();
}

void AgentTimeline::zoomOut()
{
    m_scale.zoomAt(plotWidth() / 2.0, 1 / kZoomStep, spanMs(), plotWidth());
    m_fitted = m_scale.msPerPixel >= TimelineScale::fitMsPerPixel(spanMs(), plotWidth());
    update();
}

void AgentTimeline::fitAll()
{
    m_fitted = true;
    m_scale.fit(spanMs(), plotWidth());
    update();
}

int AgentTimeline::stepAt(const QPoint& pos) const
{
    if (!m_model || pos.y() < kBarTop - 2 || pos.y() > kMatchTop + kMatchHeight)
        return -1;
    const auto& steps = m_model->steps();
    const double ms = m_scale.msAt(pos.x() - kMargin);
    const double slack = kNarrow * m_scale.msPerPixel; // narrow bars are hit within a few pixels
    const auto [first, last] = visibleStepRange(steps, m_originMs, m_model->longestMs(), ms - slack, ms + slack);
    int best = -1;
    double bestDistance = slack + 1;
    for (std::size_t row = first; row < last; ++row) {
        const StepSummary& step = steps[row];
        const double start = static_cast<double>(step.startedAtMs - m_originMs);
        // As wide as it is drawn: a pixel at least, a refused or failed call a few (so an instant one between two
        // long ones can be pointed at).
        const double drawn = (severity(step) >= kSevere ? kNarrow : 1.0) * m_scale.msPerPixel;
        const double end = std::max(start + drawn, step.endedAtMs == 0 ? spanMs()
                                                                         : static_cast<double>(step.endedAtMs - m_originMs));
        const double distance = ms < start ? start - ms : (ms > end ? ms - end : 0);
        if (distance < bestDistance || (distance == 0 && best >= 0 && severity(step) > severity(steps[static_cast<std::size_t>(best)]))) {
            best = static_cast<int>(row);
            bestDistance = distance;
        }
    }
    return best;
}

QSize AgentTimeline::sizeHint() const
{
    return {600, kHeight};
}

QSize AgentTimeline::minimumSizeHint() const
{
    return {120, kHeight};
}

QImage AgentTimeline::picture(int width) const
{
    const QSize size(std::max(width, 2 * kMargin + 10), kHeight);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    TimelineScale scale;
    scale.fit(spanMs(), size.width() - 2 * kMargin);
    QPainter painter(&image);
    paint(painter, scale, size, false);
    return image;
}

void AgentTimeline::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paint(painter, m_scale, size(), true);
}

void AgentTimeline::paint(QPainter& painter, const TimelineScale& scale, const QSize& size, bool interactive) const
{
    const QPalette& colors = palette();
    painter.fillRect(QRect(QPoint(0, 0), size), colors.color(QPalette::Base));
    const int plot = std::max(1, size.width() - 2 * kMargin);
    painter.setPen(colors.color(QPalette::Mid));
    painter.drawLine(kMargin, kAxisTop, kMargin + plot, kAxisTop);
    if (!m_model || m_model->steps().empty()) {
        painter.setPen(colors.color(QPalette::PlaceholderText));
        painter.drawText(QRect(0, kBarTop, size.width(), kBarHeight), Qt::AlignCenter, tr("No steps to show"));
        return;
    }
    const auto& steps = m_model->steps();
    const double fromMs = scale.msAt(0);
    const double toMs = scale.msAt(plot);
    const auto [first, last] = visibleStepRange(steps, m_originMs, m_model->longestMs(), fromMs, toMs);
    const double span = spanMs();
    const auto xOf = [&](double ms) { return kMargin + scale.xOf(ms); };
    const auto startOf = [&](const StepSummary& step) { return static_cast<double>(step.startedAtMs - m_originMs); };
    const auto endOf = [&](const StepSummary& step) {
        return step.endedAtMs == 0 ? span : static_cast<double>(step.endedAtMs - m_originMs);
    };

    // The selected ranges, behind the bars.
    if (interactive && m_selection) {
        for (const QItemSelectionRange& range : m_selection->selection()) {
            const auto* a = m_model->stepAt(range.top());
            const auto* b = m_model->stepAt(range.bottom());
            if (!a || !b)
                continue;
            const double x0 = std::max<double>(xOf(startOf(*a)) - 1, 0);
            const double x1 = std::min<double>(xOf(endOf(*b)) + 1, size.width());
            if (x1 > x0)
                painter.fillRect(QRectF(x0, kBarTop - 2, std::max(2.0, x1 - x0), kBarHeight + 4), kSelectedBand);
        }
    }
    if (interactive && m_drag == Drag::Range) {
        const double x0 = std::min(m_rangeFromX, m_rangeToX);
        painter.fillRect(QRectF(x0, kBarTop - 2, std::abs(m_rangeToX - m_rangeFromX), kBarHeight + 4), kSelectedBand);
    }

    // Bars: wide ones as rectangles, narrow ones folded into pixel columns.
    std::vector<int> column(static_cast<std::size_t>(plot) + 1, 0);
    std::vector<const StepSummary*> columnStep(static_cast<std::size_t>(plot) + 1, nullptr);
    std::vector<bool> checkpoint(static_cast<std::size_t>(plot) + 1, false);
    const auto mark = [&](std::vector<bool>& columns, double x) {
        const double at = std::floor(x - kMargin);
        if (at >= 0 && at <= plot)
            columns[static_cast<std::size_t>(at)] = true;
    };
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (std::size_t row = first; row < last; ++row) {
        const StepSummary& step = steps[row];
        const double x0 = xOf(startOf(step));
        const double x1 = xOf(endOf(step));
        if (step.checkpointBefore)
            mark(checkpoint, x0);
        if (step.checkpointAfter)
            mark(checkpoint, x1);
        if (x1 - x0 >= kNarrow) {
            painter.fillRect(QRectF(x0, kBarTop, x1 - x0 - 1, kBarHeight), colorOf(step));
            continue;
        }
        const auto c0 = static_cast<long>(std::floor(std::max(x0 - kMargin, 0.0)));
        // At least the column it starts in; a refused or failed call (often instant) a few, so that it shows.
        const long least = c0 + (severity(step) >= kSevere ? static_cast<long>(kNarrow) - 1 : 0);
        const auto c1 = std::max(least, static_cast<long>(std::floor(std::min(x1 - kMargin, static_cast<double>(plot)))));
        for (long c = c0; c <= c1 && c <= plot; ++c) {
            const auto at = static_cast<std::size_t>(c);
            if (severity(step) > column[at]) {
                column[at] = severity(step);
                columnStep[at] = &step;
            }
        }
    }
    for (std::size_t c = 0; c < column.size(); ++c) {
        if (columnStep[c])
            painter.fillRect(QRectF(kMargin + static_cast<double>(c), kBarTop, 1, kBarHeight), colorOf(*columnStep[c]));
    }

    // Checkpoints: a small triangle pointing at the bar.
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(Qt::NoPen);
    painter.setBrush(kCheckpoint);
    double lastMarker = -10;
    for (std::size_t c = 0; c < checkpoint.size(); ++c) {
        if (!checkpoint[c])
            continue;
        const double x = kMargin + static_cast<double>(c) + 0.5;
        if (x - lastMarker < 3) // a dense run of checkpoints: one marker every few pixels
            continue;
        lastMarker = x;
        QPainterPath triangle;
        triangle.moveTo(x - 4, kMarkerTop);
        triangle.lineTo(x + 4, kMarkerTop);
        triangle.lineTo(x, kMarkerTop + kMarkerHeight);
        triangle.closeSubpath();
        painter.drawPath(triangle);
    }
    painter.setRenderHint(QPainter::Antialiasing, false);

    // Search matches: ticks under the bars.
    for (const std::int64_t index : m_model->matches()) {
        const auto* step = m_model->stepAt(static_cast<int>(index - 1));
        if (!step)
            continue;
        const double x0 = xOf(startOf(*step));
        const double x1 = xOf(endOf(*step));
        if (x1 < kMargin || x0 > kMargin + plot)
            continue;
        painter.fillRect(QRectF(x0, kMatchTop, std::max(2.0, x1 - x0 - 1), kMatchHeight), kMatch);
    }

    // The current step, outlined.
    if (interactive && m_selection && m_selection->currentIndex().isValid()) {
        if (const auto* step = m_model->stepAt(m_selection->currentIndex().row())) {
            const double x0 = xOf(startOf(*step));
            const double x1 = std::max(xOf(endOf(*step)), x0 + kNarrow);
            painter.setPen(QPen(kCurrent, 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(x0 - 3, kBarTop - 3, x1 - x0 + 5, kBarHeight + 6)); // around the bar, not on it
        }
    }

    // The axis: ticks at 1, 2 or 5 times a power of ten, labelled from the session's start.
    const double tick = scale.tickMs(90);
    painter.setPen(colors.color(QPalette::Text));
    const QFontMetrics metrics(painter.font());
    for (double ms = std::ceil(fromMs / tick) * tick; ms <= toMs; ms += tick) {
        const double x = xOf(ms);
        painter.drawLine(QPointF(x, kAxisTop), QPointF(x, kAxisTop + 4));
        const QString text = tickText(ms, tick);
        const double left = std::clamp(x - metrics.horizontalAdvance(text) / 2.0, 0.0,
                                       static_cast<double>(size.width() - metrics.horizontalAdvance(text)));
        painter.drawText(QPointF(left, kAxisTop + 6 + metrics.ascent()), text);
    }
    if (interactive && hasFocus()) {
        painter.setPen(QPen(colors.color(QPalette::Highlight), 1));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRect(0, 0, size.width() - 1, size.height() - 1));
    }
}

void AgentTimeline::resizeEvent(QResizeEvent*)
{
    onStepsChanged();
}

bool AgentTimeline::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

QString AgentTimeline::toolTipAt(const QPoint& pos) const
{
    const int row = stepAt(pos);
    const auto* step = m_model ? m_model->stepAt(row) : nullptr;
    if (!step)
        return {};
    const QString duration = StepListModel::durationText(*step);
    QString verdict = toQString(sb::agents::toString(step->verdict));
    if (step->isError)
        verdict += tr(", result is an error");
    return tr("<b>Step %1</b> · %2<br>%3<br>%4 · cost %5 (so far %6)<br><code>%7</code>")
        .arg(step->index)
        .arg(toQString(step->tool).toHtmlEscaped(), verdict, duration, QString::number(step->cost, 'g', 4),
             QString::number(m_model->costSoFar(row), 'g', 4), toQString(step->arguments).toHtmlEscaped());
}

void AgentTimeline::wheelEvent(QWheelEvent* event)
{
    const QPoint angle = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        const double factor = std::pow(kZoomStep, angle.y() / 120.0);
        m_fitted = false;
        m_scale.zoomAt(event->position().x() - kMargin, factor, spanMs(), plotWidth());
    } else {
        const int delta = angle.x() != 0 ? angle.x() : angle.y();
        m_fitted = false;
        m_scale.panBy(-delta / 120.0 * plotWidth() / 10.0, spanMs(), plotWidth());
    }
    update();
    event->accept();
}

void AgentTimeline::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_pressPos = m_lastPos = event->position().toPoint();
    if (event->modifiers() & Qt::ShiftModifier) {
        m_drag = Drag::Range;
        m_rangeFromX = m_rangeToX = event->position().x();
    } else {
        m_drag = Drag::Pending;
    }
}

void AgentTimeline::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::Pending && (pos - m_pressPos).manhattanLength() > 3) {
        m_drag = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
    }
    if (m_drag == Drag::Pan) {
        m_fitted = false;
        m_scale.panBy(m_lastPos.x() - pos.x(), spanMs(), plotWidth());
        update();
    } else if (m_drag == Drag::Range) {
        m_rangeToX = event->position().x();
        update();
    }
    m_lastPos = pos;
}

void AgentTimeline::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mouseReleaseEvent(event);
    const Drag drag = m_drag;
    m_drag = Drag::None;
    unsetCursor();
    if (drag == Drag::Range) {
        m_rangeToX = event->position().x();
        selectRange(m_rangeFromX, m_rangeToX);
    } else if (drag == Drag::Pending && m_model && m_selection) {
        const int row = stepAt(event->position().toPoint());
        if (row >= 0)
            m_selection->setCurrentIndex(m_model->index(row, 0),
                                         QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    update();
}

void AgentTimeline::selectRange(double fromX, double toX)
{
    if (!m_model || !m_selection)
        return;
    const double fromMs = m_scale.msAt(std::min(fromX, toX) - kMargin);
    const double toMs = m_scale.msAt(std::max(fromX, toX) - kMargin);
    const auto& steps = m_model->steps();
    auto [first, last] = visibleStepRange(steps, m_originMs, m_model->longestMs(), fromMs, toMs);
    // Only those that reach into the range (a long step starting before it may end before it too).
    while (first < last) {
        const StepSummary& step = steps[first];
        const double end = step.endedAtMs == 0 ? spanMs() : static_cast<double>(step.endedAtMs - m_originMs);
        if (end >= fromMs)
            break;
        ++first;
    }
    if (first >= last)
        return;
    const int top = static_cast<int>(first);
    const int bottom = static_cast<int>(last - 1);
    m_selection->setCurrentIndex(m_model->index(top, 0), QItemSelectionModel::NoUpdate);
    m_selection->select(QItemSelection(m_model->index(top, 0), m_model->index(bottom, StepListModel::ColumnCount - 1)),
                        QItemSelectionModel::ClearAndSelect);
}

void AgentTimeline::keyPressEvent(QKeyEvent* event)
{
    const double page = plotWidth() / 8.0;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
        fitAll();
        break;
    case Qt::Key_Left:
        m_fitted = false;
        m_scale.panBy(-page, spanMs(), plotWidth());
        update();
        break;
    case Qt::Key_Right:
        m_fitted = false;
        m_scale.panBy(page, spanMs(), plotWidth());
        update();
        break;
    case Qt::Key_Home:
        m_fitted = false;
        m_scale.panBy(-spanMs() / m_scale.msPerPixel, spanMs(), plotWidth());
        update();
        break;
    case Qt::Key_End:
        m_fitted = false;
        m_scale.panBy(spanMs() / m_scale.msPerPixel, spanMs(), plotWidth());
        update();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

} // namespace sb::ui
