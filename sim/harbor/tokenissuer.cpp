// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokenissuer.h"

#include <QDateTime>
#include <QFile>
#include <QRandomGenerator>
#include <QSslCertificate>

#include <openssl/evp.h>
#include <openssl/pem.h>

namespace sim::harbor {

struct TokenIssuer::Key
{
    EVP_PKEY *pkey = nullptr;
    ~Key() { EVP_PKEY_free(pkey); }
};

namespace {

QByteArray base64Url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray readAll(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return {};
    }
    return f.readAll();
}

} // namespace

TokenIssuer::TokenIssuer() : m_key(std::make_unique<Key>()) {}
TokenIssuer::~TokenIssuer() = default;

bool TokenIssuer::load(const QString &keyPem, const QString &certPem, QString *error)
{
    const QByteArray key = readAll(keyPem, error);
    if (key.isEmpty())
        return false;
    const QByteArray cert = readAll(certPem, error);
    if (cert.isEmpty())
        return false;
    BIO *bio = BIO_new_mem_buf(key.constData(), int(key.size()));
    m_key->pkey = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!m_key->pkey || EVP_PKEY_get_base_id(m_key->pkey) != EVP_PKEY_RSA) {
        *error = QStringLiteral("%1 holds no RSA private key").arg(keyPem);
        return false;
    }
    const QList<QSslCertificate> certs = QSslCertificate::fromData(cert, QSsl::Pem);
    if (certs.isEmpty()) {
        *error = QStringLiteral("%1 holds no certificate").arg(certPem);
        return false;
    }
    m_certDerBase64 = certs.first().toDer().toBase64(); // x5c is plain base64, not base64url
    return true;
}

std::string TokenIssuer::issue(const std::string &subject, const nlohmann::json &access,
                               int ttlSeconds) const
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const nlohmann::json header{
        {"typ", "JWT"}, {"alg", "RS256"}, {"x5c", {m_certDerBase64.toStdString()}}};
    quint64 jti[2];
    QRandomGenerator::system()->fillRange(jti);
    const nlohmann::json claims{
        {"iss", m_issuer},
        {"sub", subject},
        {"aud", m_service},
        {"exp", now + ttlSeconds},
        {"nbf", now - 5},
        {"iat", now},
        {"jti",
         base64Url(QByteArray(reinterpret_cast<const char *>(jti), sizeof jti)).toStdString()},
        {"access", access}};
    const QByteArray signingInput = base64Url(QByteArray::fromStdString(header.dump())) + '.' +
                                    base64Url(QByteArray::fromStdString(claims.dump()));
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t length = 0;
    QByteArray signature;
    if (EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, m_key->pkey) == 1 &&
        EVP_DigestSign(ctx, nullptr, &length,
                       reinterpret_cast<const unsigned char *>(signingInput.constData()),
                       size_t(signingInput.size())) == 1) {
        signature.resize(qsizetype(length));
        if (EVP_DigestSign(ctx, reinterpret_cast<unsigned char *>(signature.data()), &length,
                           reinterpret_cast<const unsigned char *>(signingInput.constData()),
                           size_t(signingInput.size())) != 1)
            signature.clear();
        else
            signature.resize(qsizetype(length));
    }
    EVP_MD_CTX_free(ctx);
    return QByteArray(signingInput + '.' + base64Url(signature)).toStdString();
}

} // namespace sim::harbor
