// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for the files a user's machine holds and gpudesk reads: kubeconfig (YAML, two files
// merged as $KUBECONFIG merges them, every context resolved with the certificate and token files
// it names), ssh_config with an Include, and the JSON an exec credential plugin prints.
//
// Input: a first byte choosing the parser ('k', 's' or anything else for the exec credential),
// then the text; for kubeconfig and ssh_config a line "#~next~" splits it into two files (the
// second Included by `Include second` in ssh_config, or merged after the first in kubeconfig).
#include "execcredential.h"
#include "kubeconfig.h"
#include "sshconfig.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstdint>

namespace {

QString write(const QDir &dir, const QString &name, const QByteArray &text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        __builtin_trap();
    f.write(text);
    return path;
}

void kubeconfig(const QDir &dir, const QList<QByteArray> &files)
{
    QStringList paths;
    for (qsizetype i = 0; i < files.size() && i < 2; ++i)
        paths << write(dir, i == 0 ? QStringLiteral("config") : QStringLiteral("second"), files[i]);
    QString error;
    const auto config = gpudesk::KubeConfig::load(paths, &error);
    if (!config)
        return;
    for (const QString &context : config->contexts())
        config->endpoint(context, &error);
}

void sshConfig(const QDir &ssh, const QList<QByteArray> &files)
{
    write(ssh, QStringLiteral("second"), files.value(1));
    const gpudesk::SshConfig config =
        gpudesk::SshConfig::parse(files.value(0), ssh.filePath(QStringLiteral("config")));
    for (const char *host : {"node-1", "gpu-a800-01.example", "10.0.0.7", "*"})
        config.resolve(QString::fromLatin1(host), QStringLiteral("alice"));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // HOME is ours: ~ in either file, and ssh_config's relative Include, lead here.
    static QTemporaryDir home;
    static const bool once = [] {
        qputenv("HOME", home.path().toLocal8Bit());
        return QDir(home.path()).mkpath(QStringLiteral(".ssh"));
    }();
    (void)once;
    if (size == 0)
        return 0;
    const QByteArray input =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    const qsizetype cut = input.indexOf("\n#~next~\n");
    const QList<QByteArray> files =
        cut < 0 ? QList<QByteArray>{input} : QList<QByteArray>{input.left(cut), input.mid(cut + 9)};
    switch (data[0]) {
    case 'k':
        kubeconfig(QDir(home.path()), files);
        break;
    case 's':
        sshConfig(QDir(home.path() + QStringLiteral("/.ssh")), files);
        break;
    default: {
        QString error;
        for (const char *version :
             {"client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"}) {
            const auto cred =
                gpudesk::ExecCredentialRunner::parse(input, QString::fromLatin1(version), &error);
            if (cred && cred->token.isEmpty() && cred->clientCertPem.isEmpty())
                __builtin_trap(); // accepted, yet nothing to authenticate with
        }
    }
    }
    return 0;
}
