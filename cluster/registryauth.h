// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registrytypes.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QUrl>

namespace gpudesk {

// One challenge of a `WWW-Authenticate` header (RFC 7235): its scheme, lower case, and its
// parameters (names lower case, values unquoted).
struct RegistryChallenge
{
    QString scheme;
    QHash<QString, QString> params;
};

class RegistryAuth
{
public:
    // Every challenge of the header, in order; tolerant of the forms registries send (quoted and
    // bare values, several challenges in one header, commas inside quotes).
    static QList<RegistryChallenge> parseChallenges(const QByteArray &header);
    // The token endpoint's URL for a bearer challenge and a scope (`repository:a/b:pull`); an
    // empty URL when the realm is not an http(s) URL.
    static QUrl tokenUrl(const RegistryChallenge &bearer, const QStringList &scopes);
    // `{"token": …}` or `{"access_token": …}` and its lifetime in seconds (60 when not said, as
    // the spec's default).
    static QByteArray tokenFromAnswer(const QByteArray &json, int *expiresInSeconds);
};

} // namespace gpudesk
