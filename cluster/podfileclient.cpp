// SPDX-License-Identifier: GPL-3.0-or-later
#include "podfileclient.h"

#include "podexec.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QSet>
#include <QThread>
#include <QTimer>

#include <algorithm>

namespace gpudesk {

namespace {

// What an upload keeps queued for the socket: the file is read no faster than it goes out.
constexpr qint64 InFlight = 1 << 20;
// One stdin message: the kubelet's own read size.
constexpr qint64 Chunk = 32 * 1024;

// "%T@": seconds, a point, then nanoseconds (and a tenth digit): milliseconds.
// A time before 1970 (an unpacked archive's) is negative: "-1.5" is -1500 ms.
std::optional<qint64> msOf(const QByteArray &t)
{
    const bool negative = t.startsWith('-');
    const QByteArray u = negative ? t.mid(1) : t;
    const qsizetype dot = u.indexOf('.');
    bool ok = false, fracOk = true;
    const qint64 secs = u.left(dot < 0 ? u.size() : dot).toLongLong(&ok);
    const QByteArray frac =
        dot < 0 ? QByteArray("000") : QByteArray(u.mid(dot + 1) + "000").left(3);
    const qint64 ms = secs * 1000 + frac.toInt(&fracOk);
    if (!ok || !fracOk || secs < 0)
        return std::nullopt;
    return negative ? -ms : ms;
}

bool sortedFirst(const RemoteFile &a, const RemoteFile &b)
{
    if ((a.type == 'd') != (b.type == 'd'))
        return a.type == 'd';
    return a.name < b.name;
}

QString joined(const QString &dir, const QString &name)
{
    return dir.endsWith(u'/') ? QString(dir + name) : QString(dir + u'/' + name);
}

} // namespace

PodFileClient::PodFileClient(KubeClient *client, const QString &ns, const QString &pod,
                             const QString &container, const QList<Mount> &mounts,
                             const QStringList &mountPoints)
    : m_client(client), m_ns(ns), m_pod(pod), m_container(container), m_mounts(mounts),
      m_mountPoints(mountPoints)
{}

int PodFileClient::mountOf(const QString &nasPath, const QList<Mount> &mounts)
{
    int best = -1;
    for (int i = 0; i < mounts.size(); ++i) {
        const Mount &m = mounts[i];
        if ((nasPath == m.nasPath || nasPath.startsWith(m.nasPath + u'/')) &&
            (best < 0 || m.nasPath.size() > mounts[best].nasPath.size()))
            best = i;
    }
    return best;
}

QString PodFileClient::inContainer(const QString &nasPath, const QList<Mount> &mounts,
                                   const QStringList &mountPoints)
{
    const int i = mountOf(nasPath, mounts);
    if (i < 0 || nasPath.split(u'/').contains(QStringLiteral("..")))
        return QString();
    const Mount &m = mounts[i];
    const QString c = m.containerPath + nasPath.mid(m.nasPath.size());
    // Another filesystem mounted deeper over the path (a share at /home/alice/lab inside alice's
    // folder at /home/alice): the container's path is not this NAS path.
    for (const QString &point : mountPoints)
        if (point.size() > m.containerPath.size() && point.startsWith(m.containerPath + u'/') &&
            (c == point || c.startsWith(point + u'/')))
            return QString();
    return c;
}

std::optional<QList<RemoteFile>> PodFileClient::parseFind(const QByteArray &out, const QString &dir,
                                                          bool named)
{
    QList<RemoteFile> entries;
    const QList<QByteArray> records = out.split('\0');
    for (qsizetype i = 0; i < records.size(); ++i) {
        const QByteArray &rec = records[i];
        if (rec.isEmpty() && i == records.size() - 1)
            break; // after the last record's NUL
        // Five fields without blanks, then (named) the rest of the record is the name.
        QList<QByteArray> f;
        qsizetype at = 0;
        for (int k = 0; k < 5; ++k) {
            const qsizetype blank = rec.indexOf(' ', at);
            if (blank < 0 && (named || k < 4))
                return std::nullopt;
            f << rec.mid(at, blank < 0 ? -1 : blank - at);
            at = blank < 0 ? rec.size() : blank + 1;
        }
        RemoteFile e;
        bool sized = false, moded = false;
        e.size = f[1].toLongLong(&sized);
        e.permissions = f[4].toUInt(&moded, 8);
        const auto modified = msOf(f[2]), accessed = msOf(f[3]);
        if (f[0].size() != 1 || !sized || !moded || !modified || !accessed)
            return std::nullopt;
        e.modified = *modified;
        e.accessed = *accessed;
        switch (f[0].at(0)) {
        case 'f':
            e.type = 'f';
            e.permissions |= 0100000;
            break;
        case 'd':
            e.type = 'd';
            e.permissions |= 0040000;
            break;
        case 'l':
            e.type = 'l';
            e.permissions |= 0120000;
            break;
        default:
            e.type = 'o';
        }
        if (named) {
            e.name = QString::fromUtf8(rec.mid(at));
            if (e.name.isEmpty() || e.name.contains(u'/'))
                return std::nullopt;
            e.path = joined(dir, e.name);
        } else {
            e.path = dir;
            e.name = dir.section(u'/', -1);
        }
        entries << e;
    }
    return entries;
}

QString PodFileClient::place(const QString &nasPath, QString *error) const
{
    m_missing = false; // each call says afresh
    const QString c = inContainer(nasPath, m_mounts, m_mountPoints);
    if (!c.isEmpty())
        return c;
    if (mountOf(nasPath, m_mounts) >= 0 && !nasPath.split(u'/').contains(QStringLiteral(".."))) {
        *error = tr("%1 lies under another volume mounted in %2: it is not reached as the NAS.")
                     .arg(nasPath, m_pod);
        return c;
    }
    QStringList folders;
    for (const Mount &m : m_mounts)
        folders << m.nasPath;
    *error = tr("%1 is not in a folder %2 mounts (%3).")
                 .arg(nasPath, m_pod, folders.join(QStringLiteral(", ")));
    return c;
}

QString PodFileClient::said(const QString &what, const Ran &r) const
{
    m_missing = false;
    const QString err = QString::fromUtf8(r.err).trimmed().section(u'\n', 0, 0);
    // The image lacks the tool: the kubelet cannot start it, or the shell says 127.
    if (r.error.contains(QLatin1String("executable file not found")) ||
        (r.error.isEmpty() && r.exitCode == 127))
        return tr("%1: the dev environment's image lacks a tool gpudesk needs (find, tail, dd, "
                  "mkdir, mv): %2")
            .arg(what, r.error.isEmpty() ? err : r.error);
    if (!r.error.isEmpty())
        return tr("%1: %2").arg(what, r.error);
    m_missing = err.contains(QLatin1String("No such file or directory"));
    return err.isEmpty() ? tr("%1: the command ended with status %2").arg(what).arg(r.exitCode)
                         : tr("%1: %2").arg(what, err);
}

PodFileClient::Ran PodFileClient::run(const QStringList &argv,
                                      const std::function<bool(const QByteArray &)> &onOutput,
                                      QIODevice *input, const Progress &sent,
                                      const std::atomic<bool> *cancel)
{
    Ran r;
    if ((m_cancel && *m_cancel) || (cancel && *cancel)) {
        r.error = tr("Cancelled.");
        return r;
    }
    PodExec::Options options;
    options.container = m_container;
    options.stdin = input != nullptr;
    options.keepOutput = !onOutput;
    PodExec exec(m_client, m_ns, m_pod, argv, options);
    QEventLoop loop;
    QElapsedTimer quiet;
    quiet.start();
    bool done = false, stopped = false, quietTooLong = false, closed = false;
    qint64 given = 0;
    QObject::connect(&exec, &PodExec::output, &loop, [&](const QByteArray &data) {
        quiet.restart();
        if (onOutput && !stopped && !onOutput(data)) {
            stopped = true;
            exec.cancel();
        }
    });
    QObject::connect(&exec, &PodExec::errorOutput, &loop, [&] { quiet.restart(); });
    QObject::connect(&exec, &PodExec::finished, &loop, [&](int code, const QString &error) {
        r.exitCode = code;
        r.error = error;
        done = true;
        loop.quit();
    });
    const auto pump = [&] {
        if (!input || closed || done)
            return;
        while (exec.bytesToWrite() < InFlight && !input->atEnd()) {
            const QByteArray chunk = input->read(Chunk);
            if (chunk.isEmpty())
                break;
            exec.writeStdin(chunk);
            given += chunk.size();
        }
        if (sent)
            sent(std::max<qint64>(0, given - exec.bytesToWrite()));
        if (input->atEnd()) {
            // v4 cannot end stdin alone: the stream closes, and the exit status is not known
            // (the caller checks what the NAS holds) — and what is still queued would go with
            // it: closed only once all of it went out.
            r.inputEndUnknown = exec.protocol() != QLatin1String("v5.channel.k8s.io");
            if (r.inputEndUnknown && exec.bytesToWrite() > 0)
                return;
            closed = true;
            exec.closeStdin();
        }
    };
    QObject::connect(&exec, &PodExec::started, &loop, pump);
    QObject::connect(&exec, &PodExec::stdinWritten, &loop, [&] {
        quiet.restart();
        pump();
    });
    QTimer watch;
    watch.setInterval(100);
    QObject::connect(&watch, &QTimer::timeout, &loop, [&] {
        if ((m_cancel && *m_cancel) || (cancel && *cancel)) {
            exec.cancel();
        } else if (quiet.elapsed() > QuietLimitMs) {
            quietTooLong = true;
            exec.cancel();
        }
    });
    exec.start();
    watch.start();
    if (!done)
        loop.exec();
    r.out = exec.stdoutData();
    r.err = exec.stderrData();
    r.stoppedByReader = stopped;
    if (quietTooLong)
        r.error = tr("%1 said nothing for %2 s: given up (the command may still run in the "
                     "container).")
                      .arg(m_pod)
                      .arg(QuietLimitMs / 1000);
    return r;
}

std::optional<QList<RemoteFile>> PodFileClient::mountsBelow(const QString &dir,
                                                            QString *error) const
{
    const QString prefix = dir.endsWith(u'/') ? dir : dir + u'/';
    QSet<QString> names;
    for (const Mount &m : m_mounts)
        if (m.nasPath.startsWith(prefix))
            names.insert(m.nasPath.mid(prefix.size()).section(u'/', 0, 0));
    if (names.isEmpty()) {
        place(dir, error);
        return std::nullopt;
    }
    QList<RemoteFile> out;
    for (const QString &n : names) {
        RemoteFile e;
        e.name = n;
        e.path = prefix + n;
        e.type = 'd';
        e.permissions = 0040755;
        out << e;
    }
    std::sort(out.begin(), out.end(), sortedFirst);
    return out;
}

std::optional<QList<RemoteFile>> PodFileClient::list(const QString &dir, QString *error)
{
    m_missing = false;
    const QString c = inContainer(dir, m_mounts, m_mountPoints);
    if (c.isEmpty() && mountOf(dir, m_mounts) >= 0) {
        place(dir, error); // another volume over it, or `..`: said there
        return std::nullopt;
    }
    if (c.isEmpty())
        return mountsBelow(dir, error);
    const Ran r = run({QStringLiteral("find"), QStringLiteral("-P"), c, QStringLiteral("-mindepth"),
                       QStringLiteral("1"), QStringLiteral("-maxdepth"), QStringLiteral("1"),
                       QStringLiteral("-printf"), QStringLiteral("%y %s %T@ %A@ %m %P\\0")});
    // find says 1 when something below could not be read; what it read is still the folder.
    if (!r.error.isEmpty() || (r.exitCode != 0 && r.out.isEmpty())) {
        *error = said(dir, r);
        return std::nullopt;
    }
    auto entries = parseFind(r.out, dir, true);
    if (!entries) {
        *error = tr("%1: find's answer could not be read.").arg(dir);
        return std::nullopt;
    }
    std::sort(entries->begin(), entries->end(), sortedFirst);
    return entries;
}

std::optional<RemoteFile> PodFileClient::stat(const QString &path, QString *error)
{
    const QString c = place(path, error);
    if (c.isEmpty())
        return std::nullopt;
    const Ran r = run({QStringLiteral("find"), QStringLiteral("-P"), c, QStringLiteral("-maxdepth"),
                       QStringLiteral("0"), QStringLiteral("-printf"),
                       QStringLiteral("%y %s %T@ %A@ %m\\0")});
    if (!r.error.isEmpty() || r.exitCode != 0) {
        *error = said(path, r);
        return std::nullopt;
    }
    const auto entries = parseFind(r.out, path, false);
    if (!entries || entries->size() != 1) {
        *error = tr("%1: find's answer could not be read.").arg(path);
        return std::nullopt;
    }
    return entries->first();
}

bool PodFileClient::download(const QString &remote, const QString &local, const Progress &progress,
                             const std::atomic<bool> &cancel, QString *error)
{
    const auto there = stat(remote, error);
    if (!there)
        return false;
    if (there->type != 'f') {
        *error = tr("%1 is not a plain file: only files are copied.").arg(remote);
        return false;
    }
    QFile out(local);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Append)) {
        *error = tr("Cannot write %1: %2").arg(local, out.errorString());
        return false;
    }
    qint64 have = out.size();
    if (have > there->size) {
        *error = tr("%1 here is longer than %2 on the NAS: not gone on with.").arg(local, remote);
        return false;
    }
    if (progress)
        progress(have);
    if (have == there->size)
        return true;
    bool writeFailed = false;
    // From the byte after what is here: a broken copy goes on.
    const Ran r = run(
        {QStringLiteral("tail"), QStringLiteral("-c"), QStringLiteral("+%1").arg(have + 1),
         QStringLiteral("--"), inContainer(remote, m_mounts)},
        [&](const QByteArray &data) {
            if (out.write(data) != data.size()) {
                writeFailed = true;
                return false;
            }
            have += data.size();
            if (progress)
                progress(have);
            return true;
        },
        nullptr, {}, &cancel);
    out.close();
    if (writeFailed) {
        *error = tr("Cannot write %1: %2").arg(local, out.errorString());
        return false;
    }
    if (cancel || (m_cancel && *m_cancel)) {
        *error = tr("Cancelled.");
        return false;
    }
    if (!r.error.isEmpty() || r.exitCode != 0) {
        *error = said(remote, r);
        return false;
    }
    return true;
}

