// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobrequest.h"
#include "startcheck.h"

#include <QCoreApplication>

namespace gpudesk {

// A script a job's command runs from a folder the pod mounts (the NAS).
struct LaunchScript
{
    QString role;
    QString path;        // as the container sees it
    QString nodePath;    // where a node that mounts the NAS sees it
    bool direct = false; // run as a program (it must be executable), not by an interpreter
    QList<std::pair<QString, QString>> hostMounts; // its role's: container path → node path
    QStringList mountPaths;                        // every folder its pod mounts
    QStringList nasRoots; // the NAS's roots as the nodes mount them (set by the checker)
};

// What the NAS said of a launch script (LaunchScriptProbe asks it over SFTP).
struct LaunchScriptFacts
{
    QString error;      // the NAS could not be asked (then nothing else holds)
    bool found = false; // lstat of the path
    bool link = false;
    QString linkTarget; // as written in the link
    // The link's target was looked at: through the pod's node folder where it lies in one,
    // else as the node itself reads the link.
    bool targetChecked = false;
    bool targetFound = false;
    quint32 permissions = 0; // of the file run (the link's target for a link)
};

// The launch scripts of a job and the verdict's reasons about them: the AiArts case (a link
// whose target is outside every folder the pod mounts), a dangling link, a script missing, one
// run directly without its executable bit. Pure: the facts come from the probe.
class LaunchScripts
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::LaunchScripts)
public:
    // The scripts each role's command runs from a node's folder it mounts: the program itself
    // when it is such a path (direct), the script an interpreter (sh, bash, python, torchrun, …)
    // is given, and the same inside `sh -c '…'`. Each path once. With `nasRoots`, only those on
    // the NAS (a node's own folder differs from node to node), each told the roots.
    static QList<LaunchScript> of(const JobRequest &job);
    // What a role's command runs by a path, wherever it lies: each path, and whether it is run
    // as a program (else given to an interpreter). The parsing `of` and the SSH server look
    // share.
    static QList<std::pair<QString, bool>> programsOf(const JobRole &role);
    // A program that runs the script it is given (sh, bash, python, torchrun, env…; by its
    // name, wherever it lies).
    static bool isInterpreter(const QString &program);
    static QList<LaunchScript> onNas(const JobRequest &job, const QStringList &nasRoots);
    // The node's path for a container path whose deepest mount is a node's folder ("" when it
    // is under none, or under a claim or a ConfigMap).
    static QString nodePathOf(const QList<std::pair<QString, QString>> &hostMounts,
                              const QStringList &mountPaths, const QString &path);
    // The link's target as the container reads it (a relative one from the link's folder).
    static QString targetOf(const LaunchScript &script, const QString &linkTarget);
    // The link's target as the node reads it (a relative one from the link's node folder).
    static QString nodeTargetOf(const LaunchScript &script, const QString &linkTarget);
    // Where the container sees the node's `nodePath` through a folder of the node it mounts
    // (the deepest such mount not hidden by another): "" when it mounts none that holds it.
    static QString containerPathOf(const QList<std::pair<QString, QString>> &hostMounts,
                                   const QStringList &mountPaths, const QString &nodePath);
    // A link whose target the container does not see, though the node has it: the script's
    // resolved path as the container would see it ("resolved" of `reason.numbers`, where a
    // folder it mounts holds the target), and, for a link by the node's own path into the
    // script's own user's or group's folder on the NAS, that folder of the node to mount at
    // the same path ("mountNode", "mountAt"; never a system folder, never over another mount).
    // The fix says what there is. What the job doctor's "resolved-path" fix makes of it.
    static void addResolution(const LaunchScript &script, const QString &linkTarget,
                              StartReason *reason);
    static StartReason judge(const LaunchScript &script, const LaunchScriptFacts &facts);
    // Every code judge() gives, and the doctor's "launch-script-link-outside-unconfirmed" (a
    // link outside the mounts whose target the NAS did not find): what a doctor rule's "nas"
    // may name.
    static QStringList reasonCodes();
};

} // namespace gpudesk
