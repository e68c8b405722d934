// SPDX-License-Identifier: GPL-3.0-or-later
// Strings of gpudesk's own that a window shows in English though a translation exists: read from
// the translation's .ts (what gpudesk says, and what it says in the language), matched against
// every text a user can see — labels, buttons, menus, headers, table cells, placeholders, tabs.
// A string that never reaches its translation (tr() in one context, the .ts filing it under
// another) shows here; cluster text (names, phases, reasons) is no source of the .ts.
#pragma once

#include <QRegularExpression>
#include <QSet>
#include <QString>
#include <QStringList>

class QWidget;

class UntranslatedFinder
{
public:
    // Reads `tsFile`; false with `error` when it cannot.
    bool load(const QString &tsFile, QString *error);
    int sources() const { return int(m_exact.size() + m_patterns.size()); }
    // The texts in `window` (and its menus) that are such sources, each once.
    QStringList find(const QWidget &window) const;
    // A text is one of gpudesk's English sources (exactly, or with its arguments filled in).
    bool isEnglishSource(const QString &text) const;

private:
    QSet<QString> m_exact;
    QList<QRegularExpression> m_patterns;
};
