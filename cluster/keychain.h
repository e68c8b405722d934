// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>

namespace gpudesk {

// SSH passphrases and passwords in the OS keychain (Secret Service, KWallet, macOS Keychain,
// Windows Credential Store through QtKeychain), only when the user asked for it. Asynchronous:
// the answer comes to `context` on its thread, or not at all if it is gone.
class Keychain
{
public:
    using ReadDone = std::function<void(const QByteArray &secret, const QString &error)>;
    using WriteDone = std::function<void(const QString &error)>;

    static void read(const QString &key, QObject *context, ReadDone done);
    static void write(const QString &key, const QByteArray &secret, QObject *context,
                      WriteDone done);
    static QString service() { return QStringLiteral("gpudesk"); }
};

} // namespace gpudesk
