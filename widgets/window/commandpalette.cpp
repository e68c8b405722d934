// SPDX-License-Identifier: GPL-3.0-or-later
#include "commandpalette.h"

#include <QCoreApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace gpudesk {

CommandPalette::CommandPalette(QList<PaletteEntry> entries, Activate activate, QWidget *parent)
    : QDialog(parent), m_entries(std::move(entries)), m_activate(std::move(activate)),
      m_folded(fold(m_entries)), m_input(new QLineEdit(this)), m_results(new QListWidget(this)),
      m_count(new QLabel(this))
{
    setWindowTitle(tr("Go to"));
    setObjectName(QStringLiteral("commandPalette"));
    setAttribute(Qt::WA_DeleteOnClose);
    m_input->setPlaceholderText(tr("A node, pod, job, user, VC or action…"));
    m_input->setClearButtonEnabled(true);
    m_input->installEventFilter(this);
    m_results->setUniformItemSizes(true);
    m_results->setFocusPolicy(Qt::NoFocus); // typing stays in the line; arrows move the list
    m_count->setObjectName(QStringLiteral("paletteCount"));
    QPalette p = m_count->palette();
    p.setColor(QPalette::WindowText, p.color(QPalette::PlaceholderText));
    m_count->setPalette(p);
    auto *l = new QVBoxLayout(this);
    l->addWidget(m_input);
    l->addWidget(m_results, 1);
    l->addWidget(m_count);
    resize(640, 420);
    connect(m_input, &QLineEdit::textChanged, this, &CommandPalette::refresh);
    connect(m_input, &QLineEdit::returnPressed, this,
            [this] { activateRow(m_results->currentRow()); });
    connect(m_results, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { activateRow(m_results->row(item)); });
    refresh();
}

QString CommandPalette::kindName(PaletteEntry::Kind kind)
{
    switch (kind) {
    case PaletteEntry::Action:
        return tr("Action");
    case PaletteEntry::Node:
        return tr("Node");
    case PaletteEntry::Job:
        return tr("Job");
    case PaletteEntry::Pod:
        return tr("Pod");
    case PaletteEntry::User:
        return tr("User");
    case PaletteEntry::Vc:
        return tr("VC", "virtual cluster");
    }
    return QString();
}

QStringList CommandPalette::fold(const QList<PaletteEntry> &entries)
{
    QStringList out;
    out.reserve(entries.size());
    for (const PaletteEntry &e : entries)
        out.append((e.text + QChar(0x1f) + e.detail).toLower());
    return out;
}

QList<int> CommandPalette::match(const QList<PaletteEntry> &entries, const QString &query,
                                 int limit, int *total)
{
    return match(entries, fold(entries), query, limit, total, nullptr, nullptr);
}

QList<int> CommandPalette::match(const QList<PaletteEntry> &entries, const QStringList &folded,
                                 const QString &query, int limit, int *total,
                                 const QList<int> *within, QList<int> *all)
{
    const QStringList words = query.simplified().toLower().split(u' ', Qt::SkipEmptyParts);
    struct Hit
    {
        int rank;
        int kind;
        qsizetype length;
        int index;
    };
    std::vector<Hit> hits;
    // Case-sensitive searches of text folded once: a third of the case-insensitive ones' cost.
    auto consider = [&](int i) {
        const QString &hay = folded[i];
        for (const QString &w : words)
            if (!hay.contains(w))
                return;
        const PaletteEntry &e = entries[i];
        int rank = 3;
        if (words.isEmpty()) {
            rank = 0;
        } else if (const qsizetype at = hay.indexOf(words.first()); at == 0) {
            rank = 0;
        } else if (at > 0 && at < e.text.size()) {
            rank = hay.at(at - 1).isLetterOrNumber() ? 2 : 1;
        }
        hits.push_back({rank, int(e.kind), e.text.size(), i});
    };
    if (within) {
        for (int i : *within)
            consider(i);
    } else {
        for (int i = 0; i < entries.size(); ++i)
            consider(i);
    }
    if (total)
        *total = int(hits.size());
    if (all) {
        all->clear();
        all->reserve(qsizetype(hits.size()));
        for (const Hit &h : hits)
            all->append(h.index);
    }
    const auto better = [](const Hit &a, const Hit &b) {
        return std::tie(a.rank, a.kind, a.length, a.index) <
               std::tie(b.rank, b.kind, b.length, b.index);
    };
    const auto end = hits.begin() + std::min<qsizetype>(limit, qsizetype(hits.size()));
    std::partial_sort(hits.begin(), end, hits.end(), better);
    QList<int> out;
    for (auto it = hits.begin(); it != end; ++it)
        out << it->index;
    return out;
}

void CommandPalette::refresh()
{
    int total = 0;
    const QString query = m_input->text().simplified().toLower();
    // Typing on narrows: only what matched the shorter query can match this one (each of its
    // words contains one of the shorter's, word for word).
    const QStringList last = m_lastQuery.split(u' ', Qt::SkipEmptyParts);
    const QStringList now = query.split(u' ', Qt::SkipEmptyParts);
    bool narrows = !m_lastQuery.isEmpty() && now.size() >= last.size();
    for (qsizetype i = 0; narrows && i < last.size(); ++i)
        narrows = now[i].contains(last[i]);
    QList<int> all;
    m_shown =
        match(m_entries, m_folded, query, Shown, &total, narrows ? &m_lastAll : nullptr, &all);
    m_lastQuery = query;
    m_lastAll = std::move(all);
    m_results->clear();
    for (int i : std::as_const(m_shown)) {
        const PaletteEntry &e = m_entries[i];
        QString line = kindName(e.kind) + QStringLiteral("  ·  ") + e.text;
        if (!e.detail.isEmpty())
            line += QStringLiteral("   —  ") + e.detail;
        m_results->addItem(line);
    }
    m_results->setCurrentRow(m_shown.isEmpty() ? -1 : 0);
    if (total == 0)
        m_count->setText(tr("Nothing matches."));
    else if (total > m_shown.size())
        m_count->setText(tr("The first %1 of %n match(es): type more to narrow.", nullptr, total)
                             .arg(m_shown.size()));
    else
        m_count->setText(tr("%n match(es). Enter goes there; Esc closes.", nullptr, total));
}

void CommandPalette::activateRow(int row)
{
    if (row < 0 || row >= m_shown.size())
        return;
    const PaletteEntry entry = m_entries[m_shown[row]];
    // Closed first: what it opens (a dialog, a page) gets the focus, not the palette.
    hide();
    if (m_activate)
        m_activate(entry);
    close();
}

bool CommandPalette::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Down || key == Qt::Key_Up || key == Qt::Key_PageDown ||
            key == Qt::Key_PageUp) {
            QCoreApplication::sendEvent(m_results, event);
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace gpudesk
