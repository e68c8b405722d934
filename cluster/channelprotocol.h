// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace gpudesk::channel {

// The Kubernetes channel protocols over WebSocket (v4 / v5.channel.k8s.io): every binary
// message begins with the number of the stream it belongs to.
inline constexpr quint8 Stdin = 0, Stdout = 1, Stderr = 2, Error = 3, Resize = 4;
inline constexpr quint8 Close = 255; // v5: [255, channel] ends that stream from this side

QByteArray frame(quint8 channel, const QByteArray &data);
// v5's close signal for `channel`.
QByteArray closeFrame(quint8 channel);
// The terminal size message for channel 4.
QByteArray resizeFrame(int columns, int rows);

// How an exec ended, from the Status on the error channel: its exit code (0 on Success), or a
// failure that is not an exit code (the command could not start) in the server's words.
struct ExecEnd
{
    int exitCode = 0;
    QString error; // empty when the command ran (whatever its exit code)
};
std::optional<ExecEnd> parseExecStatus(const QByteArray &status);

// Port-forward: the port's number opens each of its channels, little-endian.
std::optional<quint16> portPrefix(const QByteArray &data);

} // namespace gpudesk::channel
