// SPDX-License-Identifier: GPL-3.0-or-later
#include "nastree.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sim {

namespace {

// The marker of a seeded tree: not part of the NAS a node sees.
constexpr const char *kSeededMarker = ".seeded";

// strerror's words in the C locale, whatever the simulator's own locale: the node's commands
// run without one. strerrordesc_np is thread-safe and never translated.
std::string errorText(int err)
{
    const char *text = strerrordesc_np(err);
    return text ? text : "Unknown error " + std::to_string(err);
}

// GNU find's quoting of a file name in a diagnostic (gnulib quotearg, C locale): 'NAME', with
// control characters and the quote itself escaped.
std::string quoted(const std::string &name)
{
    std::string out = "'";
    for (const unsigned char c : name) {
        if (c == '\\' || c == '\'') {
            out += '\\';
            out += char(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\%03o", c);
            out += buf;
        } else {
            out += char(c);
        }
    }
    return out + "'";
}

// One piece of a -printf format: text, a directive, or \c (stop this file's output).
struct Piece
{
    enum Kind
    {
        Text,
        Field,
        Stop
    } kind = Text;
    std::string text; // Text: the bytes; Field: the printf width spec ("-10", "5.2")
    char field = 0;   // y s b U G m n P p, or T / A (with '@')
};

struct Action
{
    enum Kind
    {
        Print,
        Print0,
        Printf
    } kind = Print;
    std::vector<Piece> pieces;
};

// Compiles a -printf format as GNU find's parser does: unknown escapes and directives are
// warned about once and printed as written; a lone % at the end is an error.
bool compileFormat(const std::string &f, std::vector<Piece> *pieces, std::string *err)
{
    std::string text;
    auto flush = [&] {
        if (!text.empty())
            pieces->push_back({Piece::Text, text, 0});
        text.clear();
    };
    for (size_t i = 0; i < f.size(); ++i) {
        const char c = f[i];
        if (c == '\\') {
            if (i + 1 >= f.size()) {
                *err += "find: warning: escape `\\' followed by nothing at all\n";
                text += '\\';
                continue;
            }
            const char n = f[++i];
            if (n >= '0' && n <= '7') {
                int value = 0;
                size_t j = i;
                for (; j < f.size() && j < i + 3 && f[j] >= '0' && f[j] <= '7'; ++j)
                    value = value * 8 + (f[j] - '0');
                text += char(value);
                i = j - 1;
                continue;
            }
            static const std::string from = "abfnrtv\\";
            static const std::string to = "\a\b\f\n\r\t\v\\";
            if (const size_t k = from.find(n); k != std::string::npos) {
                text += to[k];
            } else if (n == 'c') {
                flush();
                pieces->push_back({Piece::Stop, {}, 0});
            } else {
                *err += std::string("find: warning: unrecognized escape `\\") + n + "'\n";
                text += '\\';
                text += n;
            }
        } else if (c == '%') {
            if (i + 1 >= f.size()) {
                *err += "find: error: % at end of format string\n";
                return false;
            }
            if (f[i + 1] == '%') {
                text += '%';
                ++i;
                continue;
            }
            // Flags, width and precision: only '-', the width and the precision change a field
            // that is printed as a string.
            size_t j = i + 1;
            bool left = false;
            for (; j < f.size() && std::strchr("-+ #0", f[j]); ++j)
                left |= f[j] == '-';
            const size_t widthStart = j;
            for (; j < f.size() && (std::isdigit(static_cast<unsigned char>(f[j])) || f[j] == '.');
                 ++j) {
            }
            if (j >= f.size()) {
                *err += "find: error: % at end of format string\n";
                return false;
            }
            const std::string spec = (left ? "-" : "") + f.substr(widthStart, j - widthStart);
            const char d = f[j];
            if (std::strchr("ysbUGmnPpi", d)) {
                flush();
                pieces->push_back({Piece::Field, spec, d});
                i = j;
            } else if ((d == 'T' || d == 'A') && j + 1 < f.size() && f[j + 1] == '@') {
                flush();
                pieces->push_back({Piece::Field, spec, d});
                i = j + 1;
            } else if ((d == 'T' || d == 'A') && j + 1 >= f.size()) {
                *err += std::string("find: warning: format directive `%") + d +
                        "' should be followed by another character\n";
                text += f.substr(i, j + 1 - i);
                i = j;
            } else {
                // Other time formats (%Tk, %t...) and directives are not simulated.
                const size_t len = (d == 'T' || d == 'A') ? j + 2 - i : j + 1 - i;
                *err += "find: warning: unrecognized format directive `" + f.substr(i, len) + "'\n";
                text += f.substr(i, len);
                i += len - 1;
            }
        } else {
            text += c;
        }
    }
    flush();
    return true;
}

// GNU's %T@: seconds, then the nanoseconds and a tenth digit that is always 0.
std::string timeField(const timespec &t)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%lld.%09ld0", static_cast<long long>(t.tv_sec), t.tv_nsec);
    return buf;
}

char typeLetter(mode_t mode)
{
    if (S_ISDIR(mode))
        return 'd';
    if (S_ISLNK(mode))
        return 'l';
    if (S_ISFIFO(mode))
        return 'p';
    if (S_ISSOCK(mode))
        return 's';
    if (S_ISCHR(mode))
        return 'c';
    if (S_ISBLK(mode))
        return 'b';
    return 'f';
}

std::string render(const std::vector<Piece> &pieces, const std::string &path,
                   const std::string &rel, const struct stat &st)
{
    std::string out;
    for (const Piece &p : pieces) {
        if (p.kind == Piece::Stop)
            break;
        if (p.kind == Piece::Text) {
            out += p.text;
            continue;
        }
        std::string v;
        switch (p.field) {
        case 'y':
            v = std::string(1, typeLetter(st.st_mode));
            break;
        case 's':
            v = std::to_string(qint64(st.st_size));
            break;
        case 'b':
            v = std::to_string(qint64(st.st_blocks));
            break;
        case 'U':
            v = std::to_string(st.st_uid);
            break;
        case 'G':
            v = std::to_string(st.st_gid);
            break;
        case 'n':
            v = std::to_string(qulonglong(st.st_nlink));
            break;
        case 'i':
            v = std::to_string(qulonglong(st.st_ino));
            break;
        case 'P':
            v = rel;
            break;
        case 'p':
            v = path;
            break;
        case 'T':
            v = timeField(st.st_mtim);
            break;
        case 'A':
            v = timeField(st.st_atim);
            break;
        case 'm': {
            char buf[16];
            std::snprintf(buf, sizeof buf, "%o", unsigned(st.st_mode & 07777));
            v = buf;
            break;
        }
        }
        if (p.text.empty()) {
            out += v;
        } else {
            const std::string fmt = "%" + p.text + "s";
            const int n = std::snprintf(nullptr, 0, fmt.c_str(), v.c_str());
            std::string buf(size_t(std::max(n, 0)) + 1, '\0');
            std::snprintf(buf.data(), buf.size(), fmt.c_str(), v.c_str());
            buf.resize(size_t(std::max(n, 0)));
            out += buf;
        }
    }
    return out;
}

// The file system a host path below the root lies on, as the node mounts them: /mnt itself is
// the node's disk, /mnt/user and /mnt/share two NFS exports.
std::string mountOf(const std::string &root, const std::string &host)
{
    if (host.size() <= root.size() + 1)
        return "mnt";
    const std::string rel = host.substr(root.size() + 1);
    const std::string first = rel.substr(0, rel.find('/'));
    return first == "user" || first == "share" ? first : "mnt";
}

} // namespace

