// SPDX-License-Identifier: GPL-3.0-or-later
#include "boundedbody.h"

#include <QNetworkReply>
#include <QTimer>

#include <utility>

namespace gpudesk {

std::shared_ptr<BoundedBody> BoundedBody::attach(QNetworkReply *reply, qint64 maxBytes,
                                                 qint64 readAhead)
{
    std::shared_ptr<BoundedBody> body(new BoundedBody(maxBytes));
    reply->setReadBufferSize(readAhead);
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [reply, body] {
        if (body->m_tooLarge || body->m_tooSlow)
            return;
        const QByteArray piece = reply->readAll();
        body->m_received += piece.size();
        body->m_data.append(piece);
        if (body->m_data.size() > body->m_maxBytes) {
            body->m_tooLarge = true;
            body->m_data = QByteArray();
            reply->abort();
        }
    });
    auto *window = new QTimer(reply);
    window->start(SlowWindowMs);
    QObject::connect(window, &QTimer::timeout, reply, [reply, body] {
        const qint64 bytes = body->m_received - body->m_receivedAtWindowStart;
        body->m_receivedAtWindowStart = body->m_received;
        if (bytes == 0 || bytes >= SlowWindowMinBytes || reply->isFinished())
            return;
        body->m_tooSlow = true;
        body->m_slowWindowBytes = bytes;
        body->m_data = QByteArray();
        reply->abort();
    });
    return body;
}

QByteArray BoundedBody::take(QNetworkReply *reply)
{
    if (m_tooLarge || m_tooSlow)
        return {};
    // An aborted or failed reply is closed: reading it would only make Qt warn.
    if (reply->isOpen())
        m_data += reply->readAll();
    return std::exchange(m_data, QByteArray());
}

} // namespace gpudesk
