// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagesservice.h"

#include "appsettings.h"
#include "clusterstore.h"
#include "dockercredentials.h"
#include "harborreader.h"
#include "imageplanner.h"
#include "imagereference.h"
#include "imagesmodel.h"
#include "nodeimage.h"
#include "operation.h"
#include "operationsservice.h"
#include "registriesconf.h"
#include "registryclient.h"
#include "registrylogins.h"
#include "registryscan.h"
#include "saveimageplanner.h"
#include "sshdprobe.h"

#include <QLocale>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QUrl>

namespace gpudesk {

namespace {

// An image reference as typed (spaces around it dropped), or why it is not one.
ImageReference parsedReference(const QString &reference, QString *error)
{
    const ImageReference ref = ImageReference::parse(reference.trimmed());
    if (!ref.isValid())
        *error = QCoreApplication::translate("gpudesk::ImagesService",
                                             "\"%1\" is not an image reference.")
                     .arg(reference);
    return ref;
}

constexpr int kJoinMs = 2000;
} // namespace

ImagesService::ImagesService(ClusterStore *store, OperationsService *operations, QObject *parent)
    : QObject(parent), m_store(store), m_operations(operations), m_model(new ImagesModel(this)),
      m_logins(new RegistryLogins(this)),
      m_conf(std::make_unique<RegistriesConf>(RegistriesConf::load())), m_sweep(store)
{
    m_added = AppSettings::addedRegistries();
    m_plain = AppSettings::plainHttpRegistries();
    m_hugeBytes = qint64(AppSettings::hugeImageGiB() * double(1ll << 30));
    m_model->setHugeBytes(m_hugeBytes);
    m_join.setSingleShot(true);
    m_join.setInterval(kJoinMs);
    connect(&m_join, &QTimer::timeout, this, [this] { joinPods(Join::InTurns); });
    connect(m_store, &ClusterStore::updated, this, &ImagesService::storeChanged);
}

ImagesService::~ImagesService() = default;

QStringList ImagesService::registries() const
{
    QStringList out = m_fromPods;
    for (const QString &h : m_added)
        if (!out.contains(h))
            out << h;
    return out;
}

RegistryEndpoint ImagesService::endpointFor(const QString &host) const
{
    RegistryEndpoint e;
    e.host = host;
    e.plainHttp = isPlainHttp(host);
    if (const RegistriesConf::Entry *c = m_conf->forHost(host); c && c->location != host)
        e.location = c->location;
    e.caFiles = DockerCredentials::caFiles(e.servedAt());
    return e;
}

QString ImagesService::registriesConfFile() const
{
    return m_conf->file();
}

QString ImagesService::registriesConfError() const
{
    return m_conf->error();
}

bool ImagesService::isPlainHttp(const QString &host) const
{
    // registries.conf's `insecure` also allows TLS that is not verified; gpudesk verifies or
    // speaks plain HTTP, shown as a warning.
    const RegistriesConf::Entry *c = m_conf->forHost(host);
    return m_plain.contains(host) || (c && c->insecure);
}

bool ImagesService::addRegistry(const QString &address, QString *error)
{
    QString a = address.trimmed();
    bool plain = false;
    if (a.startsWith(QLatin1String("http://")) || a.startsWith(QLatin1String("https://"))) {
        const QUrl url(a);
        plain = url.scheme() == QLatin1String("http");
        a = url.host() + (url.port() > 0 ? u':' + QString::number(url.port()) : QString());
    }
    while (a.endsWith(u'/'))
        a.chop(1);
    // A host as image references write it: a name or address, an optional port, no path.
    static const QRegularExpression host(
        QStringLiteral(R"(^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?$)"));
    if (!host.match(a).hasMatch()) {
        *error = tr("\"%1\" is not a registry address (host, or host:port, as in image names).")
                     .arg(address);
        return false;
    }
    if (!m_added.contains(a))
        m_added << a;
    if (plain && !m_plain.contains(a))
        m_plain << a;
    else if (!plain)
        m_plain.removeAll(a);
    AppSettings::setRegistries(m_added, m_plain);
    emit registriesChanged();
    return true;
}

void ImagesService::storeChanged(const StoreChanges &changes)
{
    if (changes.reset)
        m_sweep.cancel(); // the last cluster's pods, half walked: not told as this one's
    if (!changes.changed(Resource::Pods) && changes.pods.isEmpty())
        return;
    if (!m_join.isActive())
        m_join.start();
}

void ImagesService::joinPods(Join when)
{
    // Which registries pods pull from (by how many pods), and who runs what in the current one,
    // gathered over the walk and told at its end.
    struct Joined
    {
        QHash<QString, int> hosts;
        QHash<QString, QList<ImagesModel::Use>> byDigest, byTag;
        QList<RegistryTag> seen;
        QSet<QString> seenKeys;
        // A cluster runs 100,000 pods from a few hundred images: each image's name is parsed
        // once.
        QHash<QString, ImageReference> parsed;
    };
    auto join = std::make_shared<Joined>();
    auto visit = [this, join](const PodInfo &p) {
        if (p.image.isEmpty() || p.finished())
            return;
        auto it = join->parsed.find(p.image);
        if (it == join->parsed.end())
            it = join->parsed.insert(p.image, ImageReference::parse(p.image));
        const ImageReference &ref = *it;
        if (!ref.isValid())
            return;
        ++join->hosts[ref.registry];
        if (ref.registry != m_host)
            return;
        ImagesModel::Use use{p.ns + u'/' + p.name, m_store->userOf(p.ns), false};
        const ImageReference ran = ImageReference::fromImageId(p.imageId);
        // A spec that names a digest has no tag: the row is named by the digest. One entry a
        // tag (its first pod's digest), not one a pod.
        const QString tag = ref.tag.isEmpty() ? u'@' + ref.digest : ref.tag;
        if (!join->seenKeys.contains(ImagesModel::tagKey(ref.repository, tag))) {
            join->seenKeys.insert(ImagesModel::tagKey(ref.repository, tag));
            join->seen << RegistryTag{ref.repository, tag,
                                      ran.digest.isEmpty() ? ref.digest : ran.digest};
        }
        if (!ran.digest.isEmpty() &&
            (ran.repository.isEmpty() || ran.repository == ref.repository)) {
            use.byDigest = true;
            join->byDigest[ImageSizes::key(ref.repository, ran.digest)] << use;
        } else if (!ref.digest.isEmpty()) {
            use.byDigest = true;
            join->byDigest[ImageSizes::key(ref.repository, ref.digest)] << use;
        } else {
            join->byTag[ImagesModel::tagKey(ref.repository, ref.tag)] << use;
        }
    };
    auto done = [this, join] {
        m_model->setUse(join->byDigest, join->byTag);
        m_model->setSeenInPods(join->seen);
        const QHash<QString, int> &hosts = join->hosts;
        QStringList fromPods = hosts.keys();
        std::sort(fromPods.begin(), fromPods.end(), [&](const QString &a, const QString &b) {
            return hosts.value(a) != hosts.value(b) ? hosts.value(a) > hosts.value(b) : a < b;
        });
        if (fromPods != m_fromPods) {
            m_fromPods = fromPods;
            emit registriesChanged();
        }
    };
    if (when == Join::Now)
        m_sweep.runNow(visit, done);
    else
        m_sweep.start(visit, done);
}

bool ImagesService::isScanning() const
{
    return (m_scan && m_scan->isRunning()) || m_lookup || (m_harbor && !m_harbor->isFinished());
}

void ImagesService::cancel()
{
    delete m_lookup;
    if (m_scan)
        m_scan->cancel();
    else if (m_harbor)
        m_harbor->cancel(); // its end starts no scan once cancelled (see readHarbor)
}

QStringList ImagesService::projectsOfUsersWhoLeft() const
{
    if (!isHarbor())
        return {};
    QSet<QString> users;
    for (const NamespaceInfo &n : m_store->users())
        users.insert(n.user.isEmpty() ? n.name : n.user);
    QStringList out;
    for (const HarborProject &p : m_harbor->projects()) {
        if (p.isPublic || !p.membersKnown)
            continue;
        bool current = false;
        for (const QString &m : p.members)
            current = current || users.contains(m);
        if (!current)
            out << p.name;
    }
    out.sort();
    return out;
}

bool ImagesService::isHarbor() const
{
    return m_harbor && m_harbor->isHarbor();
}

void ImagesService::scan(const QString &host)
{
    cancel();
    delete m_scan;
    m_scan = nullptr;
    delete m_harbor;
    m_harbor = nullptr;
    delete m_client;
    m_client = nullptr;
    m_ready = false;
    m_host = host;
    m_model->clear();
    joinPods(Join::Now);
    if (const RegistriesConf::Entry *c = m_conf->forHost(host); c && c->blocked) {
        emit finished(false, {tr("%1 is blocked in %2 (line %3): gpudesk does not read it, as "
                                 "podman and CRI-O would not pull from it.")
                                  .arg(host, m_conf->file())
                                  .arg(c->line)});
        return;
    }
    emit progress(tr("Looking up credentials for %1…").arg(host));
    auto *lookup = new QObject(this);
    m_lookup = lookup;
    m_logins->lookup(host, lookup,
                     [this, lookup, host](const RegistryCredentials &c, const QString &error) {
                         lookup->deleteLater();
                         if (!error.isEmpty()) {
                             // A broken helper is said, and the registry is read anonymously
                             // all the same.
                             emit progress(error);
                         }
                         m_client = new RegistryClient(endpointFor(host), this);
                         m_client->setCredentials(c);
                         m_ready = true;
                         readHarbor();
                     });
}

void ImagesService::readHarbor()
{
    // Before the manifests are read: Harbor counts those reads as pulls.
    QString name = m_host;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9.-]")), QStringLiteral("_"));
    m_harbor =
        new HarborReader(m_client,
                         QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
                             QStringLiteral("/harbor-pulls/") + name + QStringLiteral(".json"),
                         this);
    connect(m_harbor, &HarborReader::progress, this, &ImagesService::progress);
    HarborReader *reader = m_harbor;
    connect(m_harbor, &HarborReader::finished, this, [this, reader] {
        if (reader != m_harbor)
            return;
        if (reader->wasCancelled()) {
            emit finished(false, reader->errors());
            return;
        }
        m_model->setHarbor(reader->artifacts());
        startScan();
    });
    m_harbor->start();
}

