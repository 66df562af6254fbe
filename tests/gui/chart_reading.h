#pragma once

// Charts read as a person reads them: the texts a QChartView draws, and what of its title, categories, legend and
// axis titles a person could not read (elided, cut at the edge, not drawn). Shared by the GUI tests of charts.

#include <QAbstractAxis>
#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QStringList>
#include <QTextDocumentFragment>

#include <algorithm>
#include <vector>

namespace sb::guitest {

inline QString plain(const QString& richText)
{
    return QTextDocumentFragment::fromHtml(richText).toPlainText().simplified();
}

// The texts a chart shows, as drawn: visible text items of its scene, with the part of each that lies inside
// the view (a label drawn past the view's edge is cut).
struct ShownText {
    QString text;
    bool inside = true;
};

inline std::vector<ShownText> shownTexts(QChartView* view)
{
    std::vector<ShownText> out;
    const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect().adjusted(-1, -1, 1, 1);
    for (QGraphicsItem* item : view->scene()->items()) {
        if (!item->isVisible())
            continue;
        QString text;
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item))
            text = t->toPlainText();
        else if (auto* s = dynamic_cast<QGraphicsSimpleTextItem*>(item))
            text = s->text();
        else
            continue;
        if (text.trimmed().isEmpty())
            continue;
        out.push_back({text.simplified(), visible.contains(item->sceneBoundingRect())});
    }
    return out;
}

// What a person could not read in `view`: texts elided or cut at the edge, a title, category, legend entry or
// axis title that is not shown whole.
inline QStringList unreadable(QChartView* view)
{
    QStringList problems;
    const auto texts = shownTexts(view);
    auto shown = [&](const QString& wanted) {
        return std::any_of(texts.begin(), texts.end(), [&](const ShownText& t) { return t.text == wanted; });
    };
    for (const auto& t : texts) {
        if (t.text.contains(QStringLiteral("...")) || t.text.contains(QChar(0x2026)))
            problems << QStringLiteral("elided '%1'").arg(t.text);
        if (!t.inside)
            problems << QStringLiteral("cut at the edge '%1'").arg(t.text);
    }
    QChart* chart = view->chart();
    if (!chart->title().isEmpty() && !shown(plain(chart->title())))
        problems << QStringLiteral("title '%1'").arg(chart->title());
    for (QAbstractAxis* axis : chart->axes()) {
        if (!axis->titleText().isEmpty() && !shown(plain(axis->titleText())))
            problems << QStringLiteral("axis title '%1'").arg(axis->titleText());
        if (axis->labelsTruncated())
            problems << QStringLiteral("truncated labels on '%1'").arg(axis->titleText());
        if (auto* cats = qobject_cast<QBarCategoryAxis*>(axis)) {
            for (const QString& c : cats->categories())
                if (!shown(plain(c)))
                    problems << QStringLiteral("category '%1'").arg(plain(c));
        }
    }
    if (chart->legend()->isVisible()) {
        for (QLegendMarker* marker : chart->legend()->markers())
            if (marker->isVisible() && !shown(plain(marker->label())))
                problems << QStringLiteral("legend '%1'").arg(marker->label());
    }
    return problems;
}

} // namespace sb::guitest
