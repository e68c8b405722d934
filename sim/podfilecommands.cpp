// SPDX-License-Identifier: GPL-3.0-or-later
#include "podfilecommands.h"

#include "channeltransport.h"
#include "nastree.h"

#include <QDir>
#include <QObject>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sim {

using nlohmann::json;

namespace {

constexpr char kStdin = 0, kClose = char(255);
// What is queued on the socket before the file is read on: a download goes no faster than the
// client takes it.
constexpr qint64 kHighWater = 1 << 20;
constexpr qint64 kChunk = 32 * 1024; // the kubelet's own read size

ExecShell::Result failed(const std::string &message, int code = 1)
{
    ExecShell::Result r;
    r.err = QByteArray::fromStdString(message + "\n");
    r.exitCode = code;
    return r;
}

std::string quoted(const QString &path)
{
    return "'" + path.toStdString() + "'";
}

// A file streamed to stdout as the socket drains (tail), owned by the stream: a client that
// goes away takes it along.
class FileStream : public QObject
{
public:
    FileStream(ChannelTransport *ws, int fd, qint64 left, PodFileCommands::Out out,
               PodFileCommands::Finish finish)
        : QObject(ws), m_ws(ws), m_fd(fd), m_left(left), m_out(std::move(out)),
          m_finish(std::move(finish))
    {
        connect(ws, &ChannelTransport::drained, this, &FileStream::pump);
    }
    ~FileStream() override { ::close(m_fd); }

    void pump()
    {
        while (m_ws->isOpen() && m_ws->bytesToWrite() < kHighWater) {
            QByteArray chunk(int(m_left >= 0 ? std::min(kChunk, m_left) : kChunk),
                             Qt::Uninitialized);
            const ssize_t n =
                chunk.isEmpty() ? 0 : ::read(m_fd, chunk.data(), size_t(chunk.size()));
            if (n <= 0) {
                ExecShell::Result r;
                if (n < 0) {
                    r.err = QByteArray("tail: error reading: ") + std::strerror(errno) + '\n';
                    r.exitCode = 1;
                }
                disconnect(m_ws, nullptr, this, nullptr);
                m_finish(r);
                deleteLater();
                return;
            }
            chunk.truncate(int(n));
            if (m_left >= 0)
                m_left -= n;
            m_out(chunk);
        }
    }

private:
    ChannelTransport *m_ws;
    int m_fd;
    qint64 m_left; // -1: to the end
    PodFileCommands::Out m_out;
    PodFileCommands::Finish m_finish;
};

// stdin written into a file as it comes (dd), until the client ends stdin.
class FileSink : public QObject
{
public:
    FileSink(ChannelTransport *ws, int fd, QString name, PodFileCommands::Err err,
             PodFileCommands::Finish finish)
        : QObject(ws), m_fd(fd), m_name(std::move(name)), m_err(std::move(err)),
          m_finish(std::move(finish))
    {
        connect(ws, &ChannelTransport::binaryMessage, this, [this](const QByteArray &m) {
            if (m_done || m.isEmpty())
                return;
            if (m.at(0) == kClose && m.size() >= 2 && m.at(1) == kStdin) {
                end({});
                return;
            }
            if (m.at(0) != kStdin)
                return;
            const char *p = m.constData() + 1;
            qint64 left = m.size() - 1;
            while (left > 0) {
                const ssize_t n = ::write(m_fd, p, size_t(left));
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0) {
                    end(failed("dd: error writing " + quoted(m_name) + ": " +
                               std::strerror(errno)));
                    return;
                }
                p += n;
                left -= n;
            }
        });
    }
    ~FileSink() override { ::close(m_fd); }

    void end(const ExecShell::Result &r)
    {
        m_done = true;
        m_err(r.err);
        m_finish(r);
        deleteLater();
    }

private:
    int m_fd;
    QString m_name;
    PodFileCommands::Err m_err;
    PodFileCommands::Finish m_finish;
    bool m_done = false;
};

} // namespace

PodFileCommands::PodFileCommands(const NasTree *nas, const json &pod) : m_nas(nas)
{
    const json &spec = pod["spec"];
    json container;
    for (const auto &c : spec.value("containers", json::array()))
        if (container.is_null() || c.value("name", "") == "devenv")
            container = c;
    if (container.is_null())
        return;
    std::map<std::string, std::string> nodeOf; // volume → where the node has it
    for (const auto &v : spec.value("volumes", json::array())) {
        const std::string name = v.value("name", "");
        if (v.contains("nfs")) {
            // The lab's exports: nas:/export/X is the nodes' /mnt/X.
            const std::string p = v["nfs"].value("path", "");
            if (p.rfind("/export/", 0) == 0)
                nodeOf[name] = "/mnt/" + p.substr(8);
        } else if (v.contains("hostPath")) {
            const std::string p = v["hostPath"].value("path", "");
            if (p.rfind("/mnt/", 0) == 0)
                nodeOf[name] = p;
        }
    }
    for (const auto &m : container.value("volumeMounts", json::array())) {
        const auto it = nodeOf.find(m.value("name", ""));
        if (it == nodeOf.end())
            continue;
        const std::string sub = m.value("subPath", "");
        m_mounts.emplace_back(
            QDir::cleanPath(QString::fromStdString(m.value("mountPath", ""))).toStdString(),
            sub.empty() ? it->second : it->second + "/" + sub);
    }
}