void ImagesService::startScan()
{
    m_scan = new RegistryScan(m_client, this);
    if (!m_repositories.isEmpty())
        m_scan->setRepositories(m_repositories);
    connect(m_scan, &RegistryScan::batch, this, [this](const RegistryScanBatch &b) {
        m_model->addManifests(b.manifests);
        m_model->addConfigs(b.configs);
        m_model->addTags(b.tags);
    });
    connect(m_scan, &RegistryScan::progressed, this, [this](const RegistryScanProgress &p) {
        const QLocale l;
        emit progress(p.catalogDone
                          ? tr("Reading %1: %2 of %3 repositories, %4 tags")
                                .arg(m_host, l.toString(p.repositoriesDone),
                                     l.toString(p.repositories), l.toString(p.tags))
                          : tr("Reading %1: %2 repositories so far, %3 tags")
                                .arg(m_host, l.toString(p.repositories), l.toString(p.tags)));
    });
    connect(m_scan, &RegistryScan::finished, this,
            [this](bool registryComplete, const QStringList &registryErrors) {
                QStringList errors = registryErrors;
                if (m_harbor) {
                    m_harbor->remember(m_scanStarted, QDateTime::currentDateTimeUtc());
                    // A repository Harbor did not answer for has no push and pull times: its
                    // images would fall back to their build date. Said, and the read is partial.
                    errors += m_harbor->errors();
                }
                const bool complete = registryComplete && errors.isEmpty();
                m_model->setComplete(complete);
                joinPods(Join::Now);
                emit finished(complete, errors);
                // After `finished`, so that the page shows what failed before it asks.
                if (m_client->needsLogin()) {
                    emit loginNeeded(m_host, errors.value(0));
                } else if (complete || m_model->rowCount() > 0) {
                    // Kept only once the registry has shown it takes the login: a read that
                    // failed for another reason (refused, cancelled) proves nothing.
                    const QString host = m_host;
                    m_logins->accepted(host, this, [this, host](const QString &error) {
                        emit loginKept(host, error);
                    });
                }
            });
    m_scanStarted = QDateTime::currentDateTimeUtc();
    m_scan->start();
}

