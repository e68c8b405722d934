// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvsservice.h"

#include "clustersession.h"
#include "clusterstore.h"
#include "contextconnection.h"
#include "devenvactivity.h"
#include "devenvmanifests.h"
#include "devenvreadiness.h"
#include "devenvsmodel.h"
#include "jupyterprobe.h"
#include "kubeclient.h"
#include "operation.h"
#include "operationsservice.h"
#include "podexec.h"
#include "podserverstarter.h"
#include "terminalcommand.h"
#include "tunnelsservice.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrlQuery>

namespace gpudesk {

namespace {

// A Host entry's name: the environment and its namespace, in the characters ssh takes.
QString hostAlias(const QString &context, const QString &ns, const QString &env)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]"));
    auto safe = [](QString s) { return s.replace(unsafe, QStringLiteral("_")); };
    return QStringLiteral("%1.%2.%3.gpudesk").arg(safe(env), safe(ns), safe(context));
}

// A word for sh: single-quoted (always, or only when it holds more than plain characters).
QString shellQuote(QString word, bool always)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9._/:+=@-]+$"));
    if (!always && plain.match(word).hasMatch())
        return word;
    return u'\'' + word.replace(u'\'', QLatin1String("'\\''")) + u'\'';
}

} // namespace

DevEnvsService::DevEnvsService(ClusterSession *session, ClusterStore *store,
                               OperationsService *operations, QObject *parent)
    : QObject(parent), m_session(session), m_store(store), m_operations(operations),
      m_model(new DevEnvsModel(store, this)), m_tunnels(new TunnelsService(this)),
      m_activity(new DevEnvActivity(session, m_model, this)),
      m_readiness(new DevEnvReadiness(session, m_model, this)), m_sshConfig(defaultSshConfigPath()),
      m_gpudesk(QCoreApplication::applicationFilePath())
{
    m_model->setTelemetry(session->telemetry());
    m_activity->setTelemetry(session->telemetry());
    connect(session, &ClusterSession::connectionChanged, this, [this] {
        m_model->setVolumes({});
        refreshVolumes();
    });
    // What a dev environment operation made or deleted shows at once, not at the next read.
    connect(operations, &OperationsService::operationFinished, this, [this](Operation *op) {
        if (op->plan().action.startsWith(QLatin1String("devenv.")) ||
            op->plan().action.startsWith(QLatin1String("user.")))
            refreshVolumes();
        // A deleted environment's tunnels would wait for it forever: they go with it.
        if (op->plan().action == QLatin1String("devenv.delete") &&
            op->count(StepOutcome::Result::Done) == int(op->plan().steps.size()))
            for (const TunnelInfo &t : m_tunnels->tunnels())
                if (t.context == op->plan().context &&
                    DevEnvsModel::keyOf(t.ns, t.environment) == op->plan().subject)
                    m_tunnels->close(t.id);
    });
}

DevEnvsService::~DevEnvsService() = default;

DevEnvPlanner DevEnvsService::planner() const
{
    return DevEnvPlanner(m_operations->planner(), m_model);
}

bool DevEnvsService::reachesNodes() const
{
    const auto &connection = m_session->connection();
    return connection && connection->pool();
}

QString DevEnvsService::defaultNamespace() const
{
    const auto &connection = m_session->connection();
    if (!connection)
        return {};
    const ClusterEndpoint &e = connection->client()->endpoint();
    return e.defaultNamespace;
}