bool PodFileCommands::handles(const QStringList &argv)
{
    static const QStringList tools{QStringLiteral("find"),  QStringLiteral("tail"),
                                   QStringLiteral("dd"),    QStringLiteral("mkdir"),
                                   QStringLiteral("mv"),    QStringLiteral("rm"),
                                   QStringLiteral("rmdir"), QStringLiteral("realpath")};
    return !argv.isEmpty() && tools.contains(argv.first());
}

std::optional<std::string> PodFileCommands::nodePath(const std::string &containerPath) const
{
    if (containerPath.empty() || containerPath[0] != '/')
        return std::nullopt;
    // The container's own ".." (a mount's parent is the container's disk, not the NAS).
    const std::string c = QDir::cleanPath(QString::fromStdString(containerPath)).toStdString();
    const std::pair<std::string, std::string> *best = nullptr;
    for (const auto &m : m_mounts)
        if ((c == m.first || c.rfind(m.first + "/", 0) == 0) &&
            (!best || m.first.size() > best->first.size()))
            best = &m;
    if (!best)
        return std::nullopt;
    return best->second + c.substr(best->first.size());
}

std::optional<std::string> PodFileCommands::newEntry(const std::string &containerPath,
                                                     int *err) const
{
    const auto node = nodePath(containerPath);
    const size_t slash = node ? node->rfind('/') : std::string::npos;
    const std::string name = node && slash != std::string::npos ? node->substr(slash + 1) : "";
    if (!node || name.empty() || name == "." || name == "..") {
        *err = ENOENT;
        return std::nullopt;
    }
    const auto folder = m_nas->resolve(node->substr(0, slash), true, err);
    if (!folder)
        return std::nullopt;
    return *folder + "/" + name;
}

void PodFileCommands::run(ChannelTransport *ws, const QStringList &argv, bool stdin, const Out &out,
                          const Err &err, const Finish &finish) const
{
    const QString cmd = argv.first();
    ExecShell::Result r;
    if (cmd == QLatin1String("tail")) {
        tail(ws, argv, out, err, finish);
        return;
    }
    if (cmd == QLatin1String("dd")) {
        dd(ws, argv, stdin, err, finish);
        return;
    }
    if (cmd == QLatin1String("find"))
        r = find(argv);
    else if (cmd == QLatin1String("mkdir"))
        r = mkdir(argv);
    else if (cmd == QLatin1String("mv"))
        r = mv(argv);
    else if (cmd == QLatin1String("realpath"))
        r = realpath(argv);
    else
        r = rm(argv);
    out(r.out);
    err(r.err);
    finish(r);
}

ExecShell::Result PodFileCommands::find(const QStringList &argv) const
{
    std::vector<std::string> args{"find"};
    std::vector<std::pair<std::string, std::string>> said; // node path → the container's
    std::string missing;
    bool expression = false;
    for (qsizetype i = 1; i < argv.size(); ++i) {
        const std::string a = argv[i].toStdString();
        if (!expression && (a == "-P" || a == "-H" || a == "-L")) {
            args.push_back(a);
            continue;
        }
        if (!expression && !a.empty() && a[0] != '-' && a != "(" && a != "!") {
            if (const auto node = nodePath(a)) {
                args.push_back(*node);
                said.emplace_back(*node, a);
            } else {
                missing += "find: " + quoted(argv[i]) + ": No such file or directory\n";
            }
            continue;
        }
        expression = true;
        args.push_back(a);
    }
    ExecShell::Result r;
    r.err = QByteArray::fromStdString(missing);
    if (said.empty() && !missing.empty()) {
        r.exitCode = 1;
        return r;
    }
    CommandOutput o = m_nas->find(args);
    // Its words name the paths as the container has them.
    for (const auto &[node, container] : said)
        for (size_t at = 0; (at = o.err.find("'" + node, at)) != std::string::npos;
             at += container.size() + 1)
            o.err.replace(at + 1, node.size(), container);
    r.out = QByteArray::fromStdString(o.out);
    r.err += QByteArray::fromStdString(o.err);
    r.exitCode = missing.empty() ? o.status : 1;
    return r;
}