struct NasTree::Walk
{
    int minDepth = 0;
    int maxDepth = INT_MAX;
    bool xdev = false;
    std::string startMount;
    std::vector<Action> actions;
    CommandOutput result;

    void fail(const std::string &nodePath, int err)
    {
        result.err += "find: " + quoted(nodePath) + ": " + errorText(err) + "\n";
        result.status = 1;
    }
};

NasTree::NasTree(const std::string &stateDir)
    : m_root(std::filesystem::absolute(std::filesystem::path(stateDir) / "nas")
                 .lexically_normal()
                 .string())
{
    while (m_root.size() > 1 && m_root.back() == '/')
        m_root.pop_back();
}

bool NasTree::ensureRoot(std::string *error) const
{
    std::error_code ec;
    for (const char *sub : {"user", "share"}) {
        std::filesystem::create_directories(std::filesystem::path(m_root) / sub, ec);
        if (ec) {
            if (error)
                *error = "cannot create " + m_root + "/" + sub + ": " + ec.message();
            return false;
        }
    }
    return true;
}

std::optional<std::string> NasTree::hostPath(const std::string &nodePath) const
{
    if (nodePath != "/mnt" && nodePath.rfind("/mnt/", 0) != 0)
        return std::nullopt;
    const std::string rest = nodePath.substr(4);
    size_t start = 0;
    while (start <= rest.size()) {
        const size_t end = std::min(rest.find('/', start), rest.size());
        if (rest.compare(start, end - start, "..") == 0 && end - start == 2)
            return std::nullopt;
        start = end + 1;
    }
    return m_root + rest;
}

