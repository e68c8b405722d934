// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "quantity.h"
#include "userspec.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

namespace gpudesk {

// The objects a gpudesk user is made of, as the API takes them: what UserPlanner creates, and
// what its repairs make again. Names and annotations are UserDriftCheck's, so that what is made
// here is what the drift check later finds in order.
class UserManifests
{
public:
    static QByteArray namespaceJson(const UserSpec &u);
    static QByteArray serviceAccountJson(const QString &ns, const QString &user);
    static QByteArray roleBindingJson(const QString &ns, const QString &user,
                                      const QString &clusterRole);
    static QByteArray quotaJson(const QString &ns, const ResourceAmounts &hard);
    static QByteArray limitRangeJson(const QString &ns, const ResourceAmounts &request,
                                     const ResourceAmounts &limit);
    static QByteArray viewBindingJson(const QString &ns, const QString &user,
                                      const QString &clusterRole);
    // A ResourceList: quantities in the API's notation, by resource name.
    static nlohmann::json resourceList(const ResourceAmounts &amounts);
    // The subjects of a user's bindings: the User (for OIDC logins) and the ServiceAccount.
    static nlohmann::json subjectsOf(const QString &ns, const QString &user);
};

} // namespace gpudesk
