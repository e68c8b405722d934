// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>

namespace gpudesk {

// Keys, strings, numbers and comments of YAML, in colours that read on light and dark palettes.
class YamlHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit YamlHighlighter(QTextDocument *document);

protected:
    void highlightBlock(const QString &text) override;

private:
    QRegularExpression m_key;
    QRegularExpression m_number;
    QRegularExpression m_string;
};

} // namespace gpudesk
