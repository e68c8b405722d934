// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nascleanup.h"
#include "operationplan.h"
#include "remotefile.h"

#include <QCoreApplication>
#include <QHash>
#include <QStringList>

namespace gpudesk {

// A folder a cleanup is about to remove, walked again right before (NasFiles::planCleanup):
// the newest time of any entry below it, how many there are, or why it could not be read whole.
struct FolderRecheck
{
    qint64 newest = 0;
    qint64 entries = 0;
    QString error;
};

// Plans for the NAS's files chosen in the Files tab: entries removed, one moved. Each path is
// checked first, as written: absolute, without `.` or `..`, strictly inside one of the roots
// (never a root itself), a move never into what it moves. Removing a folder asks for its name
// typed; what the NAS holds right then is the step's check (NasStep), and again before acting.
class NasPlanner
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::NasPlanner)
public:
    // `node`: the node that mounts the NAS the steps go through ("" when none answers).
    NasPlanner(QString context, QString server, QString node, QStringList roots);

    // Through the user's dev environment pod NAMESPACE/NAME instead of a node (NasStep execs
    // there): what a researcher without SSH to the nodes removes and moves.
    void setPod(const QString &pod) { m_pod = pod; }

    OperationPlan remove(const QList<RemoteFile> &entries) const;
    OperationPlan move(const RemoteFile &entry, const QString &toFolder) const;
    // Cleanup candidates removed, as the NAS shows them now (`now`: each path's lstat, asked
    // right before): one gone, no longer the kind the walk found, or a file changed since the
    // walk is left out, said in the plan's notes. Each step's why is the candidate's evidence.
    // A folder walked again (`below`, by path) is left out too when anything below it is newer
    // than the walk found, or it could not be read whole.
    OperationPlan cleanup(const QList<NasCandidate> &candidates, const QList<RemotePathInfo> &now,
                          qint64 nowMs, const QHash<QString, FolderRecheck> &below = {}) const;

    // The root `path` lies strictly inside ("" when none, or when the path is not plain).
    static QString rootOf(const QStringList &roots, const QString &path);
    // Whether `path` is absolute and plain: no empty, `.` or `..` component, no trailing `/`.
    static bool isPlain(const QString &path);

private:
    OperationPlan plan(const QString &action, const QString &title) const;
    PlanStep step(PlanStep::Kind kind, const RemoteFile &f, const QString &root) const;
    PlanStep removal(const RemoteFile &f, const QString &root) const;
    static void askTyped(OperationPlan &p);

    QString m_context;
    QString m_server;
    QString m_node;
    QString m_pod;
    QStringList m_roots;
    // How the steps reach the NAS, for their request lines: "sftp NODE", "exec in pod NS/NAME".
    QString via() const;
};

} // namespace gpudesk
