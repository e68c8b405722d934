// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operationplan.h"
#include "registrytypes.h"

#include <QCoreApplication>

namespace gpudesk {

// What saving a dev environment as an image starts from: its running pod, the container to
// commit, the node's runtime, where the image goes, and what that tag names now.
struct SaveImageRequest
{
    QString env; // the dev environment's name
    QString podUid, ns, pod, container, node, owner;
    QString runtime; // status.nodeInfo.containerRuntimeVersion
    QString phase;   // the pod's
    QString registry, repository, tag;
    QString currentDigest; // what the tag names now ("" when it does not exist)
    RegistryCredentials credentials;
    bool plainHttp = false;
};

// The plan of saving a dev environment as an image: one SaveImage step, its commands in full (no
// secret among them), what to weigh (a tag overwritten, the pause, what an image does not
// hold), and refusals for what cannot work (no commit on the runtime, no credentials to push
// with, a pod not running). No I/O: the caller has read the tag and found the credentials.
class SaveImagePlanner
{
    Q_DECLARE_TR_FUNCTIONS(SaveImagePlanner)

public:
    static OperationPlan plan(const SaveImageRequest &request);
    // A tag that sorts by time and says when: "20261125-2231".
    static QString defaultTag(const QDateTime &when);
};

} // namespace gpudesk
