// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace gpudesk {

// What a node's SSH link is doing, and what the user can do about it.
struct SshStatus
{
    enum State
    {
        Idle,
        Connecting,
        Connected,
        Unreachable,    // refused, timed out, no route, name unknown
        HostKeyUnknown, // not in known_hosts: the user must look at the fingerprint
        HostKeyChanged, // known_hosts has another key: refused
        AuthFailed,     // every key and method was refused
        NeedsSecret,    // an encrypted key (or a password) is needed and not known
        Failed          // anything else (protocol error, channel refused)
    };
    State state = Idle;
    QString message;     // a sentence for the user, naming what was tried
    QString fingerprint; // SHA256:… of the server's key, for the host key states
    QString keyType;
    QString hostKeyBase64;   // the key itself, so that "trust once" pins exactly this key
    QString knownHostsEntry; // the line "trust always" appends
    QString knownHostsFile;
    QString secretFor;          // key file (or "password:user@host") for NeedsSecret
    bool secretRefused = false; // NeedsSecret again: the one given was wrong
    QStringList tried;          // authentication attempts, in order
    qint64 since = 0;           // ms since the epoch when this state began

    bool usable() const { return state == Connected; }
    bool needsUser() const
    {
        return state == HostKeyUnknown || state == HostKeyChanged || state == NeedsSecret ||
               state == AuthFailed;
    }
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::SshStatus)
