#pragma once

// The one place where core's UTF-8 std::string meets QString.

#include <QLocale>
#include <QString>

#include <cstdint>

#include <string>
#include <string_view>

namespace sb::ui {

inline QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

inline std::string toStdString(const QString& text)
{
    return text.toStdString(); // UTF-8
}

// Bytes as people read them: "812 B", "1.1 KiB", "3.4 MiB".
inline QString byteSizeText(std::uint64_t bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

} // namespace sb::ui
