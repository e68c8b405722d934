// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "steprunner.h"

#include "operationcontext.h"
#include "operationplan.h"

#include <QObject>
#include <QSet>

#include <functional>

namespace gpudesk {

class RegistryClient;
struct RegistryManifest;
struct RegistryReply;

// One step of an operation that acts on a registry. Deleting: the manifest must still be there
// and no tag the plan did not name may point at it now (deleting by digest takes every such tag,
// and someone may have tagged it since); then DELETE by digest, and the manifest and its tags are
// checked to be gone — its bytes stay on disk until garbage collection, which the outcome says.
// Copying: the destination tag must still be what it was when planned (never overwrite a tag
// moved since); the source is read by digest, its blobs (and an index's platform manifests)
// mounted into the destination, the manifest PUT under the new tag, and the tag checked to name
// the same digest. Registries have no dry run: the check asks whether the targets are there.
class RegistryStep : public StepRunner
{
    Q_OBJECT
public:
    RegistryStep(const OperationContext &context, PlanStep step, QObject *parent = nullptr);

    void dryRun() override;
    void run() override;

    // Tags of a repository read again before a delete, at most (a bound on one step's work).
    static constexpr int MaxTagsChecked = 2000;

private:
    // Delete.
    void listTags(const QUrl &next);
    void headNextTag();
    void deleteManifest();
    void verifyDeleted();
    void verifyNextTag();
    // Copy.
    void checkDestination(std::function<void()> then);
    void putTag();
    void readSource();
    void copyNextChild();
    void mountNext(std::function<void()> then);
    void putManifest(const QString &reference, const QByteArray &body, const QString &mediaType,
                     std::function<void()> then);
    void verifyCopied();

    void finish(StepOutcome::Result result, const QString &message,
                const QString &verification = QString());

    PlanStep m_step;
    RegistryClient *m_client;
    bool m_acted = false;
    bool m_ended = false;
    QStringList m_tagsLeft; // to HEAD
    QStringList m_pointing; // tags found pointing at the digest
    int m_tagsSeen = 0;
    QSet<QString> m_seen;        // tag names listed
    QSet<QString> m_indexesRead; // other tags' indexes, read for this digest among their entries
    bool m_listedTwice = false;
    QList<RegistryDescriptor> m_children; // an index's platform manifests still to copy
    QStringList m_blobs;                  // blobs still to mount
    QSet<QString> m_mounted;
    QByteArray m_manifest;
    QString m_mediaType;
};

} // namespace gpudesk
