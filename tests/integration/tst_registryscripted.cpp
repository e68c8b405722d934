// SPDX-License-Identifier: GPL-3.0-or-later
// The registry client against scripted servers that misbehave as registries and what stands in
// front of them can: a registry that stops mid-listing leaves a partial scan marked incomplete;
// a next page on another origin is not followed; bearer tokens are asked per scope; a manifest
// whose bytes do not match its digest is refused; a token realm elsewhere over plain HTTP, and
// redirects off the web, are not followed with the registry's credentials.
#include "registrycall.h"
#include "registryclient.h"
#include "registrydecoder.h"
#include "registryscan.h"
#include "scriptedserver.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <QUrlQuery>

using namespace gpudesk;

class TestRegistryScripted : public QObject
{
    Q_OBJECT
private slots:
    void stopsMidListing();
    void nextPageElsewhereNotFollowed();
    void bearerTokenPerScope();
    void manifestNotMatchingItsDigest();
    void realmElsewhereOnPlainHttp();
    void redirectOffTheWebNotFollowed_data();
    void redirectOffTheWebNotFollowed();
};

void TestRegistryScripted::stopsMidListing()
{
    // Page one of the catalog, then the connection drops when page two is asked for.
    ScriptedServer server([](const ScriptedServer::Request &req, QTcpSocket *s) {
        if (req.target.startsWith("/v2/_catalog") && req.target.contains("last=")) {
            s->abort();
        } else if (req.target.startsWith("/v2/_catalog")) {
            const QByteArray page = "{\"repositories\":[\"a\",\"b\"]}";
            s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                     "Link: </v2/_catalog?last=b&n=2>; rel=\"next\"\r\nContent-Length: " +
                     QByteArray::number(page.size()) + "\r\n\r\n" + page);
        } else if (req.target.contains("/tags/list")) {
            ScriptedServer::respond(s, 200, "{\"name\":\"x\",\"tags\":null}");
        } else {
            ScriptedServer::respond(s, 404,
                                    "{\"errors\":[{\"code\":\"NAME_UNKNOWN\",\"message\":"
                                    "\"repository name not known to registry\"}]}");
        }
    });
    RegistryEndpoint e;
    e.host = u"127.0.0.1:"_qs + QString::number(server.port());
    e.plainHttp = true;
    RegistryClient client(e);
    RegistryScan scan(&client);
    scan.setPageSize(2);
    QStringList repos;
    connect(&scan, &RegistryScan::batch, this,
            [&](const RegistryScanBatch &b) { repos += b.repositories; });
    QSignalSpy finished(&scan, &RegistryScan::finished);
    scan.start();
    QElapsedTimer waited;
    waited.start();
    QVERIFY(finished.wait(40000));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY2(waited.elapsed() < 10000, "a dropped connection is an answer, not a timeout");
    QCOMPARE(repos, (QStringList{u"a"_qs, u"b"_qs}));
    const QString errors = finished.first().at(1).toStringList().join(u'\n');
    QVERIFY2(errors.contains(u"closed the connection"_qs) && errors.contains(u"catalog"_qs),
             qPrintable(errors));
    QVERIFY(!scan.isComplete());
}

void TestRegistryScripted::nextPageElsewhereNotFollowed()
{
    // A catalog page whose Link leads to another server: the credentials must not go there.
    int elsewhereAsked = 0;
    ScriptedServer elsewhere([&](const ScriptedServer::Request &, QTcpSocket *s) {
        ++elsewhereAsked;
        ScriptedServer::respond(s, 200, "{\"repositories\":[\"stolen\"]}");
    });
    ScriptedServer server([&](const ScriptedServer::Request &, QTcpSocket *s) {
        const QByteArray page = "{\"repositories\":[\"a\",\"b\"]}";
        s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nLink: <http://127.0.0.1:" +
                 QByteArray::number(elsewhere.port()) +
                 "/v2/_catalog?last=b&n=2>; rel=\"next\"\r\nContent-Length: " +
                 QByteArray::number(page.size()) + "\r\n\r\n" + page);
    });
    RegistryEndpoint e;
    e.host = u"127.0.0.1:"_qs + QString::number(server.port());
    e.plainHttp = true;
    RegistryClient client(e);
    client.setCredentials({u"alice"_qs, u"secret"_qs, {}, u"test"_qs});
    const RegistryReply r = registryCall(
        [&](QObject *c, RegistryClient::Done d) { client.catalogPage({}, 2, c, std::move(d)); });
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(u"on another server"_qs) && r.error.contains(u"not followed"_qs),
             qPrintable(r.error));
    QVERIFY(r.next.isEmpty());
    QCOMPARE(elsewhereAsked, 0);
}

