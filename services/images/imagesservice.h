// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "podsweep.h"
#include "sshdlook.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>

namespace gpudesk {

class ClusterStore;
class HarborReader;
class ImagesModel;
class Operation;
class OperationsService;
struct ImageLook;
struct OperationPlan;
struct RegistryEndpoint;
struct RegistryCredentials;
struct SaveImageRequest;
class RegistryClient;
class RegistriesConf;
class RegistryLogins;
class RegistryScan;
struct StoreChanges;

// The registries a user works with — those the cluster's pods pull from (read from their specs)
// and those added by hand (kept in settings) — and one of them read into ImagesModel: credentials
// as docker finds them, the registry's own CA from certs.d, every repository, tag, manifest and
// configuration, with progress and cancel; the pods that run each image joined in from the store.
// A registry read once stays in the model until it is read again (the session's cache).
class ImagesService : public QObject
{
    Q_OBJECT
public:
    ImagesService(ClusterStore *store, OperationsService *operations, QObject *parent = nullptr);
    ~ImagesService() override;

    ImagesModel *model() const { return m_model; }
    // Logins typed by the user or kept in the keychain, before docker's.
    RegistryLogins *logins() const { return m_logins; }

    // Known registries, those of running pods first; "docker.io" stands for Docker Hub.
    QStringList registries() const;
    // Those added on the Images page (kept in settings), not found in pods' images.
    QStringList addedRegistries() const { return m_added; }
    // Adds a registry ("host[:port]", or an http:// / https:// URL of it). Plain HTTP only when
    // the user wrote http:// — shown as a warning wherever the registry is.
    bool addRegistry(const QString &address, QString *error);
    // Plain HTTP: added as http://, or `insecure` in registries.conf.
    bool isPlainHttp(const QString &host) const;
    // How a registry is reached: where registries.conf sends it, plain HTTP or TLS, with the
    // CAs docker would use for where it is served.
    RegistryEndpoint endpointFor(const QString &host) const;
    // registries.conf (RegistriesConf): the file read, and why it was not used ("" when it was
    // or there is none).
    QString registriesConfFile() const;
    QString registriesConfError() const;

    // Reads the registry whole into the model (what was there is cleared first).
    void scan(const QString &host);
    void cancel();
    bool isScanning() const;
    QString current() const { return m_host; }
    // Repositories to read when the catalog is refused (a registry that lists only for admins).
    void setRepositories(const QStringList &repositories) { m_repositories = repositories; }

    // Plans on the registry read last (ImagePlanner), and their operations, acting with the
    // credentials found for it; what they change is brought into the model when they end.
    OperationPlan planDelete(const QList<int> &rows, bool allowInUse) const;
    OperationPlan planCopy(int row, const QString &to) const;
    bool inUse(const QList<int> &rows) const;
    // The registry read last is a Harbor: what its database said (null before a read).
    const HarborReader *harbor() const { return m_harbor; }
    bool isHarbor() const;
    // Harbor projects of users who left: private, with members known, none of them a user of the
    // cluster now (a user is a namespace labelled gpudesk.io/user). Empty on a plain registry.
    QStringList projectsOfUsersWhoLeft() const;
    // Harbor's garbage collection, deleting untagged artifacts first when asked.
    OperationPlan planCollectGarbage(bool deleteUntagged) const;
    // Null when no registry was read yet.
    Operation *prepare(const OperationPlan &plan);

    // What a node pulls for an image (its linux/amd64 image where it is an index), in bytes as
    // stored, asked of its registry with the credentials found for it; kept for the session.
    // `done` is called once, unless `context` is gone by then.
    using SizeDone = std::function<void(qint64 bytes, const QString &error)>;
    void imageSize(const QString &reference, QObject *context, SizeDone done);
    // The same with the registry's own answer (a tag it does not have, credentials refused):
    // what the submit check judges. A found image is kept for the session, a miss is not.
    using LookDone = std::function<void(const ImageLook &look)>;
    void lookImage(const QString &reference, QObject *context, LookDone done);
    // Whether the image has an SSH server (an MPI job's workers need one): its layers read
    // from its registry, newest first (SshdProbe). A look is kept for the session by the
    // manifest the tag names (asked each time: one HEAD), unless the registry failed to answer;
    // a look under way is joined, not started again (layers can be hundreds of MB).
    // `done` is called once, unless `context` is gone by then.
    // `extraPaths`: where else the server may be, as the workers' command names it
    // (ImageCheck::sshdPathsOf).
    using SshdDone = std::function<void(const SshdLook &look)>;
    void lookSshd(const QString &reference, const QStringList &extraPaths, QObject *context,
                  SshdDone done);
    // Over this size an image is flagged where users pick images (the admin's setting).
    qint64 hugeBytes() const { return m_hugeBytes; }

    // Saving a dev environment as an image (SaveImagePlanner): the destination tag is read
    // first (what it names now), with the credentials in `request`, or else those found for
    // its registry; `done` gets the operation to show and check, or why there is none. Called
    // once, unless `context` is gone by then.
    using SaveDone = std::function<void(Operation *operation, const QString &error)>;
    void prepareSave(const SaveImageRequest &request, QObject *context, SaveDone done);
    void setHugeBytes(qint64 bytes);

signals:
    void registriesChanged();
    // An image operation ended and the model shows its effect (the tag a copy made, say).
    void changed(const QString &repository, const QString &tag);
    void progress(const QString &text);
    // complete: every request answered; otherwise `errors` says what is missing.
    void finished(bool complete, const QStringList &errors);
    // The registry read last wanted a login it did not get (none, or a refused one): what the
    // user can give (RegistryLogins::setTyped) before reading it again.
    void loginNeeded(const QString &host, const QString &why);
    // A typed login the registry took was written to the keychain (error empty) or not.
    void loginKept(const QString &host, const QString &error);

private:
    void storeChanged(const StoreChanges &changes);
    // Now: at once, for a read the user asked for (its result shown with the pods' images);
    // else over turns of the event loop, the periodic join under churn.
    enum class Join
    {
        Now,
        InTurns
    };
    void joinPods(Join when);
    void readHarbor();
    void startScan();
    void applied(const Operation *operation);
    // How `host` is reached: plain HTTP when the user said so, its CAs from certs.d.
    void sizeOfManifest(RegistryClient *client, const QString &repository, const QString &reference,
                        bool top, std::function<void(ImageLook)> done);

    ClusterStore *m_store;
    OperationsService *m_operations;
    ImagesModel *m_model;
    RegistryLogins *m_logins;
    RegistryClient *m_client = nullptr;
    RegistryScan *m_scan = nullptr;
    HarborReader *m_harbor = nullptr;
    QDateTime m_scanStarted;
    QString m_host;
    bool m_ready = false; // credentials found and the client made for m_host
    QStringList m_repositories;
    QStringList m_fromPods;
    QStringList m_added;
    QStringList m_plain;
    std::unique_ptr<const RegistriesConf> m_conf;
    QTimer m_join;
    PodSweep m_sweep;               // the join walks the pods over turns of the event loop
    QPointer<QObject> m_lookup;     // the credential lookup under way
    QHash<QString, qint64> m_sizes; // by reference, this session
    // By manifest digest (and the extra paths looked at), this session: what will not change.
    QHash<QString, SshdLook> m_sshd;
    struct SshdWaiter
    {
        QPointer<QObject> context;
        QString reference; // as asked
        SshdDone done;
    };
    QHash<QString, QList<SshdWaiter>> m_sshdAsked; // looks under way, by reference
    qint64 m_hugeBytes;
};

} // namespace gpudesk
