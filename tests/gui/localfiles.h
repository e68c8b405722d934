// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMap>

// Relative path → bytes of every regular file below `root` (links left out): what a copy of a
// NAS folder must have made, compared whole.
inline QMap<QString, QByteArray> filesBelow(const QString &root)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            out.insert(QDir(root).relativeFilePath(path), f.readAll());
    }
    return out;
}

// Whether the file at `path` is `size` bytes that start with `head`, end with `tail` and hold
// zeros half-way (a sparse test file, copied whole).
inline bool sparseCopyIs(const QString &path, qint64 size, const QByteArray &head,
                         const QByteArray &tail)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) && f.size() == size && f.read(head.size()) == head &&
           f.seek(size / 2) && f.read(1 << 20) == QByteArray(1 << 20, '\0') &&
           f.seek(size - tail.size()) && f.read(tail.size()) == tail;
}
