// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>

namespace gpudesk {

// Splits a stream of newline-ended records (a watch's JSON events) into lines as its pieces
// arrive, however the network cut them. Only new bytes are searched and the unfinished line
// grows by doubling: a large event arriving in many small pieces would otherwise be copied and
// scanned again for every piece. The unfinished line is bounded: past the bound append() says
// so and drops it, and the caller decides what that means for the stream.
class LineFramer
{
public:
    explicit LineFramer(qsizetype maxLineBytes) : m_maxLineBytes(maxLineBytes) {}

    // Appends the complete, non-empty lines `piece` ends to *lines (without their newline).
    // False when the unfinished line has grown past the bound (its bytes are gone).
    bool append(const QByteArray &piece, QList<QByteArray> *lines);
    // What is left when the stream ends: the last line if it had no newline (empty if blank).
    QByteArray finish();
    void clear() { m_pending = QByteArray(); }
    qsizetype pendingBytes() const { return m_pending.size(); }
    qsizetype maxLineBytes() const { return m_maxLineBytes; }

private:
    qsizetype m_maxLineBytes;
    QByteArray m_pending; // an unfinished line: holds no newline
};

} // namespace gpudesk