void TestRegistryScripted::bearerTokenPerScope()
{
    // The token flow as Docker Hub, Harbor and GitLab run it: the registry answers 401 with a
    // Bearer challenge naming its token service and the scope; the token service takes the
    // user's password (basic auth) and gives a token for that scope; the registry takes only the
    // token. Two peers scripted here: the registry and its token service.
    const QByteArray password = "s3cret-Pa55";
    int tokensIssued = 0;
    QList<QByteArray> scopesAsked;
    QList<QByteArray> registrySawAuth;
    // The token service at /token of the registry's own origin: on plain http the password may
    // go only there (a realm elsewhere on http is refused: realmElsewhereOnPlainHttp).
    quint16 port = 0;
    ScriptedServer registry([&](const ScriptedServer::Request &r, QTcpSocket *s) {
        if (r.target.startsWith("/token")) {
            const QUrlQuery q(QUrl(QString::fromLatin1(r.target)));
            scopesAsked << q.queryItemValue(u"scope"_qs, QUrl::FullyDecoded).toUtf8();
            if (r.header("Authorization") !=
                    "Basic " + QByteArray("alice:" + password).toBase64() ||
                q.queryItemValue(u"service"_qs) != u"reg.test"_qs) {
                ScriptedServer::respond(s, 401, R"({"details":"incorrect username or password"})");
                return;
            }
            ++tokensIssued;
            ScriptedServer::respond(s, 200,
                                    R"({"token":"tok-)" + QByteArray::number(tokensIssued) +
                                        R"(","expires_in":300})");
            return;
        }
        const QByteArray auth = r.header("Authorization");
        registrySawAuth << auth;
        if (!auth.startsWith("Bearer tok-")) {
            const QByteArray scope =
                r.target.contains("/tags/list") ? "repository:team/app:pull" : "registry:catalog:*";
            s->write("HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\n"
                     "WWW-Authenticate: Bearer realm=\"http://127.0.0.1:" +
                     QByteArray::number(port) + "/token\",service=\"reg.test\",scope=\"" + scope +
                     "\"\r\nContent-Length: 2\r\n\r\n{}");
            return;
        }
        ScriptedServer::respond(s, 200, R"({"name":"team/app","tags":["1","2"]})");
    });
    port = registry.port();
    RegistryEndpoint e;
    e.host = u"127.0.0.1:"_qs + QString::number(registry.port());
    e.plainHttp = true;
    RegistryClient client(e);
    client.setCredentials({u"alice"_qs, QString::fromLatin1(password), {}, u"test"_qs});
    for (int i = 0; i < 2; ++i) {
        const RegistryReply r = registryCall([&](QObject *c, RegistryClient::Done d) {
            client.tagsPage(u"team/app"_qs, {}, 100, c, std::move(d));
        });
        QVERIFY2(r.ok(), qPrintable(r.error));
        QString error;
        QCOMPARE(RegistryDecoder::tags(r.body, &error), (QStringList{u"1"_qs, u"2"_qs}));
    }
    // One token for the scope, asked for with the scope the client needs, and reused.
    QCOMPARE(tokensIssued, 1);
    QVERIFY2(scopesAsked.first().contains("repository:team/app:pull"), scopesAsked.first());
    // The registry never saw the password: only the challenge's anonymous try, then the token.
    for (const QByteArray &auth : std::as_const(registrySawAuth))
        QVERIFY2(auth.isEmpty() || auth == "Bearer tok-1", auth.constData());
    QCOMPARE(registrySawAuth.count("Bearer tok-1"), 2);

    // A wrong password: the token service refuses once, and that is the error, in words.
    RegistryClient wrong(e);
    wrong.setCredentials({u"alice"_qs, u"nope"_qs, {}, u"test"_qs});
    const int asked = int(scopesAsked.size());
    const RegistryReply r = registryCall([&](QObject *c, RegistryClient::Done d) {
        wrong.tagsPage(u"team/app"_qs, {}, 100, c, std::move(d));
    });
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(u"token service"_qs) &&
                 r.error.contains(u"refused the user name and password"_qs),
             qPrintable(r.error));
    QCOMPARE(int(scopesAsked.size()), asked + 1); // not a loop
}

