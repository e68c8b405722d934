// SPDX-License-Identifier: GPL-3.0-or-later
#include "userspec.h"

#include "clusterstore.h"

#include <QRegularExpression>

namespace gpudesk {

UserSpec UserSpec::defaults()
{
    UserSpec s;
    s.quota = {{QStringLiteral("requests.nvidia.com/gpu"), 8'000},
               {QStringLiteral("requests.cpu"), 96'000},
               {QStringLiteral("requests.memory"), (960LL << 30) * 1000},
               {QStringLiteral("pods"), 50'000}};
    s.defaultRequest = {{QStringLiteral("cpu"), 1'000},
                        {QStringLiteral("memory"), (4LL << 30) * 1000}};
    s.defaultLimit = {{QStringLiteral("memory"), (16LL << 30) * 1000}};
    return s;
}

QStringList UserRules::quotaResources()
{
    return {QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("requests.cpu"),
            QStringLiteral("requests.memory"), QStringLiteral("pods"),
            QStringLiteral("requests.storage")};
}

QString UserRules::nameError(const QString &name)
{
    static const QRegularExpression label(QStringLiteral("^[a-z]([-a-z0-9]*[a-z0-9])?$"));
    // The namespace "user-NAME" must stay a DNS label of at most 63 characters.
    constexpr int maxLength = 63 - 5;
    if (name.isEmpty())
        return tr("A user needs a name.");
    if (name.size() > maxLength || !label.match(name).hasMatch())
        return tr("\"%1\" is not a valid user name: lower-case letters, digits and '-', starting "
                  "with a letter and ending with a letter or digit, at most %2 characters.")
            .arg(name)
            .arg(maxLength);
    return {};
}

QStringList UserRules::errors(const UserSpec &spec, const ClusterStore &store)
{
    QStringList out;
    if (const QString e = nameError(spec.name); !e.isEmpty())
        return {e};
    const QString ns = spec.namespaceName();
    if (store.namespaceInfo(ns))
        out << tr("The namespace %1 exists already.").arg(ns);
    for (const NamespaceInfo &n : store.users())
        if (n.user == spec.name && n.name != ns)
            out << tr("%1 is a user already (namespace %2).").arg(spec.name, n.name);
    const bool volcano = !store.queues().isEmpty();
    if (volcano && spec.vc.isEmpty())
        out << tr("Choose the VC the user's jobs run in.");
    else if (volcano && !store.queue(spec.vc))
        out << tr("The VC %1 does not exist.").arg(spec.vc);
    if (spec.clusterRole.isEmpty())
        out << tr("Choose the ClusterRole the user is bound to in their namespace.");
    for (auto it = spec.quota.cbegin(); it != spec.quota.cend(); ++it)
        if (it.value() < 0)
            out << tr("The quota for %1 cannot be negative.").arg(it.key());
    return out;
}

} // namespace gpudesk
