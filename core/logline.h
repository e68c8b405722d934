// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>

namespace gpudesk {

// One line of a container's log: the kubelet's RFC 3339 timestamp and the text.
struct LogLine
{
    QByteArray timestamp;
    QByteArray text;
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::LogLine)
