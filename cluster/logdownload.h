// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>

#include <memory>

class QNetworkReply;
class QSaveFile;

namespace gpudesk {

class KubeClient;

// Saves a container's whole log from the API to a file, streamed (a log can be gigabytes), with
// progress and cancel. The file appears only when the download completes.
class LogDownload : public QObject
{
    Q_OBJECT
public:
    LogDownload(KubeClient *client, QString logPath, QString fileName, QObject *parent = nullptr);
    ~LogDownload() override;
    void start();
    void cancel();

signals:
    void progress(qint64 bytes);
    void finished(bool ok, const QString &message);

private:
    void onReadyRead();
    void onFinished();

    KubeClient *m_client;
    QString m_path;
    QString m_fileName;
    QNetworkAccessManager m_nam;
    QPointer<QNetworkReply> m_reply;
    std::unique_ptr<QSaveFile> m_file;
    qint64 m_bytes = 0;
};

} // namespace gpudesk
