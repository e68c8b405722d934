// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

#include <memory>
#include <termios.h>

class QSocketNotifier;

namespace gpudesk {

class KubeClient;
class PodExec;

// `gpudesk --exec CONTEXT/NAMESPACE/ENVIRONMENT`: a shell in the pod a dev environment runs in
// now, over the API's exec with a terminal (bash, else sh) — for images without sshd. The local
// terminal is put in raw mode for the shell and given back as it was; its size follows the
// window (SIGWINCH → the resize channel). Exit status: the shell's, 1 when the stream broke,
// 2 when the target or the kubeconfig is wrong.
class ExecTerminal : public QObject
{
    Q_OBJECT
public:
    ExecTerminal(const QStringList &kubeconfigFiles, QString target, QObject *parent = nullptr);
    ~ExecTerminal() override;

    // CONTEXT/NAMESPACE/ENVIRONMENT, split; false with why when it is not one.
    static bool parseTarget(const QString &target, QString *context, QString *ns,
                            QString *environment, QString *error);
    bool prepare(QString *error);
    void start();

signals:
    void finished(int exitCode, const QString &message);

private:
    void run(const QString &pod, const QStringList &shells);
    void readStdin();
    void sendSize();
    void rawMode(bool on);
    void end(int exitCode, const QString &message);

    QStringList m_files;
    QString m_target;
    QString m_context, m_ns, m_environment;
    std::unique_ptr<KubeClient> m_client;
    PodExec *m_exec = nullptr;
    QSocketNotifier *m_stdin = nullptr;
    QSocketNotifier *m_signals = nullptr; // SIGWINCH, and those that end it
    termios m_saved{};
    bool m_raw = false;
    bool m_ended = false;
};

} // namespace gpudesk
