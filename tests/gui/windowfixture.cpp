// SPDX-License-Identifier: GPL-3.0-or-later
#include "windowfixture.h"

void WindowFixture::loadSimConfig()
{
    const QString dir = qEnvironmentVariable("GPUDESK_SIM_STATE");
    QVERIFY2(!dir.isEmpty(), "GPUDESK_SIM_STATE names the simulator's state directory");
    QString error;
    m_config = KubeConfig::load({dir + QStringLiteral("/kubeconfig")}, &error);
    QVERIFY2(m_config, qPrintable(error));
}

std::unique_ptr<WindowFixture::Connected> WindowFixture::connectTo(const QString &context,
                                                                   const QString &sshConfig)
{
    auto c = std::make_unique<Connected>();
    c->services = std::make_unique<Services>(
        QStringList{qEnvironmentVariable("GPUDESK_SIM_STATE") + QStringLiteral("/kubeconfig")});
    ClusterSession *session = c->services->session();
    if (!sshConfig.isEmpty())
        session->enableTelemetry(sshConfig);
    QString error;
    if (!session->loadConfig(&error))
        return nullptr;
    session->connectTo(context);
    if (!session->connection() || !session->connection()->sync())
        return nullptr;
    c->store = c->services->store();
    c->state = c->services->state();
    c->telemetry = c->services->telemetry();
    c->client = session->connection()->client();
    c->session = session->connection()->telemetry();
    ClusterSync *sync = session->connection()->sync();
    QSignalSpy synced(sync, &ClusterSync::synced);
    if (!sync->hasSynced() && !synced.wait(30000))
        return nullptr;
    c->store->flush();
    return c;
}

void WindowFixture::openTelemetryWindow(const QTemporaryDir &dir,
                                        const std::function<void(QString &)> &edit,
                                        TelemetryWindow *out)
{
    QFile in(qEnvironmentVariable("GPUDESK_SIM_STATE") + QStringLiteral("/ssh_config"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(in.readAll());
    edit(text);
    QFile config(dir.filePath(QStringLiteral("ssh_config")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(text.toUtf8());
    config.close();

    TelemetryWindow tw;
    tw.c = connectTo(QStringLiteral("sim-admin"), config.fileName());
    QVERIFY(tw.c && tw.c->session);
    tw.w = std::make_unique<MainWindow>(tw.c->services.get());
    tw.w->resize(1500, 950);
    tw.w->show();
    *out = std::move(tw);
}
