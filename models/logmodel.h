// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "logline.h"

#include <QAbstractListModel>
#include <QByteArrayView>
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

    // What the view keeps of a followed log: past either bound the oldest tenth goes (a week of
    // a chatty job would otherwise take all memory; a download streams the whole log to disk).
    static constexpr int MaxLines = 2'000'000;
    static constexpr qint64 MaxBytes = 512ll << 20;
    void setLimits(int maxLines, qint64 maxBytes);
    // Lines dropped from the start to stay within the bounds.
    qint64 droppedLines() const { return m_dropped; }

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
    // Lines that say something failed: a Python traceback, an error or exception, CUDA errors and
    // out-of-memory, a process killed or crashed. Their rows, ascending (SeverityRole 2).
    const QList<int> &errorLines() const { return m_errors; }
    // The next error line after (or before) `from`, wrapping around; -1 if none.
    int nextError(int from, bool forward) const;
    static bool isErrorLine(QByteArrayView text);
    qint64 bytes() const { return m_text.size(); }
    // The longest line so far in bytes, timestamp included: how wide the view must scroll.
    int longestLine() const { return m_longest; }

private:
    void trim();

    QByteArray m_text;         // each line: timestamp, then text
    QList<qint64> m_lineStart; // where each line's timestamp begins
    QList<qint64> m_textStart; // where its text begins
    QList<gpudesk::LogLine> m_pending;
    QList<int> m_errors;
    QTimer m_flush;
    bool m_timestamps = false;
    int m_longest = 0;
    int m_maxLines = MaxLines;
    qint64 m_maxBytes = MaxBytes;
    qint64 m_dropped = 0;
};

} // namespace gpudesk
