#include "ui/mainwindow/FileDrop.h"

#include "isolation/policy.h"
#include "ui/models/Conversions.h"

#include <QFileInfo>
#include <QMimeData>
#include <QUrl>

namespace sb::ui {

DroppedFile droppedFileKind(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return DroppedFile::Unknown;
    const QString suffix = info.suffix().toLower();
    if (suffix == QLatin1String("py") || suffix == QLatin1String("sh"))
        return DroppedFile::Snippet;
    if (suffix == QLatin1String("csv") || suffix == QLatin1String("jsonl") || suffix == QLatin1String("ndjson"))
        return DroppedFile::Dataset;
    if (suffix == QLatin1String("yaml") || suffix == QLatin1String("yml")) {
        // Both are YAML: a file that loads as a policy is one; the rule-set editor says what is wrong with the rest.
        return sb::loadPolicyFile(std::filesystem::path(toStdString(path))) ? DroppedFile::Policy : DroppedFile::RuleSet;
    }
    return DroppedFile::Unknown;
}

QStringList droppedFiles(const QMimeData* mime)
{
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile())
            files.append(url.toLocalFile());
    }
    return files;
}

} // namespace sb::ui
