// SPDX-License-Identifier: GPL-3.0-or-later
// The floor of a sync: a collection's pages fetched as an informer asks for them (500 a page,
// one connection kept alive) and only their bytes kept — nothing decoded, the continue token
// found by a search of the page's head. Benchmarks compare gpudesk's sync with this, measured
// in the same run against the same simulator.
#pragma once

#include "kubeclient.h"

#include <QEventLoop>
#include <QList>

#include <cstdio>
#include <functional>

struct RawFetch
{
    QList<QByteArray> pages;
    qint64 bytes = 0;
};

inline RawFetch fetchPages(gpudesk::KubeClient &client, const QString &collectionPath)
{
    RawFetch out;
    QString token;
    QEventLoop loop;
    std::function<void()> next = [&] {
        QString path = collectionPath + QStringLiteral("?limit=500");
        if (!token.isEmpty())
            path += QStringLiteral("&continue=") + token;
        client.get(path, &loop, [&](const gpudesk::KubeReply &r) {
            if (!r.error.isEmpty()) {
                std::fprintf(stderr, "fetch: %s\n", qPrintable(r.error));
                loop.quit();
                return;
            }
            out.pages.append(r.body);
            out.bytes += r.body.size();
            const QByteArray head = r.body.left(4096);
            const qsizetype at = head.indexOf("\"continue\":\"");
            token =
                at < 0
                    ? QString()
                    : QString::fromLatin1(head.mid(at + 12, head.indexOf('"', at + 12) - at - 12));
            if (token.isEmpty())
                loop.quit();
            else
                next();
        });
    };
    next();
    loop.exec();
    return out;
}
