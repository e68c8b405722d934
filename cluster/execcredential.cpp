// SPDX-License-Identifier: GPL-3.0-or-later
#include "execcredential.h"

#include <QLoggingCategory>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTimer>

#include <signal.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <utility>

Q_LOGGING_CATEGORY(lcExec, "gpudesk.exec")

using nlohmann::json;

namespace gpudesk {

ExecCredentialRunner::ExecCredentialRunner(ExecConfig config, QString server, QByteArray caPem,
                                           QObject *parent)
    : QObject(parent), m_config(std::move(config)), m_server(std::move(server)),
      m_caPem(std::move(caPem))
{
    connect(&m_process, &QProcess::finished, this, &ExecCredentialRunner::onFinished);
    connect(&m_process, &QProcess::readyReadStandardOutput, this,
            &ExecCredentialRunner::readOutput);
    connect(&m_process, &QProcess::readyReadStandardError, this,
            &ExecCredentialRunner::readMessages);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart || m_done)
            return;
        m_done = true;
        emit failed(tr("The credential plugin %1 of %2 could not be started: %3")
                        .arg(m_config.command, who(), m_process.errorString()));
    });
}

ExecCredentialRunner::~ExecCredentialRunner()
{
    // A plugin stopped at a bound (or still running) is reaped here: a QProcess destroyed while
    // its child runs warns and leaves its read buffer behind (LeakSanitizer, Qt 6.4). Killed, it
    // ends within milliseconds.
    if (m_process.state() != QProcess::NotRunning) {
        stop();
        m_process.waitForFinished(1000);
    }
}

void ExecCredentialRunner::stop()
{
    // The plugin leads a process group of its own (started with setsid): a wrapper script's
    // children (a browser helper, a token refresher) end with it (issue 33: a plugin killed at
    // its 60 s limit left its children running).
    const qint64 pid = m_process.processId();
    if (pid > 0)
        ::kill(-pid_t(pid), SIGKILL);
    m_process.kill();
}

void ExecCredentialRunner::readOutput()
{
    m_out += m_process.readAllStandardOutput();
    if (m_out.size() <= MaxOutputBytes || m_done)
        return;
    m_done = true;
    m_out = QByteArray();
    stop();
    emit failed(tr("The credential plugin %1 of %2 printed more than %3 KiB, which no credential "
                   "needs: stopped it.")
                    .arg(m_config.command, who())
                    .arg(MaxOutputBytes >> 10));
}

void ExecCredentialRunner::readMessages()
{
    m_err += m_process.readAllStandardError();
    if (m_err.size() > 2 * MaxMessageBytes)
        m_err = m_err.right(MaxMessageBytes);
}

QString ExecCredentialRunner::who() const
{
    return tr("user \"%1\" in %2").arg(m_config.user, m_config.file);
}

QByteArray ExecCredentialRunner::execInfo() const
{
    json spec{{"interactive", false}};
    if (m_config.provideClusterInfo) {
        json cluster{{"server", m_server.toStdString()}};
        if (!m_caPem.isEmpty())
            cluster["certificate-authority-data"] = m_caPem.toBase64().toStdString();
        spec["cluster"] = cluster;
    }
    const json info{{"apiVersion", m_config.apiVersion.toStdString()},
                    {"kind", "ExecCredential"},
                    {"spec", spec}};
    return QByteArray::fromStdString(info.dump());
}

void ExecCredentialRunner::start()
{
    if (m_config.interactiveMode == QLatin1String("Always")) {
        // kubectl refuses too when it has no terminal; gpudesk never has one.
        m_done = true;
        QTimer::singleShot(0, this, [this] {
            emit failed(tr("The credential plugin %1 of %2 needs an interactive terminal "
                           "(interactiveMode: Always); gpudesk cannot give it one. Run it once "
                           "in a terminal, or set interactiveMode to IfAvailable.")
                            .arg(m_config.command, who()));
        });
        return;
    }
    QString program = m_config.command;
    if (!program.contains(u'/'))
        program = QStandardPaths::findExecutable(program);
    if (program.isEmpty()) {
        m_done = true;
        QTimer::singleShot(0, this, [this] {
            QString msg = tr("The credential plugin %1 of %2 was not found on PATH.")
                              .arg(m_config.command, who());
            if (!m_config.installHint.isEmpty())
                msg += u' ' + m_config.installHint.trimmed();
            emit failed(msg);
        });
        return;
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto &[name, value] : m_config.env)
        env.insert(name, value);
    env.insert(QStringLiteral("KUBERNETES_EXEC_INFO"), QString::fromUtf8(execInfo()));
    m_process.setProcessEnvironment(env);
    m_process.setChildProcessModifier([] { ::setsid(); });
    m_process.start(program, m_config.args);
    m_process.closeWriteChannel();
    QTimer::singleShot(timeoutMs, this, [this] {
        if (m_done)
            return;
        m_done = true;
        stop();
        emit failed(tr("The credential plugin %1 of %2 gave no answer within %3 s.")
                        .arg(m_config.command, who())
                        .arg(timeoutMs / 1000));
    });
}

