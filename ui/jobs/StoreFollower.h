#pragma once

#include "store/store_changes.h"

#include <QObject>
#include <QString>

#include <filesystem>
#include <optional>

class QTimer;

namespace sb::ui {

// Follows the store while other processes write to it (the command line, an agent session's gateway started by an
// IDE, a promotion): every kPollMs it asks whether another connection committed (sb::StoreChanges: SQLite's
// data_version on a read-only connection of its own; no table is read, no lock waited for, a few microseconds on
// the GUI thread) and says so with changed(), once per poll however many commits there were. Its own asking writes
// nothing, so a pane that reads the store again never makes another change. The window's own jobs write through
// connections of their own, so their commits are changes too: each is followed by one more read, never a loop.
class StoreFollower : public QObject {
    Q_OBJECT
public:
    static constexpr int kPollMs = 300;

    explicit StoreFollower(QObject* parent);
    ~StoreFollower() override;

    // Follows the store at `path`, which Store::open has opened (std::nullopt: stops). The error when it cannot
    // be followed; the window then shows what it read and reads again only after its own work.
    std::optional<QString> follow(const std::optional<std::filesystem::path>& path);
    void stop();
    bool isFollowing() const { return m_changes.has_value(); }
    // The changes signalled since the follower was made (for tests and the window's diagnostics).
    qint64 changeCount() const { return m_changeCount; }

signals:
    void changed();
    // The store could no longer be read (removed, damaged); the window stops following it.
    void stopped(const QString& error);

private:
    void poll();

    QTimer* m_timer = nullptr;
    std::optional<sb::StoreChanges> m_changes;
    qint64 m_changeCount = 0;
};

} // namespace sb::ui
