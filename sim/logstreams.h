// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apihelpers.h"
#include "podlogs.h"

#include <QPointer>

#include <list>
#include <memory>

namespace sim {

class Simulation;

// pods/log: a container's log read at once (tailLines, sinceSeconds, sinceTime, limitBytes,
// timestamps, previous) or followed until the container ends, with the kubelet's errors.
class LogStreams
{
public:
    LogStreams(ObjectStore *store, Simulation *simulation) : m_store(store), m_sim(simulation) {}

    void logs(HttpConnection *c, const HttpRequest &r, const ApiRoute &route);
    // Writes what followed logs gained; called a few times a second.
    void tick();

private:
    struct Follow
    {
        QPointer<HttpConnection> connection;
        QString ns;
        QString pod;
        QString container;
        std::string uid;
        LogSpec spec;
        qint64 next = 0; // index of the next line to send
        bool timestamps = false;
        qint64 bytesLeft = -1;
    };
    void writeFollowedLines(Follow &f);
    // The pod's node advertises InfiniBand or RoCE (Node Feature Discovery's label).
    bool nodeRdma(const nlohmann::json &pod) const;

    ObjectStore *m_store;
    Simulation *m_sim;
    std::list<std::unique_ptr<Follow>> m_follows;
};

} // namespace sim
