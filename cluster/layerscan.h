// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <memory>

namespace gpudesk {

// Looks for files in one image layer as it streams in — a tar archive, gzip'd as registries
// store them (one gzip member or several, as eStargz writes them) or plain —, reading only the
// tar headers (file contents are skipped, never kept): whether the layer adds one of `paths`, and
// which of them it removes with a whiteout (`.wh.NAME`, or an opaque `.wh..wh..opq` in a folder
// above, which hides what the layers below put there). Names as the archive writes them
// ("./usr/sbin/sshd", "usr/sbin/sshd"); GNU long names, PAX paths and ustar prefixes read. A zstd
// layer, a broken stream or a header that is not tar ends the scan with error() set.
class LayerScan
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::LayerScan)

public:
    enum class Hit
    {
        None,    // this layer neither adds nor removes any of the paths
        Found,   // it adds one (a file or a link): path() says which
        Removed, // it adds none and removes some (or hides their folder): removed() says which
    };

    explicit LayerScan(QStringList paths);
    ~LayerScan();
    LayerScan(const LayerScan &) = delete;
    LayerScan &operator=(const LayerScan &) = delete;

    // The next bytes of the layer; false once the scan needs no more (found, or an error).
    bool feed(const char *data, qsizetype size);
    bool feed(const QByteArray &bytes) { return feed(bytes.constData(), bytes.size()); }
    // The layer has ended: an error when it was cut short.
    void finish();

    Hit hit() const { return m_hit; }
    // The path found, else the first removed.
    QString path() const { return m_path; }
    QStringList removed() const { return m_removed; }
    QString error() const { return m_error; }
    qint64 entries() const { return m_entries; }

    // A tar header's size field (octal, or GNU's base-256); -1 when it is neither.
    static qint64 tarNumber(const char *field, int length);

private:
    bool tar(const char *data, qsizetype size);
    bool header(const char *block);
    void entry(QString name, char type);
    void fail(const QString &why);

    QStringList m_paths;
    Hit m_hit = Hit::None;
    QString m_path;
    QStringList m_removed;
    QString m_error;
    qint64 m_entries = 0;
    bool m_started = false;
    bool m_gzip = false;
    bool m_memberEnd = false; // a gzip member has just ended: another may follow
    struct Inflater;
    std::unique_ptr<Inflater> m_inflater;
    QByteArray m_block;    // a header being gathered (512 bytes)
    qint64 m_skip = 0;     // bytes of the current entry's data (and padding) still to skip
    char m_dataOf = 0;     // the entry whose data is read, not skipped: 'L' or 'x'
    QByteArray m_data;     // that data
    qint64 m_dataSize = 0; // its size
    QString m_longName;    // a GNU long name or PAX path for the next entry
    int m_zeroBlocks = 0;
};

} // namespace gpudesk
