// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace gpudesk {

// Where the containers tools (podman, skopeo, CRI-O) send an image reference's registry:
// containers-registries.conf(5), version 2. A lab that serves `registry.lab.internal` from a
// mirror, under another name or over plain HTTP says so there, and gpudesk goes where podman
// would. Read from $CONTAINERS_REGISTRIES_CONF, else the user's
// ~/.config/containers/registries.conf, else /etc/containers/registries.conf (the first that
// exists, as the tools do; drop-in directories are not read).
//
// Only what decides where gpudesk connects is taken: `[[registry]]` tables' `prefix`,
// `location`, `insecure` and `blocked`, and version 1's `[registries.insecure]` and
// `[registries.block]` lists. Mirrors are for pulls of a missing image and are not followed;
// gpudesk reads and deletes in the registry itself.
class RegistriesConf
{
public:
    struct Entry
    {
        QString prefix;   // a host ("name:port"), a host with a path, or "*.domain"
        QString location; // where it is served; the prefix when not given
        bool insecure = false;
        bool blocked = false;
        int line = 0;
    };

    // The file that applies, or "" when none exists.
    static QString path();
    // Reads path(); an unreadable or malformed file gives no entries and an error naming it.
    static RegistriesConf load();
    // The text of a file; `name` for the error messages.
    static RegistriesConf parse(const QByteArray &text, const QString &name);

    QString file() const { return m_file; }
    QString error() const { return m_error; }
    QList<Entry> entries() const { return m_entries; }

    // The entry for a registry host: the one whose prefix is the host itself, else the most
    // specific "*.domain" that covers it. Prefixes with a path (host/namespace) apply to some of
    // a host's repositories only and are not taken for the whole registry.
    const Entry *forHost(const QString &host) const;

private:
    QString m_file;
    QString m_error;
    QList<Entry> m_entries;
};

} // namespace gpudesk
