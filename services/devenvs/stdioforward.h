// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

#include <memory>

class QSocketNotifier;

namespace gpudesk {

class DevPodResolver;
class KubeClient;
class TunnelConnection;

// `gpudesk --stdio-forward CONTEXT/NAMESPACE/ENVIRONMENT:PORT`: stdin and stdout bridged to a
// dev environment's port, for ssh's ProxyCommand (VS Code Remote-SSH, a terminal's ssh). The
// environment is followed to the pod it runs in now. Exit 0 when either side closed in order,
// 1 when the stream broke, 2 when the target or the kubeconfig is wrong.
class StdioForward : public QObject
{
    Q_OBJECT
public:
    StdioForward(const QStringList &kubeconfigFiles, QString target, QObject *parent = nullptr);
    ~StdioForward() override;

    // CONTEXT/NAMESPACE/ENVIRONMENT:PORT, split; false with why when it is not one.
    static bool parseTarget(const QString &target, QString *context, QString *ns,
                            QString *environment, quint16 *port, QString *error);
    bool prepare(QString *error);
    void start();

signals:
    void finished(int exitCode, const QString &message);

private:
    void readStdin();

    QStringList m_files;
    QString m_target;
    QString m_context, m_ns, m_environment;
    quint16 m_port = 0;
    std::unique_ptr<KubeClient> m_client;
    DevPodResolver *m_resolver = nullptr;
    TunnelConnection *m_connection = nullptr;
    QSocketNotifier *m_stdin = nullptr;
};

} // namespace gpudesk