OperationPlan ImagesService::planDelete(const QList<int> &rows, bool allowInUse) const
{
    const RegistryEndpoint e = m_client ? m_client->endpoint() : RegistryEndpoint{m_host};
    return ImagePlanner(*m_model, e).remove(rows, allowInUse);
}

OperationPlan ImagesService::planCopy(int row, const QString &to) const
{
    const RegistryEndpoint e = m_client ? m_client->endpoint() : RegistryEndpoint{m_host};
    return ImagePlanner(*m_model, e).copy(row, to);
}

OperationPlan ImagesService::planCollectGarbage(bool deleteUntagged) const
{
    const RegistryEndpoint e = m_client ? m_client->endpoint() : RegistryEndpoint{m_host};
    return ImagePlanner(*m_model, e)
        .collectGarbage(m_harbor ? m_harbor->info() : std::nullopt,
                        m_harbor ? m_harbor->untagged() : QList<HarborArtifact>{}, deleteUntagged);
}

bool ImagesService::inUse(const QList<int> &rows) const
{
    return ImagePlanner(*m_model, RegistryEndpoint{m_host}).inUse(rows);
}

Operation *ImagesService::prepare(const OperationPlan &plan)
{
    if (!m_ready || !m_client)
        return nullptr;
    Operation *op = m_operations->prepare(plan, m_client->endpoint(), m_client->credentials(),
                                          m_harbor ? m_harbor->apiBase() : QUrl());
    const QString host = m_host;
    connect(op, &Operation::finished, this, [this, op, host] {
        if (host == m_host)
            applied(op);
    });
    return op;
}