bool PodFileClient::upload(const QString &local, const QString &remote, const Progress &progress,
                           const std::atomic<bool> &cancel, QString *error)
{
    const QString c = place(remote, error);
    if (c.isEmpty())
        return false;
    QFile in(local);
    if (!in.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read %1: %2").arg(local, in.errorString());
        return false;
    }
    qint64 have = 0;
    QString why;
    const auto there = stat(remote, &why);
    if (there && there->type != 'f') {
        *error = tr("%1 is there and is not a plain file: nothing was written.").arg(remote);
        return false;
    }
    if (!there && !m_missing) {
        *error = why;
        return false;
    }
    if (there)
        have = there->size;
    if (have > in.size()) {
        *error = tr("%1 on the NAS is longer than %2: not gone on with.").arg(remote, local);
        return false;
    }
    if (progress)
        progress(have);
    if (!there || have < in.size()) {
        in.seek(have);
        // Appended to what a broken copy left; made when nothing is there.
        const Ran r = run(
            {QStringLiteral("dd"), QStringLiteral("of=") + c,
             QStringLiteral("oflag=append,nofollow"), QStringLiteral("conv=notrunc"),
             QStringLiteral("status=none"), QStringLiteral("bs=65536")},
            {}, &in,
            [&](qint64 n) {
                if (progress)
                    progress(have + n);
            },
            &cancel);
        if (cancel || (m_cancel && *m_cancel)) {
            *error = tr("Cancelled.");
            return false;
        }
        if (!r.inputEndUnknown && (!r.error.isEmpty() || r.exitCode != 0)) {
            *error = said(remote, r);
            return false;
        }
    }
    // Whatever the command said, the NAS is asked what it holds now (over v4, where the end is
    // not told, dd may still write its last bytes: asked again for a few seconds).
    auto written = stat(remote, error);
    for (int i = 0; i < 50 && written && written->size < in.size() && !cancel; ++i) {
        QThread::msleep(100);
        written = stat(remote, error);
    }
    if (!written)
        return false;
    if (written->size != in.size()) {
        *error = tr("%1: %2 bytes on the NAS of %3").arg(remote).arg(written->size).arg(in.size());
        return false;
    }
    if (progress)
        progress(in.size());
    return true;
}

