// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "accountobjects.h"

#include <QCoreApplication>

namespace gpudesk {

// Where a user's objects have drifted from what gpudesk made (or would make) of them: an object
// missing, a binding that no longer names the user, a quota edited by hand, a label gone.
struct UserDrift
{
    enum class Kind
    {
        MissingServiceAccount,
        MissingRoleBinding,
        RoleBindingSubjects, // gpudesk-user no longer binds the user or its ServiceAccount
        MissingQuota,
        QuotaEdited, // spec.hard differs from what gpudesk last set
        MissingLimitRange,
        MissingVcLabel,
    };
    Kind kind;
    QString object;  // "ServiceAccount alice", "RoleBinding gpudesk-user"
    QString problem; // in words, with who changed it where the server says
    QString repair;  // what the one-click repair does ("" when it needs the admin's choice)
};

class UserDriftCheck
{
    Q_DECLARE_TR_FUNCTIONS(UserDriftCheck)

public:
    // gpudesk's names for a user's objects.
    static QString roleBindingName() { return QStringLiteral("gpudesk-user"); }
    static QString quotaName() { return QStringLiteral("gpudesk-quota"); }
    static QString limitRangeName() { return QStringLiteral("gpudesk-defaults"); }
    static QString viewBindingName(const QString &user)
    {
        return QStringLiteral("gpudesk-view-") + user;
    }

    static QList<UserDrift> check(const UserObjects &objects);
    // The limits recorded in the annotation gpudesk.io/hard, or nothing when there is none.
    static std::optional<ResourceAmounts> appliedHard(const QuotaObject &quota);
    // The limits as the annotation records them: {"requests.cpu":"96",…}.
    static QString hardAnnotation(const ResourceAmounts &hard);
};

} // namespace gpudesk
