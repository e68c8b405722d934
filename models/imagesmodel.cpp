// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagesmodel.h"

#include "format.h"
#include "roles.h"

#include <QLocale>
#include <QPromise>
#include <QThreadPool>

namespace gpudesk {

ImagesModel::ImagesModel(QObject *parent) : QAbstractTableModel(parent)
{
    m_recompute.setSingleShot(true);
    m_recompute.setInterval(300);
    connect(&m_recompute, &QTimer::timeout, this, &ImagesModel::recompute);
    connect(&m_watcher, &QFutureWatcher<Sizes>::finished, this, [this] {
        m_computing = false;
        if (m_watcher.future().resultCount() > 0 && m_watcher.result().generation == m_generation)
            apply(m_watcher.result());
        if (std::exchange(m_again, false))
            recompute();
    });
}

int ImagesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_tags.size());
}

int ImagesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void ImagesModel::clear()
{
    beginResetModel();
    m_tags.clear();
    m_rowOf.clear();
    m_repoCount.clear();
    m_unread.clear();
    m_manifests.clear();
    m_configs.clear();
    m_sizes.clear();
    m_harbor.clear();
    m_stored = 0;
    m_complete = false;
    ++m_generation;
    endResetModel();
}

void ImagesModel::addTags(const QList<RegistryTag> &tags)
{
    QList<RegistryTag> fresh;
    for (const RegistryTag &t : tags) {
        const QString key = tagKey(t.repository, t.tag);
        const auto it = m_rowOf.constFind(key);
        if (it != m_rowOf.cend()) {
            m_tags[*it] = t; // read again: it may point elsewhere now
            if (m_unread.remove(key)) {
                ++m_repoCount[t.repository];
                emit dataChanged(index(*it, 0), index(*it, ColumnCount - 1));
            }
            continue;
        }
        fresh << t;
    }
    if (!fresh.isEmpty()) {
        const int first = int(m_tags.size());
        beginInsertRows({}, first, first + int(fresh.size()) - 1);
        for (const RegistryTag &t : std::as_const(fresh)) {
            m_rowOf.insert(tagKey(t.repository, t.tag), int(m_tags.size()));
            ++m_repoCount[t.repository];
            m_tags << t;
        }
        endInsertRows();
    }
    m_recompute.start();
}

void ImagesModel::setSeenInPods(const QList<RegistryTag> &seen)
{
    QSet<QString> keys;
    QList<RegistryTag> fresh;
    for (const RegistryTag &t : seen) {
        const QString key = tagKey(t.repository, t.tag);
        if (keys.contains(key))
            continue; // many pods run one image: its first pod's digest names it
        keys.insert(key);
        if (m_rowOf.contains(key))
            continue;
        fresh << t;
    }
    QList<int> gone;
    for (const QString &key : std::as_const(m_unread))
        if (!keys.contains(key))
            gone << m_rowOf.value(key);
    dropRows(gone);
    if (fresh.isEmpty())
        return;
    const int first = int(m_tags.size());
    beginInsertRows({}, first, first + int(fresh.size()) - 1);
    for (const RegistryTag &t : std::as_const(fresh)) {
        const QString key = tagKey(t.repository, t.tag);
        m_rowOf.insert(key, int(m_tags.size()));
        m_unread.insert(key);
        m_tags << t;
    }
    endInsertRows();
}

void ImagesModel::removeTags(const QString &repository, const QStringList &tags)
{
    QList<int> rows;
    for (const QString &tag : tags)
        if (const int row = rowOf(repository, tag); row >= 0)
            rows << row;
    dropRows(rows);
}

void ImagesModel::dropRows(QList<int> rows)
{
    std::sort(rows.begin(), rows.end(), std::greater<int>());
    for (int row : std::as_const(rows)) {
        beginRemoveRows({}, row, row);
        const RegistryTag t = m_tags.takeAt(row);
        if (!m_unread.remove(tagKey(t.repository, t.tag)) && --m_repoCount[t.repository] == 0)
            m_repoCount.remove(t.repository);
        endRemoveRows();
    }
    if (rows.isEmpty())
        return;
    m_rowOf.clear();
    for (int i = 0; i < m_tags.size(); ++i)
        m_rowOf.insert(tagKey(m_tags[i].repository, m_tags[i].tag), i);
    m_recompute.start();
}

