#pragma once

// The one place where core's UTF-8 std::string meets QString.

#include "util/message.h"

#include <QCoreApplication>
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

// A sentence of core (util/message.h) in the user's language: its pattern translated under its context (lupdate
// collects core's SB_TR patterns, translations/CMakeLists.txt) and filled with its arguments. A message with no
// context, or one the catalogue lacks, reads as core wrote it.
inline QString messageText(const sb::Message& message)
{
    if (message.context.empty())
        return toQString(message.text());
    const QString pattern = QCoreApplication::translate(message.context.c_str(), message.pattern.c_str());
    return toQString(sb::Message::fillPattern(toStdString(pattern), message.args));
}

// Bytes as people read them: "812 B", "1.1 KiB", "3.4 MiB".
inline QString byteSizeText(std::uint64_t bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

} // namespace sb::ui