bool PodFileClient::rename(const QString &from, const QString &to, QString *error)
{
    const QString cf = place(from, error);
    const QString ct = cf.isEmpty() ? QString() : place(to, error);
    if (ct.isEmpty())
        return false;
    // mv across two filesystems copies, then removes: a rename stays within its mount.
    if (mountOf(from, m_mounts) != mountOf(to, m_mounts)) {
        *error = tr("%1 and %2 are on two mounts of %3: not renamed (a copy and a removal "
                    "would be).")
                     .arg(from, to, m_pod);
        return false;
    }
    QString why;
    if (stat(to, &why)) {
        *error = tr("%1 is there already: nothing was replaced.").arg(to);
        return false;
    }
    if (!m_missing) {
        *error = why;
        return false;
    }
    // -n: never over a file that came meanwhile; -T: `to` is the name, not a folder to go into.
    const Ran r = run({QStringLiteral("mv"), QStringLiteral("-n"), QStringLiteral("-T"),
                       QStringLiteral("--"), cf, ct});
    if (!r.error.isEmpty() || r.exitCode != 0) {
        *error = said(from, r);
        return false;
    }
    // mv -n leaves a file that is there without a word: the NAS says whether it moved.
    if (stat(from, &why) || !m_missing) {
        *error = tr("%1 is still there: it was not renamed to %2.").arg(from, to);
        return false;
    }
    return stat(to, error).has_value();
}

