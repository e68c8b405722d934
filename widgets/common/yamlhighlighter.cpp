// SPDX-License-Identifier: GPL-3.0-or-later
#include "yamlhighlighter.h"

#include <QColor>

namespace gpudesk {

YamlHighlighter::YamlHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document), m_key(QStringLiteral(R"(^(\s*-?\s*)([^\s:#][^:#]*):(\s|$))")),
      m_number(QStringLiteral(R"(:\s+(-?\d+(\.\d+)?|true|false|null)\s*$)")),
      m_string(QStringLiteral(R"("(?:[^"\\]|\\.)*")"))
{}

void YamlHighlighter::highlightBlock(const QString &text)
{
    QTextCharFormat key;
    key.setForeground(QColor(0x2f, 0x7f, 0xd0));
    key.setFontWeight(QFont::DemiBold);
    QTextCharFormat literal;
    literal.setForeground(QColor(0xb0, 0x60, 0x10));
    QTextCharFormat string;
    string.setForeground(QColor(0x3a, 0x9a, 0x4a));
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
