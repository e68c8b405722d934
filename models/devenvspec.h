// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QList>
#include <QStringList>

#include <utility>

namespace gpudesk {

class ClusterStore;

// A dev environment as its owner asks for it: what the form holds. gpudesk makes of it a pod
// labelled gpudesk.io/devenv=NAME (named NAME-xxxxx, so that a new one can start while the old
// one is still going) and a volume NAME-home that outlives it: stopping deletes the pod and
// frees its GPUs, starting makes it again from the pod's manifest kept on the volume.
struct DevEnvSpec
{
    QString name;
    QString ns;
    QString image;
    int gpus = 1;
    QString gpuModel; // nvidia.com/gpu.product to select ("" any)
    QString cpu = QStringLiteral("4");
    QString memory = QStringLiteral("32Gi");
    // /dev/shm as an in-memory emptyDir: PyTorch's DataLoader workers share batches through
    // it, and the container runtime's 64 MiB default crashes them ("bus error").
    QString shm = QStringLiteral("8Gi");
    QString homeSize = QStringLiteral("50Gi");
    QString homePath = QStringLiteral("/workspace");
    // Volumes the user already has, as "CLAIM:/mount/path" (NAS shares, group data).
    QStringList mounts;
    QString vc; // the Volcano queue ("" the namespace's)
    QList<std::pair<QString, QString>> env;
    // What the image serves, by named container port: jupyter 8888, ssh 22, vscode 8080,
    // tensorboard 6006.
    QStringList services{QStringLiteral("jupyter"), QStringLiteral("ssh")};

    static int portOf(const QString &service);
    static QStringList knownServices();
    QString homeClaim() const { return name + QStringLiteral("-home"); }
};

class DevEnvRules
{
    Q_DECLARE_TR_FUNCTIONS(DevEnvRules)

public:
    // Why the environment cannot be asked for as it is; empty when it can. The server has the
    // last word (quota, admission): the plan's dry run shows it.
    static QStringList errors(const DevEnvSpec &spec, const ClusterStore &store);
};

} // namespace gpudesk