std::optional<std::string> NasTree::resolve(const std::string &nodePath, bool followLast,
                                            int *err) const
{
    if (nodePath.empty() || nodePath[0] != '/') {
        *err = ENOENT; // no working directory on the NAS
        return std::nullopt;
    }
    auto split = [](const std::string &p) {
        std::deque<std::string> parts;
        size_t start = 0;
        while (start <= p.size()) {
            const size_t end = std::min(p.find('/', start), p.size());
            parts.push_back(p.substr(start, end - start));
            start = end + 1;
        }
        return parts;
    };
    std::deque<std::string> todo = split(nodePath);
    std::vector<std::string> done; // resolved node components, done[0] == "mnt"
    auto hostOf = [&] {
        std::string h = m_root;
        for (size_t i = 1; i < done.size(); ++i)
            h += "/" + done[i];
        return h;
    };
    int links = 0;
    while (!todo.empty()) {
        const std::string c = todo.front();
        todo.pop_front();
        // A trailing slash (an empty last component) or a "." makes the component before it
        // an inner one: followed when a link, and it must be a directory.
        const bool final = todo.empty();
        if (c.empty() || c == ".")
            continue;
        if (c == "..") {
            if (!done.empty())
                done.pop_back();
            continue;
        }
        done.push_back(c);
        if (done[0] != "mnt") {
            *err = ENOENT; // the node's own disks are not simulated
            return std::nullopt;
        }
        const std::string host = hostOf();
        struct stat st;
        if (::lstat(host.c_str(), &st) != 0) {
            *err = errno;
            return std::nullopt;
        }
        if (S_ISLNK(st.st_mode) && (!final || followLast)) {
            if (++links > 40) {
                *err = ELOOP;
                return std::nullopt;
            }
            std::string target(size_t(st.st_size) + 256, '\0');
            const ssize_t n = ::readlink(host.c_str(), target.data(), target.size());
            if (n < 0) {
                *err = errno;
                return std::nullopt;
            }
            target.resize(size_t(n));
            done.pop_back();
            if (!target.empty() && target[0] == '/')
                done.clear();
            std::deque<std::string> parts = split(target);
            todo.insert(todo.begin(), parts.begin(), parts.end());
            continue;
        }
        if (!final && !S_ISDIR(st.st_mode)) {
            *err = ENOTDIR;
            return std::nullopt;
        }
        // Looking a name up in a directory needs its search (x) bit, for a user not root.
        const bool lookupBelow =
            std::any_of(todo.begin(), todo.end(), [](const std::string &t) { return !t.empty(); });
        if (lookupBelow && (st.st_mode & 0111) == 0) {
            *err = EACCES;
            return std::nullopt;
        }
    }
    if (done.empty() || done[0] != "mnt") {
        *err = ENOENT;
        return std::nullopt;
    }
    return hostOf();
}

