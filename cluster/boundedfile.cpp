// SPDX-License-Identifier: GPL-3.0-or-later
#include "boundedfile.h"

#include <QCoreApplication>
#include <QFile>

namespace gpudesk {

std::optional<QByteArray> readBoundedFile(const QString &path, qint64 maxBytes, QString *why)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *why = f.errorString();
        return std::nullopt;
    }
    // Read in steps rather than trusting size(): devices and pipes report 0.
    QByteArray data;
    while (data.size() <= maxBytes) {
        const QByteArray piece = f.read(std::min<qint64>(maxBytes + 1 - data.size(), 1 << 20));
        if (piece.isEmpty())
            break;
        data += piece;
    }
    if (f.error() != QFileDevice::NoError) {
        *why = f.errorString();
        return std::nullopt;
    }
    if (data.size() > maxBytes) {
        *why = QCoreApplication::translate("BoundedFile",
                                           "larger than %1 KiB, more than such a file holds")
                   .arg(maxBytes >> 10);
        return std::nullopt;
    }
    return data;
}

} // namespace gpudesk
