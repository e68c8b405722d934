// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchscriptprobe.h"

namespace gpudesk {

void LaunchScriptProbe::probe(const Inspect &inspect, const QList<LaunchScript> &scripts,
                              QObject *receiver, Done done)
{
    QStringList paths;
    for (const LaunchScript &s : scripts)
        paths << s.nodePath;
    inspect(
        paths, false, receiver,
        [inspect, receiver, scripts, done](QList<RemotePathInfo> found, const QString &error) {
            QList<LaunchScriptFacts> facts(scripts.size());
            QStringList targets;
            QList<int> linked; // the script each target is of
            for (int i = 0; i < scripts.size(); ++i) {
                LaunchScriptFacts &f = facts[i];
                f.error = error;
                if (!error.isEmpty() || i >= found.size())
                    continue;
                f.found = found[i].found;
                f.link = found[i].type == 'l';
                f.linkTarget = found[i].linkTarget;
                f.permissions = found[i].permissions;
                if (!f.link || f.linkTarget.isEmpty())
                    continue;
                // Where the pod would find the target: through its node folder where it lies in
                // one; else what the link leads to on the node itself.
                const QString mapped =
                    LaunchScripts::nodePathOf(scripts[i].hostMounts, scripts[i].mountPaths,
                                              LaunchScripts::targetOf(scripts[i], f.linkTarget));
                targets << (mapped.isEmpty() ? scripts[i].nodePath : mapped);
                linked << i;
            }
            if (targets.isEmpty()) {
                done(facts);
                return;
            }
            inspect(targets, true, receiver,
                    [facts, linked, done](QList<RemotePathInfo> at, const QString &error) mutable {
                        for (int j = 0; j < linked.size() && error.isEmpty(); ++j) {
                            LaunchScriptFacts &f = facts[linked[j]];
                            f.targetChecked = j < at.size();
                            f.targetFound = f.targetChecked && at[j].found;
                            if (f.targetFound)
                                f.permissions = at[j].permissions;
                        }
                        done(facts);
                    });
        });
}

} // namespace gpudesk
