// SPDX-License-Identifier: GPL-3.0-or-later
#include "spdyexecchannels.h"

#include "spdysession.h"

namespace sim {

namespace {
constexpr char kStdin = 0, kStdout = 1, kStderr = 2, kError = 3, kResize = 4, kClose = char(255);

int channelOf(const QByteArray &streamType)
{
    if (streamType == "error")
        return kError;
    if (streamType == "stdin")
        return kStdin;
    if (streamType == "stdout")
        return kStdout;
    if (streamType == "stderr")
        return kStderr;
    if (streamType == "resize")
        return kResize;
    return -1;
}
} // namespace

SpdyExecChannels::SpdyExecChannels(SpdySession *session, const QList<char> &expected,
                                   QObject *parent)
    : SpdyChannels(session, parent), m_expected(expected)
{
    connect(session, &SpdySession::streamOpened, this, &SpdyExecChannels::opened);
    connect(session, &SpdySession::streamData, this, [this](quint32 stream, const QByteArray &d) {
        if (m_channels.contains(stream))
            emit binaryMessage(QByteArray(1, m_channels.value(stream)) + d);
    });
    connect(session, &SpdySession::streamEnded, this, [this](quint32 stream) {
        if (m_channels.value(stream, -1) == kStdin)
            emit binaryMessage(QByteArray{1, kClose} + QByteArray(1, kStdin));
    });
    connect(session, &SpdySession::closed, this, [this] {
        emit closed();
        deleteLater();
    });
    m_wait.setSingleShot(true);
    connect(&m_wait, &QTimer::timeout, this, [this] {
        if (!ready())
            abort();
    });
    m_wait.start(kStreamWaitMs);
}

void SpdyExecChannels::opened(quint32 stream, const SpdyFrame &syn)
{
    const int channel = channelOf(syn.header("streamtype"));
    if (channel < 0 || m_streams.contains(char(channel))) {
        m_session->reset(stream, SpdyFramer::RefusedStream);
        return;
    }
    m_streams.insert(char(channel), stream);
    m_channels.insert(stream, char(channel));
    if (ready())
        flush();
}

bool SpdyExecChannels::ready() const
{
    for (char c : m_expected)
        if (!m_streams.contains(c))
            return false;
    return true;
}

void SpdyExecChannels::flush()
{
    m_wait.stop();
    for (const QByteArray &m : std::exchange(m_pending, {}))
        sendBinary(m);
    if (m_closeWanted)
        close();
}

void SpdyExecChannels::sendBinary(const QByteArray &message)
{
    if (message.isEmpty() || !m_session)
        return;
    if (!ready()) {
        m_pending.append(message);
        return;
    }
    const char channel = message.at(0);
    if (m_streams.contains(channel))
        m_session->write(m_streams.value(channel), message.mid(1));
}

void SpdyExecChannels::close(quint16, const QByteArray &)
{
    if (!m_session)
        return;
    if (!ready()) {
        m_closeWanted = true;
        return;
    }
    // stdout and stderr first: the client reads the error stream to its end only after them.
    for (char c : {kStdout, kStderr, kError, kStdin, kResize})
        if (m_streams.contains(c))
            m_session->finish(m_streams.value(c));
    m_session->close();
}

void SpdyExecChannels::abort()
{
    if (m_session)
        m_session->abort();
}

} // namespace sim
