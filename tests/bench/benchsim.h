// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QProcess>
#include <QStringList>

// A frozen demo gpudesk-sim (the one beside the benchmark) on the state directory `dir`, `extra`
// arguments added; true once it says it is ready (minutes in a sanitizer build).
inline bool startBenchSim(QProcess &sim, const QString &dir, const QStringList &extra = {})
{
    sim.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    sim.start(QCoreApplication::applicationDirPath() + QStringLiteral("/gpudesk-sim"),
              QStringList{QStringLiteral("--state-dir"), dir, QStringLiteral("--speed"),
                          QStringLiteral("0")} +
                  extra);
    QByteArray out;
    while (!out.contains("ready") && sim.waitForReadyRead(600000))
        out += sim.readAllStandardOutput();
    return out.contains("ready");
}
