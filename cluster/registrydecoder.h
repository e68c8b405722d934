// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registrytypes.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QUrl>

namespace gpudesk {

// The OCI Distribution API's documents, decoded; every function says what was wrong in words and
// never trusts a field it did not check.
class RegistryDecoder
{
    Q_DECLARE_TR_FUNCTIONS(RegistryDecoder)
public:
    // The media types gpudesk asks for, best first: what a GET or HEAD of a manifest sends in
    // Accept.
    static QByteArray manifestAccept();
    static bool isIndexType(const QString &mediaType);

    // A manifest's bytes as served; `contentType` from the answer's header (OCI manifests may
    // omit their own mediaType). `digest` is the sha256 of `body`, computed by the caller.
    static RegistryManifest manifest(const QByteArray &body, const QString &contentType,
                                     const QString &digest, QString *error);
    static RegistryImageConfig imageConfig(const QByteArray &body, QString *error);
    // `{"repositories": […]}` and `{"name": …, "tags": […]}` (tags may be null: none left).
    static QStringList catalog(const QByteArray &body, QString *error);
    static QStringList tags(const QByteArray &body, QString *error);
    // The next page from a `Link: <…>; rel="next"` header, resolved against `base`.
    static QUrl nextLink(const QByteArray &linkHeader, const QUrl &base);
    // `{"errors": [{"code", "message", "detail"}]}` in words (empty when the body is not that),
    // and the first error's code.
    static QString errors(const QByteArray &body, QString *firstCode = nullptr);
    // "sha256:" and the hex of the bytes' SHA-256.
    static QString sha256Digest(const QByteArray &bytes);
    // A digest's form as the spec allows it (algorithm:hex, sha256 / sha512 lengths).
    static bool isDigest(const QString &digest);
};

} // namespace gpudesk