void PodFileCommands::tail(ChannelTransport *ws, const QStringList &argv, const Out &out,
                           const Err &err, const Finish &finish) const
{
    // tail -c [+]N [--] FILE
    QStringList a = argv.mid(1);
    QString count;
    if (a.value(0) == QLatin1String("-c")) {
        count = a.value(1);
        a = a.mid(2);
    } else if (a.value(0).startsWith(QLatin1String("-c"))) {
        count = a.value(0).mid(2);
        a = a.mid(1);
    }
    if (a.value(0) == QLatin1String("--"))
        a = a.mid(1);
    const bool fromStart = count.startsWith(u'+');
    bool ok = false;
    const qint64 n = (fromStart ? count.mid(1) : count).toLongLong(&ok);
    ExecShell::Result r;
    if (!ok || n < 0 || a.size() != 1) {
        r = failed(ok ? "tail: this container's tail takes one file"
                      : "tail: invalid number of bytes: " + quoted(count));
    } else {
        const auto node = nodePath(a[0].toStdString());
        int e = ENOENT;
        const auto host = node ? m_nas->resolve(*node, true, &e) : std::nullopt;
        const int fd = host ? ::open(host->c_str(), O_RDONLY | O_CLOEXEC) : -1;
        if (fd < 0) {
            r = failed("tail: cannot open " + quoted(a[0]) +
                       " for reading: " + std::strerror(host ? errno : e));
        } else {
            struct stat st;
            if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
                ::close(fd);
                r = failed("tail: error reading " + quoted(a[0]) + ": Is a directory");
            } else {
                const qint64 size = qint64(st.st_size);
                const qint64 from = fromStart ? std::min(size, std::max<qint64>(0, n - 1))
                                              : std::max<qint64>(0, size - n);
                ::lseek(fd, off_t(from), SEEK_SET);
                auto *stream = new FileStream(ws, fd, -1, out, finish);
                stream->pump();
                return;
            }
        }
    }
    err(r.err);
    finish(r);
}

void PodFileCommands::dd(ChannelTransport *ws, const QStringList &argv, bool stdin, const Err &err,
                         const Finish &finish) const
{
    QString of;
    bool append = false, notrunc = false, nofollow = false;
    for (const QString &a : argv.mid(1)) {
        const QString key = a.section(u'=', 0, 0);
        const QString value = a.section(u'=', 1);
        const QStringList flags = value.split(u',');
        if (key == QLatin1String("of"))
            of = value;
        else if (key == QLatin1String("oflag") &&
                 std::all_of(flags.cbegin(), flags.cend(), [](const QString &f) {
                     return f == QLatin1String("append") || f == QLatin1String("nofollow");
                 })) {
            append = append || flags.contains(QStringLiteral("append"));
            nofollow = nofollow || flags.contains(QStringLiteral("nofollow"));
        } else if (key == QLatin1String("conv") && value == QLatin1String("notrunc"))
            notrunc = true;
        else if ((key == QLatin1String("status") && value == QLatin1String("none")) ||
                 (key == QLatin1String("bs") && value.toLongLong() > 0))
            continue;
        else {
            const auto r = failed("dd: unrecognized operand " + quoted(a));
            err(r.err);
            finish(r);
            return;
        }
    }
    int e = ENOENT;
    const auto host = of.isEmpty() ? std::nullopt : newEntry(of.toStdString(), &e);
    // GNU dd follows a link at of= unless told nofollow; the link is read as the node reads it.
    int e2 = 0;
    std::optional<std::string> target = host;
    if (host && !nofollow) {
        struct stat st;
        if (::lstat(host->c_str(), &st) == 0 && S_ISLNK(st.st_mode))
            target = m_nas->resolve(*nodePath(of.toStdString()), true, &e2);
    }
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0) |
                      (append ? O_APPEND : 0) | (notrunc ? 0 : O_TRUNC);
    const int fd = target ? ::open(target->c_str(), flags, 0644) : -1;
    if (fd < 0) {
        const auto r = of.isEmpty() ? failed("dd: this container's dd writes to of=FILE only")
                                    : failed("dd: failed to open " + quoted(of) + ": " +
                                             std::strerror(!host     ? e
                                                           : !target ? e2
                                                                     : errno));
        err(r.err);
        finish(r);
        return;
    }
    auto *sink = new FileSink(ws, fd, of, err, finish);
    if (!stdin)
        sink->end({}); // no stdin: dd reads its end at once
}

ExecShell::Result PodFileCommands::mkdir(const QStringList &argv) const
{
    QStringList a = argv.mid(1);
    if (a.value(0) == QLatin1String("--"))
        a = a.mid(1);
    if (a.size() != 1)
        return failed("mkdir: this container's mkdir makes one folder");
    int e = ENOENT;
    const auto host = newEntry(a[0].toStdString(), &e);
    if (!host || ::mkdir(host->c_str(), 0755) != 0)
        return failed("mkdir: cannot create directory " + quoted(a[0]) + ": " +
                      std::strerror(host ? errno : e));
    return {};
}

