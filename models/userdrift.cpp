// SPDX-License-Identifier: GPL-3.0-or-later
#include "userdrift.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace gpudesk {

QString UserDriftCheck::hardAnnotation(const ResourceAmounts &hard)
{
    QJsonObject o;
    for (auto it = hard.cbegin(); it != hard.cend(); ++it)
        o.insert(it.key(), quantity::format(it.key(), it.value()));
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

std::optional<ResourceAmounts> UserDriftCheck::appliedHard(const QuotaObject &q)
{
    // The annotation is gpudesk's own short record, not a Kubernetes object: Qt's JSON suffices.
    if (q.appliedHard.isEmpty())
        return std::nullopt;
    const QJsonDocument d = QJsonDocument::fromJson(q.appliedHard.toUtf8());
    if (!d.isObject())
        return std::nullopt;
    ResourceAmounts out;
    const QJsonObject o = d.object();
    for (auto it = o.constBegin(); it != o.constEnd(); ++it)
        if (const auto v = quantity::parseMilli(it.value().toString()))
            out.insert(it.key(), *v);
    return out;
}

QList<UserDrift> UserDriftCheck::check(const UserObjects &u)
{
    QList<UserDrift> out;
    if (!u.namespaceObject)
        return out;
    const NamespaceObject &ns = *u.namespaceObject;
    const bool disabled = !ns.annotation(QStringLiteral("gpudesk.io/disabled")).isEmpty();
    if (ns.label(QStringLiteral("gpudesk.io/vc")).isEmpty())
        out << UserDrift{UserDrift::Kind::MissingVcLabel,
                         tr("label gpudesk.io/vc"),
                         tr("The namespace names no VC: tools that fill in a job's queue from it "
                            "have nothing to go by."),
                         {}};
    if (!u.serviceAccount(u.user))
        out << UserDrift{UserDrift::Kind::MissingServiceAccount,
                         tr("ServiceAccount %1").arg(u.user),
                         tr("Missing: no kubeconfig can be handed out for the user."),
                         tr("Create the ServiceAccount %1.").arg(u.user)};
    const RoleBindingInfo *rb = u.roleBinding(roleBindingName());
    if (!rb && !disabled) {
        out << UserDrift{
            UserDrift::Kind::MissingRoleBinding, tr("RoleBinding %1").arg(roleBindingName()),
            tr("Missing: the user may do nothing in their namespace."),
            tr("Bind %1 and its ServiceAccount to the ClusterRole edit in %2.").arg(u.user, u.ns)};
    } else if (rb) {
        const bool user = rb->subjects.contains(Subject{QStringLiteral("User"), u.user, {}});
        const bool sa =
            rb->subjects.contains(Subject{QStringLiteral("ServiceAccount"), u.user, u.ns});
        if (!user || !sa)
            out << UserDrift{UserDrift::Kind::RoleBindingSubjects,
                             tr("RoleBinding %1").arg(roleBindingName()),
                             !user ? tr("It no longer binds the user %1.").arg(u.user)
                                   : tr("It no longer binds the ServiceAccount %1: kubeconfigs "
                                        "handed out lose their rights.")
                                         .arg(u.user),
                             tr("Add the missing subject to %1.").arg(roleBindingName())};
    }
    const QuotaObject *quota = nullptr;
    for (const QuotaObject &q : u.quotas)
        if (q.quota.name == quotaName())
            quota = &q;
    if (!quota) {
        if (u.quotas.isEmpty())
            out << UserDrift{UserDrift::Kind::MissingQuota, tr("ResourceQuota %1").arg(quotaName()),
                             tr("Missing: nothing limits what the user may take."),
                             tr("Create the quota with gpudesk's default limits.")};
    } else if (!disabled) {
        const auto applied = appliedHard(*quota);
        if (applied && *applied != quota->quota.hard) {
            QStringList changes;
            QSet<QString> keys;
            for (auto it = applied->cbegin(); it != applied->cend(); ++it)
                keys.insert(it.key());
            for (auto it = quota->quota.hard.cbegin(); it != quota->quota.hard.cend(); ++it)
                keys.insert(it.key());
            QStringList sorted(keys.cbegin(), keys.cend());
            sorted.sort();
            for (const QString &k : std::as_const(sorted)) {
                const auto a = applied->constFind(k);
                const auto h = quota->quota.hard.constFind(k);
                const QString was = a == applied->cend() ? tr("none") : quantity::format(k, *a);
                const QString now =
                    h == quota->quota.hard.cend() ? tr("none") : quantity::format(k, *h);
                if (was != now)
                    changes << QStringLiteral("%1 %2 → %3").arg(k, was, now);
            }
            const QString what = changes.join(QStringLiteral(", "));
            out << UserDrift{
                UserDrift::Kind::QuotaEdited, tr("ResourceQuota %1").arg(quotaName()),
                quota->lastManager.isEmpty()
                    ? tr("Edited outside gpudesk: %1.").arg(what)
                    : tr("Edited outside gpudesk (by %1): %2.").arg(quota->lastManager, what),
                tr("Put back the limits gpudesk set.")};
        }
    }
    bool limitRange = false;
    for (const LimitRangeInfo &l : u.limitRanges)
        limitRange = limitRange || !l.defaultRequest.isEmpty();
    if (!limitRange && !u.quotas.isEmpty())
        out << UserDrift{UserDrift::Kind::MissingLimitRange,
                         tr("LimitRange %1").arg(limitRangeName()),
                         tr("No default requests: the quota refuses every pod that names no "
                            "CPU or memory request."),
                         tr("Create a LimitRange with default requests of 1 CPU and 4 GiB.")};
    return out;
}

} // namespace gpudesk
