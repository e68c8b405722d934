// SPDX-License-Identifier: GPL-3.0-or-later
#include "imageplanner.h"

#include "format.h"
#include "imagesmodel.h"

#include <QRegularExpression>
#include <QSet>

namespace gpudesk {

namespace {
QString shortDigest(const QString &digest)
{
    return digest.section(u':', 1).left(12);
}

PlanStep imageStep(PlanStep::Kind kind, const QString &registry, const RegistryTag &t,
                   const QString &name)
{
    PlanStep s;
    s.kind = kind;
    s.target.kind = QStringLiteral("Image");
    s.target.name = name;
    s.image.registry = registry;
    s.image.repository = t.repository;
    s.image.digest = t.digest;
    return s;
}

QString who(const ImagesModel::Use &u)
{
    return u.user.isEmpty() ? u.pod : QStringLiteral("%1 (%2)").arg(u.pod, u.user);
}
} // namespace

ImagePlanner::ImagePlanner(const ImagesModel &model, RegistryEndpoint registry)
    : m_model(model), m_registry(std::move(registry))
{}

QString ImagePlanner::url(const QString &path) const
{
    QString base = m_registry.baseUrl().toString();
    while (base.endsWith(u'/'))
        base.chop(1);
    return base + path;
}

QString ImagePlanner::garbageCollectCommand()
{
    // Not --delete-untagged: distribution 2.x then deletes the platform manifests of tagged
    // multi-platform images (distribution#3178), breaking them.
    return QStringLiteral("registry garbage-collect /etc/docker/registry/config.yml");
}

bool ImagePlanner::isRepositoryName(const QString &name)
{
    // The distribution spec's name grammar: lower-case path components separated by '/'.
    static const QRegularExpression re(QStringLiteral(
        R"(^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*$)"));
    return name.size() <= 255 && re.match(name).hasMatch();
}

bool ImagePlanner::isTagName(const QString &tag)
{
    static const QRegularExpression re(QStringLiteral(R"(^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$)"));
    return re.match(tag).hasMatch();
}

bool ImagePlanner::inUse(const QList<int> &rows) const
{
    for (int row : rows) {
        const RegistryTag &t = m_model.tagAt(row);
        for (const QString &tag : m_model.tagsOf(t.repository, t.digest))
            if (const int r = m_model.rowOf(t.repository, tag);
                r >= 0 && !m_model.useOf(r).isEmpty())
                return true;
    }
    return false;
}

OperationPlan ImagePlanner::remove(const QList<int> &rows, bool allowInUse) const
{
    OperationPlan plan;
    plan.action = QStringLiteral("image.delete");
    plan.context = m_registry.host;
    plan.server = url(QString());
    // One step per image (repository and digest): deleting a digest takes every tag naming it.
    QList<RegistryTag> images;
    QSet<QString> seen;
    QStringList unread;
    for (int row : rows) {
        const RegistryTag &t = m_model.tagAt(row);
        if (!m_model.isRead(row)) {
            unread << t.repository + u':' + t.tag;
            continue;
        }
        if (t.digest.isEmpty() || seen.contains(t.repository + u'@' + t.digest))
            continue;
        seen.insert(t.repository + u'@' + t.digest);
        images << t;
    }
    QSet<QString> going;
    bool exact = m_model.isComplete();
    QStringList leftOut;
    for (const QString &ref : std::as_const(unread))
        leftOut << tr("%1 is seen in pods but was not read from the registry: nothing is known "
                      "to delete. Not deleted.")
                       .arg(ref);
    // Platform manifests of multi-platform images tagged in the same repository: deleting one
    // would break the image that lists it.
    QHash<QString, QString> platformOf; // repository@digest -> repository:tag of its index
    for (int r = 0; r < m_model.rowCount(); ++r) {
        const RegistryTag &t = m_model.tagAt(r);
        if (const RegistryManifest *m = m_model.manifest(t.digest); m && m->isIndex)
            for (const RegistryDescriptor &e : m->entries)
                platformOf.insert(ImageSizes::key(t.repository, e.digest),
                                  t.repository + u':' + t.tag);
    }
    for (const RegistryTag &t : std::as_const(images)) {
        if (const QString of = platformOf.value(ImageSizes::key(t.repository, t.digest));
            !of.isEmpty()) {
            leftOut << tr("%1:%2 is a platform of %3, a multi-platform image: deleting it would "
                          "break that image. Not deleted.")
                           .arg(t.repository, t.tag, of);
            continue;
        }
        const QStringList tags = m_model.tagsOf(t.repository, t.digest);
        // Harbor refuses to delete an artifact with an immutable tag (a project's rule).
        if (const int row = m_model.rowOf(t.repository, t.tag); row >= 0) {
            QStringList locked;
            if (const HarborArtifact *a = m_model.harborOf(row))
                for (const HarborTag &h : a->tags)
                    if (h.immutable)
                        locked << h.name;
            if (!locked.isEmpty()) {
                leftOut << tr("%1:%2 is immutable in Harbor (a rule of its project): Harbor "
                              "refuses to delete it. Not deleted.")
                               .arg(t.repository, locked.join(QStringLiteral(", ")));
                continue;
            }
        }
        // Who runs it now, under any of its tags.
        QList<ImagesModel::Use> uses;
        QSet<QString> pods;
        for (const QString &tag : tags)
            if (const int row = m_model.rowOf(t.repository, tag); row >= 0)
                for (const ImagesModel::Use &u : m_model.useOf(row))
                    if (!pods.contains(u.pod)) {
                        pods.insert(u.pod);
                        uses << u;
                    }
        if (!uses.isEmpty()) {
            QStringList names;
            for (const ImagesModel::Use &u : std::as_const(uses).first(qMin(5, uses.size())))
                names << who(u);
            if (uses.size() > 5)
                names << tr("and %n more", nullptr, int(uses.size()) - 5);
            const QString line = tr("%1:%2 is run by %n pod(s) now: %3.", nullptr, int(uses.size()))
                                     .arg(t.repository, t.tag, names.join(QStringLiteral(", ")));
            if (!allowInUse) {
                leftOut << line + u' ' +
                               tr("Not deleted: deleting an image in use needs your explicit "
                                  "override.");
                continue;
            }
            plan.warnings << line + u' ' +
                                 tr("They keep running, but cannot start again on another "
                                    "node, restart after their node pulls it out, or scale.");
        }

        PlanStep s = imageStep(PlanStep::Kind::DeleteImage, m_registry.host, t,
                               t.repository + u'@' + t.digest);
        s.image.tags = tags;
        s.description =
            tags.isEmpty()
                ? tr("Delete the untagged image %1@%2").arg(t.repository, shortDigest(t.digest))
                : tr("Delete %1 (%2): tags %3")
                      .arg(t.repository, shortDigest(t.digest), tags.join(QStringLiteral(", ")));
        s.why = tr("chosen on the Images page");
        s.detail = QStringLiteral("DELETE %1")
                       .arg(url(QStringLiteral("/v2/%1/manifests/%2").arg(t.repository, t.digest)));
        s.dryRun = PlanStep::DryRun::NotAsked;
        plan.steps << s;

        if (const int row = m_model.rowOf(t.repository, t.tag); row >= 0)
            exact = exact && m_model.sizeOf(row).known;
        going.insert(ImageSizes::key(t.repository, t.digest));
        // Tags the user did not pick but that go all the same.
        QStringList others;
        for (const QString &tag : tags) {
            bool picked = false;
            for (int row : rows)
                picked = picked || (m_model.tagAt(row).repository == t.repository &&
                                    m_model.tagAt(row).tag == tag);
            if (!picked)
                others << tag;
        }
        if (!others.isEmpty())
            plan.warnings << tr("%1:%2 also goes: %3 name the same image (digest %4), and a "
                                "registry deletes images, not tags.")
                                 .arg(t.repository, t.tag, others.join(QStringLiteral(", ")),
                                      shortDigest(t.digest));
        if (const RegistryManifest *m = m_model.manifest(t.digest); m && m->isIndex)
            plan.notes << tr("%1 is a multi-platform index: its %n platform manifest(s) stay, "
                             "untagged; garbage collection frees their blobs only once nothing "
                             "else uses them.",
                             nullptr, int(m->entries.size()))
                              .arg(t.repository + u'@' + shortDigest(t.digest));
    }
    if (plan.steps.isEmpty() && !leftOut.isEmpty())
        plan.refusals << leftOut;
    else
        plan.warnings << leftOut;
    plan.title =
        tr("Delete %n image(s) from %1", nullptr, int(plan.steps.size())).arg(m_registry.host);
    if (plan.steps.isEmpty() && plan.refusals.isEmpty())
        plan.refusals << tr("Nothing to delete: the selection names no image the registry "
                            "listed.");
    const qint64 unique = m_model.freedBy(going);
    if (!plan.steps.isEmpty() && unique == 0 && exact)
        plan.notes << tr("Frees nothing: every blob of it is used by other images too.");
    else if (!plan.steps.isEmpty())
        plan.notes << (exact ? tr("Frees at least %1 — not now: a registry gives space back "
                                  "only when its garbage collection runs.")
                                   .arg(format::bytes(unique))
                             : tr("Frees at most %1 (not all of the registry was read) — not "
                                  "now: a registry gives space back only when its garbage "
                                  "collection runs.")
                                   .arg(format::bytes(unique)));
    if (m_model.hasHarbor())
        plan.notes << tr("This registry is a Harbor: once the images are deleted, Tools › "
                         "Harbor garbage collection… runs its garbage collection (its dry run "
                         "first) and shows what it freed.");
    else
        plan.notes << tr("On a docker-registry (distribution), its operator runs this with the "
                         "registry stopped or read-only: %1")
                          .arg(garbageCollectCommand());
    // Deleting from a registry cannot be undone: the name of the image (or how many) is typed.
    if (plan.steps.size() == 1) {
        const ImageTarget &i = plan.steps.first().image;
        plan.typedWord = i.tags.isEmpty() ? i.repository : i.repository + u':' + i.tags.first();
    } else if (!plan.steps.isEmpty()) {
        plan.typedWord = QString::number(plan.steps.size());
    }
    return plan;
}

OperationPlan ImagePlanner::collectGarbage(const std::optional<HarborInfo> &harbor,
                                           const QList<HarborArtifact> &untagged,
                                           bool deleteUntagged) const
{
    OperationPlan plan;
    plan.action = QStringLiteral("image.gc");
    plan.context = m_registry.host;
    plan.server = url(QString());
    plan.title = deleteUntagged ? tr("Run Harbor's garbage collection on %1, deleting %n untagged "
                                     "artifact(s) first",
                                     nullptr, int(untagged.size()))
                                      .arg(m_registry.host)
                                : tr("Run Harbor's garbage collection on %1").arg(m_registry.host);
    if (!harbor) {
        plan.refusals << tr("%1 is no Harbor (or was not read yet): its operator gives space "
                            "back with the registry stopped or read-only: %2")
                             .arg(m_registry.host, garbageCollectCommand());
        return plan;
    }
    PlanStep s;
    s.kind = PlanStep::Kind::CollectGarbage;
    s.target.kind = QStringLiteral("Registry");
    s.target.name = m_registry.host;
    s.image.registry = m_registry.host;
    s.description = deleteUntagged
                        ? tr("Delete the untagged artifacts, then collect garbage in Harbor %1")
                              .arg(harbor->version)
                        : tr("Collect garbage in Harbor %1").arg(harbor->version);
    s.why = tr("chosen on the Images page");
    s.body = deleteUntagged ? QByteArrayLiteral(R"({"delete_untagged":true})")
                            : QByteArrayLiteral(R"({"delete_untagged":false})");
    s.detail = QStringLiteral("POST /api/v2.0/system/gc/schedule "
                              R"({"schedule":{"type":"Manual"},"parameters":{"dry_run":false,)"
                              R"("delete_untagged":%1}})")
                   .arg(deleteUntagged ? QStringLiteral("true") : QStringLiteral("false"));
    // Harbor's own dry run is the check: it says what the run could free.
    s.dryRun = PlanStep::DryRun::NotAsked;
    plan.notes << tr("Checking this plan runs Harbor's dry run, which deletes nothing and says "
                     "what the run could free.");
    if (deleteUntagged && !untagged.isEmpty()) {
        // An untagged artifact that a pod runs by digest is still an image someone uses.
        QStringList used;
        qint64 bytes = 0;
        QStringList names;
        for (const HarborArtifact &a : untagged) {
            bytes += a.size;
            if (names.size() < 10)
                names << a.repository + u'@' + shortDigest(a.digest);
            // By its own digest, or by one of its platforms' (a node pulls the platform's).
            for (const QString &d : QStringList{a.digest} + a.platformDigests)
                for (const ImagesModel::Use &u : m_model.useOfDigest(a.repository, d))
                    used << QStringLiteral("%1@%2 (%3)").arg(a.repository, shortDigest(d), who(u));
        }
        if (!used.isEmpty()) {
            plan.refusals << tr("Pods run untagged artifacts by digest: %1. Deleting them would "
                                "keep those pods from starting again; run the garbage "
                                "collection without deleting untagged artifacts.")
                                 .arg(used.join(QStringLiteral(", ")));
            return plan;
        }
        if (untagged.size() > names.size())
            names << tr("and %n more", nullptr, int(untagged.size() - names.size()));
        plan.warnings << tr("%n untagged artifact(s) go for good (%1, at most %2 between them): "
                            "%3.",
                            nullptr, int(untagged.size()))
                             .arg(m_registry.host, format::bytes(bytes),
                                  names.join(QStringLiteral(", ")));
        s.forceful = true; // irreversible for what it deletes: typed confirmation
        plan.typedWord = m_registry.host;
    }
    plan.steps << s;
    return plan;
}

OperationPlan ImagePlanner::copy(int row, const QString &to) const
{
    const RegistryTag &from = m_model.tagAt(row);
    QString repository = to.trimmed();
    QString tag = from.tag;
    // "name:tag", where a ':' before the last '/' belongs to a host, which is not ours to give.
    if (const int colon = int(repository.lastIndexOf(u':'));
        colon > int(repository.lastIndexOf(u'/'))) {
        tag = repository.mid(colon + 1);
        repository = repository.left(colon);
    }
    if (repository.startsWith(m_registry.host + u'/'))
        repository = repository.mid(m_registry.host.size() + 1);

    OperationPlan plan;
    plan.action = QStringLiteral("image.copy");
    plan.context = m_registry.host;
    plan.server = url(QString());
    plan.title = tr("Copy %1:%2 to %3:%4").arg(from.repository, from.tag, repository, tag);
    if (!m_model.isRead(row))
        plan.refusals << tr("%1:%2 is seen in pods but was not read from the registry: there is "
                            "nothing known to copy.")
                             .arg(from.repository, from.tag);
    if (!isRepositoryName(repository))
        plan.refusals << tr("\"%1\" is not a repository name: lower-case letters, digits and "
                            "separators (. _ -), in parts joined by /.")
                             .arg(repository);
    if (!isTagName(tag))
        plan.refusals << tr("\"%1\" is not a tag: up to 128 letters, digits, '_', '.' and '-', "
                            "not starting with '.' or '-'.")
                             .arg(tag);
    PlanStep s = imageStep(PlanStep::Kind::CopyImage, m_registry.host, from,
                           from.repository + u':' + from.tag);
    s.image.tags = {from.tag};
    s.image.toRepository = repository;
    s.image.toTag = tag;
    if (const int existing = m_model.rowOf(repository, tag); existing >= 0) {
        s.image.toDigest = m_model.tagAt(existing).digest;
        if (s.image.toDigest == from.digest)
            plan.refusals << tr("%1:%2 already names this image.").arg(repository, tag);
        else
            plan.warnings << tr("%1:%2 exists and names another image (%3): it will name this "
                                "one instead. Whoever pulls it by tag gets the new one.")
                                 .arg(repository, tag, shortDigest(s.image.toDigest));
    } else if (!m_model.isComplete()) {
        plan.notes << tr("Not all of the registry was read: if %1:%2 exists, the copy is "
                         "skipped rather than replace it.")
                          .arg(repository, tag);
    }
    s.description = tr("Copy %1:%2 (%3) to %4:%5")
                        .arg(from.repository, from.tag, shortDigest(from.digest), repository, tag);
    s.why = tr("chosen on the Images page");
    s.detail = repository == from.repository
                   ? QStringLiteral("PUT %1").arg(
                         url(QStringLiteral("/v2/%1/manifests/%2").arg(repository, tag)))
                   : QStringLiteral("POST %1 (each blob)\nPUT %2")
                         .arg(url(QStringLiteral("/v2/%1/blobs/uploads/?mount=<digest>&from=%2")
                                      .arg(repository, from.repository)),
                              url(QStringLiteral("/v2/%1/manifests/%2").arg(repository, tag)));
    plan.steps << s;
    plan.notes << tr("Nothing is uploaded: the registry links the blobs it already has. Ready "
                     "to use afterwards as %1/%2:%3.")
                      .arg(m_registry.host, repository, tag);
    return plan;
}

} // namespace gpudesk
