// SPDX-License-Identifier: GPL-3.0-or-later
#include "execshell.h"

namespace sim {

using nlohmann::json;

namespace {

bool isShell(const QString &arg0)
{
    static const QStringList shells{QStringLiteral("sh"), QStringLiteral("bash"),
                                    QStringLiteral("/bin/sh"), QStringLiteral("/bin/bash"),
                                    QStringLiteral("/usr/bin/bash")};
    return shells.contains(arg0);
}

} // namespace

bool ExecShell::isInteractiveShell(const QStringList &argv)
{
    return argv.size() == 1 && isShell(argv.first());
}

ExecShell::Result ExecShell::run(const QStringList &argv) const
{
    Result r;
    if (argv.isEmpty()) {
        r.startError = QStringLiteral("you must specify at least one command for the container");
        return r;
    }
    const QString cmd = argv.first();
    const QStringList args = argv.mid(1);
    const std::string podName = m_pod["metadata"].value("name", "");
    if (isShell(cmd) && args.value(0) == QLatin1String("-c") &&
        args.value(1).startsWith(QLatin1String("command -v tensorboard"))) {
        // A client's script that starts TensorBoard: the simulated images have none.
        r.err = "tensorboard is not installed in this image\n";
        r.exitCode = 127;
        return r;
    }
    if (isShell(cmd) && args.value(0) == QLatin1String("-c"))
        return script(args.value(1));
    if (cmd == QLatin1String("hostname")) {
        r.out = QByteArray::fromStdString(podName) + '\n';
    } else if (cmd == QLatin1String("echo")) {
        r.out = args.join(u' ').toUtf8() + '\n';
    } else if (cmd == QLatin1String("true")) {
    } else if (cmd == QLatin1String("false")) {
        r.exitCode = 1;
    } else if (cmd == QLatin1String("id") && args == QStringList{QStringLiteral("-un")}) {
        r.out = "root\n";
    } else if (cmd == QLatin1String("jupyter") && args.size() >= 2 &&
               (args[0] == QLatin1String("server") || args[0] == QLatin1String("notebook")) &&
               args[1] == QLatin1String("list")) {
        r.out = jupyterList(args.contains(QStringLiteral("--jsonlist")));
        if (!args.contains(QStringLiteral("--json")) &&
            !args.contains(QStringLiteral("--jsonlist")))
            r.out = "Currently running servers:\n" + r.out;
    } else if (cmd == QLatin1String("cat") &&
               args == QStringList{QStringLiteral("/etc/hostname")}) {
        r.out = QByteArray::fromStdString(podName) + '\n';
    } else {
        // As containerd answers an exec of something that is not in the image.
        r.startError = QStringLiteral("OCI runtime exec failed: exec failed: unable to start "
                                      "container process: exec: \"%1\": executable file not "
                                      "found in $PATH: unknown")
                           .arg(cmd);
    }
    return r;
}

ExecShell::Result ExecShell::script(const QString &line) const
{
    // Words split on blanks: enough for the one-line commands clients send.
    const QStringList words = line.split(u' ', Qt::SkipEmptyParts);
    Result r;
    if (words.isEmpty())
        return r;
    if (words.first() == QLatin1String("exit")) {
        r.exitCode = words.value(1, QStringLiteral("0")).toInt();
        return r;
    }
    r = run(words);
    if (!r.startError.isEmpty()) {
        // In a shell a missing program is the shell's complaint and exit code 127.
        r.startError.clear();
        r.err = "sh: 1: " + words.first().toUtf8() + ": not found\n";
        r.exitCode = 127;
    }
    return r;
}

QByteArray ExecShell::jupyterList(bool jsonList) const
{
    if (m_jupyter.containerPort == 0 || m_jupyter.token.isEmpty())
        return jsonList ? "[]\n" : "";
    const std::string podName = m_pod["metadata"].value("name", "");
    const std::string url =
        "http://" + podName + ":" + std::to_string(m_jupyter.containerPort) + "/";
    // The fields `jupyter server list --json` prints for each server (jupyter_server 2.x).
    const json server{{"base_url", "/"},
                      {"hostname", "0.0.0.0"},
                      {"password", false},
                      {"pid", 41},
                      {"port", m_jupyter.containerPort},
                      {"root_dir", "/workspace"},
                      {"secure", false},
                      {"sock", ""},
                      {"token", m_jupyter.token.toStdString()},
                      {"url", url},
                      {"version", "2.14.2"}};
    if (jsonList)
        return QByteArray::fromStdString(json::array({server}).dump()) + '\n';
    return QByteArray::fromStdString(server.dump()) + '\n';
}

} // namespace sim
