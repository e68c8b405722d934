// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace sim {

// The simulator's own little PKI: a CA and a server certificate for 127.0.0.1/localhost,
// generated on first start and reused afterwards so that kubeconfigs stay valid across restarts.
class Certificates
{
public:
    explicit Certificates(QString dir);

    // Creates whatever is missing. Returns false with a message on failure.
    bool ensure(QString *error);

    QString caCertPath() const { return m_dir + QStringLiteral("/ca.crt"); }
    QString caKeyPath() const { return m_dir + QStringLiteral("/ca.key"); }
    QString serverCertPath() const { return m_dir + QStringLiteral("/server.crt"); }
    QString serverKeyPath() const { return m_dir + QStringLiteral("/server.key"); }

private:
    QString m_dir;
};

} // namespace sim