void DevEnvsService::refreshVolumes()
{
    const auto &connection = m_session->connection();
    if (!connection)
        return;
    KubeClient *client = connection->client();
    const QString selector = QStringLiteral("?labelSelector=gpudesk.io%2Fdevenv");
    const QString ns = defaultNamespace();
    auto decode = [this](const KubeReply &r) {
        if (!r.ok()) {
            emit volumesRead(r.error);
            return;
        }
        QList<DevEnvVolume> volumes;
        const QJsonArray items =
            QJsonDocument::fromJson(r.body).object().value(QLatin1String("items")).toArray();
        for (const QJsonValue &item : items) {
            const QJsonObject meta = item[QLatin1String("metadata")].toObject();
            DevEnvVolume v;
            v.ns = meta[QLatin1String("namespace")].toString();
            v.claim = meta[QLatin1String("name")].toString();
            v.uid = meta[QLatin1String("uid")].toString();
            v.env = meta[QLatin1String("labels")][QLatin1String("gpudesk.io/devenv")].toString();
            v.created = QDateTime::fromString(meta[QLatin1String("creationTimestamp")].toString(),
                                              Qt::ISODate)
                            .toMSecsSinceEpoch();
            v.size = item[QLatin1String("spec")][QLatin1String("resources")]
                         [QLatin1String("requests")][QLatin1String("storage")]
                             .toString();
            v.podManifest = meta[QLatin1String("annotations")][DevEnvManifests::podAnnotation()]
                                .toString()
                                .toUtf8();
            const QJsonObject pod = QJsonDocument::fromJson(v.podManifest).object();
            const QJsonObject container = pod[QLatin1String("spec")][QLatin1String("containers")]
                                              .toArray()
                                              .first()
                                              .toObject();
            v.image = container[QLatin1String("image")].toString();
            v.gpus = container[QLatin1String("resources")][QLatin1String("limits")]
                              [QLatin1String("nvidia.com/gpu")]
                                  .toString()
                                  .toInt();
            if (!v.env.isEmpty() && !v.ns.isEmpty())
                volumes << v;
        }
        m_model->setVolumes(volumes);
        emit volumesRead({});
    };
    // Every namespace where the account may list them (an admin); else its own.
    client->get(QStringLiteral("/api/v1/persistentvolumeclaims") + selector, this,
                [this, client, ns, selector, decode](const KubeReply &r) {
                    if (r.httpStatus != 403 || ns.isEmpty()) {
                        decode(r);
                        return;
                    }
                    client->get(
                        QStringLiteral("/api/v1/namespaces/%1/persistentvolumeclaims").arg(ns) +
                            selector,
                        this, decode);
                });
}

void DevEnvsService::openJupyter(const QString &key)
{
    const auto &connection = m_session->connection();
    const PodInfo *pod = m_store->devEnvs().currentPod(key);
    if (!connection || !pod) {
        emit failed(key, tr("The environment is not there any more."));
        return;
    }
    int port = 0;
    for (const auto &[name, p] : pod->namedPorts)
        if (name == QLatin1String("jupyter"))
            port = p;
    if (port == 0) {
        emit failed(
            key,
            tr("%1 has no port named jupyter: its image does not offer Jupyter.").arg(pod->devEnv));
        return;
    }
    emit progress(key, tr("Looking for the Jupyter server in %1…").arg(pod->name));
    PodExec::Options options;
    auto *exec = new PodExec(connection->client(), pod->ns, pod->name,
                             {QStringLiteral("jupyter"), QStringLiteral("server"),
                              QStringLiteral("list"), QStringLiteral("--json")},
                             options, this);
    const QString podName = pod->name;
    // The connection is kept until the answer is in: a context switch meanwhile lets it go.
    connect(exec, &PodExec::finished, this,
            [this, exec, key, podName, port, lease = connection](int code, const QString &error) {
                exec->deleteLater();
                if (code != 0) {
                    emit failed(key,
                                error.isEmpty()
                                    ? tr("`jupyter server list` ended with exit code %1 in %2.")
                                          .arg(code)
                                          .arg(podName)
                                    : error);
                    return;
                }
                const auto servers = JupyterProbe::parseServerList(exec->stdoutData(), port);
                if (!servers.isEmpty()) {
                    jupyterFound(key, podName, servers.first());
                    return;
                }
                // None runs (its user ended it, or the image does not start one): one with a
                // fresh token, on the environment's jupyter port.
                auto *starter =
                    new PodServerStarter(lease->client(), key.section(u'/', 0, 0), podName,
                                         PodServerStarter::Kind::Jupyter, quint16(port), {}, this);
                starter->holdConnection(lease);
                if (!connectStarter(starter, key))
                    return;
                connect(starter, &PodServerStarter::ready, this,
                        [this, key, podName](const JupyterProbe::Server &s) {
                            jupyterFound(key, podName, s);
                        });
                starter->start();
            });
    exec->start();
}

bool DevEnvsService::connectStarter(PodServerStarter *starter, const QString &key)
{
    // One at a time an environment: a second click while one starts would start another.
    if (m_starting.contains(key) && m_starting.value(key)) {
        starter->deleteLater();
        emit progress(key, tr("Still starting in %1…").arg(key.section(u'/', 1)));
        return false;
    }
    m_starting.insert(key, starter);
    connect(starter, &QObject::destroyed, this, [this, key, starter] {
        if (m_starting.value(key) == starter)
            m_starting.remove(key);
    });
    connect(starter, &PodServerStarter::progress, this,
            [this, key](const QString &text) { emit progress(key, text); });
    connect(starter, &PodServerStarter::failed, this, [this, key, starter](const QString &error) {
        starter->deleteLater();
        emit failed(key, error);
    });
    connect(starter, &PodServerStarter::ready, starter, &QObject::deleteLater);
    return true;
}

