// SPDX-License-Identifier: GPL-3.0-or-later
// The registry client against real registries (Debian's docker-registry, started by the test
// peers with TLS from a CA of their own, htpasswd basic auth and deletion on; a second one over
// plain HTTP with deletion off), filled by scripts/registry-seed with skopeo: the catalog of
// 1,005 repositories read page by page; sizes and unique bytes equal what the OCI layouts the
// seed pushed say (read here from disk, not through the client); a multi-platform index shows
// each platform; delete by digest takes every tag of it; the no-delete registry says so; a
// wrong password is one error after two requests; an unknown CA is named as the problem;
// credentials from docker's config.json and from a credential helper. What a registry that
// misbehaves does to the client is tst_registryscripted's.
#include "dockercredentials.h"
#include "imagesizes.h"
#include "registrycall.h"
#include "registryclient.h"
#include "registrydecoder.h"
#include "registryscan.h"
#include "scriptedserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>
#include <QUrlQuery>

using namespace gpudesk;

namespace {

QString readPeer(const QString &path)
{
    QFile f(qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/") + path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll().trimmed()) : QString();
}

// What a layout the seed pushed says of its image, read from its files: blob -> size.
QHash<QString, qint64> layoutBlobs(const QString &name)
{
    const QString dir =
        qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/layouts/main/") + name;
    auto read = [&](const QString &digest) {
        QFile f(dir + QStringLiteral("/blobs/sha256/") + digest.mid(7));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    QFile index(dir + QStringLiteral("/index.json"));
    if (!index.open(QIODevice::ReadOnly))
        return {};
    const QJsonObject top =
        QJsonDocument::fromJson(index.readAll()).object()[u"manifests"_qs].toArray()[0].toObject();
    QHash<QString, qint64> blobs;
    QStringList manifests{top[u"digest"_qs].toString()};
    while (!manifests.isEmpty()) {
        const QString d = manifests.takeFirst();
        const QByteArray bytes = read(d);
        blobs.insert(d, bytes.size());
        const QJsonObject m = QJsonDocument::fromJson(bytes).object();
        for (const QJsonValue &e : m[u"manifests"_qs].toArray())
            manifests << e.toObject()[u"digest"_qs].toString();
        if (m.contains(u"config"_qs))
            blobs.insert(m[u"config"_qs].toObject()[u"digest"_qs].toString(),
                         qint64(m[u"config"_qs].toObject()[u"size"_qs].toDouble()));
        for (const QJsonValue &l : m[u"layers"_qs].toArray())
            blobs.insert(l.toObject()[u"digest"_qs].toString(),
                         qint64(l.toObject()[u"size"_qs].toDouble()));
    }
    return blobs;
}

} // namespace

class TestRegistry : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void catalogOfAThousandPaged();
    void sizesAndUniqueBytesFromTheLayouts();
    void multiPlatformIndex();
    void copyThenDeleteByDigest();
    void deletionDisabled();
    void wrongPasswordIsOneError();
    void unknownCaIsNamed();
    void dockerConfigAndHelper();

private:
    RegistryClient *mainClient(QObject *parent);

    RegistryEndpoint m_main;
    RegistryCredentials m_creds;
    QHash<QString, ImageSize> m_sizes;
    QHash<QString, RegistryManifest> m_manifests;
    QList<RegistryTag> m_tags;
};

void TestRegistry::initTestCase()
{
    QVERIFY2(!qEnvironmentVariable("GPUDESK_PEERS").isEmpty(), "run under the peers fixture");
    const QUrl url(readPeer(QStringLiteral("main/url")));
    QVERIFY(url.isValid() && url.scheme() == QLatin1String("https"));
    m_main.host = url.host() + u':' + QString::number(url.port());
    m_main.caFiles = {qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/ca.crt")};
    m_creds.username = readPeer(QStringLiteral("user"));
    m_creds.secret = readPeer(QStringLiteral("password"));
    m_creds.source = QStringLiteral("the test peers");
    QVERIFY(!m_creds.secret.isEmpty());
}

RegistryClient *TestRegistry::mainClient(QObject *parent)
{
    auto *c = new RegistryClient(m_main, parent);
    c->setCredentials(m_creds);
    return c;
}

void TestRegistry::catalogOfAThousandPaged()
{
    QObject owner;
    RegistryClient *client = mainClient(&owner);
    QStringList repos;
    QUrl next;
    int pages = 0;
    do {
        // The registry answers at most 100 a page whatever is asked: Link says where to go on.
        const RegistryReply r = registryCall([&](QObject *ctx, RegistryClient::Done d) {
            client->catalogPage(next, 1000, ctx, std::move(d));
        });
        QVERIFY2(r.ok(), qPrintable(r.error));
        QString error;
        const QStringList page = RegistryDecoder::catalog(r.body, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(page.size() <= 100);
        repos += page;
        next = r.next;
        ++pages;
    } while (!next.isEmpty() && pages < 100);
    for (int i = 0; i < 1000; ++i)
        QVERIFY2(repos.contains(QStringLiteral("bulk/r%1").arg(i, 4, 10, QLatin1Char('0'))),
                 qPrintable(QString::number(i)));
    for (const char *r :
         {"alice/pytorch", "bob/tensorflow", "big/many-layers", "devenv/pytorch-jupyter"})
        QVERIFY(repos.contains(QLatin1String(r)));
    QCOMPARE(QSet<QString>(repos.begin(), repos.end()).size(), repos.size());
    QCOMPARE(pages, int((repos.size() + 99) / 100));
    qInfo("catalog: %lld repositories in %d pages, %d requests", qlonglong(repos.size()), pages,
          client->requestsSent());
}

void TestRegistry::sizesAndUniqueBytesFromTheLayouts()
{
    QObject owner;
    RegistryClient *client = mainClient(&owner);
    RegistryScan scan(client);
    scan.setConcurrency(8);
    QSignalSpy finished(&scan, &RegistryScan::finished);
    int batches = 0;
    connect(&scan, &RegistryScan::batch, this, [&](const RegistryScanBatch &b) {
        ++batches;
        m_tags += b.tags;
        for (const RegistryManifest &m : b.manifests)
            m_manifests.insert(m.digest, m);
    });
    QElapsedTimer t;
    t.start();
    scan.start();
    QVERIFY(finished.wait(120000));
    const qint64 ms = t.elapsed();
    QVERIFY2(finished.first().at(0).toBool(),
             qPrintable(finished.first().at(1).toStringList().join(u'\n')));
    qInfo("scan: %lld tags, %lld manifests, %d requests in %lld ms, %d batches",
          qlonglong(m_tags.size()), qlonglong(m_manifests.size()), client->requestsSent(), ms,
          batches);
    QVERIFY(batches > 1); // results came as they were found
    m_sizes = ImageSizes::compute(m_tags, m_manifests);

    auto digestOf = [&](const QString &repo, const QString &tag) {
        for (const RegistryTag &t : std::as_const(m_tags))
            if (t.repository == repo && t.tag == tag)
                return t.digest;
        return QString();
    };
    QCOMPARE(digestOf(u"alice/pytorch"_qs, u"2.1"_qs), digestOf(u"alice/pytorch"_qs, u"latest"_qs));
    QVERIFY(digestOf(u"alice/pytorch"_qs, u"2.1"_qs) !=
            digestOf(u"alice/pytorch"_qs, u"2.1-dev"_qs));

    // The expectation, from the layouts on disk: every blob of each image, and which images
    // (a repository's digest) reference it. The bulk repositories all reference "small".
    const QHash<QString, QString> images{{u"alice/pytorch:2.1"_qs, u"pytorch"_qs},
                                         {u"alice/pytorch:2.1-dev"_qs, u"pytorch-dev"_qs},
                                         {u"bob/tensorflow:2.14"_qs, u"tensorflow"_qs},
                                         {u"big/many-layers:1"_qs, u"many"_qs},
                                         {u"devenv/pytorch-jupyter:2.1-cuda12.1"_qs, u"jupyter"_qs},
                                         {u"alice/mpi:4.1"_qs, u"mpi"_qs},
                                         {u"alice/mpi:4.1-slim"_qs, u"mpi-slim"_qs},
                                         {u"alice/mpi:4.1-nodropbear"_qs, u"mpi-purged"_qs},
                                         {u"alice/mpi:4.1-opt"_qs, u"mpi-opt"_qs}};
    QHash<QString, int> users;
    QHash<QString, QHash<QString, qint64>> blobsOf;
    for (auto it = images.cbegin(); it != images.cend(); ++it) {
        blobsOf[it.key()] = layoutBlobs(it.value());
        QVERIFY2(!blobsOf[it.key()].isEmpty(), qPrintable(it.value()));
        for (auto b = blobsOf[it.key()].cbegin(); b != blobsOf[it.key()].cend(); ++b)
            ++users[b.key()];
    }
    for (const QString &b : layoutBlobs(u"small"_qs).keys())
        users[b] += 1000;
    // What the registry stores for all of it: each distinct blob once.
    QHash<QString, qint64> everything = layoutBlobs(u"small"_qs);
    for (const auto &blobs : std::as_const(blobsOf))
        everything.insert(blobs);
    qint64 expectedStored = 0, stored = 0;
    for (const qint64 b : std::as_const(everything))
        expectedStored += b;
    ImageSizes::compute(m_tags, m_manifests, &stored);
    QCOMPARE(stored, expectedStored);
    for (auto it = images.cbegin(); it != images.cend(); ++it) {
        const QString repo = it.key().section(u':', 0, 0), tag = it.key().section(u':', 1);
        qint64 total = 0, unique = 0;
        for (auto b = blobsOf[it.key()].cbegin(); b != blobsOf[it.key()].cend(); ++b) {
            total += b.value();
            if (users.value(b.key()) == 1)
                unique += b.value();
        }
        const ImageSize s = m_sizes.value(ImageSizes::key(repo, digestOf(repo, tag)));
        QVERIFY2(s.known, qPrintable(it.key()));
        QCOMPARE(s.total, total);
        QCOMPARE(s.unique, unique);
    }
    // Sharing, as the seed built it: 2.1's layers all live on in 2.1-dev, the many-layered image
    // shares nothing.
    const ImageSize pytorch = m_sizes.value(
        ImageSizes::key(u"alice/pytorch"_qs, digestOf(u"alice/pytorch"_qs, u"2.1"_qs)));
    QVERIFY(pytorch.unique < 2000 && pytorch.total > 600000);
    const ImageSize many = m_sizes.value(
        ImageSizes::key(u"big/many-layers"_qs, digestOf(u"big/many-layers"_qs, u"1"_qs)));
    QCOMPARE(many.unique, many.total);
    const ImageSize bulk =
        m_sizes.value(ImageSizes::key(u"bulk/r0500"_qs, digestOf(u"bulk/r0500"_qs, u"v1"_qs)));
    QCOMPARE(bulk.unique, 0);
}

void TestRegistry::multiPlatformIndex()
{
    QVERIFY(!m_tags.isEmpty());
    QString digest;
    for (const RegistryTag &t : std::as_const(m_tags))
        if (t.repository == QLatin1String("devenv/pytorch-jupyter"))
            digest = t.digest;
    const RegistryManifest index = m_manifests.value(digest);
    QVERIFY(index.isIndex);
    QCOMPARE(index.mediaType, u"application/vnd.oci.image.index.v1+json"_qs);
    QStringList platforms;
    for (const RegistryDescriptor &e : index.entries) {
        platforms << e.platform();
        const RegistryManifest child = m_manifests.value(e.digest);
        QVERIFY2(!child.isIndex && !child.layers.isEmpty(), qPrintable(e.digest));
    }
    QCOMPARE(platforms, (QStringList{u"linux/amd64"_qs, u"linux/arm64"_qs}));
    QCOMPARE(m_sizes.value(ImageSizes::key(u"devenv/pytorch-jupyter"_qs, digest)).platforms, 2);

    // Each platform's configuration says its architecture, read by the scan.
    QObject owner;
    RegistryClient *client = mainClient(&owner);
    const RegistryManifest arm = m_manifests.value(index.entries.at(1).digest);
    const RegistryReply r = registryCall([&](QObject *ctx, RegistryClient::Done d) {
        client->blob(u"devenv/pytorch-jupyter"_qs, arm.config.digest, 1 << 20, ctx, std::move(d));
    });
    QVERIFY2(r.ok(), qPrintable(r.error));
    QString error;
    const RegistryImageConfig config = RegistryDecoder::imageConfig(r.body, &error);
    QCOMPARE(config.architecture, u"arm64"_qs);
    QCOMPARE(config.historySteps, 3);
    QCOMPARE(config.created, QDateTime(QDate(2026, 10, 1), QTime(8, 0), QTimeZone::utc()));
}

void TestRegistry::copyThenDeleteByDigest()
{
    QObject owner;
    RegistryClient *client = mainClient(&owner);
    // A repository of this run's own: alice's 2.1 copied in by mount and manifest PUT, under
    // two tags of the same digest.
    const QString repo = QStringLiteral("scratch/del-%1")
                             .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
    RegistryManifest source;
    RegistryReply got;
    bool done = false;
    QObject ctx;
    client->manifest(u"alice/pytorch"_qs, u"2.1"_qs, &ctx,
                     [&](const RegistryManifest &m, const RegistryReply &r) {
                         source = m;
                         got = r;
                         done = true;
                     });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY2(got.ok(), qPrintable(got.error));
    QStringList blobs{source.config.digest};
    for (const RegistryDescriptor &l : source.layers)
        blobs << l.digest;
    for (const QString &b : blobs) {
        const RegistryReply m = registryCall([&](QObject *c, RegistryClient::Done d) {
            client->mountBlob(repo, b, u"alice/pytorch"_qs, c, std::move(d));
        });
        QVERIFY2(m.ok() && m.httpStatus == 201, qPrintable(m.error));
    }
    for (const QString &tag : {u"t1"_qs, u"t2"_qs}) {
        const RegistryReply p = registryCall([&](QObject *c, RegistryClient::Done d) {
            client->putManifest(repo, tag, got.body, source.mediaType, c, std::move(d));
        });
        QVERIFY2(p.ok() && p.httpStatus == 201, qPrintable(p.error));
        QCOMPARE(p.digest, source.digest);
    }
    const RegistryReply head = registryCall([&](QObject *c, RegistryClient::Done d) {
        client->manifestDigest(repo, u"t2"_qs, c, std::move(d));
    });
    QCOMPARE(head.digest, source.digest);

    // A tag is not a digest: refused before anything is sent.
    const int before = client->requestsSent();
    const RegistryReply byTag = registryCall([&](QObject *c, RegistryClient::Done d) {
        client->deleteManifest(repo, u"t1"_qs, c, std::move(d));
    });
    QVERIFY(byTag.error.contains(u"Only a digest"_qs));
    QCOMPARE(client->requestsSent(), before);

    const RegistryReply del = registryCall([&](QObject *c, RegistryClient::Done d) {
        client->deleteManifest(repo, source.digest, c, std::move(d));
    });
    QVERIFY2(del.ok() && del.httpStatus == 202, qPrintable(del.error));
    // Both tags went with the digest, as the registry says when asked again.
    for (const QString &tag : {u"t1"_qs, u"t2"_qs}) {
        const RegistryReply h = registryCall([&](QObject *c, RegistryClient::Done d) {
            client->manifestDigest(repo, tag, c, std::move(d));
        });
        QCOMPARE(h.httpStatus, 404);
        QVERIFY2(!h.ok(), qPrintable(h.digest));
    }
    const RegistryReply tags = registryCall([&](QObject *c, RegistryClient::Done d) {
        client->tagsPage(repo, {}, 100, c, std::move(d));
    });
    QString error;
    QVERIFY2(!tags.ok() || RegistryDecoder::tags(tags.body, &error).isEmpty(),
             tags.body.constData());
    // And alice's own image is untouched.
    const RegistryReply alice = registryCall([&](QObject *c, RegistryClient::Done d) {
        client->manifestDigest(u"alice/pytorch"_qs, u"2.1"_qs, c, std::move(d));
    });
    QCOMPARE(alice.digest, source.digest);
}

void TestRegistry::deletionDisabled()
{
    const QUrl url(readPeer(QStringLiteral("nodelete/url")));
    QCOMPARE(url.scheme(), u"http"_qs);
    RegistryEndpoint e;
    e.host = url.host() + u':' + QString::number(url.port());
    e.plainHttp = true;
    QObject owner;
    auto *client = new RegistryClient(e, &owner);
    const RegistryReply head = registryCall([&](QObject *c, RegistryClient::Done d) {
        client->manifestDigest(u"alice/pytorch"_qs, u"2.1"_qs, c, std::move(d));
    });
    QVERIFY2(head.ok(), qPrintable(head.error));
    const RegistryReply del = registryCall([&](QObject *c, RegistryClient::Done d) {
        client->deleteManifest(u"alice/pytorch"_qs, head.digest, c, std::move(d));
    });
    QCOMPARE(del.httpStatus, 405);
    QCOMPARE(del.errorCode, u"UNSUPPORTED"_qs);
    QVERIFY2(del.error.contains(u"does not allow deleting images"_qs) &&
                 del.error.contains(u"Nothing was deleted"_qs),
             qPrintable(del.error));
    const RegistryReply still = registryCall([&](QObject *c, RegistryClient::Done d) {
        client->manifestDigest(u"alice/pytorch"_qs, u"2.1"_qs, c, std::move(d));
    });
    QCOMPARE(still.digest, head.digest);
}

void TestRegistry::wrongPasswordIsOneError()
{
    QObject owner;
    auto *client = new RegistryClient(m_main, &owner);
    RegistryReply r = registryCall(
        [&](QObject *c, RegistryClient::Done d) { client->catalogPage({}, 10, c, std::move(d)); });
    QVERIFY2(r.error.contains(u"asks for a user name and password"_qs), qPrintable(r.error));
    QCOMPARE(client->requestsSent(), 1);

    RegistryCredentials wrong = m_creds;
    wrong.secret += u"x"_qs;
    client->setCredentials(wrong);
    r = registryCall(
        [&](QObject *c, RegistryClient::Done d) { client->catalogPage({}, 10, c, std::move(d)); });
    QCOMPARE(r.httpStatus, 401);
    QVERIFY2(r.error.contains(u"refused the user name and password"_qs) &&
                 r.error.contains(u"the test peers"_qs),
             qPrintable(r.error));
    // One challenge, one retry: never a loop, whatever is asked next.
    QCOMPARE(client->requestsSent(), 3);
    r = registryCall(
        [&](QObject *c, RegistryClient::Done d) { client->catalogPage({}, 10, c, std::move(d)); });
    QCOMPARE(client->requestsSent(), 5);
    QVERIFY(!r.error.contains(wrong.secret));
}

void TestRegistry::unknownCaIsNamed()
{
    RegistryEndpoint e = m_main;
    e.caFiles.clear();
    QObject owner;
    auto *client = new RegistryClient(e, &owner);
    const RegistryReply r =
        registryCall([&](QObject *c, RegistryClient::Done d) { client->ping(c, std::move(d)); });
    QVERIFY(r.connectionFailed);
    QVERIFY2(r.error.contains(u"not trusted"_qs) &&
                 r.error.contains(u"/etc/docker/certs.d/"_qs + e.host),
             qPrintable(r.error));
}

void TestRegistry::dockerConfigAndHelper()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QByteArray oldPath = qgetenv("PATH");
    qputenv("DOCKER_CONFIG", home.filePath(u"docker"_qs).toUtf8());
    qputenv("XDG_CONFIG_HOME", home.filePath(u"config"_qs).toUtf8());
    auto restore = qScopeGuard([&] {
        qunsetenv("DOCKER_CONFIG");
        qunsetenv("XDG_CONFIG_HOME");
        qputenv("PATH", oldPath);
    });
    QVERIFY(QDir().mkpath(home.filePath(u"docker"_qs)));
    // The CA where podman and skopeo look for a user's registry CAs.
    const QString certs = home.filePath(u"config/containers/certs.d/"_qs + m_main.host);
    QVERIFY(QDir().mkpath(certs));
    QVERIFY(QFile::copy(m_main.caFiles.first(), certs + u"/ca.crt"_qs));
    QCOMPARE(DockerCredentials::caFiles(m_main.host), QStringList{certs + u"/ca.crt"_qs});

    auto writeConfig = [&](const QJsonObject &o) {
        QFile f(DockerCredentials::configPath());
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(o).toJson());
    };
    auto lookup = [&](RegistryCredentials *c) {
        QString error = u"unanswered"_qs;
        DockerCredentials dc;
        dc.lookup(m_main.host, this, [&](const RegistryCredentials &got, const QString &e) {
            *c = got;
            error = e;
        });
        if (!QTest::qWaitFor([&] { return error != u"unanswered"_qs; }, 20000))
            return u"no answer"_qs;
        return error;
    };
    RegistryCredentials c;
    // No file: anonymous, no error.
    QCOMPARE(lookup(&c), QString());
    QVERIFY(c.isEmpty());

    // `docker login` writes auths: base64 of user:password.
    const QString pair =
        QString::fromLatin1((m_creds.username + u':' + m_creds.secret).toUtf8().toBase64());
    QJsonObject entry, auths, config;
    entry.insert(u"auth"_qs, pair);
    auths.insert(m_main.host, entry);
    config.insert(u"auths"_qs, auths);
    writeConfig(config);
    QCOMPARE(lookup(&c), QString());
    QCOMPARE(c.username, m_creds.username);
    QCOMPARE(c.secret, m_creds.secret);
    QVERIFY(c.source.endsWith(u"config.json"_qs));
    {
        RegistryEndpoint e = m_main;
        e.caFiles = DockerCredentials::caFiles(e.host);
        QObject owner;
        auto *client = new RegistryClient(e, &owner);
        client->setCredentials(c);
        const RegistryReply r = registryCall([&](QObject *ctx, RegistryClient::Done d) {
            client->tagsPage(u"alice/pytorch"_qs, {}, 10, ctx, std::move(d));
        });
        QVERIFY2(r.ok(), qPrintable(r.error));
    }

    // A credential helper for this registry, by docker's protocol (`get`, the server on stdin).
    const QString bin = home.filePath(u"bin"_qs);
    QVERIFY(QDir().mkpath(bin));
    QFile helper(bin + u"/docker-credential-gpudesktest"_qs);
    QVERIFY(helper.open(QIODevice::WriteOnly));
    helper.write(
        QStringLiteral(
            "#!/bin/sh\n[ \"$1\" = get ] || exit 3\nread server\n"
            "[ \"$server\" = '%1' ] || { echo 'credentials not found in native keychain'; exit 1; "
            "}\n"
            "printf '{\"ServerURL\":\"%%s\",\"Username\":\"%2\",\"Secret\":\"%3\"}' \"$server\"\n")
            .arg(m_main.host, m_creds.username, m_creds.secret)
            .toUtf8());
    helper.close();
    QVERIFY(helper.setPermissions(QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    qputenv("PATH", bin.toUtf8() + ':' + oldPath);
    QJsonObject helpers, wrongEntry, wrongAuths;
    helpers.insert(m_main.host, u"gpudesktest"_qs);
    wrongEntry.insert(u"auth"_qs, u"d3Jvbmc6d3Jvbmc="_qs); // wrong:wrong
    wrongAuths.insert(m_main.host, wrongEntry);
    config = QJsonObject();
    config.insert(u"credHelpers"_qs, helpers);
    config.insert(u"auths"_qs, wrongAuths);
    writeConfig(config);
    QCOMPARE(lookup(&c), QString());
    QCOMPARE(c.secret, m_creds.secret); // the helper, not the auths entry
    QCOMPARE(c.source, u"docker-credential-gpudesktest"_qs);

    // A helper that is not installed, and a name that is a path: both said, nothing run.
    writeConfig(QJsonObject{{u"credsStore"_qs, u"nosuchstore"_qs}});
    QVERIFY(lookup(&c).contains(u"docker-credential-nosuchstore, which is not installed"_qs));
    writeConfig(QJsonObject{{u"credsStore"_qs, u"../../bin/sh"_qs}});
    QVERIFY(lookup(&c).contains(u"not a helper's name"_qs));
    QFile broken(DockerCredentials::configPath());
    QVERIFY(broken.open(QIODevice::WriteOnly | QIODevice::Truncate));
    broken.write("{\"auths\": ");
    broken.close();
    QVERIFY(lookup(&c).contains(u"is not valid JSON"_qs));
}

QTEST_GUILESS_MAIN(TestRegistry)
#include "tst_registry.moc"
