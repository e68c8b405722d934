// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpudesk::SpecFixes {

// The changes of a spec the job doctor's rules may offer as "Re-run with the fix" (a rule's
// "specFix", docs/doctor.md), made by SpecFix on the job's YAML: /dev/shm as a Memory emptyDir,
// the memory limit raised, an environment variable removed from every container, a launch
// script run by its resolved path (the doctor fills in the paths from what the NAS said).
inline QStringList names()
{
    return {QStringLiteral("shared-memory"), QStringLiteral("memory-limit"),
            QStringLiteral("remove-env:NAME"), QStringLiteral("resolved-path")};
}

// A launch script that is a link the container cannot follow: its path in the container, and
// the path the container sees its target at — else the node's folder of the target to mount
// where the link leads (`mountNode` at `mountAt`).
struct ResolvedPath
{
    QString path, resolved, mountNode, mountAt;
};

// The doctor's "resolved-path" fix with its paths ("" when it has neither a path nor a mount),
// as the diagnosis carries it: "resolved-path:" and a JSON array (paths may hold any character).
inline QString resolvedPath(const QString &path, const QString &resolved, const QString &mountNode,
                            const QString &mountAt)
{
    if (path.isEmpty() || (resolved.isEmpty() && (mountNode.isEmpty() || mountAt.isEmpty())))
        return QString();
    const QJsonArray args{path, resolved, mountNode, mountAt};
    return QStringLiteral("resolved-path:") +
           QString::fromUtf8(QJsonDocument(args).toJson(QJsonDocument::Compact));
}

// A folder of the image's own system (/, /usr, /etc, /opt, /home…): nothing of a node is
// mounted over it.
inline bool systemFolder(const QString &path)
{
    static const QRegularExpression re(QStringLiteral(
        "^/(bin|boot|dev|etc|home|lib[0-9a-z]*|media|mnt|opt|proc|root|run|sbin|srv|sys|tmp|usr|"
        "var)?/?$|^/(bin|boot|dev|etc|lib[0-9a-z]*|proc|run|sbin|sys|usr|var)/"));
    return re.match(path).hasMatch();
}

// A "resolved-path:…" fix's paths; nullopt for another fix, one without them, or one whose
// mount would go over a system folder or is not absolute.
inline std::optional<ResolvedPath> resolvedPathOf(const QString &fix)
{
    static const QLatin1String prefix("resolved-path:");
    if (!fix.startsWith(prefix))
        return std::nullopt;
    const QJsonArray a = QJsonDocument::fromJson(fix.mid(prefix.size()).toUtf8()).array();
    ResolvedPath r{a.at(0).toString(), a.at(1).toString(), a.at(2).toString(), a.at(3).toString()};
    const bool mount =
        r.mountNode.startsWith(u'/') && r.mountAt.startsWith(u'/') && !systemFolder(r.mountAt);
    if (!mount) {
        r.mountNode.clear();
        r.mountAt.clear();
    }
    if (!r.path.startsWith(u'/') || (!r.resolved.startsWith(u'/') && !mount))
        return std::nullopt;
    return r;
}

// The variable a "remove-env:NAME" fix removes ("" for another fix): a C identifier, as a
// container's variable names that a shell can read are.
inline QString removedVariable(const QString &fix)
{
    static const QRegularExpression re(QStringLiteral("^remove-env:([A-Za-z_][A-Za-z0-9_]*)$"));
    const QRegularExpressionMatch m = re.match(fix);
    return m.hasMatch() ? m.captured(1) : QString();
}

inline bool known(const QString &fix)
{
    return fix == QLatin1String("shared-memory") || fix == QLatin1String("memory-limit") ||
           fix == QLatin1String("resolved-path") || !removedVariable(fix).isEmpty();
}

} // namespace gpudesk::SpecFixes