void TestRegistryScripted::manifestNotMatchingItsDigest()
{
    const QByteArray body =
        R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:0000000000000000000000000000000000000000000000000000000000000000","size":2},"layers":[]})";
    ScriptedServer server([&](const ScriptedServer::Request &, QTcpSocket *s) {
        s->write("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.oci.image.manifest.v1+json\r\n"
                 "Docker-Content-Digest: "
                 "sha256:1111111111111111111111111111111111111111111111111111111111111111\r\n"
                 "Content-Length: " +
                 QByteArray::number(body.size()) + "\r\n\r\n" + body);
    });
    RegistryEndpoint e;
    e.host = u"127.0.0.1:"_qs + QString::number(server.port());
    e.plainHttp = true;
    RegistryClient client(e);
    bool done = false;
    RegistryReply reply;
    client.manifest(u"x/y"_qs, u"1"_qs, this,
                    [&](const RegistryManifest &, const RegistryReply &r) {
                        reply = r;
                        done = true;
                    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 20000);
    QVERIFY2(reply.error.contains(u"does not match its digest"_qs), qPrintable(reply.error));
    // The same bytes, digest right: read, the config's descriptor checked.
    QString error;
    const RegistryManifest m =
        RegistryDecoder::manifest(body, u"application/vnd.oci.image.manifest.v1+json"_qs,
                                  RegistryDecoder::sha256Digest(body), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(m.config.size, 2);
    RegistryDecoder::manifest(QByteArray(body).replace("\"size\":2", "\"size\":-2"), QString(),
                              QString(), &error);
    QVERIFY2(error.contains(u"no valid size"_qs), qPrintable(error));
    // Sizes no blob has, whose sums would overflow (issue 33: -446744073709551616 bytes).
    RegistryDecoder::manifest(QByteArray(body).replace("\"size\":2", "\"size\":9e18"), QString(),
                              QString(), &error);
    QVERIFY2(error.contains(u"no valid size"_qs), qPrintable(error));
}

void TestRegistryScripted::realmElsewhereOnPlainHttp()
{
    // A Bearer realm on plain http at another origin than the registry's: the password would
    // cross the wire in clear to a service the user never named. Not sent; said.
    int asked = 0;
    ScriptedServer thief([&](const ScriptedServer::Request &, QTcpSocket *s) {
        ++asked;
        ScriptedServer::respond(s, 200, R"({"token":"t"})");
    });
    ScriptedServer registry([&](const ScriptedServer::Request &, QTcpSocket *s) {
        s->write("HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\n"
                 "WWW-Authenticate: Bearer realm=\"http://127.0.0.1:" +
                 QByteArray::number(thief.port()) +
                 "/token\",service=\"reg\",scope=\"registry:catalog:*\"\r\n"
                 "Content-Length: 2\r\n\r\n{}");
    });
    RegistryEndpoint e;
    e.host = u"127.0.0.1:"_qs + QString::number(registry.port());
    e.plainHttp = true;
    RegistryClient client(e);
    client.setCredentials({u"alice"_qs, u"secret"_qs, {}, u"test"_qs});
    const RegistryReply r = registryCall(
        [&](QObject *c, RegistryClient::Done d) { client.catalogPage({}, 10, c, std::move(d)); });
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(u"over plain http, which is not the registry itself"_qs),
             qPrintable(r.error));
    QVERIFY(!r.error.contains(u"secret"_qs));
    QCOMPARE(asked, 0);
    // Anonymous, there is nothing to leak: the token is asked for.
    RegistryClient anonymous(e);
    registryCall([&](QObject *c, RegistryClient::Done d) {
        anonymous.catalogPage({}, 10, c, std::move(d));
    });
    QCOMPARE(asked, 1);
}

void TestRegistryScripted::redirectOffTheWebNotFollowed_data()
{
    QTest::addColumn<QByteArray>("location");
    QTest::addRow("a local file") << QByteArray("file:///root/.docker/config.json");
    QTest::addRow("data:") << QByteArray("data:application/json,{}");
    QTest::addRow("ftp") << QByteArray("ftp://127.0.0.1/blob");
}

void TestRegistryScripted::redirectOffTheWebNotFollowed()
{
    // Issue 33: a 307 to file://…/.docker/config.json was followed, and the report carried the
    // local file's sha256.
    QFETCH(QByteArray, location);
    ScriptedServer registry([&](const ScriptedServer::Request &, QTcpSocket *s) {
        s->write("HTTP/1.1 307 Temporary Redirect\r\nLocation: " + location +
                 "\r\nContent-Length: 0\r\n\r\n");
    });
    RegistryEndpoint e;
    e.host = u"127.0.0.1:"_qs + QString::number(registry.port());
    e.plainHttp = true;
    RegistryClient client(e);
    const RegistryReply r = registryCall(
        [&](QObject *c, RegistryClient::Done d) { client.catalogPage({}, 10, c, std::move(d)); });
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(u"which gpudesk does not follow (only http and https"_qs),
             qPrintable(r.error));
    QVERIFY(r.body.isEmpty());
}

QTEST_GUILESS_MAIN(TestRegistryScripted)
#include "tst_registryscripted.moc"
