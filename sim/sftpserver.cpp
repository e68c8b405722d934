// SPDX-License-Identifier: GPL-3.0-or-later
#include "sftpserver.h"

#include "nastree.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <optional>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

namespace sim {

namespace {

// Packet types and status codes of SFTP version 3.
enum : uint8_t
{
    FxpInit = 1,
    FxpVersion = 2,
    FxpOpen = 3,
    FxpClose = 4,
    FxpRead = 5,
    FxpWrite = 6,
    FxpLstat = 7,
    FxpFstat = 8,
    FxpSetstat = 9,
    FxpFsetstat = 10,
    FxpOpendir = 11,
    FxpReaddir = 12,
    FxpRemove = 13,
    FxpMkdir = 14,
    FxpRmdir = 15,
    FxpRealpath = 16,
    FxpStat = 17,
    FxpRename = 18,
    FxpReadlink = 19,
    FxpStatus = 101,
    FxpHandle = 102,
    FxpData = 103,
    FxpName = 104,
    FxpAttrs = 105,
};
enum : uint32_t
{
    FxOk = 0,
    FxEof = 1,
    FxNoSuchFile = 2,
    FxPermissionDenied = 3,
    FxFailure = 4,
    FxBadMessage = 5,
    FxOpUnsupported = 8,
};
enum : uint32_t
{
    AttrSize = 0x1,
    AttrUidGid = 0x2,
    AttrPermissions = 0x4,
    AttrAcModTime = 0x8,
    AttrExtended = 0x80000000,
};
enum : uint32_t
{
    OpenRead = 0x1,
    OpenWrite = 0x2,
    OpenAppend = 0x4,
    OpenCreat = 0x8,
    OpenTrunc = 0x10,
    OpenExcl = 0x20,
};

constexpr size_t MaxRead = 64 * 1024;
const std::string Home = "/mnt";

// Reading the big-endian fields of a packet; a short packet sets `bad` and reads zeros.
struct Reader
{
    const std::string &s;
    size_t pos = 0;
    bool bad = false;
    uint32_t u32()
    {
        if (pos + 4 > s.size()) {
            bad = true;
            return 0;
        }
        const auto *p = reinterpret_cast<const unsigned char *>(s.data() + pos);
        pos += 4;
        return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
    }
    uint64_t u64()
    {
        const uint64_t hi = u32();
        return hi << 32 | u32();
    }
    std::string str()
    {
        const uint32_t n = u32();
        if (bad || pos + n > s.size()) {
            bad = true;
            return {};
        }
        std::string out = s.substr(pos, n);
        pos += n;
        return out;
    }
    struct Attrs
    {
        uint32_t flags = 0;
        uint64_t size = 0;
        uint32_t perms = 0;
        uint32_t atime = 0, mtime = 0;
    };
    Attrs attrs()
    {
        Attrs a;
        a.flags = u32();
        if (a.flags & AttrSize)
            a.size = u64();
        if (a.flags & AttrUidGid) {
            u32();
            u32();
        }
        if (a.flags & AttrPermissions)
            a.perms = u32();
        if (a.flags & AttrAcModTime) {
            a.atime = u32();
            a.mtime = u32();
        }
        if (a.flags & AttrExtended) {
            const uint32_t n = u32();
            for (uint32_t i = 0; i < n && !bad; ++i) {
                str();
                str();
            }
        }
        return a;
    }
};

void put32(std::string &o, uint32_t v)
{
    o += char(v >> 24);
    o += char(v >> 16);
    o += char(v >> 8);
    o += char(v);
}

void put64(std::string &o, uint64_t v)
{
    put32(o, uint32_t(v >> 32));
    put32(o, uint32_t(v));
}

void putStr(std::string &o, const std::string &s)
{
    put32(o, uint32_t(s.size()));
    o += s;
}

std::string packet(uint8_t type, const std::string &body)
{
    std::string o;
    put32(o, uint32_t(body.size() + 1));
    o += char(type);
    return o + body;
}

std::string status(uint32_t id, uint32_t code, const std::string &message)
{
    std::string b;
    put32(b, id);
    put32(b, code);
    putStr(b, message);
    putStr(b, "en");
    return packet(FxpStatus, b);
}

std::string ok(uint32_t id)
{
    return status(id, FxOk, "Success");
}

std::string fromErrno(uint32_t id, int err)
{
    // As OpenSSH's sftp-server words them.
    switch (err) {
    case ENOENT:
    case ENOTDIR:
    case ELOOP:
        return status(id, FxNoSuchFile, "No such file");
    case EACCES:
    case EPERM:
        return status(id, FxPermissionDenied, "Permission denied");
    default:
        return status(id, FxFailure, std::strerror(err));
    }
}

std::string attrsOf(const struct stat &st)
{
    std::string b;
    put32(b, AttrSize | AttrUidGid | AttrPermissions | AttrAcModTime);
    put64(b, uint64_t(st.st_size));
    put32(b, st.st_uid);
    put32(b, st.st_gid);
    put32(b, st.st_mode);
    put32(b, uint32_t(st.st_atime));
    put32(b, uint32_t(st.st_mtime));
    return b;
}

// ls -l's line, as sftp-server gives it for a directory listing's longname.
std::string longName(const std::string &name, const struct stat &st)
{
    char mode[11] = "----------";
    mode[0] = S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : '-';
    const char *rwx = "rwxrwxrwx";
    for (int i = 0; i < 9; ++i)
        if (st.st_mode & (0400 >> i))
            mode[1 + i] = rwx[i];
    char when[32];
    tm t{};
    const time_t mt = st.st_mtime;
    localtime_r(&mt, &t);
    std::strftime(when, sizeof when, "%b %e %H:%M", &t);
    char line[512];
    std::snprintf(line, sizeof line, "%s %4lu root     root     %10lld %s ", mode,
                  static_cast<unsigned long>(st.st_nlink), static_cast<long long>(st.st_size),
                  when);
    return line + name;
}

// The client's path as the node's absolute path: relative to the home (/mnt), "." and ".."
// taken lexically ("/.." is "/").
std::string normalise(const std::string &path)
{
    const std::string full = !path.empty() && path[0] == '/' ? path : Home + "/" + path;
    std::vector<std::string> parts;
    size_t i = 0;
    while (i <= full.size()) {
        const size_t j = std::min(full.find('/', i), full.size());
        const std::string part = full.substr(i, j - i);
        if (part == "..") {
            if (!parts.empty())
                parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        i = j + 1;
    }
    std::string out;
    for (const auto &p : parts)
        out += "/" + p;
    return out.empty() ? "/" : out;
}

std::string parentOf(const std::string &nodePath)
{
    const size_t slash = nodePath.rfind('/');
    return slash == 0 ? "/" : nodePath.substr(0, slash);
}

std::string baseOf(const std::string &nodePath)
{
    return nodePath.substr(nodePath.rfind('/') + 1);
}

bool writable(unsigned mode)
{
    return (mode & 0222) != 0;
}

} // namespace

struct SftpServer::Handle
{
    bool dir = false;
    int fd = -1;
    std::string nodePath;
    std::string host;
    std::vector<std::string> names; // a directory's, read at OPENDIR
    size_t next = 0;
    ~Handle()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

SftpServer::SftpServer(const NasTree *nas) : m_nas(nas) {}

SftpServer::~SftpServer() = default;

std::string SftpServer::feed(const char *data, size_t size, bool *fatal)
{
    m_in.append(data, size);
    std::string out;
    while (m_in.size() >= 4) {
        const auto *p = reinterpret_cast<const unsigned char *>(m_in.data());
        const size_t len = size_t(p[0]) << 24 | size_t(p[1]) << 16 | size_t(p[2]) << 8 | p[3];
        if (len == 0 || len > MaxPacket) {
            *fatal = true;
            return out;
        }
        if (m_in.size() < 4 + len)
            break;
        const std::string pkt = m_in.substr(4, len);
        m_in.erase(0, 4 + len);
        out += handle(pkt);
    }
    return out;
}

SftpServer::Handle *SftpServer::findHandle(const std::string &id)
{
    const auto it = m_handles.find(id);
    return it == m_handles.end() ? nullptr : it->second.get();
}

std::string SftpServer::newHandle(std::unique_ptr<Handle> h)
{
    const std::string id = std::to_string(m_nextHandle++);
    m_handles[id] = std::move(h);
    return id;
}

std::string SftpServer::open(uint32_t id, const std::string &path, uint32_t flags)
{
    int err = 0;
    const bool write = flags & (OpenWrite | OpenAppend);
    if (!(flags & (OpenRead | OpenWrite | OpenAppend)))
        return status(id, FxBadMessage, "Bad message");
    std::optional<std::string> host = m_nas->resolve(path, true, &err);
    struct stat st
    {
    };
    if (host) {
        if (flags & OpenExcl && flags & OpenCreat)
            return status(id, FxFailure, "File exists");
        if (::stat(host->c_str(), &st) != 0)
            return fromErrno(id, errno);
        if (S_ISDIR(st.st_mode))
            return status(id, FxFailure, "Is a directory");
        if ((write && !writable(st.st_mode)) || (!write && !NasTree::readable(st.st_mode)))
            return status(id, FxPermissionDenied, "Permission denied");
    } else {
        if (err != ENOENT || !(flags & OpenCreat))
            return fromErrno(id, err);
        // A new file: its folder must be there (links in it read as the node reads them), and
        // the name itself is not a link (O_NOFOLLOW: a dangling link out of /mnt stays shut).
        const auto dir = m_nas->resolve(parentOf(path), true, &err);
        if (!dir)
            return fromErrno(id, err);
        if (::stat(dir->c_str(), &st) != 0)
            return fromErrno(id, errno);
        if (!writable(st.st_mode))
            return status(id, FxPermissionDenied, "Permission denied");
        host = *dir + "/" + baseOf(path);
    }
    int oflags = O_CLOEXEC | O_NOFOLLOW;
    oflags |= write ? ((flags & OpenRead) ? O_RDWR : O_WRONLY) : O_RDONLY;
    if (flags & OpenCreat)
        oflags |= O_CREAT;
    if (flags & OpenTrunc)
        oflags |= O_TRUNC;
    if (flags & OpenAppend)
        oflags |= O_APPEND;
    if (flags & OpenExcl)
        oflags |= O_EXCL;
    const int fd = ::open(host->c_str(), oflags, 0644);
    if (fd < 0)
        return fromErrno(id, errno);
    auto h = std::make_unique<Handle>();
    h->fd = fd;
    h->nodePath = path;
    h->host = *host;
    std::string b;
    put32(b, id);
    putStr(b, newHandle(std::move(h)));
    return packet(FxpHandle, b);
}

std::string SftpServer::readDir(uint32_t id, Handle &h)
{
    if (h.next >= h.names.size())
        return status(id, FxEof, "End of file");
    std::string entries;
    uint32_t count = 0;
    // A batch at a time, as sftp-server sends them (100 names, well under a packet).
    for (; h.next < h.names.size() && count < 100; ++h.next) {
        const std::string &name = h.names[h.next];
        struct stat st
        {
        };
        if (::lstat((h.host + "/" + name).c_str(), &st) != 0)
            continue;
        putStr(entries, name);
        putStr(entries, longName(name, st));
        entries += attrsOf(st);
        ++count;
    }
    std::string b;
    put32(b, id);
    put32(b, count);
    return packet(FxpName, b + entries);
}

std::string SftpServer::handle(const std::string &pkt)
{
    Reader r{pkt};
    const uint8_t type = uint8_t(pkt[0]);
    r.pos = 1;
    if (type == FxpInit) {
        m_initialised = true;
        std::string b;
        put32(b, 3);
        return packet(FxpVersion, b);
    }
    const uint32_t id = r.u32();
    if (!m_initialised || r.bad)
        return status(id, FxBadMessage, "Bad message");
    int err = 0;
    switch (type) {
    case FxpRealpath: {
        // As sftp-server's realpath(3): every link read, as the node reads it; a last
        // component that is not there is kept as written.
        std::string path = normalise(r.str());
        const auto nodeOf = [this](const std::string &host) {
            return host.size() > m_nas->root().size() ? Home + host.substr(m_nas->root().size())
                                                      : Home;
        };
        if (const auto host = m_nas->resolve(path, true, &err)) {
            path = nodeOf(*host);
        } else if (path != Home && path != "/") {
            // Kept as written only where the last component itself is not there (a link that
            // leads out of /mnt, or nowhere, is an error, as realpath(3) says).
            const int first = err;
            int own = 0;
            if (first != ENOENT || m_nas->resolve(path, false, &own))
                return fromErrno(id, first);
            const auto dir = m_nas->resolve(parentOf(path), true, &err);
            if (!dir)
                return fromErrno(id, err);
            path = nodeOf(*dir) + "/" + baseOf(path);
        } else if (path != "/") {
            return fromErrno(id, err);
        }
        std::string b;
        put32(b, id);
        put32(b, 1);
        putStr(b, path);
        putStr(b, path);
        put32(b, 0); // no attributes, as sftp-server
        return packet(FxpName, b);
    }
    case FxpStat:
    case FxpLstat: {
        const std::string path = normalise(r.str());
        const auto host = m_nas->resolve(path, type == FxpStat, &err);
        struct stat st
        {
        };
        if (!host)
            return fromErrno(id, err);
        if ((type == FxpStat ? ::stat(host->c_str(), &st) : ::lstat(host->c_str(), &st)) != 0)
            return fromErrno(id, errno);
        std::string b;
        put32(b, id);
        return packet(FxpAttrs, b + attrsOf(st));
    }
    case FxpFstat: {
        Handle *h = findHandle(r.str());
        struct stat st
        {
        };
        if (!h)
            return status(id, FxFailure, "Invalid handle");
        if ((h->fd >= 0 ? ::fstat(h->fd, &st) : ::stat(h->host.c_str(), &st)) != 0)
            return fromErrno(id, errno);
        std::string b;
        put32(b, id);
        return packet(FxpAttrs, b + attrsOf(st));
    }
    case FxpOpendir: {
        const std::string path = normalise(r.str());
        const auto host = m_nas->resolve(path, true, &err);
        if (!host)
            return fromErrno(id, err);
        struct stat st
        {
        };
        if (::stat(host->c_str(), &st) != 0)
            return fromErrno(id, errno);
        if (!S_ISDIR(st.st_mode))
            return status(id, FxFailure, "Not a directory");
        if (!NasTree::readable(st.st_mode))
            return status(id, FxPermissionDenied, "Permission denied");
        DIR *d = ::opendir(host->c_str());
        if (!d)
            return fromErrno(id, errno);
        auto h = std::make_unique<Handle>();
        h->dir = true;
        h->nodePath = path;
        h->host = *host;
        h->names = {".", ".."};
        while (dirent *e = ::readdir(d)) {
            const std::string name = e->d_name;
            // The seeding marker is the simulator's, not the lab's.
            if (name != "." && name != ".." && !(path == Home && name == ".seeded"))
                h->names.push_back(name);
        }
        ::closedir(d);
        std::sort(h->names.begin() + 2, h->names.end());
        std::string b;
        put32(b, id);
        putStr(b, newHandle(std::move(h)));
        return packet(FxpHandle, b);
    }
    case FxpReaddir: {
        Handle *h = findHandle(r.str());
        if (!h || !h->dir)
            return status(id, FxFailure, "Invalid handle");
        return readDir(id, *h);
    }
    case FxpClose: {
        const std::string hid = r.str();
        if (!m_handles.erase(hid))
            return status(id, FxFailure, "Invalid handle");
        return ok(id);
    }
    case FxpOpen: {
        const std::string path = normalise(r.str());
        const uint32_t flags = r.u32();
        r.attrs();
        if (r.bad)
            return status(id, FxBadMessage, "Bad message");
        return open(id, path, flags);
    }
    case FxpRead: {
        Handle *h = findHandle(r.str());
        const uint64_t offset = r.u64();
        const uint32_t len = r.u32();
        if (!h || h->dir)
            return status(id, FxFailure, "Invalid handle");
        std::string data(std::min<size_t>(len, MaxRead), '\0');
        const ssize_t n = ::pread(h->fd, data.data(), data.size(), off_t(offset));
        if (n < 0)
            return fromErrno(id, errno);
        if (n == 0)
            return status(id, FxEof, "End of file");
        data.resize(size_t(n));
        std::string b;
        put32(b, id);
        putStr(b, data);
        return packet(FxpData, b);
    }
    case FxpWrite: {
        Handle *h = findHandle(r.str());
        const uint64_t offset = r.u64();
        const std::string data = r.str();
        if (!h || h->dir || r.bad)
            return status(id, FxFailure, "Invalid handle");
        size_t done = 0;
        while (done < data.size()) {
            const ssize_t n =
                ::pwrite(h->fd, data.data() + done, data.size() - done, off_t(offset + done));
            if (n < 0)
                return fromErrno(id, errno);
            done += size_t(n);
        }
        return ok(id);
    }
    case FxpSetstat:
    case FxpFsetstat: {
        std::string host;
        if (type == FxpSetstat) {
            const auto h = m_nas->resolve(normalise(r.str()), true, &err);
            if (!h)
                return fromErrno(id, err);
            host = *h;
        } else {
            Handle *h = findHandle(r.str());
            if (!h)
                return status(id, FxFailure, "Invalid handle");
            host = h->host;
        }
        const Reader::Attrs a = r.attrs();
        if (r.bad)
            return status(id, FxBadMessage, "Bad message");
        if (a.flags & AttrSize && ::truncate(host.c_str(), off_t(a.size)) != 0)
            return fromErrno(id, errno);
        if (a.flags & AttrPermissions && ::chmod(host.c_str(), a.perms & 07777) != 0)
            return fromErrno(id, errno);
        if (a.flags & AttrAcModTime) {
            const timeval tv[2] = {{time_t(a.atime), 0}, {time_t(a.mtime), 0}};
            if (::utimes(host.c_str(), tv) != 0)
                return fromErrno(id, errno);
        }
        return ok(id);
    }
    case FxpRemove:
    case FxpRmdir:
    case FxpMkdir: {
        const std::string path = normalise(r.str());
        // The folder it is in, links read as the node reads them; the name itself never
        // followed (removing a link removes the link).
        const auto dir = m_nas->resolve(parentOf(path), true, &err);
        if (!dir)
            return fromErrno(id, err);
        struct stat st
        {
        };
        if (::stat(dir->c_str(), &st) != 0)
            return fromErrno(id, errno);
        // /mnt's own folders (user/, share/) are the mounts: not removed, none added.
        if (!writable(st.st_mode) || path == Home || parentOf(path) == "/" ||
            parentOf(path) == Home)
            return status(id, FxPermissionDenied, "Permission denied");
        const std::string host = *dir + "/" + baseOf(path);
        int rc;
        if (type == FxpRemove) {
            struct stat target
            {
            };
            if (::lstat(host.c_str(), &target) == 0 && S_ISDIR(target.st_mode))
                return status(id, FxFailure, "Is a directory");
            rc = ::unlink(host.c_str());
        } else if (type == FxpRmdir) {
            rc = ::rmdir(host.c_str());
        } else {
            const Reader::Attrs a = r.attrs();
            rc = ::mkdir(host.c_str(), a.flags & AttrPermissions ? a.perms & 0777 : 0755);
        }
        return rc == 0 ? ok(id) : fromErrno(id, errno);
    }
    case FxpRename: {
        const std::string from = normalise(r.str());
        const std::string to = normalise(r.str());
        const auto fromDir = m_nas->resolve(parentOf(from), true, &err);
        if (!fromDir)
            return fromErrno(id, err);
        const auto toDir = m_nas->resolve(parentOf(to), true, &err);
        if (!toDir)
            return fromErrno(id, err);
        const std::string src = *fromDir + "/" + baseOf(from);
        const std::string dst = *toDir + "/" + baseOf(to);
        struct stat st
        {
        };
        if (::lstat(dst.c_str(), &st) == 0)
            return status(id, FxFailure, "Failure"); // version 3: never over an existing name
        return ::rename(src.c_str(), dst.c_str()) == 0 ? ok(id) : fromErrno(id, errno);
    }
    case FxpReadlink: {
        const std::string path = normalise(r.str());
        const auto host = m_nas->resolve(path, false, &err);
        if (!host)
            return fromErrno(id, err);
        char target[4096];
        const ssize_t n = ::readlink(host->c_str(), target, sizeof target - 1);
        if (n < 0)
            return fromErrno(id, errno);
        std::string b;
        put32(b, id);
        put32(b, 1);
        putStr(b, std::string(target, size_t(n)));
        putStr(b, std::string(target, size_t(n)));
        put32(b, 0);
        return packet(FxpName, b);
    }
    default:
        return status(id, FxOpUnsupported, "Operation unsupported");
    }
}

} // namespace sim
