// SPDX-License-Identifier: GPL-3.0-or-later
#include "storagewalk.h"

#include <QRegularExpression>

#include <algorithm>
#include <charconv>

namespace gpudesk {

namespace {

// One space-ended number; false when the field is not one.
template <typename Int> bool number(const char *&p, const char *end, Int *out)
{
    const auto [next, ec] = std::from_chars(p, end, *out);
    if (ec != std::errc() || next == end || *next != ' ')
        return false;
    p = next + 1;
    return true;
}

// GNU find's %T@: seconds, a dot, ten digits of fraction (or none). Milliseconds.
bool seconds(const char *&p, const char *end, qint64 *ms)
{
    qint64 whole = 0;
    const auto [next, ec] = std::from_chars(p, end, whole);
    if (ec != std::errc())
        return false;
    p = next;
    qint64 frac = 0;
    if (p < end && *p == '.') {
        ++p;
        int digits = 0;
        for (; p < end && *p >= '0' && *p <= '9'; ++p, ++digits)
            if (digits < 3)
                frac = frac * 10 + (*p - '0');
        for (; digits < 3; ++digits)
            frac *= 10;
    }
    if (p == end || *p != ' ')
        return false;
    ++p;
    *ms = whole * 1000 + (whole < 0 ? -frac : frac);
    return true;
}

bool isCoreDump(QStringView name)
{
    // core, core.<number>: what the kernel's default core_pattern writes.
    if (!name.startsWith(u"core"))
        return false;
    if (name.size() == 4)
        return true;
    if (name.size() < 6 || name[4] != u'.')
        return false;
    for (QChar c : name.mid(5))
        if (!c.isDigit())
            return false;
    return true;
}

} // namespace

StorageWalk::StorageWalk(QString root, QString kind, qint64 nowMs)
    : m_root(std::move(root)), m_kind(std::move(kind)), m_now(nowMs)
{
    while (m_root.size() > 1 && m_root.endsWith(u'/'))
        m_root.chop(1);
}

void StorageWalk::feed(const char *data, qsizetype size)
{
    const char *p = data;
    const char *end = data + size;
    while (p < end) {
        const char *nul = static_cast<const char *>(memchr(p, '\0', size_t(end - p)));
        if (!nul) {
            if (!m_skipping) {
                m_partial.append(p, end - p);
                if (m_partial.size() > MaxRecord) {
                    malformed(m_partial.constData(), m_partial.constData() + 80);
                    m_partial.clear();
                    m_skipping = true;
                }
            }
            return;
        }
        if (m_skipping) {
            m_skipping = false;
        } else if (!m_partial.isEmpty()) {
            m_partial.append(p, nul - p);
            record(m_partial.constData(), m_partial.constData() + m_partial.size());
            m_partial.clear();
        } else {
            record(p, nul);
        }
        p = nul + 1;
    }
}

bool StorageWalk::firstName(Names &seen, quint64 inode, qint64 links)
{
    const auto it = seen.find(inode);
    if (it == seen.end()) {
        seen.emplace(inode, links - 1); // the names still to come
        return true;
    }
    if (--it->second <= 0)
        seen.erase(it);
    return false;
}

void StorageWalk::malformed(const char *begin, const char *end)
{
    if (m_malformed++ == 0)
        m_problems.append(
            {StorageProblem::NotRecords, QString(),
             QString::fromUtf8(begin, qMin<qsizetype>(end - begin, 80)).replace(u'\n', u' '), 0});
}

void StorageWalk::record(const char *begin, const char *end)
{
    // `%y %s %b %T@ %A@ %n %i %P`: the path is last, so that it may hold spaces.
    const char *p = begin;
    if (end - p < 2 || p[1] != ' ')
        return malformed(begin, end);
    const char type = *p;
    p += 2;
    qint64 size = 0, blocks = 0, mtime = 0, atime = 0, links = 0;
    quint64 inode = 0;
    if (!number(p, end, &size) || !number(p, end, &blocks) || !seconds(p, end, &mtime) ||
        !seconds(p, end, &atime) || !number(p, end, &links) || !number(p, end, &inode) ||
        p == end || size < 0 || blocks < 0)
        return malformed(begin, end);
    const QString rel = QString::fromUtf8(p, end - p);
    if (rel.startsWith(u'/') || rel.split(u'/').contains(QLatin1String("..")))
        return malformed(begin, end);
    ++m_entries;
    // A file with more than one name (a hard link: `ln step-6000.pt latest.pt`) holds its
    // bytes once, as du counts them: the first name met carries them, in the root and in each
    // folder; another name is a file of its folder, not bytes. Only such files are remembered,
    // and only until their last name is met (a package cache links millions of files).
    const bool linked = type != 'd' && links > 1;
    if (!linked || firstName(m_linked, inode, links))
        m_bytes += size;
    const qsizetype slash = rel.indexOf(u'/');
    QString top = slash < 0 ? rel : rel.left(slash);
    // Memory stays bounded whatever the tree: past the caps, entries are summed under "…".
    if (m_folders.size() >= MaxFolders && !m_folders.contains(top))
        top = QStringLiteral("…");
    Folder &f = m_folders[top];
    StorageFolder &s = f.sums;
    if (s.path.isEmpty()) {
        s.path = m_root + u'/' + top;
        s.owner = top;
        s.kind = m_kind;
    }
    if (linked && !firstName(f.linked, inode, links)) {
        if (slash >= 0)
            ++s.files; // another name of a file counted already
        return;
    }
    s.bytes += size;
    s.allocated += blocks * 512;
    s.lastChange = std::max(s.lastChange, mtime);
    if (slash < 0)
        return; // the folder itself
    if (type == 'd') {
        ++s.dirs;
    } else {
        ++s.files;
        constexpr qint64 Day = 24 * 3600 * 1000;
        if (mtime >= m_now - 7 * Day) {
            s.changedWeek += size;
            if (mtime >= m_now - Day)
                s.changedDay += size;
        }
    }
    const qsizetype second = rel.indexOf(u'/', slash + 1);
    QString partName = rel.mid(slash + 1, second < 0 ? -1 : second - slash - 1);
    if (f.parts.size() >= MaxPartsTracked && !f.parts.count(partName))
        partName = QStringLiteral("…"); // millions of files flat in one folder: one sum
    StoragePart &part = f.parts[partName];
    part.name = partName;
    part.bytes += size;
    part.lastChange = std::max(part.lastChange, mtime);
    const qsizetype third = second < 0 ? -1 : rel.indexOf(u'/', second + 1);
    if (second >= 0 && (third >= 0 || type == 'd') && isOutputFolder(partName)) {
        // checkpoints/NAME and everything below it: one job's outputs (a file right in
        // checkpoints/ is no job's folder).
        const QStringView job =
            QStringView(rel).mid(second + 1, third < 0 ? -1 : third - second - 1);
        StorageJobOutput *out = f.lastJobOutput;
        // The same folder as the last entry's: its path ends in "/checkpoints/NAME".
        const auto same = [&job, &partName](QStringView p) {
            const qsizetype n = job.size(), m = partName.size();
            return p.size() > n + m + 2 && p.endsWith(job) && p[p.size() - n - 1] == u'/' &&
                   p.chopped(n + 1).endsWith(partName) && p[p.size() - n - m - 2] == u'/';
        };
        if (!out || !same(out->path)) {
            const QString key = partName + u'/' + job;
            out = nullptr;
            if ((f.jobOutputs.size() < size_t(MaxJobOutputsTracked) &&
                 m_jobOutputs < MaxJobOutputsInWalk) ||
                f.jobOutputs.count(key)) {
                out = &f.jobOutputs[key];
                if (out->path.isEmpty()) {
                    ++m_jobOutputs;
                    out->path = s.path + u'/' + key;
                    out->job = job.toString();
                }
            }
            f.lastJobOutput = out;
        }
        if (out) {
            out->bytes += size;
            out->allocated += blocks * 512;
            out->files += type != 'd';
            out->lastChange = std::max(out->lastChange, mtime);
            if (type == 'f')
                out->lastRead = std::max(out->lastRead, atime);
        }
    }
    if (type != 'f')
        return;
    StorageFile file{m_root + u'/' + rel, size, blocks * 512, mtime, atime};
    const QStringView name = QStringView(rel).mid(rel.lastIndexOf(u'/') + 1);
    if (isCoreDump(name))
        keepLargest(s.coreDumps, file, StorageFolder::MaxFiles);
    if (size >= StorageFolder::StaleMinBytes &&
        std::max(mtime, atime) < m_now - qint64(StorageFolder::StaleDays) * 24 * 3600 * 1000)
        keepLargest(s.staleFiles, file, StorageFolder::MaxFiles);
    keepLargest(s.largestFiles, std::move(file), StorageFolder::MaxFiles);
}

void StorageWalk::keepLargest(QList<StorageFile> &files, StorageFile file, int max)
{
    if (files.size() >= max && files.constLast().bytes >= file.bytes)
        return;
    const auto at = std::upper_bound(files.begin(), files.end(), file.bytes,
                                     [](qint64 b, const StorageFile &f) { return b > f.bytes; });
    files.insert(at, std::move(file));
    if (files.size() > max)
        files.removeLast();
}

void StorageWalk::addErrors(const QByteArray &text)
{
    // find: '/mnt/user/frank/private': Permission denied (GNU find quotes with ' or ‘’)
    static const QRegularExpression re(QStringLiteral("^find: ['‘](.*)['’]: Permission denied$"));
    const QList<QByteArray> lines = text.split('\n');
    qint64 more = 0;
    for (const QByteArray &raw : lines) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty())
            continue;
        if (m_problems.size() >= MaxProblems) {
            ++more;
            continue;
        }
        if (const auto m = re.match(line); m.hasMatch())
            m_problems.append({StorageProblem::Unreadable, m.captured(1), QString(), 0});
        else
            m_problems.append({StorageProblem::Complaint, QString(), line, 0});
    }
    if (more > 0)
        m_problems.append({StorageProblem::More, QString(), QString(), more});
}