void ImagesModel::addManifests(const QList<RegistryManifest> &manifests)
{
    for (const RegistryManifest &m : manifests)
        m_manifests.insert(m.digest, m);
    if (!manifests.isEmpty())
        m_recompute.start();
}

void ImagesModel::addConfigs(const QHash<QString, RegistryImageConfig> &configs)
{
    m_configs.insert(configs);
    if (!configs.isEmpty())
        m_recompute.start();
}

void ImagesModel::setComplete(bool complete)
{
    m_complete = complete;
    recompute();
}

void ImagesModel::setUse(const QHash<QString, QList<Use>> &byDigest,
                         const QHash<QString, QList<Use>> &byTag)
{
    m_useByDigest = byDigest;
    m_useByTag = byTag;
    if (!m_tags.isEmpty())
        emit dataChanged(index(0, InUse), index(int(m_tags.size()) - 1, InUse));
}

void ImagesModel::setHugeBytes(qint64 bytes)
{
    m_hugeBytes = bytes;
    if (!m_tags.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_tags.size()) - 1, ColumnCount - 1));
}

void ImagesModel::setHarbor(const QHash<QString, HarborArtifact> &artifacts)
{
    m_harbor = artifacts;
    if (!m_tags.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_tags.size()) - 1, ColumnCount - 1));
}

const HarborArtifact *ImagesModel::harborOf(int row) const
{
    const RegistryTag &t = m_tags.at(row);
    const auto it = m_harbor.constFind(ImageSizes::key(t.repository, t.digest));
    return it == m_harbor.cend() ? nullptr : &*it;
}

QDateTime ImagesModel::lastUsed(int row) const
{
    if (const HarborArtifact *a = harborOf(row))
        return a->pulled.isValid() ? a->pulled : a->pushed;
    return createdOf(m_tags.at(row));
}

void ImagesModel::setCandidatesOfOwners(const QSet<QString> &owners)
{
    m_candidateOwners = owners;
    m_byOwner = true;
    m_candidatesBefore = {};
    if (!m_tags.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_tags.size()) - 1, ColumnCount - 1),
                         {CandidateRole});
}

void ImagesModel::setCandidatesBefore(const QDateTime &before)
{
    m_candidateOwners.clear();
    m_byOwner = false;
    m_candidatesBefore = before;
    if (!m_tags.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_tags.size()) - 1, ColumnCount - 1),
                         {CandidateRole});
}

void ImagesModel::recompute()
{
    m_recompute.stop();
    if (m_tags.size() <= kComputeHereUpTo) {
        Sizes s;
        s.sizes = ImageSizes::compute(m_tags, m_manifests, &s.stored);
        apply(s);
        return;
    }
    if (m_computing) {
        m_again = true;
        return;
    }
    // The lists are shared, not copied, with the worker: what changes here after detaches.
    m_computing = true;
    auto promise = std::make_shared<QPromise<Sizes>>();
    m_watcher.setFuture(promise->future());
    QThreadPool::globalInstance()->start(
        [promise, tags = m_tags, manifests = m_manifests, generation = m_generation] {
            promise->start();
            Sizes s;
            s.generation = generation;
            s.sizes = ImageSizes::compute(tags, manifests, &s.stored);
            promise->addResult(std::move(s));
            promise->finish();
        });
}

void ImagesModel::apply(const Sizes &sizes)
{
    m_sizes = sizes.sizes;
    m_stored = sizes.stored;
    if (!m_tags.isEmpty())
        emit dataChanged(index(0, Platforms), index(int(m_tags.size()) - 1, Created));
    emit sizesComputed();
}

const RegistryManifest *ImagesModel::manifest(const QString &digest) const
{
    const auto it = m_manifests.constFind(digest);
    return it == m_manifests.cend() ? nullptr : &*it;
}

ImageSize ImagesModel::sizeOf(int row) const
{
    const RegistryTag &t = m_tags.at(row);
    // Not computed yet (a tag just added): not known, rather than nothing.
    ImageSize none;
    none.known = false;
    return m_sizes.value(ImageSizes::key(t.repository, t.digest), none);
}

