// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "logline.h"

#include <QAbstractListModel>
#include <QTimer>

namespace gpudesk {

// A container's log as a list of lines, built for a million lines and thousands more a second:
// text is kept as UTF-8 in one buffer with an offset per line (about 16 bytes of overhead a line),
// and arriving lines are appended in batches, at most twenty times a second.
class LogModel : public QAbstractListModel
{
    Q_OBJECT
public:
    explicit LogModel(QObject *parent = nullptr);

    void append(const QList<gpudesk::LogLine> &lines);
    void clear();
    void flush(); // append what is pending now
    void setShowTimestamps(bool show);
    bool showTimestamps() const { return m_timestamps; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    QString lineText(int row) const;
    // The next line from `from` (exclusive) containing `text`, wrapping around; -1 if none.
    int find(const QString &text, int from, bool forward) const;
    int matchCount(const QString &text) const;
    qint64 bytes() const { return m_text.size(); }
    // The longest line so far in bytes, timestamp included: how wide the view must scroll.
    int longestLine() const { return m_longest; }

private:
    QByteArray m_text;         // each line: timestamp, then text
    QList<qint64> m_lineStart; // where each line's timestamp begins
    QList<qint64> m_textStart; // where its text begins
    QList<gpudesk::LogLine> m_pending;
    QTimer m_flush;
    bool m_timestamps = false;
    int m_longest = 0;
};

} // namespace gpudesk