StorageRootMeasure StorageWalk::finish(bool complete)
{
    if (!m_partial.isEmpty())
        malformed(m_partial.constData(), m_partial.constData() + m_partial.size());
    m_partial.clear();
    for (StorageProblem &p : m_problems)
        if (p.kind == StorageProblem::NotRecords)
            p.count = m_malformed;
    StorageRootMeasure m;
    m.root = m_root;
    m.kind = m_kind;
    m.entries = m_entries;
    m.complete = complete;
    m.problems = m_problems;
    for (auto it = m_folders.begin(); it != m_folders.end(); ++it) {
        StorageFolder s = std::move(it->sums);
        for (auto &[name, part] : it->parts)
            s.largest.append(std::move(part));
        std::sort(s.largest.begin(), s.largest.end(),
                  [](const StoragePart &a, const StoragePart &b) { return a.bytes > b.bytes; });
        if (s.largest.size() > StorageFolder::MaxParts)
            s.largest.resize(StorageFolder::MaxParts);
        for (auto &[key, out] : it->jobOutputs)
            s.jobOutputs.append(std::move(out));
        std::sort(s.jobOutputs.begin(), s.jobOutputs.end(),
                  [](const StorageJobOutput &a, const StorageJobOutput &b) {
                      return a.bytes != b.bytes ? a.bytes > b.bytes : a.path < b.path;
                  });
        if (s.jobOutputs.size() > StorageFolder::MaxJobOutputs)
            s.jobOutputs.resize(StorageFolder::MaxJobOutputs);
        m.folders.append(std::move(s));
    }
    std::sort(m.folders.begin(), m.folders.end(),
              [](const StorageFolder &a, const StorageFolder &b) {
                  return a.bytes != b.bytes ? a.bytes > b.bytes : a.owner < b.owner;
              });
    m_folders.clear();
    m_jobOutputs = 0;
    return m;
}

} // namespace gpudesk
