// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchscripts.h"

#include "specfixes.h"

#include <QDir>
#include <QRegularExpression>

#include <algorithm>

namespace gpudesk {

bool LaunchScripts::isInterpreter(const QString &program)
{
    static const QRegularExpression re(QStringLiteral(
        "^(sh|bash|dash|zsh|python[0-9.]*|torchrun|accelerate|deepspeed|horovodrun|env)$"));
    return re.match(program.section(u'/', -1)).hasMatch();
}

namespace {

bool under(const QString &path, const QString &folder)
{
    const QString f = folder.endsWith(u'/') ? folder.chopped(1) : folder;
    return path == f || path.startsWith(f + u'/');
}

// A shell line's words as sh reads them (quotes, backslashes, `\` + newline joined), and
// whether each is known before the shell runs: a word with an expansion ($, `, a glob, ~ first) or
// a redirection is not, and is never looked up. Separators (; && || | and newlines) are words.
struct Word
{
    QString text;
    bool known = true;
    bool separator = false;
};

QList<Word> shellWords(const QString &line)
{
    QList<Word> out;
    Word w;
    bool open = false; // a word is being read
    auto end = [&] {
        if (open)
            out << w;
        w = Word{};
        open = false;
    };
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (c == u'\\' && i + 1 < line.size()) {
            if (line[i + 1] != u'\n') { // `\` + newline: the line goes on
                w.text += line[i + 1];
                open = true;
            }
            ++i;
        } else if (c == u'\'') {
            const qsizetype close = line.indexOf(u'\'', i + 1);
            w.text += line.mid(i + 1, close < 0 ? -1 : close - i - 1);
            open = true;
            i = close < 0 ? line.size() : close;
        } else if (c == u'"') {
            for (++i; i < line.size() && line[i] != u'"'; ++i) {
                if (line[i] == u'\\' && i + 1 < line.size() &&
                    QStringLiteral("\"\\$`").contains(line[i + 1]))
                    ++i;
                else if (line[i] == u'$' || line[i] == u'`')
                    w.known = false;
                w.text += line[i];
            }
            open = true;
        } else if (c == u';' || c == u'|' || c == u'&' || c == u'\n') {
            end();
            out << Word{QString(c), true, true};
        } else if (c.isSpace()) {
            end();
        } else {
            if (QStringLiteral("$`*?[<>").contains(c) || (c == u'~' && !open))
                w.known = false;
            w.text += c;
            open = true;
        }
    }
    end();
    return out;
}

void scriptsOfWords(QList<Word> words, QString *cwd, QList<std::pair<QString, bool>> *out);

// Whether a segment moves the shell somewhere this reading cannot follow: a `cd` that is not the
// segment's first word (`then cd x`, `( cd x`), a subshell or a group, pushd and popd.
bool movesUnseen(const QList<Word> &segment)
{
    for (qsizetype i = 0; i < segment.size(); ++i) {
        const QString &t = segment[i].text;
        if ((i > 0 && t == QLatin1String("cd")) || t == QLatin1String("pushd") ||
            t == QLatin1String("popd") || t.startsWith(u'(') || t.startsWith(u'{'))
            return true;
    }
    return false;
}

// `cwd`: the folder the line starts in ("" not known); a `cd` in it moves it for what follows
// only when it surely runs, and in this shell: at the start of a list (the line's start, or after
// `;`) and followed by `;`, `&&` or the line's end. One that may not run (`test -d x && cd x;`,
// `cd x || …`), runs in a subshell (`… | cd x`, `cd x &`) or sits inside a compound command
// leaves the folder unknown; so does an `||` after the folder moved (`cd x && a || b`: b may
// run where the line started).
void scriptsOfLine(const QString &line, QString cwd, QList<std::pair<QString, bool>> *out)
{
    QList<Word> segment;
    QString before;    // the separator before the segment: ";", "&&", "||", "&", "|" ("" first)
    QString separator; // and the one after it
    bool moved = false;
    const auto kindOf = [](QString s) {
        s.remove(u'\n'); // a newline ends a list as `;` does
        return s.isEmpty() ? QStringLiteral(";") : s;
    };
    const auto flush = [&] {
        const QString was = cwd;
        if (movesUnseen(segment))
            cwd.clear();
        scriptsOfWords(segment, &cwd, out);
        const QString pre = kindOf(before);
        const QString post = kindOf(separator);
        const bool sure = pre == QLatin1String(";") &&
                          (post == QLatin1String(";") || post == QLatin1String("&&"));
        if (cwd != was && !sure)
            cwd.clear();
        moved = moved || cwd != was;
        if (moved && post == QLatin1String("||"))
            cwd.clear();
        segment.clear();
        before = separator;
        separator.clear();
    };
    for (const Word &w : shellWords(line)) {
        if (w.separator) {
            separator += w.text;
            continue;
        }
        if (!separator.isEmpty())
            flush();
        segment << w;
    }
    flush();
}

// A relative path from the folder the command runs in; "" where that folder is not known.
QString fromCwd(const QString &cwd, const QString &path)
{
    if (path.startsWith(u'/'))
        return QDir::cleanPath(path);
    return cwd.isEmpty() ? QString() : QDir::cleanPath(cwd + u'/' + path);
}

bool isScriptName(const QString &word)
{
    return word.endsWith(QLatin1String(".py")) || word.endsWith(QLatin1String(".sh")) ||
           word.endsWith(QLatin1String(".bash"));
}

// One command's words: the program when it is a path, else the script an interpreter is given
// — the first word that is not an option and names a script (.py, .sh, .bash); `-m` (a module)
// ends the search. A relative path counts from `cwd` (the container's workingDir, then each
// `cd` of the line), where that is known; a shell given a bare name (`bash run.sh`) may find it
// on PATH instead, so only a name with a slash is looked up for it, as for a program. A shell's
// `-c` (alone or in a group: -lc, -ec) hands it a line of its own. What cannot be known before
// the shell runs is not looked at: better a script left unchecked than a job refused that
// would run.
void scriptsOfWords(QList<Word> words, QString *cwd, QList<std::pair<QString, bool>> *out)
{
    static const QRegularExpression assignment(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    static const QRegularExpression shellC(QStringLiteral("^-[a-z]*c[a-z]*$"));
    static const QRegularExpression shell(QStringLiteral("^(sh|bash|dash|zsh)$"));
    while (!words.isEmpty() && (assignment.match(words.first().text).hasMatch() ||
                                words.first().text == QLatin1String("exec")))
        words.removeFirst();
    if (words.isEmpty())
        return;
    if (words.first().text == QLatin1String("cd")) {
        // Where it goes, if known: `cd` alone or to "-", "$X", "~" is not; -L and -P change
        // nothing here (links are followed by the NAS either way).
        qsizetype i = 1;
        while (i < words.size() &&
               (words[i].text == QLatin1String("-L") || words[i].text == QLatin1String("-P")))
            ++i;
        const bool known = i < words.size() && words[i].known && !words[i].text.startsWith(u'-');
        *cwd = known ? fromCwd(*cwd, words[i].text) : QString();
        return;
    }
    if (!words.first().known)
        return;
    const QString program = words.first().text;
    const QString name = program.section(u'/', -1);
    if (!LaunchScripts::isInterpreter(program)) {
        // A bare name is looked up on PATH: the image's, not a file of the NAS.
        if (const QString path = program.contains(u'/') ? fromCwd(*cwd, program) : QString();
            !path.isEmpty())
            out->append({path, true});
        return;
    }
    const bool isShell = shell.match(name).hasMatch();
    for (int i = 1; i < words.size(); ++i) {
        const QString &w = words[i].text;
        if (name == QLatin1String("env")) {
            if (!w.startsWith(u'-') && !assignment.match(w).hasMatch()) {
                scriptsOfWords(words.mid(i), cwd, out); // env VAR=… program …
                return;
            }
            continue;
        }
        if (isShell && shellC.match(w).hasMatch()) {
            if (i + 1 < words.size() && words[i + 1].known)
                scriptsOfLine(words[i + 1].text, *cwd, out);
            return;
        }
        if (w == QLatin1String("-m") || w == QLatin1String("-"))
            return; // a module, or the standard input: no file to look at
        if (w.startsWith(u'-') || !isScriptName(w))
            continue; // an option, or an option's value
        if (!words[i].known || (isShell && !w.contains(u'/')))
            return;
        if (const QString path = fromCwd(*cwd, w); !path.isEmpty())
            out->append({path, false});
        return;
    }
}

} // namespace

QString LaunchScripts::nodePathOf(const QList<std::pair<QString, QString>> &hostMounts,
                                  const QStringList &mountPaths, const QString &path)
{
    // The deepest mount wins, as in the container: a claim or a ConfigMap mounted inside a
    // node's folder hides that folder's files there.
    QString deepest;
    for (const QString &m : mountPaths)
        if (under(path, m) && m.size() > deepest.size())
            deepest = m;
    for (const auto &[mount, node] : hostMounts) {
        if (!under(path, mount) || (!deepest.isEmpty() && mount.size() < deepest.size()))
            continue;
        const QString m = mount.endsWith(u'/') ? mount.chopped(1) : mount;
        return node + path.mid(m.size());
    }
    return QString();
}

QList<std::pair<QString, bool>> LaunchScripts::programsOf(const JobRole &role)
{
    QList<std::pair<QString, bool>> found;
    if (!role.commandGiven)
        return found;  // arguments to the image's own entrypoint: what runs them is not known
    QList<Word> words; // an exec-form command: each element one word, nothing expanded
    for (const QString &c : role.command)
        words << Word{c, true, false};
    // The container starts in its workingDir; without one, in the image's WORKDIR (unknown).
    QString cwd = role.workingDir.startsWith(u'/') ? QDir::cleanPath(role.workingDir) : QString();
    scriptsOfWords(words, &cwd, &found);
    return found;
}

QList<LaunchScript> LaunchScripts::of(const JobRequest &job)
{
    QList<LaunchScript> out;
    QStringList seen;
    for (const JobRole &role : job.roles) {
        for (const auto &[path, direct] : programsOf(role)) {
            const QString clean = QDir::cleanPath(path);
            const QString node = nodePathOf(role.hostMounts, role.mountPaths, clean);
            if (node.isEmpty() || seen.contains(clean))
                continue; // not on a node's folder: the image's own, not gpudesk's to look at
            seen << clean;
            out.append({role.name, clean, node, direct, role.hostMounts, role.mountPaths});
        }
    }
    return out;
}

QList<LaunchScript> LaunchScripts::onNas(const JobRequest &job, const QStringList &nasRoots)
{
    QList<LaunchScript> out;
    for (LaunchScript s : of(job)) {
        s.nasRoots = nasRoots;
        if (std::any_of(nasRoots.cbegin(), nasRoots.cend(),
                        [&s](const QString &r) { return under(s.nodePath, r); }))
            out << s;
    }
    return out;
}

namespace {

// `linkTarget` read from the folder of `link`, as the kernel reads it: ".." above the root is
// the root.
QString resolvedFrom(const QString &link, const QString &linkTarget)
{
    QString path = QDir::cleanPath(
        linkTarget.startsWith(u'/') ? linkTarget : link.section(u'/', 0, -2) + u'/' + linkTarget);
    while (path == QLatin1String("/..") || path.startsWith(QLatin1String("/../")))
        path = path.mid(3).isEmpty() ? QStringLiteral("/") : path.mid(3);
    return path;
}

// The folders a pod mounts that hold data, for the words: the service account's token and
// /dev/shm are every pod's, and no script is looked for there.
QString dataMounts(const QStringList &mountPaths)
{
    QStringList out;
    for (const QString &m : mountPaths)
        if (m != QLatin1String("/dev/shm") && !under(m, QStringLiteral("/var/run/secrets")) &&
            !under(m, QStringLiteral("/run/secrets")))
            out << m;
    return out.isEmpty() ? LaunchScripts::tr("none") : out.join(QStringLiteral(", "));
}

} // namespace

QString LaunchScripts::targetOf(const LaunchScript &script, const QString &linkTarget)
{
    return resolvedFrom(script.path, linkTarget);
}

QString LaunchScripts::nodeTargetOf(const LaunchScript &script, const QString &linkTarget)
{
    return resolvedFrom(script.nodePath, linkTarget);
}

QString LaunchScripts::containerPathOf(const QList<std::pair<QString, QString>> &hostMounts,
                                       const QStringList &mountPaths, const QString &nodePath)
{
    // The node's folder nearest the file first: its path through it is the shortest.
    QList<std::pair<QString, QString>> byDepth;
    for (const auto &[mount, node] : hostMounts)
        byDepth.append({QDir::cleanPath(mount), QDir::cleanPath(node)});
    std::stable_sort(byDepth.begin(), byDepth.end(), [](const auto &a, const auto &b) {
        return a.second.size() > b.second.size();
    });
    const QString target = QDir::cleanPath(nodePath);
    for (const auto &[mount, node] : std::as_const(byDepth)) {
        if (!under(target, node))
            continue;
        const QString path = QDir::cleanPath(mount + u'/' + target.mid(node.size()));
        // Another mount deeper in the container hides this one there.
        if (QDir::cleanPath(nodePathOf(hostMounts, mountPaths, path)) == target)
            return path;
    }
    return QString();
}

QStringList LaunchScripts::reasonCodes()
{
    return {QStringLiteral("launch-script-missing"),
            QStringLiteral("launch-script-link-outside"),
            QStringLiteral("launch-script-link-outside-unconfirmed"),
            QStringLiteral("launch-script-dangling"),
            QStringLiteral("launch-script-not-executable"),
            QStringLiteral("launch-script-ok"),
            QStringLiteral("launch-script-unchecked")};
}

void LaunchScripts::addResolution(const LaunchScript &s, const QString &linkTarget, StartReason *r)
{
    const QString nodeTarget = nodeTargetOf(s, linkTarget);
    const QString nodeFolder = nodeTarget.section(u'/', 0, -2);
    // The link names the file by the node's own path (`ln -s $PWD/tools/x start.sh`): mounting
    // that folder of the node at the same path makes the link work as written — what a command
    // that names the script by a relative path needs. Only a folder of the NAS, in the same
    // user's or group's folder as the script (never another's private folder), and never over
    // a system folder of the image or a folder another mount lies in.
    const auto areaOf = [&s](const QString &path) -> QString {
        for (const QString &root : s.nasRoots)
            if (under(path, root)) {
                const QString r = QDir::cleanPath(root);
                return r + u'/' + path.mid(r.size() + 1).section(u'/', 0, 0);
            }
        return QString();
    };
    const QString area = areaOf(s.nodePath);
    const bool hides =
        std::any_of(s.mountPaths.cbegin(), s.mountPaths.cend(),
                    [&nodeFolder](const QString &m) { return under(m, nodeFolder); });
    const bool mount = targetOf(s, linkTarget) == nodeTarget && !area.isEmpty() &&
                       areaOf(nodeTarget) == area && !hides && !SpecFixes::systemFolder(nodeFolder);
    const QString resolved = containerPathOf(s.hostMounts, s.mountPaths, nodeTarget);
    if (mount) {
        r->numbers.insert(QStringLiteral("mountNode"), nodeFolder);
        r->numbers.insert(QStringLiteral("mountAt"), nodeFolder);
    }
    if (!resolved.isEmpty())
        r->numbers.insert(QStringLiteral("resolved"), resolved);
    if (!resolved.isEmpty() && mount)
        r->fix = tr("Run the script by the path the container sees it at, %1 (where the command "
                    "names it otherwise, mount the node's %2 there, where the link leads); or "
                    "put the script itself at %3.")
                     .arg(resolved, nodeFolder, s.path);
    else if (!resolved.isEmpty())
        r->fix = tr("Run the script by the path the container sees it at, %1; or put the "
                    "script itself at %2.")
                     .arg(resolved, s.path);
    else if (mount)
        r->fix = tr("Mount the node's %1 at %2, where the link leads; or put the script itself "
                    "at %3.")
                     .arg(nodeFolder, nodeFolder, s.path);
    if (linkTarget.startsWith(u'/'))
        r->fix += u' ' + tr("A relative link (ln -sfr) works on the node and in the pod alike.");
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
    if (f.link && f.linkTarget.isEmpty()) {
        r.severity = StartReason::Info;
        r.code = QStringLiteral("launch-script-unchecked");
        r.message = tr("%1 is a link the NAS would not read: not checked.").arg(s.path);
        return r;
    }
    if (f.link) {
        const QString target = targetOf(s, f.linkTarget);
        r.numbers.insert(QStringLiteral("linkTarget"), f.linkTarget);
        const bool mounted = std::any_of(s.mountPaths.cbegin(), s.mountPaths.cend(),
                                         [&target](const QString &m) { return under(target, m); });
        if (!mounted) {
            // Certain where the target is on the NAS, or where the link works on the node (the
            // AiArts case: tried on the node, it fails in the pod); elsewhere the image may
            // have the file.
            const bool onNas =
                std::any_of(s.nasRoots.cbegin(), s.nasRoots.cend(),
                            [&target](const QString &m) { return under(target, m); });
            if (onNas && f.targetChecked && !f.targetFound) {
                // A link by the node's path to a file the node does not have either.
                r.code = QStringLiteral("launch-script-dangling");
                r.message = tr("%1 is a link to %2, which is not there.").arg(s.path, f.linkTarget);
                r.fix = tr("Point the link at the script, or put the script in its place.");
                return r;
            }
            const bool certain = onNas || (f.targetChecked && f.targetFound);
            r.severity = certain ? StartReason::Never : StartReason::Warning;
            r.code = QStringLiteral("launch-script-link-outside");
            r.message =
                certain ? tr("%1 is a link to %2, outside every folder the pod mounts (%3): in "
                             "the container it leads nowhere.")
                              .arg(s.path, f.linkTarget, dataMounts(s.mountPaths))
                        : tr("%1 is a link to %2, outside every folder the pod mounts (%3), and "
                             "not on the node either: unless the image has it, the job fails.")
                              .arg(s.path, f.linkTarget, dataMounts(s.mountPaths));
            r.fix = tr("Put the script itself at %1, or mount the folder the link points into.")
                        .arg(s.path);
            if (f.targetChecked && f.targetFound)
                addResolution(s, f.linkTarget, &r);
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
                        .arg(s.path, r.numbers.value(QStringLiteral("mode")).toString());
        r.fix = tr("chmod +x it, or start it with its interpreter (%1 %2).")
                    .arg(s.path.endsWith(QLatin1String(".py")) ? QStringLiteral("python")
                                                               : QStringLiteral("bash"),
                         s.path);
        return r;
    }
    r.severity = StartReason::Info;
    r.code = QStringLiteral("launch-script-ok");
    r.message = f.link ? tr("%1 is on the NAS (a link to %2).").arg(s.path, f.linkTarget)
                       : tr("%1 is on the NAS.").arg(s.path);
    return r;
}

} // namespace gpudesk
