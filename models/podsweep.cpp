// SPDX-License-Identifier: GPL-3.0-or-later
#include "podsweep.h"

#include "clusterstore.h"

#include <QElapsedTimer>

namespace gpudesk {

namespace {
// Pods between two looks at the clock.
constexpr qsizetype kStride = 64;
} // namespace

PodSweep::PodSweep(const ClusterStore *store, QObject *parent) : QObject(parent), m_store(store)
{
    m_turn.setSingleShot(true);
    m_turn.setInterval(0);
    connect(&m_turn, &QTimer::timeout, this, &PodSweep::step);
}

void PodSweep::start(Visit visit, Done done)
{
    // The keys alone (a reference each): the store's table changes under churn between turns,
    // and an iterator into it would not survive that.
    m_uids = m_store->pods().keys();
    m_next = 0;
    m_visit = std::move(visit);
    m_done = std::move(done);
    step();
}

void PodSweep::runNow(const Visit &visit, const Done &done)
{
    cancel();
    for (const PodInfo &p : m_store->pods())
        visit(p);
    done();
}

void PodSweep::cancel()
{
    m_turn.stop();
    m_uids.clear();
    m_next = 0;
    m_visit = {};
    m_done = {};
}

void PodSweep::step()
{
    QElapsedTimer clock;
    clock.start();
    while (m_next < m_uids.size()) {
        const qsizetype end = std::min(m_next + kStride, m_uids.size());
        for (; m_next < end; ++m_next)
            if (const PodInfo *p = m_store->pod(m_uids.at(m_next)))
                m_visit(*p);
        if (clock.elapsed() >= SliceMs && m_next < m_uids.size()) {
            m_turn.start();
            return;
        }
    }
    // Cleared before `done`, which may start the next walk.
    m_uids.clear();
    m_visit = {};
    const Done done = std::exchange(m_done, {});
    if (done)
        done();
}

} // namespace gpudesk
