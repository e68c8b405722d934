// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

namespace gpudesk {

// The head of a Kubernetes list page, read without the items: the API server writes the list's
// metadata before them, so the next page's continue token is known at the cost of a few hundred
// bytes, and the informer asks for that page while this one decodes.
class ListHead
{
public:
    // The page's continue token; "" when there is none, or when the head does not say (items
    // before the metadata, malformed JSON) — then the whole page's decoding says.
    QString token;
    // How many objects the server says are left after this page (metadata.remainingItemCount,
    // an estimate it gives for a paged list without selectors); -1 when it does not say.
    qint64 remaining = -1;

    static ListHead read(const QByteArray &body);
    static QString continueToken(const QByteArray &body);
};

} // namespace gpudesk
