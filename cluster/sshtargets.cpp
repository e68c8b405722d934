// SPDX-License-Identifier: GPL-3.0-or-later
#include "sshtargets.h"

#include "sshconfig.h"

#include <QDir>

#include <pwd.h>
#include <unistd.h>

namespace gpudesk {

namespace {

QString localUser()
{
    if (const passwd *pw = ::getpwuid(::getuid()))
        return QString::fromLocal8Bit(pw->pw_name);
    return qEnvironmentVariable("USER");
}

} // namespace

SshTarget resolveSshTarget(const SshConfig &config, const SshDefaults &defaults,
                           const QString &node, const QString &internalIP)
{
    const QString me = localUser();
    SshHostConfig hc = config.resolve(node, me);
    SshTarget t;
    t.node = node;
    if (hc.namedByPattern || internalIP.isEmpty()) {
        t.host = hc.hostName;
    } else {
        hc = config.resolve(internalIP, me);
        t.host = hc.hostName;
    }
    t.port = hc.port > 0 ? hc.port : 22;
    t.user = !hc.user.isEmpty() ? hc.user : !defaults.user.isEmpty() ? defaults.user : me;
    t.identityFiles = hc.identityFiles;
    if (!defaults.identityFile.isEmpty())
        t.identityFiles << defaults.identityFile;
    if (t.identityFiles.isEmpty()) {
        const QString ssh = QDir::homePath() + QStringLiteral("/.ssh/");
        t.identityFiles = {ssh + QStringLiteral("id_ed25519"), ssh + QStringLiteral("id_ecdsa"),
                           ssh + QStringLiteral("id_rsa")};
    }
    t.identitiesOnly = hc.identitiesOnly;
    t.proxyCommand = hc.proxyCommand;
    t.configError = hc.proxyCommandError;
    // The cluster's default jump host only where the config says nothing of how to get there.
    t.proxyJump = !hc.proxyJump.isEmpty()     ? hc.proxyJump
                  : !t.proxyCommand.isEmpty() ? QString()
                                              : defaults.proxyJump;
    t.sshConfigFile = config.path();
    t.knownHostsFile = !hc.userKnownHostsFiles.isEmpty() ? hc.userKnownHostsFiles.first()
                       : !defaults.knownHostsFile.isEmpty()
                           ? defaults.knownHostsFile
                           : QDir::homePath() + QStringLiteral("/.ssh/known_hosts");
    t.hostKeyAlias = hc.hostKeyAlias;
    if (hc.connectTimeoutSeconds > 0)
        t.connectTimeoutSeconds = hc.connectTimeoutSeconds;
    return t;
}

} // namespace gpudesk
