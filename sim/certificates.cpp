// SPDX-License-Identifier: GPL-3.0-or-later
#include "certificates.h"

#include <QDir>
#include <QFile>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

namespace sim {
namespace {

struct PkeyFree
{
    void operator()(EVP_PKEY *k) const { EVP_PKEY_free(k); }
};
struct X509Free
{
    void operator()(X509 *c) const { X509_free(c); }
};
struct BioFree
{
    void operator()(BIO *b) const { BIO_free(b); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using Cert = std::unique_ptr<X509, X509Free>;
using Bio = std::unique_ptr<BIO, BioFree>;

Pkey generateKey()
{
    return Pkey(EVP_EC_gen("P-256"));
}

bool addExtension(X509 *cert, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    if (!ext)
        return false;
    const bool ok = X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

Cert makeCertificate(EVP_PKEY *key, const char *commonName, X509 *issuer, EVP_PKEY *issuerKey,
                     bool isCa, long serial)
{
    Cert cert(X509_new());
    X509_set_version(cert.get(), 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial);
    // Backdate a little: clients with a slightly different clock must accept it at once.
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 60L * 60 * 24 * 3650);
    X509_set_pubkey(cert.get(), key);
    X509_NAME *name = X509_get_subject_name(cert.get());
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char *>("gpudesk-sim"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char *>(commonName), -1, -1, 0);
    X509 *issuerCert = issuer ? issuer : cert.get();
    X509_set_issuer_name(cert.get(), X509_get_subject_name(issuerCert));
    bool ok = true;
    if (isCa) {
        ok &= addExtension(cert.get(), issuerCert, NID_basic_constraints, "critical,CA:TRUE");
        ok &= addExtension(cert.get(), issuerCert, NID_key_usage,
                           "critical,keyCertSign,cRLSign,digitalSignature");
    } else {
        ok &= addExtension(cert.get(), issuerCert, NID_basic_constraints, "critical,CA:FALSE");
        ok &= addExtension(cert.get(), issuerCert, NID_key_usage,
                           "critical,digitalSignature,keyEncipherment");
        ok &= addExtension(cert.get(), issuerCert, NID_ext_key_usage, "serverAuth");
        ok &= addExtension(cert.get(), issuerCert, NID_subject_alt_name,
                           "DNS:localhost,DNS:gpudesk-sim,IP:127.0.0.1,IP:::1");
    }
    ok &= addExtension(cert.get(), issuerCert, NID_subject_key_identifier, "hash");
    if (!ok || X509_sign(cert.get(), issuerKey ? issuerKey : key, EVP_sha256()) <= 0)
        return nullptr;
    return cert;
}

bool writePem(const QString &path, const std::function<int(BIO *)> &write, bool secret)
{
    Bio bio(BIO_new(BIO_s_mem()));
    if (write(bio.get()) != 1)
        return false;
    char *data = nullptr;
    const long len = BIO_get_mem_data(bio.get(), &data);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    if (secret)
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return f.write(data, len) == len;
}

Pkey readKey(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    const QByteArray pem = f.readAll();
    Bio bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    return Pkey(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

Cert readCert(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    const QByteArray pem = f.readAll();
    Bio bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    return Cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

} // namespace

Certificates::Certificates(QString dir) : m_dir(std::move(dir)) {}

namespace {

bool writeKeyAndCertificate(const QString &keyPath, const QString &certPath, EVP_PKEY *key,
                            X509 *cert)
{
    return writePem(
               keyPath,
               [key](BIO *b) {
                   return PEM_write_bio_PrivateKey(b, key, nullptr, nullptr, 0, nullptr, nullptr);
               },
               true) &&
           writePem(
               certPath, [cert](BIO *b) { return PEM_write_bio_X509(b, cert); }, false);
}

} // namespace

bool Certificates::ensure(QString *error)
{
    QDir().mkpath(m_dir);
    Pkey caKey = readKey(caKeyPath());
    Cert caCert = readCert(caCertPath());
    if (!caKey || !caCert) {
        caKey = generateKey();
        caCert = caKey ? makeCertificate(caKey.get(), "gpudesk-sim-ca", nullptr, nullptr, true, 1)
                       : nullptr;
        if (!caCert) {
            *error = QStringLiteral("cannot generate the simulator's CA");
            return false;
        }
        if (!writeKeyAndCertificate(caKeyPath(), caCertPath(), caKey.get(), caCert.get())) {
            *error = QStringLiteral("cannot write the CA into %1").arg(m_dir);
            return false;
        }
        QFile::remove(serverCertPath()); // signed by the old CA
    }
    if (readKey(serverKeyPath()) && readCert(serverCertPath()))
        return true;
    Pkey key = generateKey();
    Cert cert = key ? makeCertificate(key.get(), "gpudesk-sim", caCert.get(), caKey.get(), false,
                                      QDateTime::currentSecsSinceEpoch())
                    : nullptr;
    if (!cert) {
        *error = QStringLiteral("cannot generate the server certificate");
        return false;
    }
    if (!writeKeyAndCertificate(serverKeyPath(), serverCertPath(), key.get(), cert.get())) {
        *error = QStringLiteral("cannot write the server certificate into %1").arg(m_dir);
        return false;
    }
    return true;
}

} // namespace sim
