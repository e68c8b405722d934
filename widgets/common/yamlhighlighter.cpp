// SPDX-License-Identifier: GPL-3.0-or-later
#include "yamlhighlighter.h"

#include "palette.h"

#include <QGuiApplication>

namespace gpudesk {

YamlHighlighter::YamlHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document), m_key(QStringLiteral(R"(^(\s*-?\s*)([^\s:#][^:#]*):(\s|$))")),
      m_number(QStringLiteral(R"(:\s+(-?\d+(\.\d+)?|true|false|null)\s*$)")),
      m_string(QStringLiteral(R"("(?:[^"\\]|\\.)*")"))
{}

void YamlHighlighter::highlightBlock(const QString &text)
{
    // The application's palette: the theme in force when the block is highlighted.
    const QPalette pal = QGuiApplication::palette();
    QTextCharFormat key;
    key.setForeground(colors::syntaxKey(pal));
    key.setFontWeight(QFont::DemiBold);
    QTextCharFormat literal;
    literal.setForeground(colors::syntaxLiteral(pal));
    QTextCharFormat string;
    string.setForeground(colors::syntaxString(pal));
    const auto k = m_key.match(text);
    if (k.hasMatch())
        setFormat(int(k.capturedStart(2)), int(k.capturedLength(2)), key);
    const auto n = m_number.match(text);
    if (n.hasMatch())
        setFormat(int(n.capturedStart(1)), int(n.capturedLength(1)), literal);
    for (auto it = m_string.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), string);
    }
}

} // namespace gpudesk
