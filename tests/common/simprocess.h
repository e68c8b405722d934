// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace gpudesk {
class Services;
}

// A gpudesk-sim of a test's own, in a temporary state directory, stopped with the object: for
// tests that change the cluster (and so cannot share the fixture's simulator).
class SimProcess
{
public:
    SimProcess();
    ~SimProcess();
    // Starts the demo scenario with `args` (e.g. --speed 0, --no-ssh) and waits until it
    // serves; false with the simulator's output in `error`.
    bool start(const QStringList &args, QString *error);
    QString dir() const { return m_dir.path(); }
    QString kubeconfig() const { return m_dir.filePath(QStringLiteral("kubeconfig")); }
    QString sshConfig() const { return m_dir.filePath(QStringLiteral("ssh_config")); }
    qint64 pid() const { return m_sim.processId(); } // to freeze it (SIGSTOP) under a client

    // One request as `context` of the simulator's kubeconfig, waited for (an event loop runs):
    // the HTTP status and body; status 0 when no answer came.
    struct Reply
    {
        int status = 0;
        QByteArray body;
        QJsonObject json() const;
    };
    Reply request(const QByteArray &verb, const QString &path, const QByteArray &body = {},
                  const QString &context = QStringLiteral("sim-admin"),
                  const QByteArray &contentType = "application/json") const;
    QJsonObject truth() const { return request("GET", QStringLiteral("/sim/truth")).json(); }

    // gpudesk's services connected to `context` of this simulator (with node telemetry over
    // SSH when `ssh`), its first sync done and applied; null if it did not come in a minute.
    // `kubeconfig`: another file than the simulator's (addReader's).
    std::unique_ptr<gpudesk::Services> connect(const QString &context, bool ssh = false,
                                               const QString &kubeconfig = QString()) const;
    // An account that may only read — a service account bound to get, list and watch on
    // everything — with SSH to the nodes like any admin's: a kubeconfig of its own (context
    // "sim-reader"), its path; "" (with the simulator's answer in `error`) when refused.
    QString addReader(QString *error) const;

private:
    QTemporaryDir m_dir;
    QProcess m_sim;
};