bool PodFileClient::remove(const QString &path, QString *error)
{
    const QString c = place(path, error);
    if (c.isEmpty())
        return false;
    // rm without -r refuses a folder; a link goes itself, never what it points at.
    const Ran r = run({QStringLiteral("rm"), QStringLiteral("--"), c});
    if (r.error.isEmpty() && r.exitCode == 0)
        return true;
    *error = said(path, r);
    return false;
}

bool PodFileClient::removeFolder(const QString &path, QString *error)
{
    const QString c = place(path, error);
    if (c.isEmpty())
        return false;
    const Ran r = run({QStringLiteral("rmdir"), QStringLiteral("--"), c});
    if (r.error.isEmpty() && r.exitCode == 0)
        return true;
    *error = said(path, r);
    return false;
}

bool PodFileClient::readsAsWritten(const QString &path, QString *why)
{
    const QString c = place(path, why);
    if (c.isEmpty())
        return false;
    const Ran r = run({QStringLiteral("realpath"), QStringLiteral("-e"), QStringLiteral("--"), c});
    if (!r.error.isEmpty() || r.exitCode != 0) {
        *why = said(path, r);
        return false;
    }
    QByteArray real = r.out;
    if (real.endsWith('\n'))
        real.chop(1);
    if (QString::fromUtf8(real) == c)
        return true;
    *why = tr("%1 is reached through a link (the container reads it as %2): not acted on")
               .arg(path, QString::fromUtf8(real));
    return false;
}

