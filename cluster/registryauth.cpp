// SPDX-License-Identifier: GPL-3.0-or-later
#include "registryauth.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QUrlQuery>

namespace gpudesk {

QList<RegistryChallenge> RegistryAuth::parseChallenges(const QByteArray &header)
{
    // A small scanner: token68 forms are not used by registries, so a challenge is a scheme
    // followed by comma-separated name=value pairs; a bare token after a comma starts the next.
    QList<RegistryChallenge> out;
    const QString h = QString::fromLatin1(header);
    int i = 0;
    const int n = int(h.size());
    auto skipSpace = [&] {
        while (i < n && (h[i] == u' ' || h[i] == u'\t' || h[i] == u','))
            ++i;
    };
    auto token = [&] {
        const int start = i;
        while (i < n && h[i] != u' ' && h[i] != u'\t' && h[i] != u',' && h[i] != u'=')
            ++i;
        return h.mid(start, i - start);
    };
    while (true) {
        skipSpace();
        if (i >= n)
            break;
        const QString word = token();
        if (word.isEmpty()) {
            ++i;
            continue;
        }
        // `name=` belongs to the current challenge; a word without `=` is a new scheme.
        int j = i;
        while (j < n && (h[j] == u' ' || h[j] == u'\t'))
            ++j;
        if (j < n && h[j] == u'=' && !out.isEmpty()) {
            i = j + 1;
            while (i < n && (h[i] == u' ' || h[i] == u'\t'))
                ++i;
            QString value;
            if (i < n && h[i] == u'"') {
                ++i;
                while (i < n && h[i] != u'"') {
                    if (h[i] == u'\\' && i + 1 < n)
                        ++i;
                    value += h[i++];
                }
                ++i; // the closing quote
            } else {
                const int start = i;
                while (i < n && h[i] != u',' && h[i] != u' ')
                    ++i;
                value = h.mid(start, i - start);
            }
            out.last().params.insert(word.toLower(), value);
            continue;
        }
        out.append(RegistryChallenge{word.toLower(), {}});
    }
    return out;
}

QUrl RegistryAuth::tokenUrl(const RegistryChallenge &bearer, const QStringList &scopes)
{
    QUrl url(bearer.params.value(QStringLiteral("realm")));
    if (!url.isValid() ||
        (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")))
        return {};
    QUrlQuery q(url);
    const QString service = bearer.params.value(QStringLiteral("service"));
    if (!service.isEmpty())
        q.addQueryItem(QStringLiteral("service"),
                       QString::fromLatin1(QUrl::toPercentEncoding(service)));
    for (const QString &s : scopes)
        q.addQueryItem(QStringLiteral("scope"), QString::fromLatin1(QUrl::toPercentEncoding(s)));
    url.setQuery(q);
    return url;
}

QByteArray RegistryAuth::tokenFromAnswer(const QByteArray &json, int *expiresInSeconds)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    QString token = o.value(QLatin1String("token")).toString();
    if (token.isEmpty())
        token = o.value(QLatin1String("access_token")).toString();
    const int expires = o.value(QLatin1String("expires_in")).toInt();
    // The spec's minimum lifetime is 60 s; a shorter or missing one is taken as 60.
    *expiresInSeconds = expires >= 60 ? expires : 60;
    return token.toLatin1();
}

} // namespace gpudesk
