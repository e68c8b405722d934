// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "accountobjects.h"

#include <QByteArray>
#include <QDateTime>

namespace gpudesk {

// Decoders of the objects a user account is made of, and of the answers of the APIs that hand
// out and check credentials (TokenRequest, SubjectAccessReview). Pure functions: malformed input
// gives empty results and an error, never a crash.
class AccountDecoder
{
public:
    static std::optional<NamespaceObject> namespaceObject(const QByteArray &object);
    // Lists ("" error when it is one; else what came back instead).
    static QList<ServiceAccountInfo> serviceAccounts(const QByteArray &list, QString *error);
    static QList<RoleBindingInfo> roleBindings(const QByteArray &list, QString *error);
    static QList<QuotaObject> quotas(const QByteArray &list, QString *error);
    static QList<LimitRangeInfo> limitRanges(const QByteArray &list, QString *error);
    // Secrets of type kubernetes.io/service-account-token only.
    static QList<TokenSecretInfo> tokenSecrets(const QByteArray &list, QString *error);
    static QList<PvcInfo> pvcs(const QByteArray &list, QString *error);
    static std::optional<ServiceAccountInfo> serviceAccount(const QByteArray &object);
    // The names of a list's items (ClusterRoles for the form's picker).
    static QStringList names(const QByteArray &list, QString *error);

    struct IssuedToken
    {
        QByteArray token;  // secret: never logged, never stored
        QDateTime expires; // invalid for a token that does not expire
        // What the server granted (spec.expirationSeconds of its answer): less than asked where
        // it caps tokens (--service-account-max-token-expiration). 0: not said.
        qint64 grantedSeconds = 0;
    };
    // A TokenRequest's answer (status.token, status.expirationTimestamp, spec.expirationSeconds).
    static std::optional<IssuedToken> tokenRequest(const QByteArray &answer);
    // A kubernetes.io/service-account-token Secret's token and CA, once the token controller
    // has filled them (data.token, data["ca.crt"], base64).
    static std::optional<IssuedToken> secretToken(const QByteArray &secret, QByteArray *caPem);

    struct AccessAnswer
    {
        bool allowed = false;
        bool denied = false; // an authorizer said no outright (not merely "no opinion")
        QString reason;
        QString error; // the answer was not a review
    };
    // A SubjectAccessReview's (or SelfSubjectAccessReview's) status.
    static AccessAnswer accessReview(const QByteArray &answer);
};

} // namespace gpudesk
