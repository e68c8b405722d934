// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

// The test peers' registries (scripts/test-peers, GPUDESK_PEERS): their files, and a user's
// machine set up for the "main" one as docker and containers would have it.
namespace registrypeer {

// The text of GPUDESK_PEERS/registry/PATH ("main/url", "user", "password"), trimmed.
QString file(const QString &path);
// "127.0.0.1:PORT" of the main registry.
QString mainHost();
// Under `home`: docker/config.json with the main registry's password (DOCKER_CONFIG points
// there) and its CA in config/containers/certs.d/HOST (XDG_CONFIG_HOME points there). False
// with `error` when a file could not be written.
bool setUpUser(const QString &home, QString *error);
// curl's arguments for the registry at `base` (its URL): the peers' user and password, and their
// CA where it is https.
QStringList curlArgs(const QString &base);
// curl, independently of gpudesk's client: the digest `repository:reference` names in the
// registry at `base` ("" when it answers other than 200).
QString curlDigest(const QString &base, const QString &repository, const QString &reference);

// The simulated Harbor's registry (GPUDESK_PEERS/registry/harbor): "127.0.0.1:PORT".
QString harborHost();
// skopeo pushes the seed's OCI layout `layout` ("pytorch", "tensorflow", …) to `reference`
// ("alice/x:tag") in the Harbor registry as admin, through its token service. Empty, or why not.
QString harborPush(const QString &layout, const QString &reference);
// curl, as admin, through the token service: the HTTP status of `method` on
// /v2/REPOSITORY/PATH of the Harbor registry.
int harborRegistryStatus(const QString &method, const QString &repository, const QString &path);
// curl POST /sim/age?days=N to the simulated Harbor as admin: every record `days` older.
bool harborAge(int days);

} // namespace registrypeer
