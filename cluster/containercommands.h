// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace gpudesk::nodecmd {

// Saving a running container as an image, on its node, with the node's own runtime tool. Like
// every command gpudesk sends, fixed text with each interpolated word validated, then quoted;
// an empty result means a word was refused. No secret is ever on a command line: the registry
// password goes to `login --password-stdin`, into a directory of its own that is removed after.

struct ContainerTool
{
    QString name;       // "nerdctl", "docker": for messages
    QByteArray command; // "nerdctl -n k8s.io": Kubernetes' containers are in namespace k8s.io
    QByteArray program; // "nerdctl": for login, which has no namespace
};

// The tool for a node's status.nodeInfo.containerRuntimeVersion ("containerd://1.7.12"); none,
// with `why` in words, for a runtime that offers no commit (CRI-O) or one not known.
std::optional<ContainerTool> containerToolFor(const QString &runtimeVersion, QString *why);

// The running container NAME of the pod with that uid: its id, one per line.
QByteArray findContainerCommand(const ContainerTool &tool, const QString &podUid,
                                const QString &container);
// Commits the container (paused meanwhile, as the tool does by default) as `reference`.
QByteArray commitCommand(const ContainerTool &tool, const QString &containerId,
                         const QString &reference);
// A fresh "/tmp/gpudesk-push-<16 hex digits>": made with mode 700 by the login command (which
// fails if it exists, so no one else's directory is ever used).
QByteArray newPushDirectory();
// Reads the password from standard input and keeps it in DIR/config.json only.
QByteArray registryLoginCommand(const ContainerTool &tool, const QByteArray &directory,
                                const QString &username, const QString &registry);
QByteArray pushCommand(const ContainerTool &tool, const QByteArray &directory,
                       const QString &reference);
QByteArray removePushDirectoryCommand(const QByteArray &directory);

} // namespace gpudesk::nodecmd
