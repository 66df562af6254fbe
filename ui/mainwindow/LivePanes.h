#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <vector>

class QTimer;
class QWidget;

namespace sb::ui {

// The window's panes that follow the store: when another connection committed (StoreFollower::changed), each pane
// reads the store again through its own background job, with at most one read of its own under way (a pane whose
// read is still running reads once more after it), and only while it shows: a pane behind another tab or closed
// reads what it missed when it shows again (looked at every kRetryMs while it is out of date).
class LivePanes : public QObject {
    Q_OBJECT
public:
    // How soon a pane that was out of date but hidden or reading is looked at again: a few checks of flags, and only
    // while a pane is out of date.
    static constexpr int kRetryMs = 250;

    struct Pane {
        QString name;
        QList<QWidget*> widgets;    // it reads while one of them shows
        std::function<bool()> busy; // a read of its own is under way
        std::function<void()> read; // reads the store again, keeping what the person selected and scrolled to
    };

    explicit LivePanes(QObject* parent);

    void add(Pane pane);
    // Something was committed: every pane is out of date.
    void storeChanged();
    // Reads of `name` started since the window began following (for tests).
    int readCount(const QString& name) const;
    // No pane that shows is out of date or reading.
    bool settled() const;
    // Whether `widget` shows: visible, and in a dock widget that is in front of its tabs. (QMainWindow keeps a dock
    // widget behind another tab visible, moved out of the window.)
    static bool shows(const QWidget* widget);

private:
    struct Entry {
        Pane pane;
        bool stale = false;
        int reads = 0;
    };
    static bool shows(const Pane& pane);
    // Reads every stale pane that shows and has no read under way; asks again soon for those that have.
    void catchUp();

    std::vector<Entry> m_entries;
    QTimer* m_retry = nullptr;
};

} // namespace sb::ui
