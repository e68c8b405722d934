// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "harbortypes.h"
#include "imagesizes.h"
#include "registrytypes.h"

#include <QAbstractTableModel>
#include <QFutureWatcher>
#include <QHash>
#include <QTimer>

namespace gpudesk {

// The tags of one registry, a row each (repository, tag), as a scan finds them: what each points
// at (its platforms, created), what it costs (size; unique bytes — what deleting its digest
// could ever give back, and only an upper bound until the whole registry was read) and which
// pods run it now. Rows are appended as batches come; the derived figures are recomputed at
// most a few times a second, not per batch.
class ImagesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Repository,
        Tag,
        Platforms,
        Size,
        Unique,
        Created,
        Pushed, // Harbor only: a plain registry does not record pushes and pulls
        Pulled,
        InUse,
        Digest,
        ColumnCount
    };
    // Who runs an image: "namespace/pod" and the pod's user, and whether the pod was matched
    // by the digest it runs (containerStatuses' imageID) or only by its spec's tag.
    struct Use
    {
        QString pod;
        QString user;
        bool byDigest = false;
    };

    explicit ImagesModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    void clear();
    void addTags(const QList<RegistryTag> &tags);
    // Tags the registry no longer has (deleted from gpudesk): their rows go.
    void removeTags(const QString &repository, const QStringList &tags);
    void addManifests(const QList<RegistryManifest> &manifests);
    void addConfigs(const QHash<QString, RegistryImageConfig> &configs);
    // The whole registry was read: unique bytes are exact, not upper bounds.
    void setComplete(bool complete);
    bool isComplete() const { return m_complete; }
    // By "repository@digest" and by "repository:tag" (ImageSizes::key and tagKey).
    void setUse(const QHash<QString, QList<Use>> &byDigest,
                const QHash<QString, QList<Use>> &byTag);
    static QString tagKey(const QString &repository, const QString &tag)
    {
        return repository + u':' + tag;
    }
    // The images the cluster's pods run from this registry (repository, the spec's tag, the
    // digest the node reported): those the registry has not given are rows of their own, marked
    // unread, so the page shows what runs before a registry answers — and what it may never
    // list (a host that does not resolve, a catalog refused). A tag the registry brings replaces
    // its unread row; an unread row no pod runs any more goes.
    void setSeenInPods(const QList<RegistryTag> &seen);
    // Read from the registry (not only seen in pods): only these can be acted on.
    bool isRead(int row) const
    {
        const RegistryTag &t = m_tags.at(row);
        return !m_unread.contains(tagKey(t.repository, t.tag));
    }
    // Tags read from the registry, and rows only seen in pods.
    int readTags() const { return int(m_tags.size() - m_unread.size()); }
    int unreadRows() const { return int(m_unread.size()); }
    // Over this size an image is flagged (20 GiB unless the admin sets another).
    void setHugeBytes(qint64 bytes);
    // Rows run by no pod and last used before this are cleanup candidates (CandidateRole):
    // last pulled (or pushed, never pulled) where Harbor says; built, on a plain registry,
    // which does not know when an image was pulled.
    void setCandidatesBefore(const QDateTime &before);
    // Instead: rows run by no pod whose first path segment (a Harbor project) is in `owners` —
    // projects of users who left (ImagesService says which).
    void setCandidatesOfOwners(const QSet<QString> &owners);
    // What Harbor's database says of the artifacts (by ImageSizes::key); empty: not a Harbor.
    void setHarbor(const QHash<QString, HarborArtifact> &artifacts);
    bool hasHarbor() const { return !m_harbor.isEmpty(); }
    const HarborArtifact *harborOf(int row) const;
    // When the row's image was last used: pulled, else pushed (Harbor), else built.
    QDateTime lastUsed(int row) const;

    const RegistryTag &tagAt(int row) const { return m_tags.at(row); }
    int rowOf(const QString &repository, const QString &tag) const
    {
        return m_rowOf.value(tagKey(repository, tag), -1);
    }
    const RegistryManifest *manifest(const QString &digest) const;
    ImageSize sizeOf(int row) const;
    QList<Use> useOf(int row) const;
    // Pods that run this digest (an untagged one has no row).
    QList<Use> useOfDigest(const QString &repository, const QString &digest) const
    {
        return m_useByDigest.value(ImageSizes::key(repository, digest));
    }
    // Every tag of the repository pointing at this digest: what deleting the digest takes.
    QStringList tagsOf(const QString &repository, const QString &digest) const;
    int repositories() const { return int(m_repoCount.size()); }
    // Every distinct blob of the tags read: what the registry stores for them.
    qint64 totalBytes() const;
    // What deleting these images ("repository@digest") frees: blobs no other image uses.
    qint64 freedBy(const QSet<QString> &images) const
    {
        return ImageSizes::freed(m_tags, m_manifests, images);
    }
    // Sizes are computed here up to this many tags (milliseconds), on a worker beyond (a
    // registry of 100,000 tags takes the UI thread no time); `sizesComputed` says when.
    static constexpr int kComputeHereUpTo = 20000;
    bool sizesPending() const { return m_recompute.isActive() || m_computing; }

signals:
    void sizesComputed();

private:
    struct Sizes
    {
        QHash<QString, ImageSize> sizes;
        qint64 stored = 0;
        int generation = 0; // of the tags it was computed from
    };
    void recompute();
    void apply(const Sizes &sizes);
    void dropRows(QList<int> rows);
    QString platformsOf(const RegistryTag &t) const;
    QDateTime createdOf(const RegistryTag &t) const;

    QList<RegistryTag> m_tags;
    QHash<QString, int> m_rowOf;     // tagKey -> row
    QHash<QString, int> m_repoCount; // of rows read from the registry
    QSet<QString> m_unread;          // tagKeys of rows only seen in pods
    QHash<QString, RegistryManifest> m_manifests;
    QHash<QString, RegistryImageConfig> m_configs;
    QHash<QString, ImageSize> m_sizes;
    QHash<QString, QList<Use>> m_useByDigest, m_useByTag;
    QTimer m_recompute;
    QFutureWatcher<Sizes> m_watcher;
    bool m_computing = false;
    int m_generation = 0; // clear() starts a new one: a worker's older result is dropped
    bool m_again = false; // changed while a worker computed: compute once more
    qint64 m_stored = 0;
    bool m_complete = false;
    qint64 m_hugeBytes = 20ll << 30;
    QDateTime m_candidatesBefore;
    QSet<QString> m_candidateOwners;
    bool m_byOwner = false; // candidates are m_candidateOwners' images, not m_candidatesBefore's
    QHash<QString, HarborArtifact> m_harbor;
};

} // namespace gpudesk