void ImagesService::applied(const Operation *operation)
{
    // What the registry confirmed, brought into the model without reading it all again.
    const QList<PlanStep> &steps = operation->plan().steps;
    for (int i = 0; i < steps.size(); ++i) {
        const StepOutcome &o = operation->outcomes().value(i);
        if (o.result != StepOutcome::Result::Done)
            continue;
        const ImageTarget &t = steps[i].image;
        if (steps[i].kind == PlanStep::Kind::DeleteImage) {
            m_model->removeTags(t.repository, o.removedTags);
            emit changed(t.repository, QString());
        } else if (steps[i].kind == PlanStep::Kind::CopyImage) {
            m_model->addTags({RegistryTag{t.toRepository, t.toTag, t.digest}});
            emit changed(t.toRepository, t.toTag);
        }
    }
}

void ImagesService::setHugeBytes(qint64 bytes)
{
    m_hugeBytes = bytes;
    m_model->setHugeBytes(bytes);
    AppSettings::setHugeImageGiB(double(bytes) / double(1ll << 30));
}

void ImagesService::imageSize(const QString &reference, QObject *context, SizeDone done)
{
    lookImage(reference, context, [done](const ImageLook &look) { done(look.bytes, look.error); });
}

void ImagesService::lookImage(const QString &reference, QObject *context, LookDone done)
{
    ImageLook look;
    look.reference = reference.trimmed();
    const ImageReference ref = parsedReference(reference, &look.error);
    if (!ref.isValid()) {
        done(look);
        return;
    }
    const QString key = ref.toString();
    if (const auto it = m_sizes.constFind(key); it != m_sizes.cend()) {
        look.bytes = *it;
        look.httpStatus = 200;
        done(look);
        return;
    }
    // One client per question, owned by a helper that goes when it is answered: a form typed
    // into asks again and again, and an answer for a context that is gone is dropped.
    auto *owner = new QObject(this);
    QPointer<QObject> guard(context);
    auto answer = [this, owner, guard, key, reference = look.reference, done](ImageLook found) {
        owner->deleteLater();
        found.reference = reference;
        if (found.found())
            m_sizes.insert(key, found.bytes);
        if (guard)
            done(found);
    };
    m_logins->lookup(ref.registry, owner,
                     [this, owner, ref, answer](const RegistryCredentials &c, const QString &) {
                         auto *client = new RegistryClient(endpointFor(ref.registry), owner);
                         client->setCredentials(c);
                         sizeOfManifest(client, ref.repository,
                                        ref.digest.isEmpty() ? ref.tag : ref.digest, true, answer);
                     });
}

