// SPDX-License-Identifier: GPL-3.0-or-later
#include "untranslated.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTabBar>
#include <QTextDocument>
#include <QXmlStreamReader>

namespace {

// The literal part of a source must say something for a pattern of it to mean anything:
// "%1 (%2)" would match every text with brackets.
constexpr int kMinLiteralLetters = 12;
constexpr int kRowsPerView = 60;

QString plain(const QString &text)
{
    if (!Qt::mightBeRichText(text))
        return text;
    QTextDocument d;
    d.setHtml(text);
    return d.toPlainText();
}

void collectMenu(const QMenu *menu, QStringList *out)
{
    for (const QAction *a : menu->actions()) {
        if (a->isSeparator())
            continue;
        *out << a->text() << a->toolTip();
        if (a->menu())
            collectMenu(a->menu(), out);
    }
}

} // namespace

bool UntranslatedFinder::load(const QString &tsFile, QString *error)
{
    QFile f(tsFile);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = f.errorString();
        return false;
    }
    QXmlStreamReader xml(&f);
    QString source, translation;
    bool numerus = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("message")) {
            source.clear();
            translation.clear();
            numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
        } else if (xml.isStartElement() && xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.isStartElement() && (xml.name() == QLatin1String("translation") ||
                                            xml.name() == QLatin1String("numerusform"))) {
            if (translation.isEmpty())
                translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            if (translation.trimmed().isEmpty() || translation == source)
                continue;
            source.remove(u'&'); // a mnemonic's; the texts are compared without theirs
            if (source.trimmed().isEmpty())
                continue;
            static const QRegularExpression arg(QStringLiteral("%(L?[1-9]|n)"));
            if (!numerus && !source.contains(arg)) {
                m_exact.insert(source);
                continue;
            }
            QString literal = source;
            literal.remove(arg);
            int letters = 0;
            for (const QChar c : std::as_const(literal))
                letters += c.isLetter() ? 1 : 0;
            if (letters < kMinLiteralLetters)
                continue;
            // Each argument any text; "(s)" of a %n plural: the text says "pod" or "pods".
            QStringList pieces;
            for (const QString &piece : source.split(arg))
                pieces << QRegularExpression::escape(piece).replace(QStringLiteral("\\(s\\)"),
                                                                    QStringLiteral("s?"));
            const QString pattern = pieces.join(QStringLiteral(".+"));
            m_patterns << QRegularExpression(u'^' + pattern + u'$',
                                             QRegularExpression::DotMatchesEverythingOption);
        }
    }
    if (xml.hasError()) {
        *error = xml.errorString();
        return false;
    }
    return true;
}

bool UntranslatedFinder::isEnglishSource(const QString &text) const
{
    if (text.trimmed().isEmpty())
        return false;
    if (m_exact.contains(text))
        return true;
    for (const QRegularExpression &p : m_patterns)
        if (p.match(text).hasMatch())
            return true;
    return false;
}

QStringList UntranslatedFinder::find(const QWidget &window) const
{
    QStringList texts;
    for (const QLabel *l : window.findChildren<QLabel *>())
        if (l->isVisibleTo(&window))
            texts << plain(l->text());
    for (const QAbstractButton *b : window.findChildren<QAbstractButton *>())
        if (b->isVisibleTo(&window))
            texts << QString(b->text()).remove(u'&') << b->toolTip();
    for (const QLineEdit *e : window.findChildren<QLineEdit *>())
        if (e->isVisibleTo(&window))
            texts << e->placeholderText();
    for (const QGroupBox *g : window.findChildren<QGroupBox *>())
        if (g->isVisibleTo(&window))
            texts << g->title();
    for (const QTabBar *t : window.findChildren<QTabBar *>())
        if (t->isVisibleTo(&window))
            for (int i = 0; i < t->count(); ++i)
                texts << t->tabText(i);
    for (const QMenuBar *bar : window.findChildren<QMenuBar *>())
        for (const QAction *a : bar->actions()) {
            texts << QString(a->text()).remove(u'&');
            if (a->menu())
                collectMenu(a->menu(), &texts);
        }
    for (const QAbstractItemView *v : window.findChildren<QAbstractItemView *>()) {
        if (!v->isVisibleTo(&window) || !v->model())
            continue;
        const QAbstractItemModel *m = v->model();
        for (int c = 0; c < m->columnCount(); ++c)
            texts << m->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString()
                  << m->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
        for (int r = 0; r < std::min(m->rowCount(), kRowsPerView); ++r)
            for (int c = 0; c < m->columnCount(); ++c) {
                const QModelIndex i = m->index(r, c);
                texts << i.data(Qt::DisplayRole).toString() << i.data(Qt::ToolTipRole).toString();
            }
    }
    QStringList out;
    for (QString t : std::as_const(texts)) {
        t.remove(u'&');
        if (!out.contains(t) && isEnglishSource(t))
            out << t;
    }
    return out;
}
