// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kubeconfig.h"

#include <QDateTime>
#include <QObject>
#include <QProcess>

#include <optional>

namespace gpudesk {

// What an exec credential plugin printed: a bearer token and/or a client certificate, valid
// until `expiry` (invalid QDateTime: until the server says 401).
struct ExecCredential
{
    QString token; // never logged
    QByteArray clientCertPem;
    QByteArray clientKeyPem; // never logged
    QDateTime expiry;
};

// Runs one exec credential plugin as kubectl does: the kubeconfig's args and env on top of
// gpudesk's environment, KUBERNETES_EXEC_INFO describing the request (never interactive: gpudesk
// has no terminal to give it), stdin closed. Asynchronous; one run per object.
class ExecCredentialRunner : public QObject
{
    Q_OBJECT
public:
    // `server` and `caPem` are passed to the plugin only when the config asks for cluster info.
    ExecCredentialRunner(ExecConfig config, QString server, QByteArray caPem,
                         QObject *parent = nullptr);
    ~ExecCredentialRunner() override;
    void start();
    // Parses the ExecCredential a plugin printed on stdout; `apiVersion` is what the kubeconfig
    // asked for, and the plugin must answer with the same.
    static std::optional<ExecCredential> parse(const QByteArray &stdoutBytes,
                                               const QString &apiVersion, QString *error);
    // The JSON given in KUBERNETES_EXEC_INFO.
    QByteArray execInfo() const;
    // A plugin that neither answers nor exits within this is stopped and reported.
    static constexpr int timeoutMs = 60000;
    // What a plugin may print: an ExecCredential is a few KiB (a certificate and key at most);
    // its messages to the user are read to their last lines. More is stopped and reported.
    static constexpr qint64 MaxOutputBytes = 1 << 20;
    static constexpr qint64 MaxMessageBytes = 64 << 10;

signals:
    void finished(const gpudesk::ExecCredential &credential);
    void failed(const QString &message);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    QString who() const;
    void readOutput();
    void readMessages();
    // Kills the plugin and every process of its group.
    void stop();

    ExecConfig m_config;
    QString m_server;
    QByteArray m_caPem;
    QProcess m_process;
    QByteArray m_out; // the credential: parsed, never logged
    QByteArray m_err; // the last MaxMessageBytes of what the plugin said to the user
    bool m_done = false;
};

} // namespace gpudesk