ExecShell::Result PodFileCommands::mv(const QStringList &argv) const
{
    bool noClobber = false, noTarget = false, operands = false;
    QStringList paths;
    for (const QString &a : argv.mid(1)) {
        if (!operands && a == QLatin1String("--"))
            operands = true;
        else if (!operands && a == QLatin1String("-n"))
            noClobber = true;
        else if (!operands && a == QLatin1String("-T"))
            noTarget = true;
        else if (!operands && a.startsWith(u'-'))
            return failed("mv: invalid option -- " + quoted(a));
        else
            paths << a;
    }
    if (paths.size() != 2)
        return failed("mv: this container's mv moves one entry");
    int e = ENOENT;
    const auto from = newEntry(paths[0].toStdString(), &e);
    struct stat st;
    if (!from || ::lstat(from->c_str(), &st) != 0)
        return failed("mv: cannot stat " + quoted(paths[0]) + ": " +
                      std::strerror(from ? errno : e));
    auto to = newEntry(paths[1].toStdString(), &e);
    if (to && !noTarget && ::stat(to->c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        to = *to + from->substr(from->rfind('/'));
    if (!to)
        return failed("mv: cannot move " + quoted(paths[0]) + " to " + quoted(paths[1]) + ": " +
                      std::strerror(e));
    const int rc =
        noClobber ? ::renameat2(AT_FDCWD, from->c_str(), AT_FDCWD, to->c_str(), RENAME_NOREPLACE)
                  : ::rename(from->c_str(), to->c_str());
    // coreutils 9.1: -n leaves what is there without a word, and ends well.
    if (rc != 0 && !(noClobber && errno == EEXIST))
        return failed("mv: cannot move " + quoted(paths[0]) + " to " + quoted(paths[1]) + ": " +
                      std::strerror(errno));
    return {};
}

ExecShell::Result PodFileCommands::rm(const QStringList &argv) const
{
    // rm -- FILE (never a folder: no -r) and rmdir -- DIR (an empty one).
    const bool folder = argv.first() == QLatin1String("rmdir");
    QStringList a = argv.mid(1);
    if (a.value(0) == QLatin1String("--"))
        a = a.mid(1);
    const std::string tool = folder ? "rmdir" : "rm";
    if (a.size() != 1 || a[0].startsWith(u'-'))
        return failed(tool + ": this container's " + tool + " takes one path after --");
    int e = ENOENT;
    const auto host = newEntry(a[0].toStdString(), &e);
    struct stat st;
    if (!host || ::lstat(host->c_str(), &st) != 0)
        return failed(
            folder
                ? "rmdir: failed to remove " + quoted(a[0]) + ": " + std::strerror(host ? errno : e)
                : "rm: cannot remove " + quoted(a[0]) + ": " + std::strerror(host ? errno : e));
    if (!folder && S_ISDIR(st.st_mode))
        return failed("rm: cannot remove " + quoted(a[0]) + ": Is a directory");
    if ((folder ? ::rmdir(host->c_str()) : ::unlink(host->c_str())) != 0)
        return failed((folder ? "rmdir: failed to remove " : "rm: cannot remove ") + quoted(a[0]) +
                      ": " + std::strerror(errno));
    return {};
}

std::string PodFileCommands::containerPath(const std::string &nodePath) const
{
    const std::pair<std::string, std::string> *best = nullptr;
    for (const auto &m : m_mounts)
        if ((nodePath == m.second || nodePath.rfind(m.second + "/", 0) == 0) &&
            (!best || m.second.size() > best->second.size()))
            best = &m;
    return best ? best->first + nodePath.substr(best->second.size()) : std::string();
}

ExecShell::Result PodFileCommands::realpath(const QStringList &argv) const
{
    // realpath -e -- PATH: every link read (as the node reads them), the path must exist.
    QStringList a = argv.mid(1);
    if (a.value(0) == QLatin1String("-e"))
        a = a.mid(1);
    if (a.value(0) == QLatin1String("--"))
        a = a.mid(1);
    if (a.size() != 1)
        return failed("realpath: this container's realpath takes one path");
    int e = ENOENT;
    const auto node = nodePath(a[0].toStdString());
    const auto host = node ? m_nas->resolve(*node, true, &e) : std::nullopt;
    if (!host)
        return failed("realpath: " + quoted(a[0]) + ": " + std::strerror(e));
    // The host path back to the node's (/mnt/...), then to the container's.
    const std::string resolved = "/mnt" + host->substr(m_nas->root().size());
    const std::string inContainer = containerPath(resolved);
    ExecShell::Result r;
    r.out = QByteArray::fromStdString((inContainer.empty() ? resolved : inContainer) + "\n");
    return r;
}

} // namespace sim