QList<ImagesModel::Use> ImagesModel::useOf(int row) const
{
    const RegistryTag &t = m_tags.at(row);
    QList<Use> out = m_useByDigest.value(ImageSizes::key(t.repository, t.digest));
    // A pod whose runtime did not report a digest is matched by its spec's tag, and says so.
    for (const Use &u : m_useByTag.value(tagKey(t.repository, t.tag))) {
        bool seen = false;
        for (const Use &o : std::as_const(out))
            seen = seen || o.pod == u.pod;
        if (!seen)
            out << u;
    }
    return out;
}

QStringList ImagesModel::tagsOf(const QString &repository, const QString &digest) const
{
    QStringList out;
    for (const RegistryTag &t : m_tags)
        if (t.repository == repository && t.digest == digest &&
            !m_unread.contains(tagKey(t.repository, t.tag)))
            out << t.tag;
    out.sort();
    return out;
}

qint64 ImagesModel::totalBytes() const
{
    return m_stored;
}

QString ImagesModel::platformsOf(const RegistryTag &t) const
{
    const RegistryManifest *m = manifest(t.digest);
    if (!m)
        return {};
    if (!m->isIndex) {
        const RegistryImageConfig c = m_configs.value(m->config.digest);
        return c.os.isEmpty() ? QString() : c.os + u'/' + c.architecture;
    }
    QStringList out;
    for (const RegistryDescriptor &e : m->entries)
        if (!e.attestation)
            out << e.platform();
    return out.join(QLatin1String(", "));
}

QDateTime ImagesModel::createdOf(const RegistryTag &t) const
{
    const RegistryManifest *m = manifest(t.digest);
    if (!m)
        return {};
    if (!m->isIndex)
        return m_configs.value(m->config.digest).created;
    // An index has no date of its own: its newest platform's.
    QDateTime newest;
    for (const RegistryDescriptor &e : m->entries)
        if (const RegistryManifest *child = manifest(e.digest))
            newest = qMax(newest, m_configs.value(child->config.digest).created);
    return newest;
}

