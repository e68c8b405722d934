// SPDX-License-Identifier: GPL-3.0-or-later
#include "layerscan.h"

#include <QCoreApplication>

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

namespace gpudesk {

namespace {

constexpr int Block = 512;
constexpr qint64 MaxMetaBytes = 64 * 1024; // a long name or PAX header longer is not one

constexpr qint64 MaxEntryBytes = qint64(1) << 50; // larger is a corrupt header, not a file

qint64 padded(qint64 size)
{
    return (size + Block - 1) / Block * Block;
}

// A NUL-terminated field of a header (or its whole length when it fills it).
QByteArray field(const char *at, int length)
{
    return QByteArray(at, qsizetype(strnlen(at, size_t(length))));
}

} // namespace

struct LayerScan::Inflater
{
    z_stream zs{};
    bool open = false;
    ~Inflater()
    {
        if (open)
            inflateEnd(&zs);
    }
};

LayerScan::LayerScan(QStringList paths) : m_paths(std::move(paths)) {}

LayerScan::~LayerScan() = default;

qint64 LayerScan::tarNumber(const char *f, int length)
{
    // GNU's base-256 for sizes past 8 GiB: the first byte's high bit set, big-endian after it.
    if (static_cast<unsigned char>(f[0]) & 0x80) {
        qint64 v = static_cast<unsigned char>(f[0]) & 0x7f;
        for (int i = 1; i < length; ++i) {
            if (v > (std::numeric_limits<qint64>::max() >> 8))
                return -1;
            v = (v << 8) | static_cast<unsigned char>(f[i]);
        }
        return v;
    }
    // A field of NULs (or spaces) alone is 0, as GNU tar and Go's archive/tar read it.
    if (std::all_of(f, f + length, [](char c) { return c == '\0' || c == ' '; }))
        return 0;
    qint64 v = 0;
    int i = 0;
    while (i < length && f[i] == ' ')
        ++i;
    bool any = false;
    for (; i < length && f[i] >= '0' && f[i] <= '7'; ++i) {
        if (v > (std::numeric_limits<qint64>::max() >> 3))
            return -1;
        v = v * 8 + (f[i] - '0');
        any = true;
    }
    // Ended by a NUL or a space, or the field's end.
    if (!any || (i < length && f[i] != '\0' && f[i] != ' '))
        return -1;
    return v;
}

void LayerScan::fail(const QString &why)
{
    if (m_error.isEmpty())
        m_error = why;
}

bool LayerScan::feed(const char *data, qsizetype size)
{
    if (m_hit == Hit::Found || !m_error.isEmpty())
        return false;
    if (!m_started) {
        if (size < 4) {
            // The magic is looked for in the first bytes: gather them.
            m_block.append(data, size);
            if (m_block.size() < 4)
                return true;
            const QByteArray first = std::exchange(m_block, QByteArray());
            return feed(first.constData(), first.size());
        }
        if (!m_block.isEmpty()) {
            QByteArray joined = std::exchange(m_block, QByteArray()) + QByteArray(data, size);
            return feed(joined.constData(), joined.size());
        }
        m_started = true;
        const auto *u = reinterpret_cast<const unsigned char *>(data);
        if (u[0] == 0x28 && u[1] == 0xb5 && u[2] == 0x2f && u[3] == 0xfd) {
            fail(tr("the layer is zstd-compressed, which is not read"));
            return false;
        }
        m_gzip = u[0] == 0x1f && u[1] == 0x8b;
        if (m_gzip) {
            m_inflater = std::make_unique<Inflater>();
            if (inflateInit2(&m_inflater->zs, 16 + MAX_WBITS) != Z_OK) {
                fail(tr("zlib could not be started"));
                return false;
            }
            m_inflater->open = true;
        }
    }
    if (!m_gzip)
        return tar(data, size);
    z_stream &zs = m_inflater->zs;
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data));
    zs.avail_in = uInt(size);
    char out[64 * 1024];
    while (zs.avail_in > 0 && m_zeroBlocks < 2) {
        if (m_memberEnd) {
            // Another gzip member (eStargz writes one per file); zeros after the last one are
            // padding, as gzip itself reads them.
            const auto *rest = zs.next_in;
            if (std::all_of(rest, rest + zs.avail_in, [](Bytef b) { return b == 0; }))
                break;
            inflateReset(&zs);
            m_memberEnd = false;
        }
        zs.next_out = reinterpret_cast<Bytef *>(out);
        zs.avail_out = sizeof out;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
            fail(tr("the layer's gzip stream is broken (%1)")
                     .arg(QString::fromLatin1(zs.msg ? zs.msg : "zlib")));
            return false;
        }
        const qsizetype produced = qsizetype(sizeof out - zs.avail_out);
        if (produced > 0 && !tar(out, produced))
            return false;
        if (rc == Z_STREAM_END)
            m_memberEnd = true;
        else if (rc == Z_BUF_ERROR && produced == 0)
            break; // needs more input
    }
    return m_hit != Hit::Found && m_error.isEmpty();
}

