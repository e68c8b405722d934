// SPDX-License-Identifier: GPL-3.0-or-later
#include "channelprotocol.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>

namespace gpudesk::channel {

QByteArray frame(quint8 channel, const QByteArray &data)
{
    QByteArray out;
    out.reserve(data.size() + 1);
    out.append(char(channel));
    out.append(data);
    return out;
}

QByteArray closeFrame(quint8 channel)
{
    // Not QByteArray{a, b}: that is QByteArray(size, fill), and 255 as a char is a size of -1.
    QByteArray out(2, '\0');
    out[0] = char(Close);
    out[1] = char(channel);
    return out;
}

QByteArray resizeFrame(int columns, int rows)
{
    // remotecommand's TerminalSize, as JSON with Go's field names.
    return frame(Resize, QJsonDocument(QJsonObject{{QStringLiteral("Width"), columns},
                                                   {QStringLiteral("Height"), rows}})
                             .toJson(QJsonDocument::Compact));
}

std::optional<ExecEnd> parseExecStatus(const QByteArray &status)
{
    const QJsonDocument doc = QJsonDocument::fromJson(status);
    if (!doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    const QString s = o.value(QLatin1String("status")).toString();
    if (s == QLatin1String("Success"))
        return ExecEnd{};
    if (s != QLatin1String("Failure"))
        return std::nullopt;
    // NonZeroExitCode carries the code in details.causes[reason=ExitCode]; anything else is
    // a failure to run at all.
    if (o.value(QLatin1String("reason")).toString() == QLatin1String("NonZeroExitCode")) {
        const QJsonArray causes =
            o.value(QLatin1String("details")).toObject().value(QLatin1String("causes")).toArray();
        for (const QJsonValue &c : causes) {
            if (c[QLatin1String("reason")].toString() != QLatin1String("ExitCode"))
                continue;
            bool ok = false;
            const int code = c[QLatin1String("message")].toString().toInt(&ok);
            if (ok)
                return ExecEnd{code, {}};
        }
    }
    QString message = o.value(QLatin1String("message")).toString();
    if (message.isEmpty())
        message = QStringLiteral("the command failed without saying why");
    return ExecEnd{-1, message};
}

std::optional<quint16> portPrefix(const QByteArray &data)
{
    if (data.size() < 2)
        return std::nullopt;
    return qFromLittleEndian<quint16>(data.constData());
}

} // namespace gpudesk::channel