bool NasTree::list(const std::string &host, std::vector<std::string> *names, int *err) const
{
    // O_NOATIME: reading a directory must not change what the next reader sees. Without it
    // every walk would set every directory's atime to now (relatime updates when ctime is newer
    // than atime, and seeding's utimensat made ctime now), which a real NAS, its files written
    // long ago, does not do. Only the owner may ask for it: else read as anyone does.
    int fd = ::open(host.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOATIME);
    if (fd < 0 && errno == EPERM)
        fd = ::open(host.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? ::fdopendir(fd) : nullptr;
    if (!d) {
        *err = errno;
        if (fd >= 0)
            ::close(fd);
        return false;
    }
    const bool atRoot = host == m_root;
    while (const dirent *e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name == "." || name == ".." || (atRoot && name == kSeededMarker))
            continue;
        names->push_back(name);
    }
    ::closedir(d);
    std::sort(names->begin(), names->end());
    return true;
}

void NasTree::visit(Walk &w, const std::string &nodePath, const std::string &host,
                    const std::string &rel, int depth, const struct stat &st) const
{
    if (depth >= w.minDepth) {
        for (const Action &a : w.actions) {
            if (a.kind == Action::Print)
                w.result.out += nodePath + "\n";
            else if (a.kind == Action::Print0)
                w.result.out += nodePath + std::string(1, '\0');
            else
                w.result.out += render(a.pieces, nodePath, rel, st);
        }
    }
    if (!S_ISDIR(st.st_mode) || depth >= w.maxDepth)
        return;
    if (w.xdev && mountOf(m_root, host) != w.startMount)
        return; // a mount point: listed, not entered
    std::vector<std::string> names;
    int err = 0;
    // The node's user is not root: a directory without any read bit cannot be listed, even
    // where the simulator itself (as root) could.
    if (!readable(st.st_mode)) {
        w.fail(nodePath, EACCES);
        return;
    }
    if (!list(host, &names, &err)) {
        w.fail(nodePath, err);
        return;
    }
    for (const std::string &name : names) {
        const std::string childNode = nodePath + (nodePath.back() == '/' ? "" : "/") + name;
        const std::string childHost = host + "/" + name;
        struct stat cst;
        if (::lstat(childHost.c_str(), &cst) != 0) {
            w.fail(childNode, errno);
            continue;
        }
        visit(w, childNode, childHost, rel.empty() ? name : rel + "/" + name, depth + 1, cst);
    }
}

