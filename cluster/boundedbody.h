// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

#include <memory>

class QNetworkReply;

namespace gpudesk {

// An HTTP answer read as it comes into a buffer of ours, with a bound. Qt holds at most
// `readAhead` bytes of it (its own buffer is unbounded by default, and a fast server outruns a
// busy UI thread); an answer growing past `maxBytes` is aborted and its memory given back at
// once, and the caller says so in its own words (which server, what it asked). Owned by the
// reply's readyRead connection and by whoever handles its end.
class BoundedBody
{
public:
    static std::shared_ptr<BoundedBody> attach(QNetworkReply *reply, qint64 maxBytes,
                                               qint64 readAhead = 1 << 20);

    // A server can keep a request alive for ever by sending a byte now and then (Qt's transfer
    // timeout starts again with every byte): once the answer has begun, a window of this long
    // that brings fewer than SlowWindowMinBytes (but some; silence is the transfer timeout's)
    // ends it.
    static constexpr int SlowWindowMs = 20000;
    static constexpr qint64 SlowWindowMinBytes = 1024;

    bool tooLarge() const { return m_tooLarge; }
    // Given up as too slow: how many bytes the last window brought.
    bool tooSlow() const { return m_tooSlow; }
    qint64 slowWindowBytes() const { return m_slowWindowBytes; }
    qint64 maxBytes() const { return m_maxBytes; }
    // The whole answer, once the reply has finished (empty when it was too large or slow).
    QByteArray take(QNetworkReply *reply);

private:
    explicit BoundedBody(qint64 maxBytes) : m_maxBytes(maxBytes) {}

    qint64 m_maxBytes;
    QByteArray m_data;
    qint64 m_received = 0;
    qint64 m_receivedAtWindowStart = 0;
    qint64 m_slowWindowBytes = 0;
    bool m_tooLarge = false;
    bool m_tooSlow = false;
};

} // namespace gpudesk