QVariant ImagesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_tags.size())
        return {};
    const RegistryTag &t = m_tags.at(index.row());
    const ImageSize size = m_sizes.value(ImageSizes::key(t.repository, t.digest));
    const bool huge = size.total > m_hugeBytes;
    const int col = index.column();
    if (role == KeyRole)
        return tagKey(t.repository, t.tag);
    if (role == FilterRole) {
        // Harbor's labels find their images too ("production").
        const HarborArtifact *a = m_harbor.isEmpty() ? nullptr : harborOf(index.row());
        return QString(t.repository + u' ' + t.tag + u' ' + t.digest +
                       (a ? u' ' + a->labels.join(u' ') : QString()));
    }
    if (role == SeverityRole)
        return huge ? 1 : 0;
    if (role == CandidateRole) {
        if (m_byOwner)
            return m_candidateOwners.contains(t.repository.section(u'/', 0, 0)) &&
                   useOf(index.row()).isEmpty();
        const QDateTime used = lastUsed(index.row());
        return m_candidatesBefore.isValid() && used.isValid() && used < m_candidatesBefore &&
               useOf(index.row()).isEmpty();
    }
    if (role == Qt::TextAlignmentRole && (col == Size || col == Unique))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && m_unread.contains(tagKey(t.repository, t.tag)) && col != InUse)
        return m_complete ? tr("A pod runs this image, but the registry, read whole, does not "
                               "have this tag (deleted, or pulled from elsewhere).")
                          : tr("A pod runs this image; the registry has not given it (yet): "
                               "its size, platforms and date are not known.");
    if (role == Qt::ToolTipRole) {
        switch (col) {
        case Size:
            return huge ? tr("Over %1: slow to pull onto a node, and it fills the node's disk.")
                              .arg(format::bytes(m_hugeBytes))
                        : tr("Config and layers as stored (compressed), counted once.");
        case Unique:
            return m_complete ? tr("Bytes no other image of this registry uses: what deleting this "
                                   "digest could give back, once garbage collection runs.")
                              : tr("At most this much: the registry has not been read whole, and "
                                   "an image not read yet may share these layers.");
        case InUse: {
            QStringList lines;
            for (const Use &u : useOf(index.row()))
                lines << (u.byDigest ? tr("%1 (%2)")
                                     : tr("%1 (%2; by tag: its node did not say the digest)"))
                             .arg(u.pod, u.user.isEmpty() ? tr("no user") : u.user);
            return lines.join(u'\n');
        }
        case Digest:
            return t.digest;
        case Tag:
            if (const HarborArtifact *a = harborOf(index.row()))
                for (const HarborTag &h : a->tags)
                    if (h.name == t.tag && h.immutable)
                        return tr("Immutable in Harbor: it cannot be deleted or pushed over.");
            return {};
        case Pushed:
        case Pulled:
            if (!harborOf(index.row()))
                return m_harbor.isEmpty() ? tr("Only Harbor records pushes and pulls; this "
                                               "registry does not.")
                                          : QString();
            if (col == Pulled)
                return tr("The last pull of this digest by any tag (Harbor's record; reads by "
                          "gpudesk itself are left out).");
            return {};
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sort = role == SortRole;
    switch (col) {
    case Repository:
        return t.repository;
    case Tag:
        if (!sort)
            if (const HarborArtifact *a = harborOf(index.row()))
                for (const HarborTag &h : a->tags)
                    if (h.name == t.tag && h.immutable)
                        return tr("%1 (immutable)").arg(t.tag); // words: not every font has 🔒
        return t.tag;
    case Pushed:
    case Pulled: {
        const HarborArtifact *a = harborOf(index.row());
        const QDateTime when = !a ? QDateTime() : col == Pushed ? a->pushed : a->pulled;
        if (sort)
            return when.isValid() ? when.toMSecsSinceEpoch() : 0;
        if (!a)
            return QString();
        return when.isValid()  ? QLocale().toString(when.toLocalTime(), QLocale::ShortFormat)
               : col == Pulled ? tr("never")
                               : QString();
    }
    case Platforms:
        if (!sort && m_unread.contains(tagKey(t.repository, t.tag)))
            return m_complete ? tr("not in this registry") : tr("not read from the registry");
        return platformsOf(t);
    case Size:
        if (sort)
            return size.total;
        if (!manifest(t.digest))
            return QString();
        return QString((size.known ? QString() : QStringLiteral("≥ ")) + format::bytes(size.total) +
                       (huge ? QStringLiteral(" ⚠") : QString()));
    case Unique:
        if (sort)
            return size.unique;
        if (!manifest(t.digest))
            return QString();
        return QString((m_complete ? QString() : QStringLiteral("≤ ")) +
                       format::bytes(size.unique));
    case Created: {
        const QDateTime c = createdOf(t);
        if (sort)
            return c.isValid() ? c.toMSecsSinceEpoch() : 0;
        return c.isValid() ? QLocale().toString(c.toLocalTime(), QLocale::ShortFormat) : QString();
    }
    case InUse: {
        const QList<Use> use = useOf(index.row());
        if (sort)
            return int(use.size());
        if (use.isEmpty())
            return QString();
        QStringList users;
        for (const Use &u : use)
            if (!u.user.isEmpty() && !users.contains(u.user))
                users << u.user;
        return users.isEmpty() ? tr("%n pod(s)", nullptr, int(use.size()))
                               : tr("%n pod(s): %1", nullptr, int(use.size()))
                                     .arg(users.join(QLatin1String(", ")));
    }
    case Digest:
        return t.digest.left(19);
    default:
        return {};
    }
}

QVariant ImagesModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Repository:
        return tr("Repository");
    case Tag:
        return tr("Tag");
    case Platforms:
        return tr("Platforms");
    case Size:
        return tr("Size");
    case Unique:
        return tr("Unique");
    case Created:
        return tr("Created");
    case Pushed:
        return tr("Pushed");
    case Pulled:
        return tr("Last pulled");
    case InUse:
        return tr("In use by");
    case Digest:
        return tr("Digest");
    default:
        return {};
    }
}

} // namespace gpudesk
