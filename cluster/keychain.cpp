// SPDX-License-Identifier: GPL-3.0-or-later
#include "keychain.h"

#include <qt6keychain/keychain.h>

namespace gpudesk {

void Keychain::read(const QString &key, QObject *context, ReadDone done)
{
    auto *job = new QKeychain::ReadPasswordJob(service(), context);
    job->setKey(key);
    job->setAutoDelete(true);
    QObject::connect(job, &QKeychain::Job::finished, context,
                     [done = std::move(done)](QKeychain::Job *j) {
                         auto *r = static_cast<QKeychain::ReadPasswordJob *>(j);
                         if (r->error() == QKeychain::NoError)
                             done(r->binaryData(), QString());
                         else
                             done(QByteArray(), r->errorString());
                     });
    job->start();
}

void Keychain::write(const QString &key, const QByteArray &secret, QObject *context, WriteDone done)
{
    auto *job = new QKeychain::WritePasswordJob(service(), context);
    job->setKey(key);
    job->setBinaryData(secret);
    job->setAutoDelete(true);
    QObject::connect(job, &QKeychain::Job::finished, context,
                     [done = std::move(done)](QKeychain::Job *j) {
                         done(j->error() == QKeychain::NoError ? QString() : j->errorString());
                     });
    job->start();
}

} // namespace gpudesk
