// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sshconnection.h"

namespace gpudesk {

class SshConfig;

// A cluster's own SSH settings, used where the user's SSH config says nothing.
struct SshDefaults
{
    QString user;
    QString identityFile;
    QString proxyJump;
    QString knownHostsFile; // default ~/.ssh/known_hosts
};

// Where to reach a node: its name as the SSH config knows it (a Host block other than "*"
// matches it), else its InternalIP with whatever the config says for that address.
SshTarget resolveSshTarget(const SshConfig &config, const SshDefaults &defaults,
                           const QString &node, const QString &internalIP);

} // namespace gpudesk
