// SPDX-License-Identifier: GPL-3.0-or-later
// Harbor, as gpudesk meets it: a real docker-registry (Debian's) with token auth, whose tokens
// come from the simulated Harbor's token service and whose notifications (push, pull, delete)
// feed Harbor's records — started and filled with skopeo by the test peers. gpudesk's registry
// client reads it through the token flow; HarborClient finds the Harbor API from the registry's
// challenge and reads projects with quotas (usage compared with the seed's layouts on disk),
// artifacts with push and pull times (a pull by curl's GET shows; a HEAD does not), immutable
// tags (a delete is refused, in words, and the artifact stays), and garbage collection: a dry
// run says what it could free, the run frees it, and curl finds the blob gone.
#include "harborclient.h"
#include "harbordecoder.h"
#include "registryclient.h"
#include "registrydecoder.h"
#include "registrypeer.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace gpudesk;

namespace {

QString peer(const QString &path)
{
    QFile f(qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/") + path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll().trimmed()) : QString();
}

QString caFile()
{
    return qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/ca.crt");
}

// Blob digest -> size of an OCI layout the seed pushed, read from its files.
QHash<QString, qint64> layoutBlobs(const QString &name)
{
    const QString dir = qEnvironmentVariable("GPUDESK_PEERS") +
                        QStringLiteral("/registry/layouts/main/") + name +
                        QStringLiteral("/blobs/sha256");
    QHash<QString, qint64> out;
    for (const QFileInfo &f : QDir(dir).entryInfoList(QDir::Files))
        out.insert(QStringLiteral("sha256:") + f.fileName(), f.size());
    return out;
}

template <typename F> void waitFor(F &&start)
{
    bool done = false;
    QObject context;
    start(&context, &done);
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
}

} // namespace

class TestHarbor : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void registryThroughTheTokenService();
    void apiFoundFromTheChallenge();
    void projectsAndQuotas();
    void pushAndPullTimes();
    void immutableTagRefusesDelete();
    void garbageCollectionFreesWhatItSays();
    void onlyAdminsCollect();
    void nestedRepositoryDeleted();

private:
    // This run's own repository in project alice: tests of the peers' Harbor may run in any order.
    QString repo() const { return m_repo; }
    HarborClient *client(const QString &user, QObject *parent);
    QList<HarborArtifact> artifacts(HarborClient *c, const QString &repository);

    RegistryEndpoint m_registry;
    QUrl m_api;
    QString m_repo;
};

