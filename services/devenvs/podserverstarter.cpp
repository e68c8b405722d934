// SPDX-License-Identifier: GPL-3.0-or-later
#include "podserverstarter.h"

#include "podexec.h"
#include "podhttp.h"

#include <QRandomGenerator>

namespace gpudesk {

namespace {

// Jupyter: the token from stdin into the environment (jupyter-server reads JUPYTER_TOKEN),
// JupyterLab where the image has it, only on the pod's loopback (the port-forward arrives
// there), on $1 or not at all (another port would never be found); its stdin not the exec's, so
// that the exec ends with the script.
const char *const JupyterScript =
    "read -r JUPYTER_TOKEN || exit 2\n"
    "export JUPYTER_TOKEN\n"
    "command -v jupyter >/dev/null 2>&1 || { echo 'jupyter is not installed in this image' >&2; "
    "exit 127; }\n"
    "cd \"$HOME\" 2>/dev/null || cd /\n"
    "app=server; command -v jupyter-lab >/dev/null 2>&1 && app=lab\n"
    "nohup jupyter \"$app\" --no-browser --ip=127.0.0.1 --port=\"$1\" --ServerApp.port_retries=0 "
    "--ServerApp.allow_root=True </dev/null >/tmp/gpudesk-jupyter.log 2>&1 &\n";

// TensorBoard: $1 the log folder, $2 the port.
const char *const TensorBoardScript =
    "command -v tensorboard >/dev/null 2>&1 || { echo 'tensorboard is not installed in this "
    "image' >&2; exit 127; }\n"
    "cd \"$HOME\" 2>/dev/null || cd /\n"
    "nohup tensorboard --logdir=\"$1\" --host=127.0.0.1 --port=\"$2\" "
    "</dev/null >/tmp/gpudesk-tensorboard.log 2>&1 &\n";

} // namespace

PodServerStarter::PodServerStarter(KubeClient *client, QString ns, QString pod, Kind kind,
                                   quint16 port, QString logDir, QObject *parent)
    : QObject(parent), m_client(client), m_ns(std::move(ns)), m_pod(std::move(pod)), m_kind(kind),
      m_port(port), m_logDir(std::move(logDir))
{
    m_again.setSingleShot(true);
    m_again.setInterval(1000);
    connect(&m_again, &QTimer::timeout, this, &PodServerStarter::poll);
    m_deadline.setSingleShot(true);
    m_deadline.setInterval(WaitMs);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        fail(tr("%1 did not answer in %2 within %3 s; its log is /tmp/gpudesk-%4.log in the pod.")
                 .arg(name(), m_pod)
                 .arg(WaitMs / 1000)
                 .arg(name().toLower()));
    });
}

QStringList PodServerStarter::command(Kind kind, quint16 port, const QString &logDir)
{
    if (kind == Kind::Jupyter)
        return {QStringLiteral("sh"), QStringLiteral("-c"), QString::fromLatin1(JupyterScript),
                QStringLiteral("gpudesk-jupyter"), QString::number(port)};
    return {QStringLiteral("sh"),
            QStringLiteral("-c"),
            QString::fromLatin1(TensorBoardScript),
            QStringLiteral("gpudesk-tensorboard"),
            logDir,
            QString::number(port)};
}

QString PodServerStarter::name() const
{
    return m_kind == Kind::Jupyter ? QStringLiteral("Jupyter") : QStringLiteral("TensorBoard");
}

void PodServerStarter::fail(const QString &error)
{
    if (std::exchange(m_done, true))
        return;
    m_again.stop();
    m_deadline.stop();
    emit failed(error);
}

void PodServerStarter::start()
{
    m_deadline.start();
    if (m_kind == Kind::Jupyter) {
        launch();
        return;
    }
    // Something answers there already (a TensorBoard started before, on another folder): a
    // second one could not bind, and this one would be shown as if it were the new one.
    PodHttp::get(m_client, m_ns, m_pod, m_port, QStringLiteral("/"), {}, this,
                 [this](const PodHttp::Answer &a) {
                     if (m_done)
                         return;
                     if (a.status == 0) {
                         launch();
                         return;
                     }
                     emit progress(tr("Port %1 of %2 answers already: opening what runs there. "
                                      "To read another folder, stop it first.")
                                       .arg(m_port)
                                       .arg(m_pod));
                     m_done = true;
                     m_deadline.stop();
                     JupyterProbe::Server server;
                     server.port = m_port;
                     emit ready(server);
                 });
}

void PodServerStarter::launch()
{
    PodExec::Options options;
    options.stdin = m_kind == Kind::Jupyter;
    if (m_kind == Kind::Jupyter) {
        // 192 random bits, as `jupyter server` makes its own.
        QByteArray random(24, Qt::Uninitialized);
        QRandomGenerator::system()->generate(random.begin(), random.end());
        m_token = QString::fromLatin1(random.toHex());
    }
    auto *exec =
        new PodExec(m_client, m_ns, m_pod, command(m_kind, m_port, m_logDir), options, this);
    connect(exec, &PodExec::started, this, [this, exec] {
        if (m_kind != Kind::Jupyter)
            return;
        exec->writeStdin(m_token.toLatin1() + '\n');
        // v5 can say the input ended; v4 only by closing the stream, which would lose the
        // answer: the script reads one line and does not wait for more.
        if (exec->protocol() == QLatin1String("v5.channel.k8s.io"))
            exec->closeStdin();
    });
    connect(exec, &PodExec::finished, this, [this, exec](int code, const QString &error) {
        exec->deleteLater();
        if (m_done)
            return;
        const QString said = QString::fromUtf8(exec->stderrData()).trimmed();
        if (code == 127)
            fail(tr("%1 is not installed in the image of %2 (%3).").arg(name(), m_pod, said));
        else if (code != 0)
            fail(error.isEmpty() ? tr("Starting %1 in %2 ended with exit code %3: %4")
                                       .arg(name(), m_pod)
                                       .arg(code)
                                       .arg(said)
                                 : error);
        else {
            emit progress(tr("%1 is starting in %2…").arg(name(), m_pod));
            poll();
        }
    });
    emit progress(tr("No %1 runs in %2: starting one…").arg(name(), m_pod));
    exec->start();
}

void PodServerStarter::poll()
{
    if (m_done)
        return;
    if (m_kind == Kind::Jupyter) {
        // Listed once it listens; ours is the one on our port.
        auto *exec = new PodExec(m_client, m_ns, m_pod,
                                 {QStringLiteral("jupyter"), QStringLiteral("server"),
                                  QStringLiteral("list"), QStringLiteral("--json")},
                                 {}, this);
        connect(exec, &PodExec::finished, this, [this, exec](int code, const QString &) {
            exec->deleteLater();
            if (m_done)
                return;
            // Ours: on our port with our token, wherever it is in the list.
            for (const JupyterProbe::Server &s :
                 JupyterProbe::parseServerList(exec->stdoutData(), m_port))
                if (code == 0 && s.port == m_port && s.token == m_token) {
                    m_done = true;
                    m_deadline.stop();
                    emit ready(s);
                    return;
                }
            m_again.start();
        });
        exec->start();
        return;
    }
    PodHttp::get(m_client, m_ns, m_pod, m_port, QStringLiteral("/"), {}, this,
                 [this](const PodHttp::Answer &a) {
                     if (m_done)
                         return;
                     if (a.status > 0) {
                         m_done = true;
                         m_deadline.stop();
                         JupyterProbe::Server server;
                         server.port = m_port;
                         emit ready(server);
                         return;
                     }
                     m_again.start();
                 });
}

} // namespace gpudesk
