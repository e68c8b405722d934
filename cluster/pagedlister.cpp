// SPDX-License-Identifier: GPL-3.0-or-later
#include "pagedlister.h"

#include "kubeclient.h"

#include <QUrlQuery>

namespace gpudesk {

PagedLister::PagedLister(KubeClient *client, QString path, int pageSize, QObject *parent)
    : QObject(parent), m_client(client), m_path(std::move(path)), m_pageSize(pageSize)
{}

void PagedLister::next(const QString &continueToken)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("limit"), QString::number(m_pageSize));
    if (!continueToken.isEmpty())
        q.addQueryItem(QStringLiteral("continue"), continueToken);
    m_client->get(m_path + u'?' + q.toString(QUrl::FullyEncoded), this, [this](const KubeReply &r) {
        if (!r.error.isEmpty())
            emit failed(r.httpStatus, r.error);
        else
            emit page(r.body);
    });
}

} // namespace gpudesk