bool LayerScan::tar(const char *p, qsizetype n)
{
    while (n > 0 && m_zeroBlocks < 2) {
        if (m_skip > 0) {
            const qsizetype take = qsizetype(std::min<qint64>(n, m_skip));
            if (m_dataOf && m_data.size() < m_dataSize)
                m_data.append(p, std::min<qsizetype>(take, qsizetype(m_dataSize) - m_data.size()));
            p += take;
            n -= take;
            m_skip -= take;
            if (m_skip == 0 && m_dataOf) {
                if (m_dataOf == 'L') {
                    m_longName = QString::fromUtf8(field(m_data.constData(), int(m_data.size())));
                } else {
                    // PAX records: "LENGTH key=value\n"; the path is what matters here.
                    for (const QByteArray &record : m_data.split('\n')) {
                        const qsizetype space = record.indexOf(' ');
                        if (space > 0 && record.mid(space + 1).startsWith("path="))
                            m_longName = QString::fromUtf8(record.mid(space + 6));
                    }
                }
                m_dataOf = 0;
                m_data.clear();
            }
            continue;
        }
        const qsizetype take = std::min<qsizetype>(n, Block - m_block.size());
        m_block.append(p, take);
        p += take;
        n -= take;
        if (m_block.size() < Block)
            break;
        const QByteArray block = std::exchange(m_block, QByteArray());
        if (!header(block.constData()))
            return false;
        if (m_hit == Hit::Found)
            return false;
    }
    return m_error.isEmpty();
}

bool LayerScan::header(const char *b)
{
    if (std::all_of(b, b + Block, [](char c) { return c == '\0'; })) {
        ++m_zeroBlocks; // two end the archive
        return true;
    }
    m_zeroBlocks = 0;
    // The checksum: every byte of the header, its own field counted as spaces.
    qint64 sum = 0;
    for (int i = 0; i < Block; ++i)
        sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(b[i]);
    const qint64 stated = tarNumber(b + 148, 8);
    const qint64 size = tarNumber(b + 124, 12);
    if (stated != sum || size < 0 || size > MaxEntryBytes) {
        fail(tr("the layer is not a tar archive (a header's checksum or size is wrong, after %n "
                "entries)",
                nullptr, int(m_entries)));
        return false;
    }
    const char type = b[156];
    m_skip = padded(size);
    if (type == 'L' || type == 'x') {
        if (size > MaxMetaBytes) {
            fail(tr("the layer has a name of %1 bytes").arg(size));
            return false;
        }
        m_dataOf = type;
        m_dataSize = size;
        return true;
    }
    if (type == 'g')
        return true; // PAX global header: nothing of one entry
    QByteArray name = field(b, 100);
    // POSIX ustar's prefix; GNU's headers ("ustar  ") keep times there instead.
    if (std::memcmp(b + 257, "ustar\0", 6) == 0) {
        const QByteArray prefix = field(b + 345, 155);
        if (!prefix.isEmpty())
            name = prefix + '/' + name;
    }
    entry(m_longName.isEmpty() ? QString::fromUtf8(name) : std::exchange(m_longName, QString()),
          type);
    return true;
}

void LayerScan::entry(QString name, char type)
{
    ++m_entries;
    while (name.startsWith(QLatin1String("./")))
        name.remove(0, 2);
    while (name.startsWith(u'/'))
        name.remove(0, 1);
    while (name.endsWith(u'/'))
        name.chop(1);
    for (const QString &path : std::as_const(m_paths)) {
        if (name == path && type != '5') {
            m_hit = Hit::Found;
            m_path = path;
            return;
        }
        if (m_removed.contains(path))
            continue;
        // A whiteout of the file or of a folder above it (`.wh.NAME`), or an opaque folder above
        // it (`.wh..wh..opq`): what the layers below put there is gone.
        qsizetype slash = -1;
        do {
            const qsizetype next = path.indexOf(u'/', slash + 1);
            const QString dir = slash < 0 ? QString() : path.left(slash);
            const QString component = path.mid(slash + 1, next < 0 ? -1 : next - slash - 1);
            const QString in = dir.isEmpty() ? QString() : dir + u'/';
            if (name == in + QStringLiteral(".wh.") + component ||
                (!dir.isEmpty() && name == in + QStringLiteral(".wh..wh..opq"))) {
                m_removed << path;
                if (m_hit == Hit::None) {
                    m_hit = Hit::Removed;
                    m_path = path;
                }
                break;
            }
            slash = next;
        } while (slash >= 0);
    }
}

void LayerScan::finish()
{
    if (m_hit == Hit::Found || !m_error.isEmpty())
        return;
    if (!m_started && !m_block.isEmpty())
        fail(tr("the layer is %n byte(s) long: not a tar archive", nullptr, int(m_block.size())));
    else if (m_zeroBlocks < 2 && (!m_gzip || !m_memberEnd || m_skip > 0 || !m_block.isEmpty()))
        // Whole: the archive's two blocks of zeros came, or (gzip'd) its last member ended
        // between entries.
        fail(tr("the layer ended in the middle (after %n entries)", nullptr, int(m_entries)));
}

} // namespace gpudesk