void DevEnvsService::jupyterFound(const QString &key, const QString &podName,
                                  const JupyterProbe::Server &server)
{
    QUrl url = tunnelUrl(key, QStringLiteral("jupyter"), server.port, server.baseUrl);
    if (url.isEmpty())
        return;
    if (!server.token.isEmpty())
        url.setQuery(QUrlQuery{{QStringLiteral("token"), server.token}});
    emit progress(key, tr("Jupyter in %1 is on 127.0.0.1:%2.").arg(podName).arg(url.port()));
    emit jupyterReady(key, url);
}

void DevEnvsService::openTensorBoard(const QString &key, const QString &logDir)
{
    const auto &connection = m_session->connection();
    const PodInfo *pod = m_store->devEnvs().currentPod(key);
    if (!connection || !pod) {
        emit failed(key, tr("The environment is not there any more."));
        return;
    }
    if (logDir.trimmed().isEmpty()) {
        emit failed(key, tr("Name the folder TensorBoard reads its logs from."));
        return;
    }
    // Its named port where the image declares one (nothing else listens there); else
    // TensorBoard's own: a port-forward reaches any port the pod listens on.
    quint16 port = TensorBoardPort;
    for (const auto &[name, p] : pod->namedPorts)
        if (name == QLatin1String("tensorboard"))
            port = quint16(p);
    auto *starter =
        new PodServerStarter(connection->client(), pod->ns, pod->name,
                             PodServerStarter::Kind::TensorBoard, port, logDir.trimmed(), this);
    starter->holdConnection(connection);
    if (!connectStarter(starter, key))
        return;
    connect(starter, &PodServerStarter::ready, this,
            [this, key, port](const JupyterProbe::Server &) {
                const QUrl url = tunnelUrl(key, QStringLiteral("tensorboard"), port);
                if (!url.isEmpty())
                    emit serviceReady(key, QStringLiteral("tensorboard"), url);
            });
    starter->start();
}

void DevEnvsService::openWebService(const QString &key, const QString &service)
{
    const PodInfo *pod = m_store->devEnvs().currentPod(key);
    int port = 0;
    for (const auto &[name, p] : pod ? pod->namedPorts : QList<std::pair<QString, int>>{})
        if (name == service)
            port = p;
    if (!pod || port == 0) {
        emit failed(key, tr("%1 has no port named %2: its image does not offer it.")
                             .arg(key.section(u'/', 1), service));
        return;
    }
    if (const QUrl url = tunnelUrl(key, service, quint16(port)); !url.isEmpty())
        emit serviceReady(key, service, url);
}

QUrl DevEnvsService::tunnelUrl(const QString &key, const QString &service, quint16 port,
                               const QString &path)
{
    QString why;
    const int id = tunnelTo(key, service, port, &why);
    if (id == 0) {
        emit failed(key, why);
        return {};
    }
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(m_tunnels->tunnel(id).localPort);
    url.setPath(path);
    return url;
}

int DevEnvsService::tunnelTo(const QString &key, const QString &service, quint16 port,
                             QString *error)
{
    const auto &connection = m_session->connection();
    if (!connection) {
        *error = tr("Not connected.");
        return 0;
    }
    const QString ns = key.section(u'/', 0, 0);
    const QString env = key.section(u'/', 1);
    const QString context = connection->client()->endpoint().context;
    // One tunnel an environment's port: a second click reuses it, unless it gave up.
    for (const TunnelInfo &t : m_tunnels->tunnels())
        if (t.context == context && t.ns == ns && t.environment == env && t.remotePort == port &&
            t.state != TunnelInfo::State::Failed && t.state != TunnelInfo::State::Closed)
            return t.id;
    return m_tunnels->open(connection->client()->endpoint(), {ns, env, service, port}, error);
}

QStringList DevEnvsService::gpudeskCommand(const QString &program, const QStringList &args) const
{
    // The child reads the kubeconfig this gpudesk reads: one file by --kubeconfig, several
    // through KUBECONFIG as kubectl joins them.
    const QStringList files = m_session->kubeconfigFiles();
    if (files.isEmpty())
        return QStringList{program} + args;
    if (files.size() == 1)
        return QStringList{program, QStringLiteral("--kubeconfig"),
                           QFileInfo(files.first()).absoluteFilePath()} +
               args;
    return QStringList{QStringLiteral("env"), QStringLiteral("KUBECONFIG=") + files.join(u':'),
                       program} +
           args;
}

QString DevEnvsService::defaultSshConfigPath()
{
    return QDir::homePath() + QStringLiteral("/.ssh/gpudesk/config");
}

