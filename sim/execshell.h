// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace sim {

// What a simulated container answers to exec: a small fixed set of commands a client runs in a
// dev environment (hostname, echo, sh -c "exit N", jupyter server list), answered from the pod
// and from the real peers the simulator forwards its ports to. Nothing runs on the host.
class ExecShell
{
public:
    struct Result
    {
        QByteArray out;
        QByteArray err;
        int exitCode = 0;
        // Set when the container cannot start the command at all (no such executable): the
        // kubelet's error, not an exit code.
        QString startError;
    };
    struct Jupyter
    {
        quint16 containerPort = 0; // the pod's port named "jupyter"; 0: none
        QString token;             // the real server's token; "" when none runs
    };

    ExecShell(const nlohmann::json &pod, Jupyter jupyter)
        : m_pod(pod), m_jupyter(std::move(jupyter))
    {}

    Result run(const QStringList &argv) const;
    // `sh`, `bash` without -c and with stdin: a line at a time.
    static bool isInteractiveShell(const QStringList &argv);
    // `cat` with no file: stdin back to stdout until stdin closes.
    static bool isCat(const QStringList &argv)
    {
        return argv == QStringList{QStringLiteral("cat")};
    }

private:
    Result script(const QString &line) const;
    QByteArray jupyterList(bool jsonList) const;

    nlohmann::json m_pod;
    Jupyter m_jupyter;
};

} // namespace sim
