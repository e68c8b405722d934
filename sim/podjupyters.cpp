// SPDX-License-Identifier: GPL-3.0-or-later
#include "podjupyters.h"

#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTcpServer>

namespace sim {

PodJupyters::PodJupyters(QObject *parent) : QObject(parent) {}

PodJupyters::~PodJupyters()
{
    for (auto &[uid, e] : m_pods)
        end(e);
}

void PodJupyters::end(Entry &e)
{
    if (!e.process)
        return;
    e.process->disconnect(this);
    e.process->kill();
    e.process->waitForFinished(5000);
    delete e.process;
    e.process = nullptr;
    e.listening = false;
}

bool PodJupyters::available() const
{
    return QFileInfo(m_program).isExecutable();
}

PodJupyters::State PodJupyters::state(const std::string &podUid) const
{
    const auto it = m_pods.find(podUid);
    return it == m_pods.end() ? State::Shared : it->second.state;
}

std::optional<PodJupyters::Server> PodJupyters::own(const std::string &podUid) const
{
    const auto it = m_pods.find(podUid);
    if (it == m_pods.end() || it->second.state != State::Own || !it->second.listening)
        return std::nullopt;
    return it->second.server;
}

void PodJupyters::stop(const QString &ns, const QString &pod, const std::string &podUid)
{
    Entry &e = m_pods[podUid];
    end(e);
    e.state = State::None;
    e.ns = ns;
    e.pod = pod;
}

void PodJupyters::prune(const Alive &alive)
{
    for (auto it = m_pods.begin(); it != m_pods.end();) {
        if (alive(it->second.ns, it->second.pod, it->first)) {
            ++it;
            continue;
        }
        end(it->second);
        it = m_pods.erase(it);
    }
}

void PodJupyters::start(const QString &ns, const QString &pod, const std::string &podUid,
                        const QString &token, std::function<void(const QString &)> done)
{
    Entry &e = m_pods[podUid];
    end(e);
    e.state = State::Own;
    e.ns = ns;
    e.pod = pod;
    e.dir = std::make_unique<QTemporaryDir>();
    // A free loopback port: taken, read, and given back for the server to bind.
    quint16 port = 0;
    {
        QTcpServer probe;
        if (probe.listen(QHostAddress::LocalHost, 0))
            port = probe.serverPort();
    }
    e.server = {port, token};
    auto *p = new QProcess(this);
    e.process = p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // The token as the client meant it: through the environment, never on a command line.
    env.insert(QStringLiteral("JUPYTER_TOKEN"), token);
    for (const char *sub : {"runtime", "config", "data"})
        env.insert(QStringLiteral("JUPYTER_%1_DIR").arg(QString::fromLatin1(sub).toUpper()),
                   e.dir->filePath(QString::fromLatin1(sub)));
    p->setProcessEnvironment(env);
    p->setProcessChannelMode(QProcess::MergedChannels);
    auto output = std::make_shared<QByteArray>();
    auto answered = std::make_shared<bool>(false);
    auto answer = [done, answered](const QString &error) {
        if (!std::exchange(*answered, true))
            done(error);
    };
    connect(p, &QProcess::readyRead, this, [this, p, podUid, output, answer] {
        output->append(p->readAll());
        // jupyter-server says where it runs once it listens.
        if (output->contains("is running at")) {
            const auto it = m_pods.find(podUid);
            if (it != m_pods.end() && it->second.process == p)
                it->second.listening = true;
            answer({});
        }
    });
    connect(p, &QProcess::errorOccurred, this, [answer, p](QProcess::ProcessError) {
        answer(QStringLiteral("sh: 1: jupyter: not found (%1)").arg(p->errorString()));
    });
    connect(p, &QProcess::finished, this, [answer, output] {
        answer(QStringLiteral("jupyter exited: %1")
                   .arg(QString::fromUtf8(output->right(400)).trimmed()));
    });
    p->start(m_program, {QStringLiteral("--ServerApp.ip=127.0.0.1"),
                         QStringLiteral("--ServerApp.port=%1").arg(port),
                         QStringLiteral("--ServerApp.port_retries=0"),
                         QStringLiteral("--ServerApp.open_browser=False"),
                         QStringLiteral("--ServerApp.allow_root=True"),
                         QStringLiteral("--ServerApp.root_dir=") + e.dir->path()});
}

} // namespace sim