void ImagesService::lookSshd(const QString &reference, const QStringList &extraPaths,
                             QObject *context, SshdDone done)
{
    SshdLook look;
    look.reference = reference.trimmed();
    const ImageReference ref = parsedReference(reference, &look.error);
    if (!ref.isValid()) {
        done(look);
        return;
    }
    // A form re-checked on every change asks again while the layers are still coming.
    const QString extra = extraPaths.join(u'|');
    const QString key = ref.toString() + u'|' + extra;
    const bool underWay = m_sshdAsked.contains(key);
    m_sshdAsked[key].append({QPointer<QObject>(context), look.reference, std::move(done)});
    if (underWay)
        return;
    auto *owner = new QObject(this);
    const auto answer = [this, owner, key, extra](const SshdLook &found) {
        owner->deleteLater();
        if (!found.transient && !found.digest.isEmpty())
            m_sshd.insert(found.digest + u'|' + extra, found);
        for (const SshdWaiter &w : m_sshdAsked.take(key)) {
            if (!w.context)
                continue;
            SshdLook mine = found;
            mine.reference = w.reference;
            w.done(mine);
        }
    };
    const QString tagOrDigest = ref.digest.isEmpty() ? ref.tag : ref.digest;
    m_logins->lookup(ref.registry, owner,
                     [this, owner, ref, tagOrDigest, answer, extraPaths, extra,
                      reference = look.reference](const RegistryCredentials &c, const QString &) {
                         auto *client = new RegistryClient(endpointFor(ref.registry), owner);
                         client->setCredentials(c);
                         // Kept by what the tag names now (one HEAD): a tag pushed again — with
                         // sshd added, as the fix says — is looked at again.
                         client->manifestDigest(
                             ref.repository, tagOrDigest, owner,
                             [this, client, owner, ref, tagOrDigest, answer, reference, extraPaths,
                              extra](const RegistryReply &r) {
                                 if (const auto it = m_sshd.constFind(r.digest + u'|' + extra);
                                     r.ok() && !r.digest.isEmpty() && it != m_sshd.cend()) {
                                     answer(*it);
                                     return;
                                 }
                                 auto *probe = new SshdProbe(client, reference, ref.repository,
                                                             tagOrDigest, extraPaths, owner);
                                 probe->start(answer);
                             });
                     });
}

void ImagesService::sizeOfManifest(RegistryClient *client, const QString &repository,
                                   const QString &reference, bool top,
                                   std::function<void(ImageLook)> done)
{
    client->manifest(
        repository, reference, client,
        [this, client, repository, top, done](const RegistryManifest &m, const RegistryReply &r) {
            ImageLook look;
            look.httpStatus = r.httpStatus;
            look.errorCode = r.errorCode;
            look.connectionFailed = r.connectionFailed;
            if (!r.ok()) {
                look.error = r.error;
                done(look);
                return;
            }
            if (!m.isIndex) {
                look.bytes = m.imageBytes();
                done(look);
                return;
            }
            const RegistryDescriptor *pick = nodeImageOf(m);
            if (!pick || !top) {
                look.error = tr("%1 names no image of a platform.").arg(repository);
                done(look);
                return;
            }
            sizeOfManifest(client, repository, pick->digest, false, done);
        });
}

void ImagesService::prepareSave(const SaveImageRequest &request, QObject *context, SaveDone done)
{
    auto *owner = new QObject(this);
    QPointer<QObject> guard(context);
    auto withCredentials = [this, owner, guard, done, request](const RegistryCredentials &c) {
        const RegistryEndpoint e = endpointFor(request.registry);
        auto *client = new RegistryClient(e, owner);
        client->setCredentials(c);
        client->manifestDigest(
            request.repository, request.tag, owner,
            [this, owner, guard, done, request, c, e](const RegistryReply &r) {
                owner->deleteLater();
                if (!guard)
                    return;
                // Without credentials the plan is refused for that, whatever the tag names.
                const bool anonymous = c.secret.isEmpty() && r.httpStatus == 401;
                if (!r.ok() && r.httpStatus != 404 && !anonymous) {
                    done(nullptr,
                         tr("%1 could not say what %2:%3 names now: %4")
                             .arg(request.registry, request.repository, request.tag, r.error));
                    return;
                }
                SaveImageRequest full = request;
                full.credentials = c;
                full.currentDigest = r.ok() ? r.digest : QString();
                full.plainHttp = e.plainHttp;
                done(m_operations->prepare(SaveImagePlanner::plan(full), e, c), QString());
            });
    };
    if (!request.credentials.secret.isEmpty()) {
        withCredentials(request.credentials);
        return;
    }
    m_logins->lookup(
        request.registry, owner,
        [withCredentials](const RegistryCredentials &c, const QString &) { withCredentials(c); });
}

} // namespace gpudesk