QString DevEnvsService::sshHostEntry(const QString &alias, const QString &context,
                                     const QString &ns, const QString &env,
                                     const QString &proxyCommand, QString *error)
{
    // A line break in a name (a label, a context) would end the entry's line and start another
    // that OpenSSH reads as an option of its own — or rejects, and the whole file with it.
    for (const QString &word : {alias, context, ns, env, proxyCommand})
        for (QChar c : word)
            if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
                *error = tr("\"%1\" holds a line break or another control character: gpudesk "
                            "does not write it into an SSH configuration.")
                             .arg(QString(word)
                                      .replace(u'\n', QLatin1String("\\n"))
                                      .replace(u'\r', QLatin1String("\\r"))
                                      .left(80));
                return {};
            }
    return QStringLiteral("Host %1\n"
                          "  # written by gpudesk for %2/%3 in %4\n"
                          "  HostKeyAlias %1\n"
                          "  User root\n"
                          "  ServerAliveInterval 30\n"
                          "  ProxyCommand %5\n")
        .arg(alias, ns, env, context, proxyCommand);
}

QString DevEnvsService::writeSshHost(const QString &key, const QString &configPath,
                                     const QString &gpudeskPath, QString *error) const
{
    const auto &connection = m_session->connection();
    const PodInfo *pod = m_store->devEnvs().currentPod(key);
    if (!connection || !pod) {
        *error = tr("The environment is not there any more.");
        return {};
    }
    int port = 0;
    for (const auto &[name, p] : pod->namedPorts)
        if (name == QLatin1String("ssh"))
            port = p;
    if (port == 0) {
        *error = tr("%1 has no port named ssh: its image does not run an SSH server. Use a shell "
                    "through exec instead.")
                     .arg(pod->devEnv);
        return {};
    }
    const ClusterEndpoint &endpoint = connection->client()->endpoint();
    const QString alias = hostAlias(endpoint.context, pod->ns, pod->devEnv);
    // Arguments single-quoted for the shell ssh runs ProxyCommand with.
    QStringList words;
    for (const QString &w : gpudeskCommand(
             gpudeskPath,
             {QStringLiteral("--stdio-forward"),
              QStringLiteral("%1/%2/%3:%4").arg(endpoint.context, pod->ns, pod->devEnv).arg(port)}))
        words << shellQuote(w, true);
    const QString entry =
        sshHostEntry(alias, endpoint.context, pod->ns, pod->devEnv, words.join(u' '), error);
    if (entry.isEmpty())
        return {};
    // The file is gpudesk's own: this host's entry replaced, the others kept.
    QString existing;
    if (QFile in(configPath); in.open(QIODevice::ReadOnly))
        existing = QString::fromUtf8(in.readAll());
    QStringList kept;
    for (const QString &block :
         existing.split(QRegularExpression(QStringLiteral("(?m)^(?=Host )")), Qt::SkipEmptyParts))
        if (!block.startsWith(QStringLiteral("Host ") + alias + u'\n'))
            kept << block.trimmed() + u'\n';
    kept << entry;
    QDir().mkpath(QFileInfo(configPath).absolutePath());
    QFile::setPermissions(QFileInfo(configPath).absolutePath(),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QSaveFile out(configPath);
    if (!out.open(QIODevice::WriteOnly) || out.write(kept.join(u'\n').toUtf8()) < 0 ||
        !out.commit()) {
        *error = tr("Cannot write %1: %2").arg(configPath, out.errorString());
        return {};
    }
    QFile::setPermissions(configPath, QFile::ReadOwner | QFile::WriteOwner);
    return alias;
}

bool DevEnvsService::sshConfigIncludes(const QString &userConfig, const QString &gpudeskConfig)
{
    QFile f(userConfig);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QString home = QDir::homePath();
    QString relative = gpudeskConfig;
    if (relative.startsWith(home + QStringLiteral("/.ssh/")))
        relative = relative.mid(home.size() + 6);
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (!line.startsWith(QLatin1String("Include"), Qt::CaseInsensitive))
            continue;
        for (QString word : line.mid(7).split(u' ', Qt::SkipEmptyParts)) {
            if (word.startsWith(QLatin1String("~/")))
                word = home + word.mid(1);
            if (word == gpudeskConfig || word == relative)
                return true;
        }
    }
    return false;
}

