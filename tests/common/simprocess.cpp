// SPDX-License-Identifier: GPL-3.0-or-later
#include "simprocess.h"

#include "clustersession.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "contextconnection.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "services.h"
#include "testpaths.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTimer>

using namespace gpudesk;

SimProcess::SimProcess() = default;

SimProcess::~SimProcess()
{
    if (m_sim.state() != QProcess::NotRunning) {
        m_sim.terminate();
        if (!m_sim.waitForFinished(30000))
            m_sim.kill();
    }
}

bool SimProcess::start(const QStringList &args, QString *error)
{
    m_sim.setProgram(TestPaths::simBin());
    qputenv("GPUDESK_SIM_EXIT_WITH_PARENT", "1"); // gone with the test, also when it aborts
    m_sim.setArguments(QStringList{QStringLiteral("--state-dir"), m_dir.path()} + args);
    m_sim.setProcessChannelMode(QProcess::MergedChannels);
    m_sim.start();
    if (!m_sim.waitForStarted()) {
        *error = m_sim.errorString();
        return false;
    }
    QByteArray out;
    QElapsedTimer t;
    t.start();
    while (!out.contains("gpudesk-sim: ready") && t.elapsed() < 240000 &&
           m_sim.state() == QProcess::Running) {
        m_sim.waitForReadyRead(1000);
        out += m_sim.readAll();
    }
    if (!out.contains("gpudesk-sim: ready")) {
        *error = QString::fromUtf8(out);
        return false;
    }
    return true;
}

QJsonObject SimProcess::Reply::json() const
{
    return QJsonDocument::fromJson(body).object();
}

SimProcess::Reply SimProcess::request(const QByteArray &verb, const QString &path,
                                      const QByteArray &body, const QString &context,
                                      const QByteArray &contentType) const
{
    Reply out;
    QString error;
    const auto config = KubeConfig::load({kubeconfig()}, &error);
    const auto ep = config ? config->endpoint(context, &error) : std::nullopt;
    if (!ep)
        return out;
    KubeClient client(*ep);
    QNetworkAccessManager nam;
    client.attach(&nam);
    QNetworkRequest req = client.request(path);
    if (!body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    QNetworkReply *reply = nam.sendCustomRequest(req, verb, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    loop.exec();
    out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    out.body = reply->readAll();
    reply->deleteLater();
    return out;
}

QString SimProcess::addReader(QString *error) const
{
    const QString rbac = QStringLiteral("/apis/rbac.authorization.k8s.io/v1/");
    const std::pair<QString, QByteArray> objects[] = {
        {QStringLiteral("/api/v1/namespaces/default/serviceaccounts"),
         R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"reader"}})"},
        {rbac + QStringLiteral("clusterroles"),
         R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",)"
         R"("metadata":{"name":"reads-everything"},"rules":[{"apiGroups":["*"],)"
         R"("resources":["*"],"verbs":["get","list","watch"]}]})"},
        {rbac + QStringLiteral("clusterrolebindings"),
         R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",)"
         R"("metadata":{"name":"reader-reads-everything"},"roleRef":{"apiGroup":)"
         R"("rbac.authorization.k8s.io","kind":"ClusterRole","name":"reads-everything"},)"
         R"("subjects":[{"kind":"ServiceAccount","name":"reader","namespace":"default"}]})"},
        {QStringLiteral("/api/v1/namespaces/default/serviceaccounts/reader/token"),
         R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest",)"
         R"("spec":{"expirationSeconds":7200}})"}};
    QString token;
    for (const auto &[path, body] : objects) {
        const Reply r = request("POST", path, body);
        if (r.status != 201 && r.status != 200) {
            *error = QStringLiteral("POST %1: %2 %3")
                         .arg(path)
                         .arg(r.status)
                         .arg(QString::fromUtf8(r.body));
            return {};
        }
        token = r.json()[QStringLiteral("status")][QStringLiteral("token")].toString();
    }
    // The simulator's own cluster entry, the reader's user and context.
    QFile in(kubeconfig());
    if (!in.open(QIODevice::ReadOnly) || token.isEmpty()) {
        *error = QStringLiteral("no token, or no kubeconfig to start from");
        return {};
    }
    QByteArray text = in.readAll();
    text = text.left(text.indexOf("contexts:"));
    text += "contexts:\n- name: sim-reader\n  context:\n    cluster: gpudesk-sim\n    user: "
            "reader\ncurrent-context: sim-reader\nusers:\n- name: reader\n  user:\n    token: " +
            token.toUtf8() + '\n';
    const QString path = m_dir.filePath(QStringLiteral("reader.kubeconfig"));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(text) != text.size()) {
        *error = out.errorString();
        return {};
    }
    out.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    return path;
}

std::unique_ptr<Services> SimProcess::connect(const QString &context, bool ssh,
                                              const QString &file) const
{
    auto s = std::make_unique<Services>(QStringList{file.isEmpty() ? kubeconfig() : file});
    if (ssh)
        s->session()->enableTelemetry(sshConfig());
    QString error;
    if (!s->session()->loadConfig(&error))
        return nullptr;
    s->session()->connectTo(context);
    ClusterSync *sync = s->session()->connection()->sync();
    QSignalSpy synced(sync, &ClusterSync::synced);
    if (!sync->hasSynced() && !synced.wait(60000))
        return nullptr;
    s->store()->flush();
    return s;
}
