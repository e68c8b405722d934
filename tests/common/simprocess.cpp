// SPDX-License-Identifier: GPL-3.0-or-later
#include "simprocess.h"

#include "clustersession.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "contextconnection.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "services.h"

#include <QElapsedTimer>
#include <QEventLoop>
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
    m_sim.setProgram(QStringLiteral(GPUDESK_SIM_BIN));
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

std::unique_ptr<Services> SimProcess::connect(const QString &context, bool ssh) const
{
    auto s = std::make_unique<Services>(QStringList{kubeconfig()});
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
