#include "ui/demo/DemoStore.h"

#include <QDir>
#include <QCoreApplication>
#include <QFile>

namespace sb::ui {

DemoStore::DemoStore()
    : m_dir(QDir::tempPath() + QStringLiteral("/sandbench-demo-XXXXXX"))
{
    if (!m_dir.isValid()) {
        m_error = m_dir.errorString();
        return;
    }
    // QTemporaryDir makes the folder 0700 already; said again so that it holds whatever the umask.
    if (!QFile::setPermissions(m_dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner)) {
        m_error = QCoreApplication::translate("DemoStore", "cannot make %1 private to its owner").arg(m_dir.path());
        m_dir.remove();
    }
}

bool DemoStore::isValid() const
{
    return m_dir.isValid() && m_error.isEmpty();
}

QString DemoStore::errorString() const
{
    return m_error;
}

std::filesystem::path DemoStore::storePath() const
{
    return std::filesystem::path(m_dir.path().toStdString()) / "store.db";
}

std::filesystem::path DemoStore::auditKeysFolder() const
{
    return std::filesystem::path(m_dir.path().toStdString()) / "audit-keys";
}

} // namespace sb::ui
