// SPDX-License-Identifier: GPL-3.0-or-later
#include "contextfiles.h"

#include <QRegularExpression>
#include <QStandardPaths>

namespace gpudesk {

QString contextDataFile(const QString &folder, const QString &context)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]"));
    QString name = context;
    name.replace(unsafe, QStringLiteral("_"));
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + u'/' + folder +
           u'/' + name + QStringLiteral(".json");
}

} // namespace gpudesk
