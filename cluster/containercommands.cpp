// SPDX-License-Identifier: GPL-3.0-or-later
#include "containercommands.h"

#include "nodecommands.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QRegularExpression>

namespace gpudesk::nodecmd {

namespace {

bool matches(const QString &text, const char *pattern)
{
    const QRegularExpression re(QRegularExpression::anchoredPattern(QLatin1String(pattern)));
    return re.match(text).hasMatch();
}

QByteArray quoted(const QString &word)
{
    return shellQuote(word.toUtf8());
}

// host[:port]/path[:tag]: the characters a reference may hold, never an option.
bool isReference(const QString &r)
{
    return r.size() <= 512 &&
           matches(r,
                   "[A-Za-z0-9][A-Za-z0-9.-]*(:[0-9]+)?/[a-z0-9._/-]+(:[A-Za-z0-9_][A-Za-z0-9_.-]"
                   "{0,127})?");
}

bool isDirectory(const QByteArray &d)
{
    return matches(QString::fromLatin1(d), "/tmp/gpudesk-push-[0-9a-f]{16}");
}

} // namespace

std::optional<ContainerTool> containerToolFor(const QString &runtimeVersion, QString *why)
{
    const QString scheme = runtimeVersion.section(QStringLiteral("://"), 0, 0);
    if (scheme == QLatin1String("containerd"))
        return ContainerTool{QStringLiteral("nerdctl"), "nerdctl -n k8s.io", "nerdctl"};
    if (scheme == QLatin1String("docker"))
        return ContainerTool{QStringLiteral("docker"), "docker", "docker"};
    if (scheme == QLatin1String("cri-o"))
        *why = QCoreApplication::translate(
            "gpudesk::nodecmd",
            "The node runs CRI-O, which offers no commit of a running container: save the "
            "environment's files to its home volume instead, or build an image from a "
            "Dockerfile.");
    else
        *why = QCoreApplication::translate("gpudesk::nodecmd",
                                           "The node's container runtime (%1) is not one gpudesk "
                                           "can commit a container with (containerd or Docker).")
                   .arg(runtimeVersion.isEmpty() ? QStringLiteral("unknown") : runtimeVersion);
    return std::nullopt;
}

QByteArray findContainerCommand(const ContainerTool &tool, const QString &podUid,
                                const QString &container)
{
    if (!matches(podUid, "[0-9a-f-]{1,64}") ||
        !matches(container, "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"))
        return {};
    return tool.command + " ps -q --filter " +
           quoted(QStringLiteral("label=io.kubernetes.pod.uid=") + podUid) + " --filter " +
           quoted(QStringLiteral("label=io.kubernetes.container.name=") + container);
}

QByteArray commitCommand(const ContainerTool &tool, const QString &containerId,
                         const QString &reference)
{
    if (!matches(containerId, "[0-9a-f]{12,64}") || !isReference(reference))
        return {};
    return tool.command + " commit " + quoted(containerId) + ' ' + quoted(reference);
}

QByteArray newPushDirectory()
{
    const quint64 r = QRandomGenerator::system()->generate64();
    return "/tmp/gpudesk-push-" + QByteArray::number(r, 16).rightJustified(16, '0');
}

QByteArray registryLoginCommand(const ContainerTool &tool, const QByteArray &directory,
                                const QString &username, const QString &registry)
{
    if (!isDirectory(directory) || username.isEmpty() || username.startsWith(u'-') ||
        username.size() > 256 ||
        username.contains(QRegularExpression(QStringLiteral("[\\x00-\\x1f]"))) ||
        !matches(registry, "[A-Za-z0-9][A-Za-z0-9.-]*(:[0-9]+)?"))
        return {};
    return "mkdir -m 700 " + directory + " && env DOCKER_CONFIG=" + directory + ' ' + tool.program +
           " login --username " + quoted(username) + " --password-stdin " + quoted(registry) +
           " 2>&1";
}

QByteArray pushCommand(const ContainerTool &tool, const QByteArray &directory,
                       const QString &reference)
{
    if (!isDirectory(directory) || !isReference(reference))
        return {};
    return "env DOCKER_CONFIG=" + directory + ' ' + tool.command + " push " + quoted(reference) +
           " 2>&1";
}

QByteArray removePushDirectoryCommand(const QByteArray &directory)
{
    if (!isDirectory(directory))
        return {};
    return "rm -rf " + directory;
}

} // namespace gpudesk::nodecmd
