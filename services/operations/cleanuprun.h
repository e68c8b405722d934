// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "findings.h"
#include "nascleanup.h"
#include "operationplan.h"

#include <QObject>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>

namespace gpudesk {

class Operation;
class Services;

// `gpudesk --cleanup plan|apply`: connects as the window does, samples every node, finds what
// holds GPUs and should not, and writes the plan (plan) or runs it and writes the results
// (apply) as JSON on stdout (docs/cleanup.md). Exit codes as --report's: 0 written (apply:
// every step done or skipped because its target had changed), 1 the cluster could not be read
// or a step did not succeed, 2 the configuration or the command line is wrong.
class CleanupRun : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QStringList kubeconfigFiles;
        QString context;
        bool apply = false;
        bool yes = false;            // apply without asking
        QList<FindingClass> classes; // empty, and no NAS class: the default classes
        // The NAS's (nas-stale-file, …): never by default, they need judgement. Found in the
        // last walk (one is made when there is none), asked of the NAS again when planned.
        NasCleanupOptions nas;
        bool measureStorage = false; // walk the NAS first, even when the last walk is recent
        QStringList drainNodes;      // nodes whose drain a finding's remedy may plan
        qint64 idleForMs = 60 * 60 * 1000;
        bool ssh = true;
        QString sshConfig;
        QUrl prometheus;
    };
    // The classes a sweep acts on when none are named: those whose remedy is not a drain.
    static QList<FindingClass> defaultClasses();
    // "orphan-process,idle-gpus,nas-core-dump" → classes (the NAS's into `nas`); false with
    // `error` for an unknown name.
    static bool parseClasses(const QString &text, QList<FindingClass> *out,
                             QList<NasCandidate::Class> *nas, QString *error);
    // "90m", "2h", "1d", "3600s", "45" (minutes) → ms; false when not a duration.
    static bool parseDuration(const QString &text, qint64 *ms);

    explicit CleanupRun(Options options, QObject *parent = nullptr);
    ~CleanupRun() override;
    // Reads the kubeconfig; false (exit 2) with the reason.
    bool prepare(QString *error);
    void start();
    // Asked before applying without --yes: gets what must be typed, returns what was typed.
    void setConfirm(std::function<QString(const QString &prompt)> confirm)
    {
        m_confirm = std::move(confirm);
    }

    static constexpr int SyncLimitMs = 120000;
    static constexpr int SweepLimitMs = 30000;
    static constexpr int FindLimitMs = 60000;
    static constexpr int WalkLimitMs = 15 * 60 * 1000;

signals:
    // The JSON document (empty when none could be made), the exit code, a line for stderr.
    void finished(int exitCode, const QByteArray &json, const QString &message);
    void progress(const QString &message);

private:
    void onSynced();
    void onSampled();
    void onFound();
    void findOnNas();
    void onNasPlanned(const OperationPlan &nas);
    void onChecked();
    void onApplied();
    void fail(int code, const QString &message);
    QJsonObject document() const;

    Options m_options;
    std::unique_ptr<Services> m_services;
    Operation *m_operation = nullptr;
    OperationPlan m_plan; // what holds GPUs; the NAS's steps join it
    NasCleanupFound m_nasFound;
    bool m_nasAsked = false;
    std::function<QString(const QString &)> m_confirm;
    qint64 m_sampledSince = 0;
    bool m_sampled = false;
    bool m_done = false;
};

} // namespace gpudesk