bool DevEnvsService::addSshInclude(const QString &userConfig, const QString &gpudeskConfig,
                                   QString *error)
{
    QByteArray existing;
    if (QFile in(userConfig); in.exists()) {
        if (!in.open(QIODevice::ReadOnly)) {
            *error = tr("Cannot read %1: %2").arg(userConfig, in.errorString());
            return false;
        }
        existing = in.readAll();
    }
    // At the top: an Include after a Host line would only apply to that host.
    const QByteArray line = "# added by gpudesk: its dev environments' hosts\nInclude " +
                            gpudeskConfig.toUtf8() + "\n\n";
    QDir().mkpath(QFileInfo(userConfig).absolutePath());
    QSaveFile out(userConfig);
    if (!out.open(QIODevice::WriteOnly) || out.write(line + existing) < 0 || !out.commit()) {
        *error = tr("Cannot write %1: %2").arg(userConfig, out.errorString());
        return false;
    }
    QFile::setPermissions(userConfig, QFile::ReadOwner | QFile::WriteOwner);
    return true;
}

QStringList DevEnvsService::sshCommand(const QString &key, QString *error) const
{
    const QString host = writeSshHost(key, m_sshConfig, m_gpudesk, error);
    if (host.isEmpty())
        return {};
    const QString userConfig = QDir::homePath() + QStringLiteral("/.ssh/config");
    // Without the Include, ssh is pointed at gpudesk's file (the user's defaults still apply:
    // identities in ~/.ssh, known_hosts).
    if (sshConfigIncludes(userConfig, m_sshConfig))
        return {QStringLiteral("ssh"), host};
    return {QStringLiteral("ssh"), QStringLiteral("-F"), m_sshConfig, host};
}

void DevEnvsService::launch(const QString &key, const QString &what, const QString &program,
                            const QStringList &args)
{
    const auto quoted = [](const QStringList &words) {
        QStringList out;
        for (const QString &w : words)
            out << shellQuote(w, false);
        return out.join(u' ');
    };
    if (QStandardPaths::findExecutable(program).isEmpty() && !QFileInfo(program).isExecutable()) {
        emit failed(key, tr("%1 is not installed here. Run it yourself: %2")
                             .arg(program, quoted(QStringList{program} + args)));
        return;
    }
    if (!QProcess::startDetached(program, args)) {
        emit failed(key, tr("%1 did not start. Run it yourself: %2")
                             .arg(program, quoted(QStringList{program} + args)));
        return;
    }
    emit launched(key, what);
}

void DevEnvsService::launchInTerminal(const QString &key, const QString &what,
                                      const QStringList &command)
{
    const QStringList argv = TerminalCommand::wrap(command);
    if (argv.isEmpty()) {
        QStringList quoted;
        for (const QString &w : command)
            quoted << shellQuote(w, false);
        // The command itself, not a terminal's line around it (issue 35: it began with the
        // x-terminal-emulator that was missing).
        emit failed(key, tr("No terminal program was found (%1). Run this in a terminal: %2")
                             .arg(TerminalCommand::candidates().join(QStringLiteral(", ")),
                                  quoted.join(u' ')));
        return;
    }
    launch(key, what, argv.first(), argv.mid(1));
}

void DevEnvsService::openShell(const QString &key)
{
    QString error;
    const QStringList ssh = sshCommand(key, &error);
    if (ssh.isEmpty()) {
        // No ssh into it (an image without sshd, no ssh port): a shell over the API instead.
        emit progress(
            key, tr("No ssh: %1 — opening a shell over the Kubernetes API instead.").arg(error));
        openExec(key);
        return;
    }
    launchInTerminal(key, tr("a terminal running %1").arg(ssh.join(u' ')), ssh);
}

void DevEnvsService::openExec(const QString &key)
{
    const auto &connection = m_session->connection();
    if (!connection || !m_store->devEnvs().currentPod(key)) {
        emit failed(key, tr("The environment is not there any more."));
        return;
    }
    const QString target =
        QStringLiteral("%1/%2").arg(connection->client()->endpoint().context, key);
    launchInTerminal(key, tr("a terminal with a shell in %1").arg(key.section(u'/', 1)),
                     gpudeskCommand(m_gpudesk, {QStringLiteral("--exec"), target}));
}

void DevEnvsService::openVsCode(const QString &key, const QString &folder)
{
    QString error;
    const QStringList ssh = sshCommand(key, &error);
    if (ssh.isEmpty()) {
        emit failed(key, error);
        return;
    }
    // Remote-SSH reads ~/.ssh/config: the page asks for the Include before this.
    launch(key, tr("VS Code on %1").arg(ssh.last()), QStringLiteral("code"),
           {QStringLiteral("--remote"), QStringLiteral("ssh-remote+") + ssh.last(),
            folder.isEmpty() ? QStringLiteral("/") : folder});
}

} // namespace gpudesk
