// SPDX-License-Identifier: GPL-3.0-or-later
// gpudesk-harbor-sim: the part of Harbor gpudesk talks to (its v2.0 API and token service) in
// front of a real docker-registry, for the tests and the demo. See docs/sim.md.
#include "artifactstore.h"
#include "garbagecollection.h"
#include "harborapi.h"
#include "harborconfig.h"
#include "registryreader.h"
#include "tokenissuer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>

#include <cstdio>

using namespace sim;
using namespace sim::harbor;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("A simulated Harbor in front of a registry"));
    parser.addHelpOption();
    const QCommandLineOption configOpt(QStringLiteral("config"), QStringLiteral("harbor.json"),
                                       QStringLiteral("file"));
    const QCommandLineOption certOpt(QStringLiteral("tls-cert"),
                                     QStringLiteral("the API's TLS certificate (PEM)"),
                                     QStringLiteral("file"));
    const QCommandLineOption keyOpt(QStringLiteral("tls-key"),
                                    QStringLiteral("the API's TLS key (PEM, EC)"),
                                    QStringLiteral("file"));
    const QCommandLineOption portOpt(QStringLiteral("port"), QStringLiteral("the API's port"),
                                     QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption eventsOpt(
        QStringLiteral("events-port"),
        QStringLiteral("plain-HTTP port for the registry's notifications"), QStringLiteral("port"),
        QStringLiteral("0"));
    const QCommandLineOption portsOpt(
        QStringLiteral("ports-file"),
        QStringLiteral("where to write \"API EVENTS\" once listening"), QStringLiteral("file"));
    parser.addOptions({configOpt, certOpt, keyOpt, portOpt, eventsOpt, portsOpt});
    parser.process(app);
    const auto fail = [](const QString &why) {
        std::fprintf(stderr, "gpudesk-harbor-sim: %s\n", qPrintable(why));
        return 1;
    };

    HarborConfig config;
    QString error;
    if (!config.load(parser.value(configOpt), &error))
        return fail(error);
    TokenIssuer issuer;
    if (!issuer.load(QString::fromStdString(config.tokenKey),
                     QString::fromStdString(config.tokenCert), &error))
        return fail(error);
    issuer.setNames(config.issuer, config.service);
    RegistryReader reader(config.registryUrl, config.registryCa, &issuer);
    ArtifactStore store(&reader);
    GarbageCollection gc(&config, &store, &reader);
    HarborApi api(&config, &store, &gc, &reader, &issuer);

    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    QFile cf(parser.value(certOpt)), kf(parser.value(keyOpt));
    if (!cf.open(QIODevice::ReadOnly) || !kf.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read --tls-cert or --tls-key"));
    tls.setLocalCertificate(QSslCertificate(cf.readAll(), QSsl::Pem));
    tls.setPrivateKey(QSslKey(kf.readAll(), QSsl::Ec, QSsl::Pem));
    tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    HttpServer https(tls, [&api](HttpConnection *c, const HttpRequest &r) { api.handle(c, r); });
    HttpServer events(
        [&api](HttpConnection *c, const HttpRequest &r) { api.handleNotifications(c, r); });
    if (!https.listen(QHostAddress::LocalHost, quint16(parser.value(portOpt).toUInt()), &error) ||
        !events.listen(QHostAddress::LocalHost, quint16(parser.value(eventsOpt).toUInt()), &error))
        return fail(QStringLiteral("cannot listen: %1").arg(error));
    if (parser.isSet(portsOpt)) {
        QFile ports(parser.value(portsOpt) + QStringLiteral(".tmp"));
        if (!ports.open(QIODevice::WriteOnly))
            return fail(ports.errorString());
        ports.write(QByteArray::number(https.port()) + ' ' + QByteArray::number(events.port()) +
                    '\n');
        ports.close();
        QFile::remove(parser.value(portsOpt));
        ports.rename(parser.value(portsOpt));
    }
    std::fprintf(stdout, "gpudesk-harbor-sim: API on https://127.0.0.1:%u, events on %u\n",
                 https.port(), events.port());
    std::fflush(stdout);
    return app.exec();
}