bool PodFileClient::makeFolder(const QString &path, QString *error)
{
    const QString c = place(path, error);
    if (c.isEmpty())
        return false;
    const Ran r = run({QStringLiteral("mkdir"), QStringLiteral("--"), c});
    if (r.error.isEmpty() && r.exitCode == 0)
        return true;
    const QString complaint = said(path, r);
    QString why;
    if (const auto there = stat(path, &why); there && there->type == 'd')
        return true; // a copy that broke made it
    *error = complaint;
    return false;
}

std::optional<QByteArray> PodFileClient::readPart(const QString &path, qint64 offset, qint64 max,
                                                  QString *error, qint64 *from, qint64 *size)
{
    const auto there = stat(path, error);
    if (!there)
        return std::nullopt;
    if (there->type != 'f') {
        *error = tr("%1 is not a plain file.").arg(path);
        return std::nullopt;
    }
    const qint64 start =
        offset < 0 ? std::max<qint64>(0, there->size + offset) : std::min(offset, there->size);
    if (from)
        *from = start;
    if (size)
        *size = there->size;
    QByteArray bytes;
    if (max <= 0 || start >= there->size)
        return bytes;
    const Ran r =
        run({QStringLiteral("tail"), QStringLiteral("-c"), QStringLiteral("+%1").arg(start + 1),
             QStringLiteral("--"), inContainer(path, m_mounts)},
            [&](const QByteArray &data) {
                bytes += data.left(max - bytes.size());
                return bytes.size() < max;
            });
    if (!r.stoppedByReader && (!r.error.isEmpty() || r.exitCode != 0)) {
        *error = said(path, r);
        return std::nullopt;
    }
    return bytes;
}

} // namespace gpudesk
