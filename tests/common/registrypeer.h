// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

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

} // namespace registrypeer
