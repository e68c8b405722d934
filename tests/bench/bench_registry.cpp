// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of the Images page's work. Prints figures; not a test.
//  1. The model at a large registry's size, computed here (no network): 100,000 tags in 10,000
//     repositories, 20,000 images of 12 layers drawn from 60,000 blobs — the time ImagesModel
//     takes to take them in batches as a scan delivers them, to compute sizes and unique bytes,
//     and its resident memory.
//  2. With the test peers running (`scripts/test-peers start DIR BIN`, GPUDESK_PEERS=DIR): the
//     peers' real docker-registry read whole (TLS, basic auth) at 1, 4, 8 and 16 requests in
//     flight: time, requests, tags.
//  3. 100,000 running pods from 300 images: ImagesService's join of the pods into the model (who
//     runs what, done again whenever pods change) and the report's images[] section.
#include "clusterstore.h"
#include "imagesizes.h"
#include "imagesmodel.h"
#include "imagesservice.h"
#include "registryclient.h"
#include "registryscan.h"
#include "reportjson.h"
#include "rss.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSignalSpy>

#include <cstdio>

using namespace gpudesk;

namespace {

QString digestOf(const char *kind, int i)
{
    return QStringLiteral("sha256:%1%2")
        .arg(QLatin1String(kind))
        .arg(i, 64 - 6, 10, QLatin1Char('0'));
}

void model()
{
    constexpr int kRepos = 10000, kTagsPerRepo = 10, kImages = 20000, kBlobs = 60000;
    QRandomGenerator rng(42);
    QList<RegistryManifest> manifests;
    for (int i = 0; i < kImages; ++i) {
        RegistryManifest m;
        m.digest = digestOf("imagex", i);
        m.config = {QString(), digestOf("config", i), 1500};
        for (int l = 0; l < 12; ++l) {
            const int b = int(rng.bounded(kBlobs));
            m.layers << RegistryDescriptor{QString(), digestOf("blobxx", b), 1000 + b * 97};
        }
        manifests << m;
    }
    QList<RegistryTag> tags;
    for (int r = 0; r < kRepos; ++r)
        for (int t = 0; t < kTagsPerRepo; ++t)
            tags << RegistryTag{QStringLiteral("team%1/repo%2").arg(r % 100).arg(r),
                                QStringLiteral("v%1").arg(t),
                                manifests[int(rng.bounded(kImages))].digest};
    const long before = rssKb();
    ImagesModel m;
    QElapsedTimer clock;
    clock.start();
    // As a scan delivers them: batches of 500 tags with their manifests.
    for (int i = 0; i < tags.size(); i += 500) {
        m.addManifests(manifests.mid(i / 5, 100));
        m.addTags(tags.mid(i, 500));
    }
    const qint64 add = clock.restart();
    // The sizes and unique bytes, exact: on a worker at this size; the UI thread is measured by
    // how long setComplete holds it.
    QSignalSpy computed(&m, &ImagesModel::sizesComputed);
    m.setComplete(true);
    const qint64 held = clock.elapsed();
    while (m.sizesPending())
        computed.wait(60000);
    const qint64 compute = clock.elapsed();
    clock.restart();
    qint64 stored = 0;
    ImageSizes::compute(
        tags,
        [&] {
            QHash<QString, RegistryManifest> h;
            for (const RegistryManifest &x : std::as_const(manifests))
                h.insert(x.digest, x);
            return h;
        }(),
        &stored);
    const qint64 again = clock.elapsed();
    std::printf("model: %lld tags, %d repositories: taken in batches in %lld ms; sizes and unique "
                "bytes in %lld ms on a worker (the UI thread held %lld ms; ImageSizes alone %lld "
                "ms); %ld MiB resident for it\n",
                qlonglong(m.rowCount()), m.repositories(), qlonglong(add), qlonglong(compute),
                qlonglong(held), qlonglong(again), (rssKb() - before) / 1024);
}

QString peer(const QString &path)
{
    QFile f(qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/") + path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll().trimmed()) : QString();
}

void live()
{
    const QUrl url(peer(QStringLiteral("main/url")));
    if (!url.isValid() || url.isEmpty()) {
        std::printf("registry: no test peers (set GPUDESK_PEERS after scripts/test-peers start)\n");
        return;
    }
    RegistryEndpoint e;
    e.host = url.host() + u':' + QString::number(url.port());
    e.caFiles = {qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/ca.crt")};
    for (const int concurrency : {1, 4, 8, 16}) {
        RegistryClient client(e);
        client.setCredentials({peer(QStringLiteral("user")),
                               peer(QStringLiteral("password")),
                               {},
                               QStringLiteral("the test peers")});
        RegistryScan scan(&client);
        scan.setConcurrency(concurrency);
        qsizetype tags = 0;
        QObject::connect(&scan, &RegistryScan::batch,
                         [&](const RegistryScanBatch &b) { tags += b.tags.size(); });
        QSignalSpy finished(&scan, &RegistryScan::finished);
        QElapsedTimer clock;
        clock.start();
        scan.start();
        if (!finished.wait(300000) || !finished.first().at(0).toBool()) {
            std::printf("registry: the read did not finish whole\n");
            return;
        }
        std::printf("registry %s, %2d in flight: %lld tags, %d requests in %lld ms\n",
                    qPrintable(e.host), concurrency, qlonglong(tags), client.requestsSent(),
                    qlonglong(clock.elapsed()));
    }
}

void join()
{
    constexpr int kPods = 100000, kImages = 300;
    ClusterStore store;
    QList<PodInfo> pods;
    pods.reserve(kPods);
    for (int i = 0; i < kPods; ++i) {
        PodInfo p;
        p.uid = QStringLiteral("uid-%1").arg(i);
        p.ns = QStringLiteral("user-u%1").arg(i % 500);
        p.name = QStringLiteral("pod-%1").arg(i);
        p.phase = QStringLiteral("Running");
        p.containers = {QStringLiteral("main")};
        const int image = i % kImages;
        p.image = QStringLiteral("registry.lab:5000/team%1/train:v%2").arg(image % 40).arg(image);
        // Half the nodes said the digest they run; the others named the tag only.
        if (i % 2 == 0)
            p.imageId = QStringLiteral("registry.lab:5000/team%1/train@%2")
                            .arg(image % 40)
                            .arg(digestOf("image", image));
        pods << p;
    }
    store.replacePods(pods);
    store.flush();
    ImagesService service(&store, nullptr);
    QElapsedTimer clock;
    clock.start();
    service.scan(QStringLiteral("registry.lab:5000")); // joins the pods before reading anything
    const qint64 joinMs = clock.elapsed();
    service.cancel();
    clock.restart();
    const QJsonObject report = reportJson(store, nullptr, ReportSource());
    std::printf("join: %d pods of %d images: who runs what in %lld ms; the report's images[] "
                "(%lld entries, with the rest of the report) in %lld ms\n",
                kPods, kImages, qlonglong(joinMs),
                qlonglong(report.value(QStringLiteral("images")).toArray().size()),
                qlonglong(clock.elapsed()));
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    model();
    join();
    live();
    return 0;
}
