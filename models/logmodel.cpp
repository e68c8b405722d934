// SPDX-License-Identifier: GPL-3.0-or-later
#include "logmodel.h"

#include "roles.h"

#include <algorithm>

namespace gpudesk {

LogModel::LogModel(QObject *parent) : QAbstractListModel(parent)
{
    m_flush.setSingleShot(true);
    m_flush.setInterval(50);
    connect(&m_flush, &QTimer::timeout, this, &LogModel::flush);
}

void LogModel::append(const QList<LogLine> &lines)
{
    m_pending.append(lines);
    if (!m_flush.isActive())
        m_flush.start();
}

void LogModel::flush()
{
    m_flush.stop();
    if (m_pending.isEmpty())
        return;
    const int first = int(m_lineStart.size());
    beginInsertRows({}, first, first + int(m_pending.size()) - 1);
    for (const LogLine &l : std::as_const(m_pending)) {
        m_lineStart.append(m_text.size());
        m_text += l.timestamp;
        m_textStart.append(m_text.size());
        m_text += l.text;
        m_longest = std::max(m_longest, int(l.timestamp.size() + 1 + l.text.size()));
        if (isErrorLine(l.text))
            m_errors.append(int(m_lineStart.size()) - 1);
    }
    m_pending.clear();
    endInsertRows();
    trim();
}

void LogModel::setLimits(int maxLines, qint64 maxBytes)
{
    m_maxLines = maxLines;
    m_maxBytes = maxBytes;
    trim();
}

void LogModel::trim()
{
    const qsizetype lines = m_lineStart.size();
    if (lines <= m_maxLines && m_text.size() <= m_maxBytes)
        return;
    // Down to nine tenths of the bounds, so that trimming is rare and its cost (moving what is
    // kept) spread over many lines.
    qsizetype drop = std::max<qsizetype>(0, lines - qsizetype(m_maxLines) * 9 / 10);
    const qint64 keepBytes = m_maxBytes / 10 * 9;
    if (m_text.size() > keepBytes) {
        // The first line that starts late enough for the rest to fit.
        const auto it =
            std::lower_bound(m_lineStart.cbegin(), m_lineStart.cend(), m_text.size() - keepBytes);
        drop = std::max<qsizetype>(drop, it - m_lineStart.cbegin());
    }
    drop = std::min(drop, lines);
    if (drop == 0)
        return;
    beginRemoveRows({}, 0, int(drop) - 1);
    const qint64 cut = drop < lines ? m_lineStart[drop] : m_text.size();
    m_text.remove(0, cut);
    m_lineStart.remove(0, drop);
    m_textStart.remove(0, drop);
    for (qint64 &o : m_lineStart)
        o -= cut;
    for (qint64 &o : m_textStart)
        o -= cut;
    const auto firstKept = std::lower_bound(m_errors.begin(), m_errors.end(), int(drop));
    m_errors.erase(m_errors.begin(), firstKept);
    for (int &row : m_errors)
        row -= int(drop);
    m_dropped += drop;
    endRemoveRows();
}

void LogModel::clear()
{
    beginResetModel();
    m_text.clear();
    m_lineStart.clear();
    m_textStart.clear();
    m_pending.clear();
    m_errors.clear();
    m_longest = 0;
    m_dropped = 0;
    endResetModel();
}

void LogModel::setShowTimestamps(bool show)
{
    if (show == m_timestamps)
        return;
    m_timestamps = show;
    if (!m_lineStart.isEmpty())
        emit dataChanged(index(0), index(int(m_lineStart.size()) - 1), {Qt::DisplayRole});
}

int LogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lineStart.size());
}

QString LogModel::lineText(int row) const
{
    if (row < 0 || row >= m_lineStart.size())
        return {};
    const qint64 end = row + 1 < m_lineStart.size() ? m_lineStart[row + 1] : m_text.size();
    const qint64 begin = m_timestamps ? m_lineStart[row] : m_textStart[row];
    QString line = QString::fromUtf8(m_text.constData() + begin, end - begin);
    if (m_timestamps && m_textStart[row] > m_lineStart[row])
        line.insert(int(m_textStart[row] - m_lineStart[row]), u' ');
    return line;
}

QVariant LogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role == Qt::DisplayRole)
        return lineText(index.row());
    if (role == SeverityRole)
        return std::binary_search(m_errors.cbegin(), m_errors.cend(), index.row()) ? 2 : 0;
    return {};
}

bool LogModel::isErrorLine(QByteArrayView text)
{
    // What training jobs print when they fail; matched on the raw bytes (a log can be a million
    // lines), case as the tools write it so that "error_count=0" is not an error.
    static const QByteArrayView markers[] = {"Traceback (most recent call last)",
                                             "Error",
                                             "ERROR",
                                             "Exception",
                                             "CUDA error",
                                             "out of memory",
                                             "OOMKilled",
                                             "Killed",
                                             "Segmentation fault",
                                             "core dumped",
                                             "FATAL",
                                             "Fatal error",
                                             "NCCL WARN",
                                             "panic:",
                                             "No such file or directory",
                                             "Permission denied",
                                             "command not found"};
    for (const QByteArrayView m : markers)
        if (text.contains(m))
            return true;
    return false;
}

int LogModel::nextError(int from, bool forward) const
{
    if (m_errors.isEmpty())
        return -1;
    if (forward) {
        const auto it = std::upper_bound(m_errors.cbegin(), m_errors.cend(), from);
        return it == m_errors.cend() ? m_errors.first() : *it;
    }
    const auto it = std::lower_bound(m_errors.cbegin(), m_errors.cend(), from);
    return it == m_errors.cbegin() ? m_errors.last() : *(it - 1);
}

int LogModel::find(const QString &text, int from, bool forward) const
{
    const int n = int(m_lineStart.size());
    if (text.isEmpty() || n == 0)
        return -1;
    for (int step = 1; step <= n; ++step) {
        const int row = ((forward ? from + step : from - step) % n + n) % n;
        if (lineText(row).contains(text, Qt::CaseInsensitive))
            return row;
    }
    return -1;
}

int LogModel::matchCount(const QString &text) const
{
    if (text.isEmpty())
        return 0;
    int count = 0;
    for (int row = 0; row < m_lineStart.size(); ++row)
        count += lineText(row).contains(text, Qt::CaseInsensitive) ? 1 : 0;
    return count;
}

} // namespace gpudesk
