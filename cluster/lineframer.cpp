// SPDX-License-Identifier: GPL-3.0-or-later
#include "lineframer.h"

#include <algorithm>
#include <utility>

namespace gpudesk {

bool LineFramer::append(const QByteArray &piece, QList<QByteArray> *lines)
{
    const qsizetype scanned = m_pending.size();
    // QByteArray's own growth reallocates for every append of a large piece (a 16 MiB line
    // then took minutes in pieces of a few KiB).
    if (m_pending.capacity() < scanned + piece.size())
        m_pending.reserve(std::max(scanned + piece.size(), 2 * m_pending.capacity()));
    m_pending.append(piece);
    qsizetype start = 0;
    for (qsizetype nl = m_pending.indexOf('\n', scanned); nl >= 0;
         nl = m_pending.indexOf('\n', start)) {
        if (nl > start)
            lines->append(m_pending.mid(start, nl - start));
        start = nl + 1;
    }
    m_pending.remove(0, start);
    if (m_pending.size() > m_maxLineBytes) {
        m_pending = QByteArray();
        return false;
    }
    return true;
}

QByteArray LineFramer::finish()
{
    QByteArray rest = std::exchange(m_pending, QByteArray());
    return rest.trimmed().isEmpty() ? QByteArray() : rest;
}

} // namespace gpudesk
