// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

namespace gpudesk {

class KubeClient;
class PodWebSocket;

// A command run in a pod's container through the API's exec over WebSocket (v5.channel.k8s.io,
// else v4): output as it comes, stdin when asked for, the exit code from the kubelet's Status.
class PodExec : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString container; // "" the pod's only (or first) container
        bool stdin = false;
        bool tty = false;
        // Whether stdoutData() keeps what came (up to 16 MiB); a stream read as it comes (a
        // file's bytes) is not kept.
        bool keepOutput = true;
    };
    PodExec(KubeClient *client, const QString &ns, const QString &pod, const QStringList &command,
            const Options &options, QObject *parent = nullptr);

    void start();
    void writeStdin(const QByteArray &data);
    // The end of stdin: v5 says so on the stream; v4 cannot, so the stream is closed and
    // finished says the exit status is not known.
    void closeStdin();
    void resize(int columns, int rows);
    void cancel();
    QString protocol() const;
    // What was given to writeStdin and has not gone out yet: a sender of much holds back while
    // this is large and goes on at stdinWritten.
    qint64 bytesToWrite() const;
    // All of stdout / stderr so far, for short commands whose whole answer is wanted.
    QByteArray stdoutData() const { return m_out; }
    QByteArray stderrData() const { return m_err; }

signals:
    void started();
    void stdinWritten();
    void output(const QByteArray &data);
    void errorOutput(const QByteArray &data);
    // exitCode -1 with `error` when it could not run or the stream broke.
    void finished(int exitCode, const QString &error);

private:
    void onMessage(const QByteArray &m);
    void end(int exitCode, const QString &error);

    PodWebSocket *m_ws;
    QByteArray m_out, m_err;
    bool m_keep = true;
    bool m_ended = false;
    bool m_sawStatus = false;
};

} // namespace gpudesk
