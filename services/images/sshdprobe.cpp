// SPDX-License-Identifier: GPL-3.0-or-later
#include "sshdprobe.h"

#include "format.h"
#include "layerscan.h"
#include "nodeimage.h"
#include "registryclient.h"

#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtConcurrent/QtConcurrentRun>

namespace gpudesk {

const QStringList &SshdProbe::paths()
{
    return standardSshdPaths();
}

SshdProbe::SshdProbe(RegistryClient *client, QString reference, QString repository,
                     QString tagOrDigest, QStringList extraPaths, QObject *parent)
    : QObject(parent), m_client(client), m_repository(std::move(repository)),
      m_tag(std::move(tagOrDigest)), m_paths(paths())
{
    for (const QString &p : extraPaths)
        if (!m_paths.contains(p))
            m_paths << p;
    m_look.reference = std::move(reference);
}

void SshdProbe::start(Done done)
{
    m_done = std::move(done);
    readManifest(m_tag, true);
}

QStringList SshdProbe::sshInHistory(const QByteArray &configJson)
{
    static const QRegularExpression ssh(QStringLiteral("openssh-server|\\bsshd\\b|dropbear"),
                                        QRegularExpression::CaseInsensitiveOption);
    QStringList found;
    const QJsonArray history =
        QJsonDocument::fromJson(configJson).object().value(QLatin1String("history")).toArray();
    for (const QJsonValue &h : history) {
        const QString by = h.toObject().value(QLatin1String("created_by")).toString();
        if (ssh.match(by).hasMatch())
            found << by.simplified();
    }
    return found;
}

void SshdProbe::readManifest(const QString &reference, bool top)
{
    m_client->manifest(m_repository, reference, this,
                       [this, top](const RegistryManifest &m, const RegistryReply &r) {
                           if (!r.ok()) {
                               m_look.error = r.error;
                               m_look.transient = true;
                               end();
                               return;
                           }
                           if (top)
                               m_look.digest = m.digest;
                           if (!m.isIndex) {
                               m_manifest = m;
                               readConfig();
                               return;
                           }
                           const RegistryDescriptor *pick = nodeImageOf(m);
                           if (!pick || !top) {
                               m_look.error =
                                   tr("%1 names no image of a platform.").arg(m_look.reference);
                               end();
                               return;
                           }
                           readManifest(pick->digest, false);
                       });
}

void SshdProbe::readConfig()
{
    m_look.layers = int(m_manifest.layers.size());
    m_next = m_look.layers - 1;
    // The history is only needed when not every layer can be read; it is small and read first.
    m_client->blob(m_repository, m_manifest.config.digest, RegistryClient::kMaxManifestBytes, this,
                   [this](const RegistryReply &r) {
                       if (r.ok())
                           m_history = sshInHistory(r.body);
                       nextLayer();
                   });
}

struct SshdProbe::Scanned
{
    LayerScan::Hit hit = LayerScan::Hit::None;
    QString path;
    QStringList removed;
    QString error;
};

void SshdProbe::nextLayer()
{
    for (; m_next >= 0; --m_next) {
        const RegistryDescriptor &layer = m_manifest.layers[m_next];
        if (layer.size > PerLayerBytes || m_bytes + layer.size > TotalBytes) {
            ++m_skipped; // a CUDA runtime or a framework: not where an SSH server is added
            continue;
        }
        const int index = m_next;
        m_client->blob(
            m_repository, layer.digest, PerLayerBytes, this, [this, index](const RegistryReply &r) {
                if (!r.ok()) {
                    ++m_skipped;
                    m_lastError = r.error;
                    m_look.transient = true;
                    --m_next;
                    nextLayer();
                    return;
                }
                m_bytes += r.body.size();
                ++m_look.layersRead;
                // Only the paths no layer above removed are looked for.
                QStringList wanted;
                for (const QString &p : std::as_const(m_paths))
                    if (!m_removed.contains(p))
                        wanted << p;
                auto *watcher = new QFutureWatcher<Scanned>(this);
                connect(watcher, &QFutureWatcher<Scanned>::finished, this, [this, watcher, index] {
                    watcher->deleteLater();
                    scanned(index, watcher->result());
                });
                watcher->setFuture(QtConcurrent::run([body = r.body, wanted] {
                    LayerScan scan(wanted);
                    scan.feed(body);
                    scan.finish();
                    return Scanned{scan.hit(), scan.path(), scan.removed(), scan.error()};
                }));
            });
        return;
    }
    const int n = m_look.layers;
    if (m_skipped == 0) {
        m_look.verdict = SshdLook::Absent;
        m_look.evidence = m_removed.isEmpty()
                              ? tr("no SSH server (/%1) in any of its %n layer(s)", nullptr, n)
                                    .arg(m_paths.join(QStringLiteral(", /")))
                              : m_removedWhere;
    } else if (!m_history.isEmpty()) {
        m_look.verdict = SshdLook::Present;
        m_look.evidence = tr("its history installs one: %1").arg(m_history.constLast().left(160));
    } else {
        m_look.error =
            tr("%1 of its %2 layers read (%3) without an SSH server; the others are "
               "over %4 or could not be read%5, and its history names none")
                .arg(m_look.layersRead)
                .arg(n)
                .arg(format::bytes(m_bytes), format::bytes(PerLayerBytes),
                     m_lastError.isEmpty() ? QString() : QStringLiteral(" (") + m_lastError + u')');
    }
    end();
}

void SshdProbe::scanned(int index, const Scanned &s)
{
    const int n = m_look.layers;
    if (s.hit == LayerScan::Hit::Found) {
        m_look.verdict = SshdLook::Present;
        m_look.evidence = tr("/%1 in layer %2 of %3").arg(s.path).arg(index + 1).arg(n);
        end();
        return;
    }
    if (!s.error.isEmpty()) {
        ++m_skipped;
        m_lastError = s.error;
    }
    for (const QString &p : s.removed)
        if (!m_removed.contains(p)) {
            if (m_removed.isEmpty())
                m_removedWhere = tr("/%1 is removed in layer %2 of %3 (a whiteout)")
                                     .arg(p)
                                     .arg(index + 1)
                                     .arg(n);
            m_removed << p;
        }
    if (m_removed.size() == m_paths.size()) {
        // Every place a server could be is removed above what is left to read.
        m_look.verdict = SshdLook::Absent;
        m_look.evidence = m_removedWhere;
        end();
        return;
    }
    --m_next;
    nextLayer();
}

void SshdProbe::end()
{
    const Done done = std::move(m_done);
    const SshdLook look = m_look;
    deleteLater();
    if (done)
        done(look);
}

} // namespace gpudesk
