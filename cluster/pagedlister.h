// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

namespace gpudesk {

class KubeClient;

// Lists a collection page by page (limit/continue). Each raw page is handed on; the receiver
// decodes it (off the UI thread) and asks for the next one with the page's continue token, so a
// page is parsed once and pages never pile up faster than they are decoded.
class PagedLister : public QObject
{
    Q_OBJECT
public:
    PagedLister(KubeClient *client, QString path, int pageSize = 500, QObject *parent = nullptr);
    void start() { next({}); }
    void next(const QString &continueToken);

signals:
    void page(const QByteArray &body);
    void failed(int httpStatus, const QString &error);

private:
    KubeClient *m_client;
    QString m_path;
    int m_pageSize;
};

} // namespace gpudesk
