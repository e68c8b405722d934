// SPDX-License-Identifier: GPL-3.0-or-later
#include "telemetrysampler.h"

#include "nodeprobe.h"
#include "sshpool.h"

#include <QDateTime>
#include <QPointer>

namespace gpudesk {

TelemetrySampler::TelemetrySampler(SshPool *pool, QObject *parent) : QObject(parent), m_pool(pool)
{
    qRegisterMetaType<gpudesk::NodeSample>();
    m_timer.setInterval(2000);
    connect(&m_timer, &QTimer::timeout, this, &TelemetrySampler::sweep);
}

TelemetrySampler::~TelemetrySampler() = default;

void TelemetrySampler::setTargets(const QList<SshTarget> &targets)
{
    QSet<QString> keep;
    for (const SshTarget &t : targets) {
        keep.insert(t.node);
        m_pool->setTarget(t);
        if (!m_probes.contains(t.node))
            m_probes.insert(t.node, std::make_shared<NodeProbe>(t.node));
    }
    for (auto it = m_probes.begin(); it != m_probes.end();) {
        if (keep.contains(it.key())) {
            ++it;
        } else {
            m_pool->removeNode(it.key());
            it = m_probes.erase(it);
        }
    }
}

void TelemetrySampler::setInterval(int ms)
{
    m_timer.setInterval(ms);
}

void TelemetrySampler::start()
{
    m_timer.start();
    sweep();
}

void TelemetrySampler::stop()
{
    m_timer.stop();
}

void TelemetrySampler::sweep()
{
    if (m_outstanding > 0)
        emit sweepFinished(m_answered, m_failed, m_skipped + m_outstanding,
                           m_sweepClock.elapsed()); // the last sweep overran the period
    ++m_generation;
    m_outstanding = m_answered = m_failed = m_skipped = 0;
    m_sweepClock.start();
    const int timeout = m_execTimeoutMs;
    const quint64 generation = m_generation;
    for (auto it = m_probes.cbegin(); it != m_probes.cend(); ++it) {
        std::shared_ptr<NodeProbe> probe = it.value();
        const QString node = it.key();
        QPointer<TelemetrySampler> self(this);
        QList<nodecmd::PodRef> pods = m_podsOf ? m_podsOf(node) : QList<nodecmd::PodRef>();
        const bool taken = m_pool->submit(
            node, [probe, node, timeout, self, generation, pods = std::move(pods)](
                      SshConnection *c, const SshStatus &st, const std::atomic<bool> &cancel) {
                NodeSample s;
                if (c) {
                    s = probe->sample(*c, timeout, cancel, pods);
                } else {
                    s.node = node;
                    s.time = QDateTime::currentMSecsSinceEpoch();
                    s.error = st.message;
                }
                return std::function<void()>([self, s = std::move(s), generation] {
                    if (!self)
                        return;
                    emit self->sampled(s);
                    if (generation == self->m_generation)
                        self->finishOne(s.ok());
                });
            });
        if (taken)
            ++m_outstanding;
        else
            ++m_skipped;
    }
    if (m_outstanding == 0)
        emit sweepFinished(0, 0, m_skipped, 0);
}

void TelemetrySampler::finishOne(bool ok)
{
    (ok ? m_answered : m_failed)++;
    if (--m_outstanding == 0)
        emit sweepFinished(m_answered, m_failed, m_skipped, m_sweepClock.elapsed());
}

} // namespace gpudesk
