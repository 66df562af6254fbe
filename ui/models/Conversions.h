#pragma once

// The one place where core's UTF-8 std::string meets QString.

#include <QString>

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

} // namespace sb::ui
