// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registrytypes.h"
#include "sshdlook.h"

#include <QObject>
#include <QStringList>

#include <functional>

namespace gpudesk {

class RegistryClient;

// Whether one image has an SSH server, asked of its registry with `client` (its credentials
// set): the manifest a GPU node pulls (linux/amd64 of an index), then its layers from the newest
// down, each scanned for sshd (LayerScan, on a worker thread: a layer is tens of MB of gzip)
// until one adds a server not removed above it (present); a whiteout above removes that path
// for the layers below, and with every path removed, or every layer read, it has none. A layer
// over PerLayerBytes, or past TotalBytes in all, is not read: then the image's history says it
// where it can ("apt-get install openssh-server"), else the look is Unknown with what was read.
// Deletes itself once `done` has been called.
class SshdProbe : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 PerLayerBytes = 64 << 20;
    static constexpr qint64 TotalBytes = 256 << 20;
    static const QStringList &paths(); // where an SSH server lives in an image

    using Done = std::function<void(const SshdLook &)>;
    // `extraPaths`: more places looked at, as the workers' command names them
    // ("opt/openssh/sbin/sshd", no leading slash).
    SshdProbe(RegistryClient *client, QString reference, QString repository, QString tagOrDigest,
              QStringList extraPaths, QObject *parent);
    void start(Done done);

    // The commands of an image's history that install or run an SSH server; pure.
    static QStringList sshInHistory(const QByteArray &configJson);

private:
    void readManifest(const QString &reference, bool top);
    void readConfig();
    void nextLayer();
    struct Scanned;
    void scanned(int index, const Scanned &s);
    void end();

    RegistryClient *m_client;
    QString m_repository;
    QString m_tag;
    QStringList m_paths; // paths() and the extra ones
    Done m_done;
    SshdLook m_look;
    RegistryManifest m_manifest;
    QStringList m_history; // the commands naming an SSH server
    int m_next = -1;       // the layer read next, counting down
    qint64 m_bytes = 0;    // read so far
    int m_skipped = 0;     // layers too big to read
    QString m_lastError;   // a layer that could not be read
    QStringList m_removed; // paths a whiteout above removed, with where
    QString m_removedWhere;
};

} // namespace gpudesk
