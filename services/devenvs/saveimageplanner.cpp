// SPDX-License-Identifier: GPL-3.0-or-later
#include "saveimageplanner.h"

#include "containercommands.h"

#include <QDateTime>

namespace gpudesk {

QString SaveImagePlanner::defaultTag(const QDateTime &when)
{
    return when.toString(QStringLiteral("yyyyMMdd-HHmm"));
}

OperationPlan SaveImagePlanner::plan(const SaveImageRequest &r)
{
    OperationPlan p;
    p.action = QStringLiteral("devenv.save-image");
    p.subject = r.ns + u'/' + r.env;
    const QString reference = r.registry + u'/' + r.repository + u':' + r.tag;
    p.title = tr("Save dev environment %1 as %2").arg(r.env, reference);

    PlanStep s;
    s.kind = PlanStep::Kind::SaveImage;
    s.target = StepTarget::existing(ApiKind::of(Resource::Pods), r.ns, r.pod, r.podUid);
    s.target.node = r.node;
    s.target.user = r.owner;
    s.image.registry = r.registry;
    s.image.toRepository = r.repository;
    s.image.toTag = r.tag;
    s.image.toDigest = r.currentDigest;
    s.image.fromContainer = r.container;
    s.image.runtime = r.runtime;
    s.dryRun = PlanStep::DryRun::NotAsked;
    s.why = tr("chosen on the Dev environments page");

    QString why;
    const auto tool = nodecmd::containerToolFor(r.runtime, &why);
    if (!tool)
        p.refusals << why;
    if (r.phase != QLatin1String("Running"))
        p.refusals << tr("The environment's pod %1 is %2: only a running container can be "
                         "saved.")
                          .arg(r.pod, r.phase.isEmpty() ? tr("gone") : r.phase);
    if (r.credentials.username.isEmpty() || r.credentials.secret.isEmpty())
        p.refusals << (r.credentials.identityToken.isEmpty()
                           ? tr("No credentials for %1: give the user and password to push "
                                "with.")
                                 .arg(r.registry)
                           : tr("The credentials found for %1 are a token, which a node's "
                                "login cannot take: give a user and password.")
                                 .arg(r.registry));
    const nodecmd::ContainerTool t =
        tool.value_or(nodecmd::ContainerTool{QStringLiteral("nerdctl"), "nerdctl", "nerdctl"});
    const QByteArray dir = "/tmp/gpudesk-push-XXXXXXXXXXXXXXXX";
    const QByteArray find = nodecmd::findContainerCommand(t, r.podUid, r.container);
    const QByteArray commit = nodecmd::commitCommand(t, QStringLiteral("0123456789ab"), reference);
    if (find.isEmpty() || commit.isEmpty())
        p.refusals << tr("%1 is not a reference a node can push to (host/repository:tag, lower "
                         "case).")
                          .arg(reference);
    s.description = tr("Commit container %1 of %2 on %3 with %4, push it as %5, and check the "
                       "tag's digest in the registry")
                        .arg(r.container, r.pod, r.node, t.name, reference);
    // The commands as they will run, the container id and the private directory aside; the
    // password goes on standard input and appears nowhere.
    // Made with the templates that will run, a placeholder for the directory's random name.
    const QByteArray sample = "/tmp/gpudesk-push-0000000000000000";
    auto shown = [&](const QByteArray &command) {
        return QString::fromUtf8(command).replace(QString::fromLatin1(sample),
                                                  QString::fromLatin1(dir));
    };
    QStringList commands{QString::fromUtf8(find),
                         QString::fromUtf8(commit).replace(QLatin1String("0123456789ab"),
                                                           QLatin1String("<container id>"))};
    if (!r.credentials.username.isEmpty())
        commands << shown(nodecmd::registryLoginCommand(t, sample, r.credentials.username,
                                                        r.registry)) +
                        tr("   (the password on standard input)");
    commands << shown(nodecmd::pushCommand(t, sample, reference))
             << shown(nodecmd::removePushDirectoryCommand(sample));
    s.detail = commands.join(u'\n');
    p.steps << s;

    if (!r.currentDigest.isEmpty())
        p.warnings << tr("%1 exists (%2): it will name the new image, and whoever pulls it "
                         "gets that from now on. Skipped if the tag moves before the push.")
                          .arg(reference, r.currentDigest);
    p.warnings << tr("The container is paused while it is committed (seconds, minutes for a "
                     "large one): running kernels and terminals wait meanwhile.");
    p.notes << tr("Only the container's own files are saved: the home volume and the NAS are "
                  "mounted, not part of the image. Keep data there, not in the image.");
    p.notes << tr("%1's credentials (%2) are used on %3 for this push only, in a directory "
                  "removed afterwards.")
                   .arg(r.registry, r.credentials.username, r.node);
    if (r.plainHttp)
        p.warnings << tr("%1 is reached over plain HTTP: the password and the image cross the "
                         "network unencrypted.")
                          .arg(r.registry);
    return p;
}

} // namespace gpudesk
