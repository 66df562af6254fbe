#pragma once

#include "ui/promote/PromotionDialog.h"

#include <QFrame>
#include <QPointer>
#include <QString>

class QLabel;
class QPushButton;
class QTimer;

namespace sb::ui {

class MainWindow;

// Play demo: a guided walk through a demo store in about a minute. A callout over the window (not modal, never a
// dialog of its own) names each part in turn while the real widgets show it: the snippets and their outcomes, a
// blocked run's explanation, the rules A/B charts, the agent session's timeline, the checkpoint graph, the
// promotion review and the dashboard. Next, Back and Stop step through it; a timer moves to the next step after a
// while; Esc stops. It shows and selects what the store holds; it runs nothing and promotes nothing.
class DemoTour : public QFrame {
    Q_OBJECT
public:
    enum class Step { Snippets, BlockedRun, Rules, AgentSession, Checkpoints, Promotion, Dashboard };
    static constexpr int kStepCount = 7;
    // How long a step is shown before the next one: seven steps in about a minute.
    static constexpr int kDefaultStepMs = 8500;

    explicit DemoTour(MainWindow* window);
    ~DemoTour() override;

    // Shows what the demo store holds and offers to play the walk (sandbench-gui --demo, once the store is filled).
    void offer();
    // Plays the walk from its first step.
    void play();
    void next();
    void back();
    // Ends the walk (or the offer) and closes what it opened.
    void stop();

    bool isPlaying() const { return m_step >= 0; }
    // The step shown, 0-based; -1 while not playing.
    int stepIndex() const { return m_step; }
    Step step() const { return static_cast<Step>(m_step); }
    QString title() const;
    QString caption() const;
    // The promotion review the tour opened (its Promotion step), else nullptr.
    PromotionDialog* promotionDialog() const { return m_promotion; }

    // 0: no auto-advance (only Next moves on).
    void setStepInterval(int ms);
    int stepInterval() const { return m_stepMs; }

signals:
    void stepShown(int index);
    void stopped();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showStep(int index);
    // Makes the window show step `step`'s part.
    void enter(Step step);
    void showNewestDemoCase();
    void showBlockedRun();
    void showAgentSession();
    void openPromotion();
    void closePromotion();
    void place();
    void setCallout(const QString& title, const QString& text);

    MainWindow* m_window = nullptr;
    int m_step = -1;
    int m_stepMs = kDefaultStepMs;
    QTimer* m_timer = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_text = nullptr;
    QPushButton* m_play = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
    QPushButton* m_stop = nullptr;
    QPointer<PromotionDialog> m_promotion;
};

} // namespace sb::ui
