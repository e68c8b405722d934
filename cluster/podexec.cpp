// SPDX-License-Identifier: GPL-3.0-or-later
#include "podexec.h"

#include "channelprotocol.h"
#include "podwebsocket.h"

#include <QUrl>

namespace gpudesk {

namespace {
// Kept in memory for stdoutData(); a terminal's output is streamed, not kept.
constexpr qsizetype MaxKeptBytes = 16 << 20;
} // namespace

PodExec::PodExec(KubeClient *client, const QString &ns, const QString &pod,
                 const QStringList &command, const Options &options, QObject *parent)
    : QObject(parent), m_keep(options.keepOutput)
{
    // Each argument percent-encoded whole: a '+' left as it is would reach the server as a space.
    QStringList q;
    for (const QString &arg : command)
        q << QStringLiteral("command=") + QString::fromLatin1(QUrl::toPercentEncoding(arg));
    if (!options.container.isEmpty())
        q << QStringLiteral("container=") +
                 QString::fromLatin1(QUrl::toPercentEncoding(options.container));
    q << QStringLiteral("stdout=true");
    if (!options.tty)
        q << QStringLiteral("stderr=true"); // a terminal has one stream
    if (options.stdin)
        q << QStringLiteral("stdin=true");
    if (options.tty)
        q << QStringLiteral("tty=true");
    const QString path =
        QStringLiteral("/api/v1/namespaces/%1/pods/%2/exec?%3").arg(ns, pod, q.join(u'&'));
    m_ws = new PodWebSocket(
        client, path, {QStringLiteral("v5.channel.k8s.io"), QStringLiteral("v4.channel.k8s.io")},
        this);
    connect(m_ws, &PodWebSocket::opened, this, &PodExec::started);
    connect(m_ws, &PodWebSocket::written, this, &PodExec::stdinWritten);
    connect(m_ws, &PodWebSocket::message, this, &PodExec::onMessage);
    connect(m_ws, &PodWebSocket::failed, this,
            [this](const QString &error, int) { end(-1, error); });
    connect(m_ws, &PodWebSocket::closed, this, [this] {
        // A stream that ends without the kubelet's Status did not say how the command ended.
        if (!m_sawStatus)
            end(-1, tr("The command's stream ended without its exit status."));
    });
}

void PodExec::start()
{
    m_ws->open();
}

QString PodExec::protocol() const
{
    return m_ws->protocol();
}

qint64 PodExec::bytesToWrite() const
{
    return m_ws->bytesToWrite();
}

void PodExec::onMessage(const QByteArray &m)
{
    if (m.isEmpty())
        return;
    const auto channel = quint8(m.at(0));
    const QByteArray data = m.mid(1);
    switch (channel) {
    case channel::Stdout:
        if (m_keep && m_out.size() < MaxKeptBytes)
            m_out += data;
        emit output(data);
        break;
    case channel::Stderr:
        if (m_err.size() < MaxKeptBytes)
            m_err += data;
        emit errorOutput(data);
        break;
    case channel::Error: {
        m_sawStatus = true;
        const auto status = channel::parseExecStatus(data);
        if (!status)
            end(-1,
                tr("The exit status could not be read: %1").arg(QString::fromUtf8(data.left(200))));
        else
            end(status->exitCode, status->error);
        break;
    }
    default:
        break;
    }
}

void PodExec::writeStdin(const QByteArray &data)
{
    m_ws->send(channel::frame(channel::Stdin, data));
}

void PodExec::closeStdin()
{
    if (m_ws->protocol() == QLatin1String("v5.channel.k8s.io"))
        m_ws->send(channel::closeFrame(channel::Stdin));
    else
        // v4 can only say it by closing the stream, and the exit status goes with it: an answer
        // all the same, not a wait for one that cannot come.
        end(-1, tr("The input ended; the server speaks v4.channel.k8s.io, which can only say so "
                   "by closing the stream: the command's exit status is not known."));
}

void PodExec::resize(int columns, int rows)
{
    m_ws->send(channel::resizeFrame(columns, rows));
}

void PodExec::cancel()
{
    m_ws->close();
    end(-1, tr("Cancelled."));
}

void PodExec::end(int exitCode, const QString &error)
{
    if (std::exchange(m_ended, true))
        return;
    m_ws->close();
    emit finished(exitCode, error);
}

} // namespace gpudesk
