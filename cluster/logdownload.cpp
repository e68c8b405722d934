// SPDX-License-Identifier: GPL-3.0-or-later
#include "logdownload.h"

#include "kubeclient.h"

#include <QNetworkReply>
#include <QSaveFile>

namespace gpudesk {

LogDownload::LogDownload(KubeClient *client, QString logPath, QString fileName, QObject *parent)
    : QObject(parent), m_client(client), m_path(std::move(logPath)), m_fileName(std::move(fileName))
{
    client->attach(&m_nam);
}

LogDownload::~LogDownload()
{
    cancel();
}

void LogDownload::start()
{
    m_file = std::make_unique<QSaveFile>(m_fileName);
    if (!m_file->open(QIODevice::WriteOnly)) {
        emit finished(false, tr("Cannot write %1: %2").arg(m_fileName, m_file->errorString()));
        return;
    }
    QNetworkRequest req = m_client->request(m_path);
    req.setRawHeader("Accept", "*/*");
    req.setTransferTimeout(60000);
    m_reply = m_nam.get(req);
    connect(m_reply, &QNetworkReply::readyRead, this, &LogDownload::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &LogDownload::onFinished);
}

void LogDownload::cancel()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
    if (m_file)
        m_file->cancelWriting();
    m_file.reset();
}

void LogDownload::onReadyRead()
{
    if (m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() >= 400)
        return;
    const QByteArray data = m_reply->readAll();
    if (m_file->write(data) != data.size()) {
        const QString error = m_file->errorString();
        cancel();
        emit finished(false, tr("Cannot write %1: %2").arg(m_fileName, error));
        return;
    }
    m_bytes += data.size();
    emit progress(m_bytes);
}

void LogDownload::onFinished()
{
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->deleteLater();
    if (reply->error() != QNetworkReply::NoError) {
        const QString server = statusMessage(reply->readAll());
        m_file->cancelWriting();
        m_file.reset();
        emit finished(false, server.isEmpty() ? m_client->describeError(reply) : server);
        return;
    }
    onReadyRead();
    if (!m_file)
        return;
    if (!m_file->commit()) {
        emit finished(false, tr("Cannot write %1: %2").arg(m_fileName, m_file->errorString()));
        return;
    }
    m_file.reset();
    emit finished(true, tr("Saved %1 (%2 bytes).").arg(m_fileName).arg(m_bytes));
}

} // namespace gpudesk
