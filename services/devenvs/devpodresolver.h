// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

#include <functional>
#include <memory>

namespace gpudesk {

class KubeClient;

// Which pod a dev environment runs in now: the running pod labelled gpudesk.io/devenv=NAME in
// the namespace (the newest, when a replacement overlaps its predecessor), else the pod called
// NAME. Asked again whenever a stream into the old pod fails, so tunnels follow a recreated pod.
class DevPodResolver : public QObject
{
    Q_OBJECT
public:
    DevPodResolver(KubeClient *client, QString ns, QString environment, QObject *parent = nullptr);

    // `done(pod, why, retryable)`: the pod's name, or "" with why there is none to reach and
    // whether asking again later may find one (not when the answer was Forbidden).
    using Done = std::function<void(const QString &pod, const QString &why, bool retryable)>;
    void resolve(QObject *context, Done done);
    QString ns() const { return m_ns; }
    // A client of `context` in these kubeconfig files, as the headless modes that reach an
    // environment (--stdio-forward, --exec) make theirs; null, with why, when there is none.
    static std::unique_ptr<KubeClient> clientFor(const QStringList &kubeconfigFiles,
                                                 const QString &context, QString *error);
    QString environment() const { return m_environment; }

private:
    KubeClient *m_client;
    QString m_ns;
    QString m_environment;
};

} // namespace gpudesk
