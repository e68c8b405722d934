// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

#include <functional>

class QLabel;
class QLineEdit;
class QListWidget;

namespace gpudesk {

// One thing the palette can go to: an action of the menus, or a node, pod, job, user or VC.
// Light on purpose: a cluster of 100,000 pods gives as many entries, made each time it opens.
struct PaletteEntry
{
    enum Kind
    {
        Action,
        Node,
        Job,
        Pod,
        User,
        Vc
    };
    Kind kind = Action;
    QString text;   // what is matched first and shown
    QString detail; // matched too, shown after it: a namespace, a menu, a shortcut
    QString key;    // what the activation needs (a uid, a name, an action's object name)
};

// Ctrl+K: type a few letters of anything and go there. Every word typed must appear in the
// entry's text or detail; entries whose text starts with the query come first, then those
// where it starts a word, then the rest; actions before objects on a tie. At most `Shown`
// results are listed, and the count of all matches is said.
class CommandPalette : public QDialog
{
    Q_OBJECT
public:
    static constexpr int Shown = 50;
    using Activate = std::function<void(const PaletteEntry &)>;

    CommandPalette(QList<PaletteEntry> entries, Activate activate, QWidget *parent = nullptr);
    QLineEdit *input() const { return m_input; }
    QListWidget *results() const { return m_results; }
    QLabel *count() const { return m_count; }
    // The indices of the entries that match, best first, at most `limit`; `total` all matches.
    static QList<int> match(const QList<PaletteEntry> &entries, const QString &query, int limit,
                            int *total = nullptr);
    // What match() searches: an entry's text and detail, folded to lower case once.
    static QStringList fold(const QList<PaletteEntry> &entries);
    // The same on folded entries, among `within` only when given (the matches of a query this
    // one extends: typing narrows, it never widens); every match's index goes to `all`.
    static QList<int> match(const QList<PaletteEntry> &entries, const QStringList &folded,
                            const QString &query, int limit, int *total, const QList<int> *within,
                            QList<int> *all);
    static QString kindName(PaletteEntry::Kind kind);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refresh();
    void activateRow(int row);

    QList<PaletteEntry> m_entries;
    Activate m_activate;
    QStringList m_folded;
    QString m_lastQuery;
    QList<int> m_lastAll; // every match of m_lastQuery
    QLineEdit *m_input;
    QListWidget *m_results;
    QLabel *m_count;
    QList<int> m_shown;
};

} // namespace gpudesk
