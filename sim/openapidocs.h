// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

namespace sim {

class HttpConnection;
struct HttpRequest;
class ResourceTypes;

// /openapi/v2, as kubectl reads it: Debian's kubectl 1.20 fetches it (in gnostic's protobuf
// encoding only) before `create`, `apply` and any `--dry-run=server`, to validate objects and to
// learn which kinds take dryRun. Every path the simulator serves is there with its operations,
// their x-kubernetes-group-version-kind and their dryRun parameter. Schemas are published for
// the custom resources (Volcano, Kubeflow) with their top-level fields, so kubectl names an
// unknown one; the built-in kinds have none, and kubectl validates and patches those from the
// types compiled into it, as it does against a server that publishes no schema for them.
class OpenApiDocs
{
public:
    explicit OpenApiDocs(const ResourceTypes *types);
    // False when `path` is no OpenAPI document (the caller answers 404).
    bool serve(HttpConnection *c, const HttpRequest &r, const QString &path) const;

    const nlohmann::json &v2() const { return m_v2; }
    // The same document as gnostic's openapi.v2.Document message.
    const QByteArray &v2Protobuf() const { return m_v2Protobuf; }

    // The definition name the API server gives a kind ("io.k8s.api.core.v1.Pod",
    // "sh.volcano.batch.v1alpha1.Job").
    static QString definitionName(const QString &group, const QString &version,
                                  const QString &kind);

private:
    nlohmann::json m_v2;
    QByteArray m_v2Protobuf;
};

} // namespace sim
