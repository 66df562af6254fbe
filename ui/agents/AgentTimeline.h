#pragma once

#include "ui/agents/TimelineScale.h"

#include <QImage>
#include <QPointer>
#include <QWidget>

#include <cstdint>

class QItemSelectionModel;

namespace sb::ui {

class StepListModel;

// The steps of a session as bars on a time axis, coloured by verdict, with the checkpoints marked above them and
// the search's matches below. It draws over the step list's model and shares its selection model: a click selects
// a step, Shift+drag a range. Ctrl+wheel and +/- zoom, drag, wheel and the arrow keys pan, 0 fits the session.
// Only the steps in view are looked at, and those narrower than a few pixels are drawn a pixel column at a time
// (the most severe verdict shown), so any number of steps stays smooth.
class AgentTimeline : public QWidget {
    Q_OBJECT
public:
    explicit AgentTimeline(QWidget* parent = nullptr);

    void setModel(StepListModel* model, QItemSelectionModel* selection);
    // The time the axis counts from (the session's start, Unix epoch ms).
    void setOrigin(std::int64_t originMs);

    const TimelineScale& scale() const { return m_scale; }
    // The span the axis covers, in ms after the origin.
    double spanMs() const;
    void zoomIn();
    void zoomOut();
    void fitAll();
    // The row of the step drawn at `pos`, -1 none.
    int stepAt(const QPoint& pos) const;
    // The whole session drawn `width` pixels wide, for a report.
    QImage picture(int width) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    enum class Drag { None, Pending, Pan, Range };

    void paint(QPainter& painter, const TimelineScale& scale, const QSize& size, bool interactive) const;
    int plotWidth() const;
    void onStepsChanged();
    void selectRange(double fromX, double toX);
    QString toolTipAt(const QPoint& pos) const;

    QPointer<StepListModel> m_model;
    QPointer<QItemSelectionModel> m_selection;
    std::int64_t m_originMs = 0;
    TimelineScale m_scale;
    bool m_fitted = true; // follows the whole session as it grows until a person zooms or pans
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    double m_rangeFromX = 0;
    double m_rangeToX = 0;
};

} // namespace sb::ui