CommandOutput NasTree::find(const std::vector<std::string> &argv) const
{
    Walk w;
    size_t i = 1;
    while (i < argv.size() && argv[i] == "-P")
        ++i;
    // Start points: every word before the first that looks like an expression, as GNU's.
    auto expressionWord = [](const std::string &a) {
        return (a.size() > 1 && a[0] == '-') || a == "(" || a == ")" || a == "!" || a == ",";
    };
    std::vector<std::string> starts;
    for (; i < argv.size() && !expressionWord(argv[i]); ++i)
        starts.push_back(argv[i]);
    if (starts.empty())
        starts.push_back(".");
    std::string warnings;
    for (; i < argv.size(); ++i) {
        const std::string &a = argv[i];
        if (a == "-xdev" || a == "-mount") {
            w.xdev = true;
        } else if (a == "-mindepth" || a == "-maxdepth") {
            if (i + 1 >= argv.size())
                return {"", "find: missing argument to `" + a + "'\n", 1};
            const std::string &n = argv[++i];
            if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos)
                return {"",
                        "find: Expected a positive decimal integer argument to " + a +
                            ", but got '" + n + "'\n",
                        1};
            const int value = n.size() > 9 ? INT_MAX : std::stoi(n);
            (a == "-mindepth" ? w.minDepth : w.maxDepth) = value;
        } else if (a == "-print" || a == "-print0") {
            w.actions.push_back({a == "-print" ? Action::Print : Action::Print0, {}});
        } else if (a == "-printf") {
            if (i + 1 >= argv.size())
                return {"", "find: missing argument to `-printf'\n", 1};
            Action act{Action::Printf, {}};
            if (!compileFormat(argv[++i], &act.pieces, &warnings))
                return {"", warnings, 1};
            w.actions.push_back(std::move(act));
        } else if (expressionWord(a)) {
            return {"", warnings + "find: unknown predicate `" + a + "'\n", 1};
        } else {
            return {"", warnings + "find: paths must precede expression: `" + a + "'\n", 1};
        }
    }
    if (w.actions.empty())
        w.actions.push_back({Action::Print, {}});
    w.result.err = warnings;
    for (const std::string &start : starts) {
        int err = 0;
        // -P: a link named as a start point is not followed, unless a trailing slash asks.
        const auto host = resolve(start, !start.empty() && start.back() == '/', &err);
        struct stat st;
        if (!host || ::lstat(host->c_str(), &st) != 0) {
            w.fail(start, host ? errno : err);
            continue;
        }
        w.startMount = mountOf(m_root, *host);
        visit(w, start, *host, "", 0, st);
    }
    return w.result;
}

void NasTree::addUsage(const std::string &host, Usage *u, std::set<ino_t> *linked) const
{
    std::vector<std::string> names;
    int err = 0;
    if (!list(host, &names, &err))
        return;
    for (const std::string &name : names) {
        const std::string child = host + "/" + name;
        struct stat st;
        if (::lstat(child.c_str(), &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            ++u->dirs;
        } else {
            ++u->files;
            // The tree is one filesystem: the inode names the file.
            if (st.st_nlink > 1 && !linked->insert(st.st_ino).second)
                continue;
        }
        u->bytes += st.st_size;
        u->allocated += qint64(st.st_blocks) * 512;
        if (S_ISDIR(st.st_mode) && readable(st.st_mode))
            addUsage(child, u, linked);
    }
}

NasTree::Usage NasTree::usage(const std::string &nodePath) const
{
    Usage u;
    int err = 0;
    const auto host = resolve(nodePath, false, &err);
    struct stat st;
    if (!host || ::lstat(host->c_str(), &st) != 0)
        return u;
    u.bytes = st.st_size;
    u.allocated = qint64(st.st_blocks) * 512;
    std::set<ino_t> linked;
    if (S_ISDIR(st.st_mode) && readable(st.st_mode))
        addUsage(*host, &u, &linked);
    return u;
}

qint64 NasTree::allocatedChange(const std::string &mount) const
{
    // Measured at every call (the demo's tree is a few hundred entries), so that df tells a
    // removal at once, as a NAS does.
    const qint64 now = usage(mount).allocated;
    std::lock_guard lock(m_firstMutex);
    return now - m_firstAllocated.try_emplace(mount, now).first->second;
}

std::vector<std::string> NasTree::folders() const
{
    std::vector<std::string> out;
    for (const char *area : {"user", "share"}) {
        std::vector<std::string> names;
        int err = 0;
        if (!list(m_root + "/" + area, &names, &err))
            continue;
        for (const std::string &name : names) {
            struct stat st;
            if (::lstat((m_root + "/" + area + "/" + name).c_str(), &st) == 0 &&
                S_ISDIR(st.st_mode))
                out.push_back(std::string("/mnt/") + area + "/" + name);
        }
    }
    return out;
}

} // namespace sim
