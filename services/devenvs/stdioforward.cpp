// SPDX-License-Identifier: GPL-3.0-or-later
#include "stdioforward.h"

#include "devpodresolver.h"
#include "kubeclient.h"
#include "tunnelconnection.h"

#include <QRegularExpression>
#include <QSocketNotifier>

#include <cerrno>
#include <unistd.h>

namespace gpudesk {

StdioForward::StdioForward(const QStringList &kubeconfigFiles, QString target, QObject *parent)
    : QObject(parent), m_files(kubeconfigFiles), m_target(std::move(target))
{}

StdioForward::~StdioForward() = default;

bool StdioForward::parseTarget(const QString &target, QString *context, QString *ns,
                               QString *environment, quint16 *port, QString *error)
{
    // Context names may hold '/' (arn:aws:eks:…:cluster/name): the namespace and environment
    // are the last two parts, as DNS labels cannot hold one.
    static const QRegularExpression re(
        QStringLiteral("^(.+)/([a-z0-9]([-a-z0-9]*[a-z0-9])?)/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)"
                       ":(\\d{1,5})$"));
    const auto m = re.match(target);
    const uint p = m.hasMatch() ? m.captured(6).toUInt() : 0;
    if (!m.hasMatch() || p == 0 || p > 65535) {
        *error =
            tr("--stdio-forward takes CONTEXT/NAMESPACE/ENVIRONMENT:PORT, not \"%1\"").arg(target);
        return false;
    }
    *context = m.captured(1);
    *ns = m.captured(2);
    *environment = m.captured(4);
    *port = quint16(p);
    return true;
}

bool StdioForward::prepare(QString *error)
{
    if (!parseTarget(m_target, &m_context, &m_ns, &m_environment, &m_port, error))
        return false;
    m_client = DevPodResolver::clientFor(m_files, m_context, error);
    return m_client != nullptr;
}

void StdioForward::start()
{
    m_resolver = new DevPodResolver(m_client.get(), m_ns, m_environment, this);
    m_connection = new TunnelConnection(m_client.get(), m_resolver, m_port, this);
    connect(m_connection, &TunnelConnection::toLocal, this, [](const QByteArray &data) {
        // stdout is a pipe to ssh: write it all, waiting when it is full.
        qsizetype done = 0;
        while (done < data.size()) {
            const ssize_t n =
                ::write(STDOUT_FILENO, data.constData() + done, size_t(data.size() - done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return;
            done += n;
        }
    });
    connect(m_connection, &TunnelConnection::ended, this,
            [this](const QString &error) { emit finished(error.isEmpty() ? 0 : 1, error); });
    m_stdin = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(m_stdin, &QSocketNotifier::activated, this, &StdioForward::readStdin);
    m_connection->start();
}

void StdioForward::readStdin()
{
    char buf[64 * 1024];
    const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        // ssh closed our stdin: the session is over.
        m_stdin->setEnabled(false);
        m_connection->localClosed();
        return;
    }
    m_connection->sendToPod(QByteArray(buf, qsizetype(n)));
}

} // namespace gpudesk
