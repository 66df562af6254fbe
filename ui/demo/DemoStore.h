#pragma once

#include <QString>
#include <QTemporaryDir>

#include <filesystem>

namespace sb::ui {

// The store of demo mode (sandbench-gui --demo): a new, empty store in a private temporary folder of its own
// (sandbench-demo-XXXXXX under the system's temporary folder, mode 0700), never $SANDBENCH_STORE nor the user's
// store. The folder holds the store, its sandboxes' workspaces (store.db.d) and the audit keys of its log, and
// goes with everything in it when this object does: demo mode keeps nothing once its window closes.
class DemoStore {
public:
    DemoStore();
    DemoStore(const DemoStore&) = delete;
    DemoStore& operator=(const DemoStore&) = delete;

    // False when the folder could not be made; errorString() says why.
    bool isValid() const;
    QString errorString() const;

    QString folder() const { return m_dir.path(); }
    std::filesystem::path storePath() const;
    // Where the demo store's audit key is kept: inside the folder, so the user's key folder never sees it.
    std::filesystem::path auditKeysFolder() const;

private:
    QTemporaryDir m_dir;
    QString m_error;
};

} // namespace sb::ui
