// SPDX-License-Identifier: GPL-3.0-or-later
#include "sftpclient.h"

#include "sshconnection.h"

#include <QFile>

#include <libssh/sftp.h>

#include <fcntl.h>

#include <algorithm>
#include <deque>

namespace gpudesk {

namespace {

QString joined(const QString &dir, const QString &name)
{
    return dir.endsWith(u'/') ? QString(dir + name) : QString(dir + u'/' + name);
}

RemoteFile fileOf(const QString &path, sftp_attributes a)
{
    RemoteFile f;
    f.name = QString::fromUtf8(a->name ? a->name : "");
    f.path = path;
    f.type = a->type == SSH_FILEXFER_TYPE_DIRECTORY ? 'd'
             : a->type == SSH_FILEXFER_TYPE_SYMLINK ? 'l'
             : a->type == SSH_FILEXFER_TYPE_REGULAR ? 'f'
                                                    : 'o';
    f.size = qint64(a->size);
    f.modified = qint64(a->mtime) * 1000;
    f.accessed = qint64(a->atime) * 1000;
    f.permissions = a->permissions;
    return f;
}

} // namespace

SftpClient::SftpClient(SshConnection *connection) : m_connection(connection) {}

SftpClient::~SftpClient()
{
    if (m_sftp)
        sftp_free(m_sftp);
}

QString SftpClient::said(const QString &path) const
{
    switch (m_sftp ? sftp_get_error(m_sftp) : -1) {
    case SSH_FX_NO_SUCH_FILE:
    case SSH_FX_NO_SUCH_PATH:
        return tr("%1: no such file or folder").arg(path);
    case SSH_FX_PERMISSION_DENIED:
        return tr("%1: permission denied").arg(path);
    case SSH_FX_FILE_ALREADY_EXISTS:
        return tr("%1: already there").arg(path);
    default:
        return tr("%1: %2").arg(path, QString::fromUtf8(ssh_get_error(m_connection->m_session)));
    }
}

bool SftpClient::open(QString *error)
{
    if (!m_connection || !m_connection->isConnected()) {
        *error = tr("Not connected.");
        return false;
    }
    m_sftp = sftp_new(m_connection->m_session);
    if (!m_sftp || sftp_init(m_sftp) != SSH_OK) {
        *error = tr("%1 offers no SFTP: %2")
                     .arg(m_connection->target().endpoint(),
                          QString::fromUtf8(ssh_get_error(m_connection->m_session)));
        if (m_sftp)
            sftp_free(m_sftp);
        m_sftp = nullptr;
        return false;
    }
    return true;
}

std::optional<QList<RemoteFile>> SftpClient::list(const QString &dir, QString *error)
{
    sftp_dir d = sftp_opendir(m_sftp, dir.toUtf8().constData());
    if (!d) {
        *error = said(dir);
        return std::nullopt;
    }
    QList<RemoteFile> out;
    while (sftp_attributes a = sftp_readdir(m_sftp, d)) {
        const QString name = QString::fromUtf8(a->name ? a->name : "");
        if (name != QLatin1String(".") && name != QLatin1String("..") && !name.contains(u'/'))
            out.append(fileOf(joined(dir, name), a));
        sftp_attributes_free(a);
    }
    const bool complete = sftp_dir_eof(d);
    sftp_closedir(d);
    if (!complete) {
        *error = said(dir);
        return std::nullopt;
    }
    std::sort(out.begin(), out.end(), [](const RemoteFile &a, const RemoteFile &b) {
        if ((a.type == 'd') != (b.type == 'd'))
            return a.type == 'd';
        return a.name < b.name;
    });
    return out;
}

std::optional<RemoteFile> SftpClient::attributes(const QString &path, bool follow, QString *error)
{
    const QByteArray p = path.toUtf8();
    sftp_attributes a =
        follow ? sftp_stat(m_sftp, p.constData()) : sftp_lstat(m_sftp, p.constData());
    if (!a) {
        *error = said(path);
        return std::nullopt;
    }
    RemoteFile f = fileOf(path, a);
    f.name = path.section(u'/', -1);
    sftp_attributes_free(a);
    return f;
}

std::optional<RemoteFile> SftpClient::stat(const QString &path, QString *error)
{
    return attributes(path, false, error);
}

std::optional<RemoteFile> SftpClient::statFollowing(const QString &path, QString *error)
{
    return attributes(path, true, error);
}

std::optional<QString> SftpClient::readLink(const QString &path, QString *error)
{
    char *target = sftp_readlink(m_sftp, path.toUtf8().constData());
    if (!target) {
        *error = said(path);
        return std::nullopt;
    }
    const QString out = QString::fromUtf8(target);
    ssh_string_free_char(target);
    return out;
}

bool SftpClient::rename(const QString &from, const QString &to, QString *error)
{
    if (sftp_rename(m_sftp, from.toUtf8().constData(), to.toUtf8().constData()) == 0)
        return true;
    *error = said(to);
    return false;
}

bool SftpClient::remove(const QString &path, QString *error)
{
    if (sftp_unlink(m_sftp, path.toUtf8().constData()) == 0)
        return true;
    *error = said(path);
    return false;
}

bool SftpClient::makeFolder(const QString &path, QString *error)
{
    if (sftp_mkdir(m_sftp, path.toUtf8().constData(), 0755) == 0)
        return true;
    QString why = said(path);
    if (const auto there = attributes(path, false, error)) {
        if (there->type == 'd')
            return true;
        why = tr("%1 is there already, and is not a folder").arg(path);
    }
    *error = why;
    return false;
}

bool SftpClient::removeFolder(const QString &path, QString *error)
{
    if (sftp_rmdir(m_sftp, path.toUtf8().constData()) == 0)
        return true;
    *error = said(path);
    return false;
}

bool SftpClient::readsAsWritten(const QString &path, QString *why)
{
    char *real = sftp_canonicalize_path(m_sftp, path.toUtf8().constData());
    if (!real) {
        *why = said(path);
        return false;
    }
    const QString read = QString::fromUtf8(real);
    ssh_string_free_char(real);
    if (read == path)
        return true;
    *why = tr("%1 is reached through a link (the NAS reads it as %2): not touched").arg(path, read);
    return false;
}

std::optional<QByteArray> SftpClient::readPart(const QString &path, qint64 offset, qint64 max,
                                               QString *error, qint64 *from, qint64 *size)
{
    const std::optional<RemoteFile> before = stat(path, error);
    if (!before)
        return std::nullopt;
    if (before->type != 'f') {
        *error = tr("%1 is not a plain file: not opened").arg(path);
        return std::nullopt;
    }
    const qint64 start = offset < 0 ? qMax<qint64>(0, before->size + offset) : offset;
    if (from)
        *from = start;
    if (size)
        *size = before->size;
    sftp_file in = sftp_open(m_sftp, path.toUtf8().constData(), O_RDONLY, 0);
    if (!in) {
        *error = said(path);
        return std::nullopt;
    }
    std::optional<QByteArray> out;
    // SFTP opens through links: what was opened must be the file listed (a log may have grown
    // meanwhile), not one swapped in — nor the path reached through a link on its way.
    sftp_attributes a = sftp_fstat(in);
    const bool same = a && a->type == SSH_FILEXFER_TYPE_REGULAR &&
                      qint64(a->size) >= before->size &&
                      qint64(a->mtime) * 1000 >= before->modified;
    if (a)
        sftp_attributes_free(a);
    if (!readsAsWritten(path, error)) {
        // said
    } else if (!same) {
        *error = tr("%1 changed while it was opened: not read").arg(path);
    } else if (sftp_seek64(in, quint64(start)) != 0) {
        *error = said(path);
    } else {
        QByteArray buf(int(qMin<qint64>(max, 64 << 20)), Qt::Uninitialized);
        qint64 got = 0;
        while (got < buf.size()) {
            const ssize_t n =
                sftp_read(in, buf.data() + got, size_t(qMin<qint64>(Chunk, buf.size() - got)));
            if (n <= 0) {
                if (n < 0)
                    *error = said(path);
                break;
            }
            got += n;
        }
        if (error->isEmpty() || got > 0) {
            buf.truncate(int(got));
            out = buf;
        }
    }
    sftp_close(in);
    return out;
}

bool SftpClient::lastWasMissing() const
{
    const int e = m_sftp ? sftp_get_error(m_sftp) : -1;
    return e == SSH_FX_NO_SUCH_FILE || e == SSH_FX_NO_SUCH_PATH;
}

bool SftpClient::download(const QString &remote, const QString &local, const Progress &progress,
                          const std::atomic<bool> &cancel, QString *error)
{
    QFile out(local);
    if (!out.open(QIODevice::ReadWrite)) {
        *error = tr("Cannot write %1: %2").arg(local, out.errorString());
        return false;
    }
    const qint64 from = out.size(); // a copy that broke goes on where it stopped
    out.seek(from);
    sftp_file in = sftp_open(m_sftp, remote.toUtf8().constData(), O_RDONLY, 0);
    if (!in) {
        *error = said(remote);
        return false;
    }
    bool ok = sftp_seek64(in, quint64(from)) == 0;
    qint64 done = from;
    QByteArray buf(Chunk, Qt::Uninitialized);
    const auto write = [&](qint64 n) {
        if (out.write(buf.constData(), n) != n) {
            *error = tr("Cannot write %1: %2").arg(local, out.errorString());
            return false;
        }
        done += n;
        if (progress)
            progress(done);
        return true;
    };
    // Up to the size the file has now, pipelined: m_readAhead reads in flight, each for the
    // bytes after the one before, their answers taken in order. None is asked past that size:
    // libssh answers a read after the end with 0 and leaves the answers still in flight queued.
    qint64 size = -1;
    if (sftp_attributes a = sftp_fstat(in)) {
        size = qint64(a->size);
        sftp_attributes_free(a);
    }
    std::deque<std::pair<uint32_t, int>> inFlight; // request, bytes asked
    qint64 asked = done;
    int chunk = Chunk;
    bool broken = false; // the session failed: no answer is coming
    const auto drain = [&] {
        while (!inFlight.empty()) {
            sftp_seek64(in, quint64(done)); // clears a seen end, so that the answer is taken
            sftp_async_read(in, buf.data(), uint32_t(inFlight.front().second),
                            inFlight.front().first);
            inFlight.pop_front();
        }
    };
    while (ok && size >= 0) {
        if (cancel) {
            *error = tr("Cancelled.");
            ok = false;
            break;
        }
        while (asked < size && int(inFlight.size()) < m_readAhead) {
            const int len = int(std::min<qint64>(chunk, size - asked));
            const int id = sftp_async_read_begin(in, uint32_t(len));
            if (id < 0) {
                *error = said(remote);
                ok = false;
                broken = !m_connection->isConnected();
                break;
            }
            inFlight.emplace_back(uint32_t(id), len);
            asked += len;
        }
        if (!ok || inFlight.empty())
            break;
        const auto [id, len] = inFlight.front();
        inFlight.pop_front();
        const int n = sftp_async_read(in, buf.data(), uint32_t(len), id);
        if (n == 0)
            break; // shorter than it was: the rest is read one at a time below
        if (n < 0) {
            *error = said(remote);
            ok = false;
            broken = !m_connection->isConnected();
            break;
        }
        if (!write(n)) {
            ok = false;
            break;
        }
        if (n < len) {
            // The server reads less than asked (its own limit): the reads in flight are for
            // bytes after a gap. Taken and dropped; on from the data's end, in pieces it gives.
            chunk = std::max(n, 4096);
            drain();
            asked = done;
            ok = sftp_seek64(in, quint64(done)) == 0;
            if (!ok)
                *error = said(remote);
        }
    }
    if (!broken)
        drain();
    // Then to its end now, one read at a time: a file still written to (a log) grew since, and
    // one whose size was not said is read this way from the start. Usually one answer: the end.
    if (ok)
        ok = sftp_seek64(in, quint64(done)) == 0;
    while (ok) {
        if (cancel) {
            *error = tr("Cancelled.");
            ok = false;
            break;
        }
        const ssize_t n = sftp_read(in, buf.data(), size_t(buf.size()));
        if (n == 0)
            break;
        if (n < 0) {
            *error = said(remote);
            ok = false;
            break;
        }
        ok = write(n);
    }
    sftp_close(in);
    return ok && out.flush();
}

bool SftpClient::upload(const QString &local, const QString &remote, const Progress &progress,
                        const std::atomic<bool> &cancel, QString *error)
{
    QFile in(local);
    if (!in.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read %1: %2").arg(local, in.errorString());
        return false;
    }
    // The remote file's size now: where a copy that broke stopped (0 for a new one).
    qint64 from = 0;
    if (sftp_attributes a = sftp_stat(m_sftp, remote.toUtf8().constData())) {
        from = qMin<qint64>(qint64(a->size), in.size());
        sftp_attributes_free(a);
    }
    sftp_file out = sftp_open(m_sftp, remote.toUtf8().constData(), O_WRONLY | O_CREAT, 0644);
    if (!out) {
        *error = said(remote);
        return false;
    }
    bool ok = sftp_seek64(out, quint64(from)) == 0 && in.seek(from);
    qint64 done = from;
    while (ok && !in.atEnd()) {
        if (cancel) {
            *error = tr("Cancelled.");
            ok = false;
            break;
        }
        const QByteArray chunk = in.read(Chunk);
        if (chunk.isEmpty() ||
            sftp_write(out, chunk.constData(), size_t(chunk.size())) != chunk.size()) {
            *error = chunk.isEmpty() ? tr("Cannot read %1: %2").arg(local, in.errorString())
                                     : said(remote);
            ok = false;
            break;
        }
        done += chunk.size();
        if (progress)
            progress(done);
    }
    sftp_close(out);
    return ok;
}

} // namespace gpudesk
