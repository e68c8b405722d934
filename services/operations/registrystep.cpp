// SPDX-License-Identifier: GPL-3.0-or-later
#include "registrystep.h"

#include "registryclient.h"
#include "registrydecoder.h"

#include <QLocale>

namespace gpudesk {

namespace {
constexpr int kTagsPage = 500;

bool notFound(const RegistryReply &r)
{
    return r.httpStatus == 404;
}

// Refusals are the registry's (401, 403, 405): the user can act on them; the rest are failures.
StepOutcome::Result errorResult(const RegistryReply &r)
{
    return (r.httpStatus == 401 || r.httpStatus == 403 || r.httpStatus == 405)
               ? StepOutcome::Result::Refused
               : StepOutcome::Result::Failed;
}

QString shortDigest(const QString &digest)
{
    return digest.section(u':', 1).left(12);
}
} // namespace

RegistryStep::RegistryStep(const OperationContext &context, PlanStep step, QObject *parent)
    : StepRunner(parent), m_step(std::move(step)),
      m_client(new RegistryClient(context.registry, this))
{
    m_client->setCredentials(context.registryCredentials);
}

void RegistryStep::dryRun()
{
    const ImageTarget &t = m_step.image;
    m_client->manifestDigest(t.repository, t.digest, this, [this](const RegistryReply &r) {
        const ImageTarget &t = m_step.image;
        if (!r.ok()) {
            emit dryRunDone(PlanStep::DryRun::Refused,
                            notFound(r) ? tr("no longer in the registry") : r.error);
            return;
        }
        if (m_step.kind == PlanStep::Kind::DeleteImage) {
            // A registry has no dry run: whether it allows deleting shows when the step runs.
            emit dryRunDone(PlanStep::DryRun::Accepted,
                            tr("In the registry; whether it allows deleting shows when it runs"));
            return;
        }
        m_client->manifestDigest(t.toRepository, t.toTag, this, [this](const RegistryReply &d) {
            const ImageTarget &t = m_step.image;
            const QString now = d.ok() ? d.digest : QString();
            if (!d.ok() && !notFound(d))
                emit dryRunDone(PlanStep::DryRun::Refused, d.error);
            else if (now != t.toDigest)
                emit dryRunDone(PlanStep::DryRun::Refused,
                                tr("%1 changed since the plan: it would not be overwritten")
                                    .arg(t.toReference()));
            else
                emit dryRunDone(
                    PlanStep::DryRun::Accepted,
                    now.isEmpty()
                        ? tr("Source in the registry; %1 is a new tag").arg(t.toReference())
                        : tr("Source in the registry; %1 will point at it "
                             "instead of %2")
                              .arg(t.toReference(), shortDigest(now)));
        });
    });
}

void RegistryStep::run()
{
    if (m_step.kind == PlanStep::Kind::CopyImage) {
        checkDestination([this] { readSource(); });
        return;
    }
    const ImageTarget &t = m_step.image;
    m_client->manifestDigest(t.repository, t.digest, this, [this](const RegistryReply &r) {
        if (notFound(r))
            finish(StepOutcome::Result::Skipped,
                   tr("already gone from the registry: not acted on"));
        else if (!r.ok())
            finish(errorResult(r), r.error);
        else
            listTags(QUrl());
    });
}

void RegistryStep::listTags(const QUrl &next)
{
    // Deleting a digest takes every tag pointing at it: read them all again, since one may have
    // been pushed under another name after the plan was shown.
    m_client->tagsPage(m_step.image.repository, next, kTagsPage, this,
                       [this](const RegistryReply &r) {
                           if (!r.ok()) {
                               finish(errorResult(r), r.error);
                               return;
                           }
                           QString error;
                           const QStringList tags = RegistryDecoder::tags(r.body, &error);
                           if (!error.isEmpty()) {
                               finish(StepOutcome::Result::Failed, error);
                               return;
                           }
                           for (const QString &tag : tags)
                               if (!m_seen.contains(tag)) {
                                   m_seen.insert(tag);
                                   m_tagsLeft << tag;
                               }
                           m_tagsSeen += int(tags.size());
                           if (m_tagsSeen > MaxTagsChecked) {
                               finish(StepOutcome::Result::Skipped,
                                      tr("%1 has more than %2 tags: which of them point at this "
                                         "image cannot be checked, so it is not deleted")
                                          .arg(m_step.image.repository)
                                          .arg(MaxTagsChecked));
                               return;
                           }
                           if (r.next.isValid())
                               listTags(r.next);
                           else
                               headNextTag();
                       });
}

void RegistryStep::headNextTag()
{
    if (m_tagsLeft.isEmpty() && !m_listedTwice) {
        // Reading every tag took a while: the list once more, and only the names new since.
        m_listedTwice = true;
        m_tagsSeen = 0;
        listTags(QUrl());
        return;
    }
    if (m_tagsLeft.isEmpty()) {
        QStringList added;
        for (const QString &tag : std::as_const(m_pointing))
            if (!m_step.image.tags.contains(tag))
                added << tag;
        if (!added.isEmpty()) {
            finish(StepOutcome::Result::Skipped,
                   tr("tagged since the plan as %1: deleting it would take that tag too, so it "
                      "is not deleted")
                       .arg(added.join(QStringLiteral(", "))));
            return;
        }
        deleteManifest();
        return;
    }
    const QString tag = m_tagsLeft.takeFirst();
    m_client->manifestDigest(
        m_step.image.repository, tag, this, [this, tag](const RegistryReply &r) {
            if (!r.ok() && !notFound(r)) {
                finish(errorResult(r), r.error);
                return;
            }
            if (r.ok() && r.digest == m_step.image.digest) {
                m_pointing << tag;
            } else if (r.ok() && RegistryDecoder::isIndexType(r.contentType) &&
                       !m_indexesRead.contains(r.digest)) {
                // A multi-platform image under another tag may list this one as a platform:
                // deleting it would break that image.
                m_indexesRead.insert(r.digest);
                m_client->manifest(
                    m_step.image.repository, r.digest, this,
                    [this, tag](const RegistryManifest &m, const RegistryReply &got) {
                        if (!got.ok()) {
                            finish(errorResult(got), got.error);
                            return;
                        }
                        for (const RegistryDescriptor &e : m.entries)
                            if (e.digest == m_step.image.digest) {
                                finish(StepOutcome::Result::Skipped,
                                       tr("a platform of %1:%2 (a multi-platform image): deleting "
                                          "it would break that image, so it is not deleted")
                                           .arg(m_step.image.repository, tag));
                                return;
                            }
                        headNextTag();
                    });
                return;
            }
            headNextTag();
        });
}

void RegistryStep::deleteManifest()
{
    const ImageTarget &t = m_step.image;
    m_client->deleteManifest(t.repository, t.digest, this, [this](const RegistryReply &r) {
        if (notFound(r)) {
            finish(StepOutcome::Result::Skipped,
                   tr("already gone from the registry: not acted on"));
            return;
        }
        if (!r.ok()) {
            finish(errorResult(r), r.error);
            return;
        }
        m_acted = true;
        emit acted();
        verifyDeleted();
    });
}

void RegistryStep::verifyDeleted()
{
    const ImageTarget &t = m_step.image;
    m_client->manifestDigest(t.repository, t.digest, this, [this](const RegistryReply &r) {
        if (!notFound(r)) {
            finish(StepOutcome::Result::Unverified, tr("the registry accepted the delete"),
                   r.ok() ? tr("the registry still serves %1 after deleting it")
                                .arg(m_step.image.reference())
                          : r.error);
            return;
        }
        m_tagsLeft = m_pointing;
        verifyNextTag();
    });
}

void RegistryStep::verifyNextTag()
{
    if (m_tagsLeft.isEmpty()) {
        const QString tags = m_pointing.isEmpty()
                                 ? tr("untagged")
                                 : tr("tags %1").arg(m_pointing.join(QStringLiteral(", ")));
        finish(StepOutcome::Result::Done, tr("deleted"),
               tr("gone from the registry (%1); its blobs stay on disk until the registry's "
                  "garbage collection runs")
                   .arg(tags));
        return;
    }
    const QString tag = m_tagsLeft.takeFirst();
    m_client->manifestDigest(
        m_step.image.repository, tag, this, [this, tag](const RegistryReply &r) {
            if (r.ok() && r.digest == m_step.image.digest)
                finish(StepOutcome::Result::Unverified, tr("the registry accepted the delete"),
                       tr("tag %1 still points at it").arg(tag));
            else if (!r.ok() && !notFound(r)) // not known gone: an error is not an answer
                finish(StepOutcome::Result::Unverified, tr("the registry accepted the delete"),
                       r.error);
            else
                verifyNextTag();
        });
}

void RegistryStep::checkDestination(std::function<void()> then)
{
    const ImageTarget &t = m_step.image;
    m_client->manifestDigest(
        t.toRepository, t.toTag, this, [this, then = std::move(then)](const RegistryReply &r) {
            const ImageTarget &t = m_step.image;
            if (!r.ok() && !notFound(r)) {
                finish(errorResult(r), r.error);
                return;
            }
            const QString now = r.ok() ? r.digest : QString();
            if (now != t.toDigest) {
                finish(StepOutcome::Result::Skipped,
                       now.isEmpty()
                           ? tr("%1 was deleted since the plan: not acted on").arg(t.toReference())
                           : tr("%1 points at %2 since the plan: not overwritten")
                                 .arg(t.toReference(), shortDigest(now)));
                return;
            }
            then();
        });
}

void RegistryStep::putTag()
{
    // Asked again right before: the mounts took a while, and a tag moved meanwhile is not
    // overwritten.
    checkDestination([this] {
        putManifest(m_step.image.toTag, m_manifest, m_mediaType, [this] { verifyCopied(); });
    });
}

void RegistryStep::readSource()
{
    const ImageTarget &t = m_step.image;
    m_client->manifest(t.repository, t.digest, this,
                       [this](const RegistryManifest &m, const RegistryReply &r) {
                           if (!r.ok()) {
                               finish(notFound(r) ? StepOutcome::Result::Skipped : errorResult(r),
                                      notFound(r) ? tr("the source is gone from the registry: "
                                                       "not acted on")
                                                  : r.error);
                               return;
                           }
                           m_manifest = r.body;
                           m_mediaType = r.contentType.isEmpty() ? m.mediaType : r.contentType;
                           if (m.isIndex) {
                               m_children = m.entries;
                               copyNextChild();
                               return;
                           }
                           m_blobs = {m.config.digest};
                           for (const RegistryDescriptor &l : m.layers)
                               m_blobs << l.digest;
                           mountNext([this] { putTag(); });
                       });
}

void RegistryStep::copyNextChild()
{
    if (m_children.isEmpty()) {
        putTag();
        return;
    }
    const RegistryDescriptor child = m_children.takeFirst();
    m_client->manifest(m_step.image.repository, child.digest, this,
                       [this, child](const RegistryManifest &m, const RegistryReply &r) {
                           if (!r.ok()) {
                               finish(errorResult(r), r.error);
                               return;
                           }
                           m_blobs = {m.config.digest};
                           for (const RegistryDescriptor &l : m.layers)
                               m_blobs << l.digest;
                           const QByteArray body = r.body;
                           const QString type =
                               r.contentType.isEmpty() ? m.mediaType : r.contentType;
                           // A platform's manifest goes in by its digest: the index names it so.
                           mountNext([this, child, body, type] {
                               putManifest(child.digest, body, type, [this] { copyNextChild(); });
                           });
                       });
}

void RegistryStep::mountNext(std::function<void()> then)
{
    const ImageTarget &t = m_step.image;
    while (!m_blobs.isEmpty() && (m_blobs.first().isEmpty() || m_mounted.contains(m_blobs.first())))
        m_blobs.removeFirst();
    // A retag within one repository has its blobs already.
    if (m_blobs.isEmpty() || t.toRepository == t.repository) {
        m_blobs.clear();
        then();
        return;
    }
    const QString blob = m_blobs.takeFirst();
    m_client->mountBlob(t.toRepository, blob, t.repository, this,
                        [this, blob, then = std::move(then)](const RegistryReply &r) mutable {
                            if (!r.ok()) {
                                const ImageTarget &t = m_step.image;
                                finish(errorResult(r),
                                       tr("%1 Copy it with: skopeo copy docker://%2 docker://%3")
                                           .arg(r.error, t.reference(), t.toReference()));
                                return;
                            }
                            m_mounted.insert(blob);
                            mountNext(std::move(then));
                        });
}

void RegistryStep::putManifest(const QString &reference, const QByteArray &body,
                               const QString &mediaType, std::function<void()> then)
{
    m_client->putManifest(m_step.image.toRepository, reference, body, mediaType, this,
                          [this, reference, then = std::move(then)](const RegistryReply &r) {
                              if (!r.ok()) {
                                  finish(errorResult(r), r.error);
                                  return;
                              }
                              if (reference == m_step.image.toTag) {
                                  m_acted = true;
                                  emit acted();
                              }
                              then();
                          });
}

void RegistryStep::verifyCopied()
{
    const ImageTarget &t = m_step.image;
    m_client->manifestDigest(t.toRepository, t.toTag, this, [this](const RegistryReply &r) {
        const ImageTarget &t = m_step.image;
        if (r.ok() && r.digest == t.digest)
            finish(StepOutcome::Result::Done, tr("copied"),
                   tr("%1 points at %2: ready to use as %3@%2")
                       .arg(t.toReference(), t.digest, t.toReference()));
        else
            finish(StepOutcome::Result::Unverified, tr("the registry accepted the manifest"),
                   r.ok() ? tr("%1 points at %2, not at the image copied")
                                .arg(t.toReference(), shortDigest(r.digest))
                          : r.error);
    });
}

void RegistryStep::finish(StepOutcome::Result result, const QString &message,
                          const QString &verification)
{
    if (m_ended)
        return;
    m_ended = true;
    if (!m_acted)
        emit acted();
    StepOutcome o;
    o.result = result;
    o.message = message;
    o.verification = verification;
    if (m_step.kind == PlanStep::Kind::DeleteImage && m_acted)
        o.removedTags = m_pointing;
    emit ended(o);
}

} // namespace gpudesk