void ExecCredentialRunner::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_done)
        return;
    // stdout holds the secret: it is parsed, never logged. stderr is the plugin's message to
    // the user, shown as it is (its last lines).
    readOutput();
    if (m_done)
        return;
    readMessages();
    m_done = true;
    const QByteArray out = std::exchange(m_out, QByteArray());
    QStringList errLines =
        QString::fromUtf8(m_err.right(MaxMessageBytes)).trimmed().split(u'\n', Qt::SkipEmptyParts);
    if (errLines.size() > 12)
        errLines = errLines.mid(errLines.size() - 12);
    const QString err = errLines.join(u'\n');
    if (status != QProcess::NormalExit || exitCode != 0) {
        QString msg =
            status == QProcess::NormalExit
                ? tr("The credential plugin %1 of %2 failed (exit code %3).")
                      .arg(m_config.command, who())
                      .arg(exitCode)
                : tr("The credential plugin %1 of %2 crashed.").arg(m_config.command, who());
        if (!err.isEmpty())
            msg += u'\n' + err;
        emit failed(msg);
        return;
    }
    QString error;
    const auto cred = parse(out, m_config.apiVersion, &error);
    if (!cred) {
        emit failed(tr("The credential plugin %1 of %2 printed no usable credential: %3")
                        .arg(m_config.command, who(), error));
        return;
    }
    qCDebug(lcExec) << "credential from" << m_config.command << "valid until" << cred->expiry;
    emit finished(*cred);
}

std::optional<ExecCredential> ExecCredentialRunner::parse(const QByteArray &stdoutBytes,
                                                          const QString &apiVersion, QString *error)
{
    const json j = json::parse(stdoutBytes.constData(),
                               stdoutBytes.constData() + stdoutBytes.size(), nullptr, false);
    if (!j.is_object()) {
        *error = tr("its output is not JSON");
        return std::nullopt;
    }
    if (j.value("kind", json()) != "ExecCredential") {
        *error = tr("its output is not an ExecCredential");
        return std::nullopt;
    }
    const QString version = j.contains("apiVersion") && j["apiVersion"].is_string()
                                ? QString::fromStdString(j["apiVersion"].get<std::string>())
                                : QString();
    if (version != apiVersion) {
        *error =
            tr("it answered apiVersion \"%1\" to a request for \"%2\"").arg(version, apiVersion);
        return std::nullopt;
    }
    const json status = j.value("status", json());
    if (!status.is_object()) {
        *error = tr("it has no status");
        return std::nullopt;
    }
    auto text = [&](const char *key) {
        const auto it = status.find(key);
        return it != status.end() && it->is_string()
                   ? QString::fromStdString(it->get<std::string>())
                   : QString();
    };
    ExecCredential c;
    c.token = text("token");
    c.clientCertPem = text("clientCertificateData").toUtf8();
    c.clientKeyPem = text("clientKeyData").toUtf8();
    if (c.token.isEmpty() && c.clientCertPem.isEmpty()) {
        *error = tr("status has neither a token nor clientCertificateData");
        return std::nullopt;
    }
    if (c.clientCertPem.isEmpty() != c.clientKeyPem.isEmpty()) {
        *error = tr("status has only one of clientCertificateData and clientKeyData");
        return std::nullopt;
    }
    const QString expiry = text("expirationTimestamp");
    if (!expiry.isEmpty()) {
        c.expiry = QDateTime::fromString(expiry, Qt::ISODateWithMs);
        if (!c.expiry.isValid()) {
            *error = tr("expirationTimestamp \"%1\" is not an RFC 3339 time").arg(expiry);
            return std::nullopt;
        }
    }
    return c;
}

} // namespace gpudesk
