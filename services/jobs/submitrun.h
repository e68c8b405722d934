// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobrequest.h"
#include "startcheck.h"

#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include <memory>

namespace gpudesk {

class JobChecker;
class Operation;
class Services;

// `gpudesk --submit FILE --check` and `--submit FILE --yes` (docs/submit.md): reads a job (YAML
// or JSON; "-" is stdin), connects as the window does, and says whether it will start — the
// submit check from the cluster as it is, and the server's own dry run of the create (name
// taken, webhook, quota, RBAC) — as JSON on stdout. With --yes it is then created through the
// operations framework (audited, an Event on the job) unless it could never start, and what the
// cluster made of it in the next seconds is added. Exit codes: 0 starts (or created), 1 waits,
// 2 never starts or refused, 3 the cluster could not be read.
class SubmitRun : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QStringList kubeconfigFiles;
        QString context;
        QString file;
        bool create = false;
        // Launch scripts looked at on the NAS over SSH (--ssh-config): the nodes' SSH config.
        bool ssh = false;
        QString sshConfig;
    };
    static constexpr qint64 MaxFileBytes = 4 << 20;
    static constexpr int SyncLimitMs = 120000;
    // After creating: how long to watch what the cluster makes of it.
    static constexpr int SettleMs = 10000;
    // A hostNetwork job waits this long at most for the nodes' interfaces (one SSH sweep).
    static constexpr int SweepLimitMs = 30000;

    explicit SubmitRun(Options options, QObject *parent = nullptr);
    ~SubmitRun() override;
    // Reads the file and the kubeconfig; false with why (exit 2).
    bool prepare(QString *error);
    void start();

signals:
    void finished(int exitCode, const QByteArray &json, const QString &message);
    void progress(const QString &message);

private:
    void onSynced();
    void check();
    void onVerdict(const StartVerdict &verdict);
    void onChecked();
    // Whether the server's dry-run refusal is one the check already says (then noted on it).
    bool confirmsOwn(const QString &serverSays);
    // The job as the API server will hold its pods: the namespace's LimitRange defaults in.
    JobRequest held() const;
    void onCreated();
    void settle();
    void finish(int exitCode, const QString &message);

    Options m_options;
    std::unique_ptr<Services> m_services;
    QByteArray m_body; // the job as JSON, as it will be posted
    JobRequest m_job;
    JobChecker *m_checker = nullptr;
    StartVerdict m_verdict;
    Operation *m_operation = nullptr;
    QJsonObject m_result;
    bool m_started = false;
    bool m_done = false;
};

} // namespace gpudesk
