// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchscripts.h"

#include <QDir>
#include <QRegularExpression>

#include <algorithm>

namespace gpudesk {

namespace {

bool isInterpreter(const QString &program)
{
    static const QRegularExpression re(QStringLiteral(
        "^(sh|bash|dash|zsh|python[0-9.]*|torchrun|accelerate|deepspeed|horovodrun|env)$"));
    return re.match(program.section(u'/', -1)).hasMatch();
}

bool under(const QString &path, const QString &folder)
{
    const QString f = folder.endsWith(u'/') ? folder.chopped(1) : folder;
    return path == f || path.startsWith(f + u'/');
}

// The script paths of one command line (its words): the program when it is a path, else the
// first absolute path an interpreter is given. `-c` hands a shell its own line.
void scriptsOfWords(QStringList words, QList<std::pair<QString, bool>> *out);

void scriptsOfLine(const QString &line, QList<std::pair<QString, bool>> *out)
{
    static const QRegularExpression separators(QStringLiteral("(;|&&|\\|\\||\\||\\n)"));
    for (const QString &segment : line.split(separators, Qt::SkipEmptyParts)) {
        QString plain = segment;
        plain.remove(u'\'').remove(u'"');
        scriptsOfWords(plain.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts),
                       out);
    }
}

void scriptsOfWords(QStringList words, QList<std::pair<QString, bool>> *out)
{
    static const QRegularExpression assignment(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    while (!words.isEmpty() &&
           (assignment.match(words.first()).hasMatch() || words.first() == QLatin1String("exec")))
        words.removeFirst();
    if (words.isEmpty())
        return;
    const QString program = words.first();
    if (!isInterpreter(program)) {
        if (program.startsWith(u'/'))
            out->append({program, true});
        return;
    }
    for (int i = 1; i < words.size(); ++i) {
        if (words[i] == QLatin1String("-c") && i + 1 < words.size() &&
            program.section(u'/', -1) != QLatin1String("env")) {
            scriptsOfLine(words.mid(i + 1).join(u' '), out);
            return;
        }
        if (program.section(u'/', -1) == QLatin1String("env") && !words[i].startsWith(u'-') &&
            !assignment.match(words[i]).hasMatch()) {
            scriptsOfWords(words.mid(i), out); // env VAR=… program …
            return;
        }
        if (words[i].startsWith(u'/')) {
            out->append({words[i], false});
            return;
        }
    }
}

} // namespace

QString LaunchScripts::nodePathOf(const QList<std::pair<QString, QString>> &hostMounts,
                                  const QString &path)
{
    // The deepest mount wins, as in the container.
    const std::pair<QString, QString> *best = nullptr;
    for (const auto &m : hostMounts)
        if (under(path, m.first) && (!best || m.first.size() > best->first.size()))
            best = &m;
    if (!best)
        return QString();
    const QString mount = best->first.endsWith(u'/') ? best->first.chopped(1) : best->first;
    return best->second + path.mid(mount.size());
}

QList<LaunchScript> LaunchScripts::of(const JobRequest &job)
{
    QList<LaunchScript> out;
    QStringList seen;
    for (const JobRole &role : job.roles) {
        QList<std::pair<QString, bool>> found;
        scriptsOfWords(role.command, &found);
        for (const auto &[path, direct] : std::as_const(found)) {
            const QString clean = QDir::cleanPath(path);
            const QString node = nodePathOf(role.hostMounts, clean);
            if (node.isEmpty() || seen.contains(clean))
                continue; // not on a node's folder: the image's own, not gpudesk's to look at
            seen << clean;
            out.append({role.name, clean, node, direct, role.hostMounts, role.mountPaths});
        }
    }
    return out;
}

QString LaunchScripts::targetOf(const LaunchScript &script, const QString &linkTarget)
{
    return QDir::cleanPath(linkTarget.startsWith(u'/')
                               ? linkTarget
                               : script.path.section(u'/', 0, -2) + u'/' + linkTarget);
}

StartReason LaunchScripts::judge(const LaunchScript &s, const LaunchScriptFacts &f)
{
    StartReason r;
    r.field = QStringLiteral("command");
    r.numbers = {{QStringLiteral("path"), s.path}, {QStringLiteral("nodePath"), s.nodePath}};
    if (!f.error.isEmpty()) {
        r.severity = StartReason::Info;
        r.code = QStringLiteral("launch-script-unchecked");
        r.message = tr("%1 was not checked on the NAS: %2").arg(s.path, f.error);
        return r;
    }
    r.severity = StartReason::Never;
    if (!f.found) {
        r.code = QStringLiteral("launch-script-missing");
        r.message = tr("%1 is not on the NAS (%2 on the nodes): the job would fail at once.")
                        .arg(s.path, s.nodePath);
        r.fix = tr("Check the path in the command, or copy the script there.");
        return r;
    }
    if (f.link) {
        const QString target = targetOf(s, f.linkTarget);
        r.numbers.insert(QStringLiteral("linkTarget"), f.linkTarget);
        const bool mounted = std::any_of(s.mountPaths.cbegin(), s.mountPaths.cend(),
                                         [&target](const QString &m) { return under(target, m); });
        if (!mounted) {
            r.code = QStringLiteral("launch-script-link-outside");
            r.message = tr("%1 is a link to %2, outside every folder the pod mounts (%3): in "
                           "the container it leads nowhere.")
                            .arg(s.path, f.linkTarget, s.mountPaths.join(QStringLiteral(", ")));
            r.fix = tr("Put the script itself at %1, or mount the folder the link points into.")
                        .arg(s.path);
            return r;
        }
        if (f.targetChecked && !f.targetFound) {
            r.code = QStringLiteral("launch-script-dangling");
            r.message = tr("%1 is a link to %2, which is not there.").arg(s.path, f.linkTarget);
            r.fix = tr("Point the link at the script, or put the script in its place.");
            return r;
        }
    }
    const bool checked = !f.link || f.targetChecked;
    if (s.direct && checked && (f.permissions & 0111) == 0) {
        r.code = QStringLiteral("launch-script-not-executable");
        r.numbers.insert(QStringLiteral("mode"),
                         QStringLiteral("%1").arg(f.permissions & 07777, 4, 8, QLatin1Char('0')));
        r.message = tr("%1 is run as a program, but it is not executable (mode %2).")
                        .arg(s.path)
                        .arg(f.permissions & 07777, 4, 8, QLatin1Char('0'));
        r.fix = tr("chmod +x it, or start it with its interpreter (bash %1).").arg(s.path);
        return r;
    }
    r.severity = StartReason::Info;
    r.code = QStringLiteral("launch-script-ok");
    r.message = f.link ? tr("%1 is on the NAS (a link to %2).").arg(s.path, f.linkTarget)
                       : tr("%1 is on the NAS.").arg(s.path);
    return r;
}

void LaunchScripts::add(StartVerdict *v, const QList<StartReason> &reasons)
{
    for (const StartReason &r : reasons) {
        if (r.severity == StartReason::Never) {
            v->kind = StartVerdict::Never;
            v->placement.clear(); // it goes nowhere as it is
        }
        v->reasons.append(r);
    }
    // The weightiest first, as the check orders them.
    std::stable_sort(
        v->reasons.begin(), v->reasons.end(),
        [](const StartReason &a, const StartReason &b) { return a.severity > b.severity; });
}

} // namespace gpudesk
