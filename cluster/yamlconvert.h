// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace gpudesk {

// Nesting: the API server takes objects up to 10,000 levels deep; deeper is refused here too
// (issue 33: 100,000 levels ended gpudesk). Past BlockDepth a subtree is written in flow style
// ({a: [1]}) — block indentation grows with the square of the depth (10,000 levels: 100 MB).
constexpr int MaxObjectDepth = 10000;
constexpr int BlockDepth = 64;

// A Kubernetes object (JSON, as the API server sends it) as YAML, as `kubectl get -o yaml`
// prints it: keys sorted, block style. managedFields are dropped unless asked
// for: they are noise to a person reading the object. Malformed JSON gives "" and an error.
QString objectYaml(const QByteArray &json, bool withManagedFields, QString *error);
// YAML a person edited, as the JSON object the API takes: plain scalars typed as YAML 1.2's core
// schema reads them (integers, floats, true/false, null), quoted ones kept as strings. One
// document holding a mapping; otherwise "" and an error naming the line.
QByteArray objectJson(const QString &yaml, QString *error);

} // namespace gpudesk
