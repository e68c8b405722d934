// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QString>

#include <memory>
#include <string>

namespace sim::harbor {

// The token service's signer, as Harbor's core is for its registry: JWTs (RS256) whose header
// carries the signing certificate (x5c), which the registry checks against its rootcertbundle.
// Times are the wall clock's: the registry checks them against its own.
class TokenIssuer
{
public:
    TokenIssuer();
    ~TokenIssuer();
    TokenIssuer(const TokenIssuer &) = delete;
    TokenIssuer &operator=(const TokenIssuer &) = delete;

    bool load(const QString &keyPem, const QString &certPem, QString *error);
    void setNames(std::string issuer, std::string service)
    {
        m_issuer = std::move(issuer);
        m_service = std::move(service);
    }
    const std::string &service() const { return m_service; }

    // A token for `subject` with `access` ([{type, name, actions}]), valid `ttlSeconds`.
    std::string issue(const std::string &subject, const nlohmann::json &access,
                      int ttlSeconds) const;

private:
    struct Key;
    std::unique_ptr<Key> m_key;
    QByteArray m_certDerBase64;
    std::string m_issuer = "harbor-token-issuer";
    std::string m_service = "harbor-registry";
};

} // namespace sim::harbor
