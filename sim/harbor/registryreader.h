// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QObject>
#include <QSslConfiguration>

#include <functional>
#include <string>

namespace sim::harbor {

class TokenIssuer;

// Harbor's core reaching its registry: with tokens it issues itself (subject "harbor-core", whose
// pulls are not counted), as every Distribution client would. Asynchronous, on the event loop.
class RegistryReader : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *kSubject = "harbor-core";

    struct Reply
    {
        int status = 0;
        QByteArray body;
        QByteArray mediaType;
        std::string error; // "" when the registry answered 2xx
    };
    using Done = std::function<void(const Reply &)>;

    RegistryReader(std::string url, const std::string &caFile, const TokenIssuer *issuer,
                   QObject *parent = nullptr);

    void manifest(const std::string &repository, const std::string &digest, Done done);
    void blob(const std::string &repository, const std::string &digest, Done done);
    void deleteManifest(const std::string &repository, const std::string &digest, Done done);

private:
    void send(const QByteArray &verb, const std::string &repository, const std::string &path,
              const char *actions, const QByteArray &accept, Done done);

    std::string m_url;
    const TokenIssuer *m_issuer;
    QNetworkAccessManager m_net;
    QSslConfiguration m_tls;
};

} // namespace sim::harbor
