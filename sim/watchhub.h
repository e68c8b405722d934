// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apihelpers.h"
#include "objectstore.h"
#include "selectors.h"
#include "tableprinter.h"

#include <QPointer>

#include <list>
#include <memory>

namespace sim {

// The API server's watch streams: chunked JSON lines from a resourceVersion (or from the
// current state), filtered by namespace and selectors, as Tables when asked, with bookmarks,
// timeouts, 410 Expired for versions older than the kept history, and a dropped stream for a
// watcher that stops reading.
class WatchHub
{
public:
    explicit WatchHub(ObjectStore *store) : m_store(store) {}

    void watch(HttpConnection *c, const HttpRequest &r, const ApiRoute &route, bool table);
    void onStoreChanged(const ResourceType *type, const WatchEvent &event);
    // Bookmarks and timeouts; called a few times a second.
    void tick();
    // Cuts every stream, as an API server restart does.
    void abortAll();
    int count() const { return int(m_watches.size()); }

private:
    struct Watch
    {
        QPointer<HttpConnection> connection;
        const ResourceType *type = nullptr;
        QString ns;
        LabelSelector labels;
        FieldSelector fields;
        bool table = false;
        bool tableColumnsSent = false;
        bool bookmarks = false;
        qint64 lastBookmarkMs = 0;
        qint64 deadlineMs = 0;
        quint64 lastRv = 0;
        TablePrinter::IncludeObject include = TablePrinter::IncludeObject::Metadata;
    };
    void deliver(Watch &watch, const ResourceType *type, const WatchEvent &event);

    ObjectStore *m_store;
    std::list<std::unique_ptr<Watch>> m_watches;
};

TablePrinter::IncludeObject includeObjectOf(const HttpRequest &r);

} // namespace sim