void TestHarbor::initTestCase()
{
    QVERIFY2(!qEnvironmentVariable("GPUDESK_PEERS").isEmpty(), "run under the peers fixture");
    const QUrl url(peer(QStringLiteral("harbor/url")));
    QVERIFY(url.isValid());
    m_registry.host = url.host() + u':' + QString::number(url.port());
    m_registry.caFiles = {caFile()};
    m_api = QUrl(peer(QStringLiteral("harbor/api")));
    QVERIFY(m_api.isValid());
    // day1; scratch pushed twice, so that its first artifact (tensorflow's) is left untagged.
    m_repo = QStringLiteral("alice/t%1").arg(QCoreApplication::applicationPid());
    for (const auto &[layout, tag] : {std::pair{u"pytorch-dev"_qs, u"day1"_qs},
                                      {u"tensorflow"_qs, u"scratch"_qs},
                                      {u"pytorch"_qs, u"scratch"_qs}}) {
        const QString error = registrypeer::harborPush(layout, m_repo + u':' + tag);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    // A repository two levels down: Harbor wants its name URL-encoded twice in paths.
    const QString error = registrypeer::harborPush(u"small"_qs, m_repo + u"/nested:1"_qs);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // The registry tells Harbor after it answered each push.
    QObject owner;
    HarborClient *admin = client(QStringLiteral("admin"), &owner);
    QTRY_COMPARE_WITH_TIMEOUT(artifacts(admin, m_repo).size(), 3, 15000);
    QTRY_COMPARE_WITH_TIMEOUT(artifacts(admin, m_repo + u"/nested"_qs).size(), 1, 15000);
}

HarborClient *TestHarbor::client(const QString &user, QObject *parent)
{
    RegistryCredentials creds;
    creds.username = user;
    creds.secret = peer(QStringLiteral("harbor/%1.password").arg(user));
    return new HarborClient(m_api, m_registry, creds, parent);
}

QList<HarborArtifact> TestHarbor::artifacts(HarborClient *c, const QString &repository)
{
    QList<HarborArtifact> out;
    QString error;
    waitFor([&](QObject *ctx, bool *done) {
        c->artifacts(repository, ctx, [&, done](const QList<HarborArtifact> &a, const QString &e) {
            out = a;
            error = e;
            *done = true;
        });
    });
    [&] { QVERIFY2(error.isEmpty(), qPrintable(error)); }();
    return out;
}

void TestHarbor::registryThroughTheTokenService()
{
    // alice's password at the token service; the registry checks the token it signed.
    RegistryClient alice(m_registry);
    alice.setCredentials({QStringLiteral("alice"),
                          peer(QStringLiteral("harbor/alice.password")),
                          {},
                          QStringLiteral("test")});
    RegistryReply tags;
    waitFor([&](QObject *ctx, bool *done) {
        alice.tagsPage(m_repo, {}, 100, ctx, [&, done](const RegistryReply &r) {
            tags = r;
            *done = true;
        });
    });
    QVERIFY2(tags.ok(), qPrintable(tags.error));
    QString decodeError;
    QStringList names = RegistryDecoder::tags(tags.body, &decodeError);
    names.sort();
    QCOMPARE(names, (QStringList{u"day1"_qs, u"scratch"_qs}));
    QCOMPARE(alice.tokenRealm().path(), QStringLiteral("/service/token"));
    QCOMPARE(alice.tokenRealm().port(), m_api.port());

    // bob is no member of project alice: the token service grants him nothing there.
    RegistryClient bob(m_registry);
    bob.setCredentials({QStringLiteral("bob"),
                        peer(QStringLiteral("harbor/bob.password")),
                        {},
                        QStringLiteral("test")});
    RegistryReply denied;
    waitFor([&](QObject *ctx, bool *done) {
        bob.tagsPage(m_repo, {}, 100, ctx, [&, done](const RegistryReply &r) {
            denied = r;
            *done = true;
        });
    });
    QVERIFY(!denied.ok());
    QCOMPARE(denied.httpStatus, 401);
    QVERIFY2(bob.requestsSent() <= 3, "one refusal, never a loop of 401s");
}

void TestHarbor::apiFoundFromTheChallenge()
{
    RegistryClient reg(m_registry);
    reg.setCredentials({QStringLiteral("alice"),
                        peer(QStringLiteral("harbor/alice.password")),
                        {},
                        QStringLiteral("test")});
    waitFor([&](QObject *ctx, bool *done) {
        reg.tagsPage(m_repo, {}, 1, ctx, [done](const RegistryReply &) { *done = true; });
    });
    const QList<QUrl> where = HarborClient::candidates(m_registry, reg.tokenRealm());
    QCOMPARE(where.size(), 2);
    QCOMPARE(where[0].port(), QUrl(peer(QStringLiteral("harbor/url"))).port());
    QCOMPARE(where[1], m_api);
    // The registry itself has no Harbor API; the token service's origin has, and names the
    // registry it serves.
    std::optional<HarborInfo> first, second;
    for (int i = 0; i < 2; ++i) {
        QObject owner;
        RegistryCredentials none;
        HarborClient c(where[i], m_registry, none);
        waitFor([&](QObject *ctx, bool *done) {
            c.systemInfo(ctx, [&, i, done](const std::optional<HarborInfo> &info, const QString &) {
                (i == 0 ? first : second) = info;
                *done = true;
            });
        });
    }
    QVERIFY(!first);
    QVERIFY(second);
    QVERIFY(second->version.startsWith(u'v'));
    QCOMPARE(second->registryUrl, m_registry.host);
    // A token service elsewhere that is not at /service/token is no Harbor.
    QCOMPARE(HarborClient::candidates(m_registry, QUrl(u"https://auth.example/token"_qs)).size(),
             1);
}

void TestHarbor::projectsAndQuotas()
{
    QObject owner;
    HarborClient *alice = client(QStringLiteral("alice"), &owner);
    QList<HarborProject> projects;
    QString error;
    waitFor([&](QObject *ctx, bool *done) {
        alice->projects(ctx, [&, done](const QList<HarborProject> &p, const QString &e) {
            projects = p;
            error = e;
            *done = true;
        });
    });
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QStringList names;
    for (const HarborProject &p : projects)
        names << p.name;
    names.sort();
    // carol's project has no members: alice does not see it.
    QCOMPARE(names, (QStringList{u"alice"_qs, u"library"_qs, u"shared"_qs}));
    const auto it = std::find_if(projects.cbegin(), projects.cend(),
                                 [](const HarborProject &p) { return p.name == u"alice"_qs; });
    QCOMPARE(it->quotaHard, qint64(8 << 20));
    // Used: every distinct blob and manifest of what is in project alice now — whatever other
    // tests pushed there too: each artifact's layout found by its top manifest's digest in the
    // seed's OCI layouts, whose blobs are read from disk.
    QHash<QString, QString> layoutOf; // top manifest digest -> layout
    const QDir layouts(qEnvironmentVariable("GPUDESK_PEERS") + u"/registry/layouts/main"_qs);
    for (const QString &name : layouts.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile index(layouts.filePath(name + u"/index.json"_qs));
        if (index.open(QIODevice::ReadOnly))
            layoutOf.insert(QJsonDocument::fromJson(index.readAll())
                                .object()[u"manifests"_qs]
                                .toArray()[0]
                                .toObject()[u"digest"_qs]
                                .toString(),
                            name);
    }
    QStringList repositories;
    waitFor([&](QObject *ctx, bool *done) {
        alice->repositories(u"alice"_qs, ctx, [&, done](const QStringList &r, const QString &) {
            repositories = r;
            *done = true;
        });
    });
    QHash<QString, qint64> blobs;
    for (const QString &repository : std::as_const(repositories))
        for (const HarborArtifact &a : artifacts(alice, repository)) {
            QVERIFY2(layoutOf.contains(a.digest), qPrintable(repository + u'@' + a.digest));
            blobs.insert(layoutBlobs(layoutOf.value(a.digest)));
        }
    qint64 expected = 0;
    for (qint64 size : std::as_const(blobs))
        expected += size;
    QCOMPARE(it->quotaUsed, expected);
    const auto library =
        std::find_if(projects.cbegin(), projects.cend(),
                     [](const HarborProject &p) { return p.name == u"library"_qs; });
    QVERIFY(library->isPublic);
    QCOMPARE(library->quotaHard, qint64(-1));
}

void TestHarbor::pushAndPullTimes()
{
    QObject owner;
    HarborClient *admin = client(QStringLiteral("admin"), &owner);
    QList<HarborArtifact> dev = artifacts(admin, m_repo);
    QCOMPARE(dev.size(), 3); // day1, scratch, and scratch's earlier artifact, untagged now
    int untagged = 0;
    for (const HarborArtifact &a : std::as_const(dev)) {
        QVERIFY(a.pushed.isValid());
        QVERIFY(a.pushed.secsTo(QDateTime::currentDateTimeUtc()) < 3600);
        untagged += a.tags.isEmpty();
        QVERIFY(a.size > 0);
    }
    QCOMPARE(untagged, 1);

    // Age Harbor's records by 40 days, then pull day1 with curl: a HEAD first (no pull), then
    // a GET (a pull).
    QVERIFY(registrypeer::harborAge(40));
    QCOMPARE(registrypeer::harborRegistryStatus(QStringLiteral("HEAD"), m_repo,
                                                QStringLiteral("/manifests/day1")),
             200);
    QCOMPARE(registrypeer::harborRegistryStatus(QStringLiteral("GET"), m_repo,
                                                QStringLiteral("/manifests/day1")),
             200);
    const auto day1 = [&] {
        for (const HarborArtifact &a : artifacts(admin, m_repo))
            for (const HarborTag &t : a.tags)
                if (t.name == u"day1"_qs)
                    return a;
        return HarborArtifact{};
    };
    // The registry tells Harbor after it answered: wait for the record.
    QTRY_VERIFY_WITH_TIMEOUT(day1().pulled.isValid(), 15000);
    const HarborArtifact pulled = day1();
    QVERIFY(pulled.pulled.secsTo(QDateTime::currentDateTimeUtc()) < 120);
    QVERIFY(pulled.pushed.daysTo(QDateTime::currentDateTimeUtc()) >= 39);
    QCOMPARE(pulled.tags.first().name, QStringLiteral("day1"));
    QVERIFY(pulled.tags.first().pulled.isValid());
    // scratch was resolved with a HEAD only by nobody, and never pulled.
    for (const HarborArtifact &a : artifacts(admin, m_repo))
        if (a.digest != pulled.digest)
            QVERIFY(!a.pulled.isValid());
    // An index: its platforms, one artifact.
    const QList<HarborArtifact> jupyter = artifacts(admin, QStringLiteral("alice/jupyter"));
    QCOMPARE(jupyter.size(), 1);
    QCOMPARE(jupyter.first().platformDigests.size(), 2);
}

void TestHarbor::immutableTagRefusesDelete()
{
    QObject owner;
    HarborClient *admin = client(QStringLiteral("admin"), &owner);
    const QList<HarborArtifact> release = artifacts(admin, QStringLiteral("shared/release"));
    QCOMPARE(release.size(), 1);
    QVERIFY(release.first().immutable());
    QCOMPARE(release.first().labels, QStringList{u"production"_qs}); // put there by the peers
    QString error = QStringLiteral("not called");
    waitFor([&](QObject *ctx, bool *done) {
        admin->deleteArtifact(QStringLiteral("shared/release"), release.first().digest, ctx,
                              [&, done](const QString &e) {
                                  error = e;
                                  *done = true;
                              });
    });
    QVERIFY2(error.contains(u"immutable"_qs), qPrintable(error));
    QCOMPARE(registrypeer::harborRegistryStatus(QStringLiteral("HEAD"),
                                                QStringLiteral("shared/release"),
                                                QStringLiteral("/manifests/v1")),
             200);
}

void TestHarbor::garbageCollectionFreesWhatItSays()
{
    QObject owner;
    HarborClient *admin = client(QStringLiteral("admin"), &owner);
    // What only the untagged artifact holds: tensorflow's blobs that pytorch's do not share.
    const QHash<QString, qint64> tf = layoutBlobs(u"tensorflow"_qs);
    QHash<QString, qint64> kept = layoutBlobs(u"pytorch"_qs);
    kept.insert(layoutBlobs(u"pytorch-dev"_qs));
    kept.insert(layoutBlobs(u"jupyter"_qs));
    kept.insert(layoutBlobs(u"small"_qs));
    QString tfLayer;
    qint64 freedLayers = 0;
    for (auto it = tf.cbegin(); it != tf.cend(); ++it)
        if (!kept.contains(it.key()) && it.value() > 10000) {
            tfLayer = it.key();
            freedLayers += it.value();
        }
    QVERIFY(!tfLayer.isEmpty());
    QCOMPARE(registrypeer::harborRegistryStatus(QStringLiteral("HEAD"), m_repo,
                                                QStringLiteral("/blobs/") + tfLayer),
             200);

    const auto runGc = [&](bool dryRun) -> HarborGcResult {
        int id = 0;
        QString error;
        waitFor([&](QObject *ctx, bool *done) {
            admin->startGc(dryRun, true, ctx, [&, done](int i, const QString &e) {
                id = i;
                error = e;
                *done = true;
            });
        });
        [&] { QVERIFY2(error.isEmpty(), qPrintable(error)); }();
        HarborGcRun run;
        (void)QTest::qWaitFor( // the status is compared below
            [&] {
                waitFor([&](QObject *ctx, bool *done) {
                    admin->gcRun(id, ctx, [&, done](const HarborGcRun &r, const QString &) {
                        run = r;
                        *done = true;
                    });
                });
                return run.finished();
            },
            30000);
        [&] { QCOMPARE(run.status, QStringLiteral("Success")); }();
        QString log;
        waitFor([&](QObject *ctx, bool *done) {
            admin->gcLog(id, ctx, [&, done](const QString &l, const QString &) {
                log = l;
                *done = true;
            });
        });
        return HarborDecoder::gcLog(log);
    };
    const HarborGcResult dry = runGc(true);
    // The estimate counts the layer and its config (not the manifest): at least the layer.
    QVERIFY2(dry.bytes >= freedLayers && dry.bytes < freedLayers + 4096,
             qPrintable(QStringLiteral("%1 vs %2").arg(dry.bytes).arg(freedLayers)));
    QCOMPARE(registrypeer::harborRegistryStatus(QStringLiteral("HEAD"), m_repo,
                                                QStringLiteral("/blobs/") + tfLayer),
             200); // a dry run frees nothing
    const HarborGcResult real = runGc(false);
    QVERIFY(real.bytes >= freedLayers);
    // "Deleted" is not "freed": the blob is really gone from the registry's storage.
    QCOMPARE(registrypeer::harborRegistryStatus(QStringLiteral("HEAD"), m_repo,
                                                QStringLiteral("/blobs/") + tfLayer),
             404);
    QCOMPARE(artifacts(admin, m_repo).size(), 2);
}

void TestHarbor::onlyAdminsCollect()
{
    QObject owner;
    HarborClient *alice = client(QStringLiteral("alice"), &owner);
    QString error;
    waitFor([&](QObject *ctx, bool *done) {
        alice->startGc(true, false, ctx, [&, done](int, const QString &e) {
            error = e;
            *done = true;
        });
    });
    QVERIFY2(error.contains(u"does not allow alice"_qs), qPrintable(error));
}

void TestHarbor::nestedRepositoryDeleted()
{
    // Deleting through Harbor's API by a name with a '/' inside its project: it really goes
    // (a wrongly encoded path would 404, which a delete must not take for "gone").
    QObject owner;
    HarborClient *admin = client(QStringLiteral("admin"), &owner);
    const QString nested = m_repo + u"/nested"_qs;
    const QList<HarborArtifact> before = artifacts(admin, nested);
    QCOMPARE(before.size(), 1);
    QCOMPARE(registrypeer::harborRegistryStatus(u"HEAD"_qs, nested, u"/manifests/1"_qs), 200);
    QString error = u"not called"_qs;
    waitFor([&](QObject *ctx, bool *done) {
        admin->deleteArtifact(nested, before.first().digest, ctx, [&, done](const QString &e) {
            error = e;
            *done = true;
        });
    });
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(registrypeer::harborRegistryStatus(u"HEAD"_qs, nested, u"/manifests/1"_qs), 404);
    QVERIFY(artifacts(admin, nested).isEmpty());
}

QTEST_GUILESS_MAIN(TestHarbor)
#include "tst_harbor.moc"
