// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "harbortypes.h"
#include "registrytypes.h"

#include <QNetworkAccessManager>
#include <QObject>
#include <QSslConfiguration>
#include <QUrl>

#include <functional>
#include <optional>

namespace gpudesk {

// Harbor's v2.0 REST API in front of one registry: what Harbor's database knows and the
// Distribution API does not (projects and quotas, push and pull times, immutable tags), and its
// garbage collection. Basic auth with the registry's credentials, TLS verified against the system's
// CAs and the registry's own, answers read with a bound and a deadline, lists followed page by
// page (page_size 100, Link rel="next" on the same server only).
class HarborClient : public QObject
{
    Q_OBJECT
public:
    HarborClient(const QUrl &apiBase, const RegistryEndpoint &registry,
                 const RegistryCredentials &credentials, QObject *parent = nullptr);
    const QUrl &apiBase() const { return m_base; }

    // Where a registry's Harbor API may answer: its own origin, then the origin of the token
    // service its challenge named (Harbor's core issues its registry's tokens).
    static QList<QUrl> candidates(const RegistryEndpoint &registry, const QUrl &tokenRealm);

    using InfoDone = std::function<void(const std::optional<HarborInfo> &, const QString &error)>;
    using ProjectsDone = std::function<void(const QList<HarborProject> &, const QString &error)>;
    using ArtifactsDone = std::function<void(const QList<HarborArtifact> &, const QString &error)>;
    using Done = std::function<void(const QString &error)>;
    using GcStarted = std::function<void(int id, const QString &error)>;
    using GcRunDone = std::function<void(const HarborGcRun &, const QString &error)>;
    using LogDone = std::function<void(const QString &log, const QString &error)>;

    void systemInfo(QObject *context, InfoDone done);
    // Every project the credentials see, each with its quota.
    void projects(QObject *context, ProjectsDone done);
    using NamesDone = std::function<void(const QStringList &, const QString &error)>;
    // The repositories of a project ("project/name"), every page.
    void repositories(const QString &project, QObject *context, NamesDone done);
    // Every artifact of a repository ("project/name"), with tags and their immutability.
    void artifacts(const QString &repository, QObject *context, ArtifactsDone done);
    // Deletes an artifact and every tag of it; an immutable tag refuses (412), said in words.
    void deleteArtifact(const QString &repository, const QString &digest, QObject *context,
                        Done done);
    // A manual garbage-collection run (system administrators only).
    void startGc(bool dryRun, bool deleteUntagged, QObject *context, GcStarted done);
    void gcRun(int id, QObject *context, GcRunDone done);
    void gcLog(int id, QObject *context, LogDone done);

    static constexpr qint64 kMaxAnswerBytes = 16 << 20;
    static constexpr int kTimeoutMs = 30000;
    static constexpr int kMaxPages = 2000; // of 100: 200,000 artifacts in one repository

private:
    struct Answer
    {
        int status = 0;
        QByteArray body;
        QUrl next;
        QString location;
        QString error; // in words, "" when 2xx
    };
    using AnswerDone = std::function<void(const Answer &)>;
    void send(const QByteArray &verb, const QUrl &url, const QByteArray &body, QObject *context,
              AnswerDone done);
    void pages(const QUrl &url, QObject *context, QList<QByteArray> bodies,
               std::function<void(const QList<QByteArray> &, const QString &)> done);
    QUrl url(const QString &path, const QList<QPair<QString, QString>> &query = {}) const;
    static QString artifactsPath(const QString &repository);

    QUrl m_base;
    QString m_registryHost;
    RegistryCredentials m_credentials;
    QNetworkAccessManager m_net;
    QSslConfiguration m_tls;
};

} // namespace gpudesk
