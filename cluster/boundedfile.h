// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace gpudesk {

// What gpudesk reads at most of the files a configuration names: a file larger than this is a
// mistake (or /dev/zero), never read whole.
namespace filelimit {
constexpr qint64 Kubeconfig = 16 << 20; // hundreds of contexts with inline certificates
constexpr qint64 Credential = 1 << 20;  // a certificate chain, a key, a token file
constexpr qint64 SshConfig = 1 << 20;   // each file, Included ones too
} // namespace filelimit

// The contents of `path`, if it holds at most `maxBytes`. Otherwise nullopt and *why says what
// was wrong, to follow "cannot read PATH: " (the system's reason, or that it is larger than the
// bound). Reads at most maxBytes + 1 bytes, so a file without an end cannot hold gpudesk.
std::optional<QByteArray> readBoundedFile(const QString &path, qint64 maxBytes, QString *why);

} // namespace gpudesk
