// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apihelpers.h"
#include "authorizer.h"

namespace sim {

// The authorization.k8s.io reviews: SelfSubjectAccessReview and SelfSubjectRulesReview (for
// the caller), SubjectAccessReview and LocalSubjectAccessReview (for the user and groups the
// spec names — what an admin asks before handing an account out). Each answers with the
// request's object and a status, as the API server does; none is stored.
class AccessReviews
{
public:
    explicit AccessReviews(const Authorizer *authz) : m_authz(authz) {}
    void review(HttpConnection *c, const HttpRequest &r, const ApiRoute &route,
                const UserInfo &caller) const;

private:
    const Authorizer *m_authz;
};

} // namespace sim
