// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvspec.h"

#include "clusterstore.h"
#include "quantity.h"

#include <QRegularExpression>

namespace gpudesk {

int DevEnvSpec::portOf(const QString &service)
{
    if (service == QLatin1String("jupyter"))
        return 8888;
    if (service == QLatin1String("ssh"))
        return 22;
    if (service == QLatin1String("vscode"))
        return 8080;
    if (service == QLatin1String("tensorboard"))
        return 6006;
    return 0;
}

QStringList DevEnvSpec::knownServices()
{
    return {QStringLiteral("jupyter"), QStringLiteral("ssh"), QStringLiteral("vscode"),
            QStringLiteral("tensorboard")};
}

QStringList DevEnvRules::errors(const DevEnvSpec &spec, const ClusterStore &store)
{
    QStringList out;
    // A label value and a pod name prefix: lower-case RFC 1123, room for "-home" and "-xxxxx".
    static const QRegularExpression name(QStringLiteral("^[a-z0-9]([-a-z0-9]{0,50}[a-z0-9])?$"));
    if (spec.name.isEmpty())
        out << tr("Give the environment a name.");
    else if (!name.match(spec.name).hasMatch())
        out << tr("%1 is not a valid name: lower-case letters, digits and '-', at most 52, "
                  "starting and ending with a letter or digit.")
                   .arg(spec.name);
    if (spec.ns.isEmpty())
        out << tr("Choose the namespace it runs in.");
    if (spec.image.trimmed().isEmpty())
        out << tr("Name the image to run.");
    else if (spec.image.contains(u' '))
        out << tr("An image reference has no spaces.");
    if (spec.gpus < 0 || spec.gpus > 16)
        out << tr("GPUs: from 0 to 16.");
    const auto checkQuantity = [&](const QString &what, const QString &value, bool required) {
        if (value.isEmpty()) {
            if (required)
                out << tr("%1: give an amount.").arg(what);
            return;
        }
        const auto parsed = quantity::parseMilli(value);
        if (!parsed || *parsed <= 0)
            out << tr("%1: %2 is not an amount Kubernetes reads (such as 8Gi, 500m, 4).")
                       .arg(what, value);
    };
    checkQuantity(tr("CPU"), spec.cpu, true);
    checkQuantity(tr("Memory"), spec.memory, true);
    checkQuantity(tr("Shared memory"), spec.shm, false);
    checkQuantity(tr("Home volume"), spec.homeSize, true);
    if (!spec.shm.isEmpty() && !spec.memory.isEmpty()) {
        // An in-memory emptyDir counts against the container's memory limit.
        const auto shm = quantity::parseMilli(spec.shm);
        const auto memory = quantity::parseMilli(spec.memory);
        if (shm && memory && *shm > *memory)
            out << tr("Shared memory (%1) counts against the memory limit (%2): it cannot be "
                      "larger.")
                       .arg(spec.shm, spec.memory);
    }
    for (const QString &m : spec.mounts) {
        const QString claim = m.section(u':', 0, 0);
        const QString path = m.section(u':', 1);
        if (claim.isEmpty() || !path.startsWith(u'/'))
            out << tr("Mount %1: write it as CLAIM:/path.").arg(m);
    }
    if (!spec.vc.isEmpty() && !store.queues().isEmpty() && !store.queue(spec.vc))
        out << tr("There is no VC %1.").arg(spec.vc);
    return out;
}

} // namespace gpudesk
