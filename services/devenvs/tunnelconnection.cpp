// SPDX-License-Identifier: GPL-3.0-or-later
#include "tunnelconnection.h"

#include "devpodresolver.h"
#include "portforwardstream.h"

namespace gpudesk {

namespace {
// Beyond this, what was sent unanswered is not kept: the connection is not replayed.
constexpr qsizetype MaxReplayBytes = 1 << 20;
} // namespace

TunnelConnection::TunnelConnection(KubeClient *client, DevPodResolver *resolver, quint16 port,
                                   QObject *parent)
    : QObject(parent), m_client(client), m_resolver(resolver), m_port(port)
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &TunnelConnection::attempt);
}

void TunnelConnection::start()
{
    attempt();
}

void TunnelConnection::attempt()
{
    if (m_ended)
        return;
    m_resolver->resolve(this, [this](const QString &pod, const QString &why, bool retryable) {
        if (m_ended)
            return;
        if (pod.isEmpty()) {
            onFailed(why, retryable);
            return;
        }
        m_pod = pod;
        openStream();
    });
}

void TunnelConnection::openStream()
{
    if (m_stream)
        m_stream->deleteLater();
    m_stream = new PortForwardStream(m_client, m_resolver->ns(), m_pod, m_port, this);
    m_stream->setPingInterval(m_pingMs);
    connect(m_stream, &PortForwardStream::ready, this, [this] {
        m_delayMs = 0;
        m_retryingFor.invalidate();
        if (!m_unanswered.isEmpty())
            m_stream->write(m_unanswered);
        emit live(m_pod);
        if (m_localClosed)
            m_stream->close();
    });
    connect(m_stream, &PortForwardStream::received, this, [this](const QByteArray &data) {
        m_answered = true;
        m_unanswered.clear();
        m_in += data.size();
        emit toLocal(data);
    });
    connect(m_stream, &PortForwardStream::failed, this, &TunnelConnection::onFailed);
    connect(m_stream, &PortForwardStream::finished, this, [this] { end({}); });
    m_stream->open();
}

void TunnelConnection::onFailed(const QString &error, bool retryable)
{
    if (m_ended)
        return;
    if (!retryable || m_answered || m_unanswered.size() > MaxReplayBytes) {
        end(error);
        return;
    }
    if (!m_retryingFor.isValid())
        m_retryingFor.start();
    if (m_retryingFor.elapsed() > m_budgetMs) {
        end(error);
        return;
    }
    emit retrying(error);
    // Soon at first (a dropped stream is usually back at once), then backing off to 2 s.
    m_delayMs = m_delayMs == 0 ? 100 : qMin(2000, m_delayMs * 2);
    m_retry.start(m_delayMs);
}

void TunnelConnection::sendToPod(const QByteArray &data)
{
    if (m_ended)
        return;
    m_out += data.size();
    if (!m_answered)
        m_unanswered += data;
    if (m_stream && m_stream->isReady())
        m_stream->write(data);
}

qint64 TunnelConnection::pendingToPod() const
{
    return m_stream ? m_stream->bytesToWrite() : 0;
}

void TunnelConnection::localClosed()
{
    m_localClosed = true;
    if (m_stream && m_stream->isReady())
        m_stream->close();
    end({});
}

void TunnelConnection::end(const QString &error)
{
    if (std::exchange(m_ended, true))
        return;
    m_retry.stop();
    if (m_stream)
        m_stream->close();
    emit ended(error);
}

} // namespace gpudesk
