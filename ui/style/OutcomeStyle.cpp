#include "ui/style/OutcomeStyle.h"

#include "ui/models/Conversions.h"

namespace sb::ui {

QColor outcomeColor(sb::Outcome outcome)
{
    switch (outcome) {
    case sb::Outcome::Ok: return QColor(0x2e, 0x9d, 0x5b);            // green
    case sb::Outcome::Error: return QColor(0xe6, 0x7e, 0x22);         // orange
    case sb::Outcome::Blocked: return QColor(0x8e, 0x44, 0xad);       // purple: the policy did its job
    case sb::Outcome::Timeout: return QColor(0xf1, 0xc4, 0x0f);       // amber
    case sb::Outcome::MemoryLimit: return QColor(0x21, 0x8c, 0xb0);   // teal blue
    case sb::Outcome::Crashed: return QColor(0xc0, 0x39, 0x2b);       // red
    case sb::Outcome::InternalError: return QColor(0x4d, 0x55, 0x5e); // slate
    }
    return QColor(0x4d, 0x55, 0x5e);
}

QColor outcomeTextColor(sb::Outcome outcome)
{
    return outcome == sb::Outcome::Timeout ? QColor(0x2b, 0x2b, 0x2b) : QColor(Qt::white);
}

QString outcomeName(sb::Outcome outcome)
{
    return toQString(sb::toString(outcome));
}

} // namespace sb::ui
