// SPDX-License-Identifier: GPL-3.0-or-later
#include "telemetrystore.h"

#include "clusterstore.h"

namespace gpudesk {

TelemetryStore::TelemetryStore(const ClusterStore *cluster, QObject *parent)
    : QObject(parent), m_cluster(cluster)
{
    m_tick.setSingleShot(true);
    m_tick.setInterval(100);
    connect(&m_tick, &QTimer::timeout, this, &TelemetryStore::flush);
    m_aging.setInterval(1000);
    connect(&m_aging, &QTimer::timeout, this, &TelemetryStore::checkAging);
}

void TelemetryStore::checkAging()
{
    for (auto it = m_fresh.begin(); it != m_fresh.end();) {
        if (isFresh(*it)) {
            ++it;
            continue;
        }
        m_pending.insert(*it);
        it = m_fresh.erase(it);
    }
    if (m_fresh.isEmpty())
        m_aging.stop();
    if (!m_pending.isEmpty() && !m_tick.isActive())
        m_tick.start();
}

void TelemetryStore::apply(const NodeSample &sample)
{
    if (!sample.ok()) {
        // Keep the last good sample (it ages into "stale"); only say the node changed.
        m_pending.insert(sample.node);
        if (!m_tick.isActive())
            m_tick.start();
        return;
    }
    applyPods(sample, latest(sample.node));
    m_latest[sample.node] = sample;
    m_fresh.insert(sample.node);
    if (!m_aging.isActive())
        m_aging.start();
    trackActivity(sample);
    TelemetryHistory &h = m_history[sample.node];
    QList<TelemetryHistory::CardValues> cards;
    cards.reserve(sample.cards.size());
    for (const GpuCardSample &c : sample.cards)
        cards.append({c.utilization.value_or(-1), c.memoryUsedMiB.value_or(-1),
                      c.temperatureC.value_or(-1), c.powerDrawW.value_or(-1)});
    if (!cards.isEmpty())
        h.addCards(sample.time, cards);
    TelemetryHistory::NodeValues nv;
    nv.cpuPercent = sample.cpuPercent.value_or(-1);
    if (sample.memory && sample.memory->totalKiB > 0)
        nv.memoryPercent = 100.0 * double(sample.memory->totalKiB - sample.memory->availableKiB) /
                           double(sample.memory->totalKiB);
    if (sample.load)
        nv.load1 = sample.load->one;
    h.addNode(sample.time, nv);
    m_pending.insert(sample.node);
    if (!m_tick.isActive())
        m_tick.start();
}

void TelemetryStore::applyPods(const NodeSample &sample, const NodeSample *previous)
{
    QSet<QString> now;
    for (const PodUsage &u : sample.pods) {
        now.insert(u.uid);
        auto &h = m_podHistory[u.uid];
        if (!h)
            h = std::make_unique<PodUsageHistory>();
        h->add(sample.time, u.cpuCores, u.workingSetBytes);
        m_podNow.insert(u.uid, {sample.node, sample.time, u});
    }
    // A pod the node no longer lists has stopped there; its history stays for its viewer.
    if (previous)
        for (const PodUsage &u : previous->pods)
            if (!now.contains(u.uid))
                m_podNow.remove(u.uid);
    if (sample.time - m_lastPrune >= 60000) {
        m_lastPrune = sample.time;
        prunePodHistory();
    }
}

void TelemetryStore::prunePodHistory()
{
    // Kept while the pod exists, and for a day after its last sample (a finished job's usage is
    // still worth a look); dropped sooner once the pod is gone from the API.
    const qint64 now = m_now();
    for (auto it = m_podHistory.begin(); it != m_podHistory.end();) {
        const qint64 age = now - it->second->lastSampleMs();
        const bool gone = !m_cluster->pod(it->first) && age > GoneKeepMs;
        if (gone || age > 24 * 3600 * 1000LL)
            it = m_podHistory.erase(it);
        else
            ++it;
    }
    // A pod's GPU activity goes with the pod (a while after, as its history).
    for (auto it = m_activity.begin(); it != m_activity.end();)
        it = (!m_cluster->pod(it.key()) && now - it->lastSampled > GoneKeepMs)
                 ? m_activity.erase(it)
                 : std::next(it);
}

void TelemetryStore::setSshStatus(const QString &node, const SshStatus &status)
{
    m_ssh.insert(node, status);
    m_pending.insert(node);
    if (!m_tick.isActive())
        m_tick.start();
}

void TelemetryStore::clear()
{
    m_fresh.clear();
    m_aging.stop();
    m_latest.clear();
    m_ssh.clear();
    m_history.clear();
    m_podHistory.clear();
    m_podNow.clear();
    m_activity.clear();
    m_dSince.clear();
    m_orphanSince.clear();
    m_pending.clear();
    emit updated({});
}

void TelemetryStore::flush()
{
    m_tick.stop();
    if (m_pending.isEmpty())
        return;
    emit updated(std::exchange(m_pending, {}));
}

const NodeSample *TelemetryStore::latest(const QString &node) const
{
    const auto it = m_latest.find(node);
    return it == m_latest.end() ? nullptr : &it->second;
}

NvidiaSmiResult<GpuCardSample>::State TelemetryStore::gpuState(const QString &node) const
{
    const NodeSample *s = latest(node);
    return s ? s->gpuState : NvidiaSmiResult<GpuCardSample>::Ok;
}

QString TelemetryStore::gpuMessage(const QString &node) const
{
    const NodeSample *s = latest(node);
    return s ? s->gpuMessage : QString();
}

bool TelemetryStore::isFresh(const QString &node) const
{
    const NodeSample *s = latest(node);
    return s && m_now() - s->time <= StaleMs;
}

SshStatus TelemetryStore::sshStatus(const QString &node) const
{
    return m_ssh.value(node);
}

const TelemetryHistory *TelemetryStore::history(const QString &node) const
{
    const auto it = m_history.find(node);
    return it == m_history.end() ? nullptr : &it->second;
}

QStringList TelemetryStore::nodes() const
{
    QStringList out;
    for (const auto &[name, s] : m_latest)
        out << name;
    return out;
}

AttributedProcess TelemetryStore::attribute(const NodeProcess &p) const
{
    AttributedProcess a;
    a.pid = p.pid;
    a.cardIndex = p.cardIndex;
    a.migDevice = p.migDevice;
    a.memoryMiB = p.memoryMiB;
    a.command = p.name;
    a.podUid = p.owner.podUid;
    a.containerId = p.owner.containerId;
    a.state = p.state;
    a.startTicks = p.startTicks;
    if (!p.owner.podUid.isEmpty()) {
        if (const PodInfo *pod = m_cluster->pod(p.owner.podUid)) {
            a.pod = pod->name;
            a.ns = pod->ns;
            a.user = m_cluster->userOf(pod->ns);
            a.vc = m_cluster->vcOf(*pod);
        } else {
            a.podHidden = !m_cluster->podsComplete();
        }
    }
    return a;
}

QList<AttributedProcess> TelemetryStore::processes(const QString &node) const
{
    QList<AttributedProcess> out;
    if (const NodeSample *s = latest(node))
        for (const NodeProcess &p : s->processes)
            out.append(attribute(p));
    return out;
}

QList<CardState> TelemetryStore::cards(const QString &node) const
{
    QList<CardState> out;
    const NodeSample *s = latest(node);
    if (!s)
        return out;
    const QList<AttributedProcess> procs = processes(node);
    for (const GpuCardSample &c : s->cards) {
        CardState cs;
        cs.sample = c;
        cs.busy = c.utilization.value_or(0) >= BusyPercent;
        for (const AttributedProcess &p : procs) {
            if (p.cardIndex != c.index)
                continue;
            cs.processes.append(p);
            cs.unattributed |= p.orphan();
            cs.hiddenOwner |= p.podHidden;
        }
        cs.phantom = cs.processes.isEmpty() && c.memoryUsedMiB.value_or(0) >= PhantomMiB;
        cs.migEnabled = c.migEnabled.value_or(false);
        if (cs.migEnabled) {
            for (const MigDeviceSample &d : s->migDevices) {
                if (d.gpuIndex != c.index)
                    continue;
                MigState m;
                m.sample = d;
                for (const AttributedProcess &p : std::as_const(cs.processes)) {
                    if (p.migDevice != d.index)
                        continue;
                    m.processes.append(p);
                    m.attributed |= p.attributed();
                    m.unattributed |= p.orphan();
                    m.hiddenOwner |= p.podHidden;
                }
                cs.busy |= m.inUse();
                cs.mig.append(m);
            }
            // Memory the card holds in total is its instances': "phantom" would need an
            // instance-level look, which the instances' own figures give.
            cs.phantom = false;
        }
        out.append(cs);
    }
    return out;
}

int TelemetryStore::busyGpus() const
{
    int n = 0;
    for (const auto &[name, s] : m_latest) {
        if (!isFresh(name))
            continue;
        for (const GpuCardSample &c : s.cards) {
            if (c.migEnabled.value_or(false)) {
                // A card in MIG mode is busy while any of its instances runs a process.
                n += std::any_of(s.processes.cbegin(), s.processes.cend(),
                                 [&](const NodeProcess &p) { return p.cardIndex == c.index; })
                         ? 1
                         : 0;
            } else if (c.utilization.value_or(0) >= BusyPercent) {
                ++n;
            }
        }
    }
    return n;
}

int TelemetryStore::sampledGpus() const
{
    int n = 0;
    for (const auto &[name, s] : m_latest)
        if (isFresh(name))
            n += int(s.cards.size());
    return n;
}

QList<PodCard> TelemetryStore::cardsOfPods(const QStringList &podUids) const
{
    QList<PodCard> out;
    for (const QString &uid : podUids) {
        const PodInfo *pod = m_cluster->pod(uid);
        const NodeSample *s = pod ? latest(pod->nodeName) : nullptr;
        if (!s)
            continue;
        QSet<int> seen;
        for (const NodeProcess &p : s->processes)
            if (p.owner.podUid == uid && p.cardIndex >= 0 && !seen.contains(p.cardIndex)) {
                seen.insert(p.cardIndex);
                out.append({uid, pod->nodeName, p.cardIndex});
            }
    }
    std::sort(out.begin(), out.end(), [](const PodCard &a, const PodCard &b) {
        return std::tie(a.node, a.card) < std::tie(b.node, b.card);
    });
    return out;
}

void TelemetryStore::trackActivity(const NodeSample &s)
{
    // Per pod: busy when a card one of its processes uses is at BusyPercent or more (a card in
    // MIG mode: while the process runs, as busyGpus() counts it).
    QHash<QString, bool> busyOfPod;
    QHash<qint64, qint64> dSince, orphanSince;
    const auto &oldD = m_dSince[s.node];
    const auto &oldOrphan = m_orphanSince[s.node];
    for (const NodeProcess &p : s.processes) {
        if (p.state == 'D')
            dSince.insert(p.pid, oldD.value(p.pid, s.time));
        if (!p.owner.podUid.isEmpty()) {
            bool busy = false;
            for (const GpuCardSample &c : s.cards)
                if (c.index == p.cardIndex)
                    busy = c.migEnabled.value_or(false) || c.utilization.value_or(0) >= BusyPercent;
            busyOfPod[p.owner.podUid] |= busy;
        }
        if (attribute(p).orphan())
            orphanSince.insert(p.pid, oldOrphan.value(p.pid, s.time));
    }
    m_dSince.insert(s.node, dSince);
    m_orphanSince.insert(s.node, orphanSince);
    if (!s.hasGpus())
        return;
    for (const PodInfo *pod : m_cluster->podsOnNode(s.node)) {
        if (pod->gpuRequest <= 0 || pod->phase != QLatin1String("Running"))
            continue;
        GpuActivity &a = m_activity[pod->uid];
        if (a.firstSampled == 0)
            a.firstSampled = s.time;
        a.lastSampled = s.time;
        const auto busy = busyOfPod.constFind(pod->uid);
        a.hasProcess = busy != busyOfPod.cend();
        if (a.hasProcess && *busy)
            a.lastBusy = s.time;
    }
}

std::optional<GpuActivity> TelemetryStore::gpuActivity(const QString &podUid) const
{
    const auto it = m_activity.constFind(podUid);
    return it == m_activity.cend() ? std::nullopt : std::optional<GpuActivity>(*it);
}

qint64 TelemetryStore::uninterruptibleSince(const QString &node, qint64 pid) const
{
    return m_dSince.value(node).value(pid, 0);
}

qint64 TelemetryStore::orphanSince(const QString &node, qint64 pid) const
{
    return m_orphanSince.value(node).value(pid, 0);
}

bool TelemetryStore::containersGone(const QString &podUid) const
{
    const PodInfo *pod = m_cluster->pod(podUid);
    const NodeSample *s = pod ? latest(pod->nodeName) : nullptr;
    if (!s || !isFresh(pod->nodeName) || !s->podsAsked.contains(podUid))
        return false;
    for (const PodUsage &u : s->pods)
        if (u.uid == podUid)
            return false;
    for (const NodeProcess &p : s->processes)
        if (p.owner.podUid == podUid)
            return false;
    return true;
}

std::optional<PodUsageNow> TelemetryStore::podUsage(const QString &podUid) const
{
    const auto it = m_podNow.constFind(podUid);
    if (it == m_podNow.cend() || !isFresh(it->node))
        return std::nullopt;
    return *it;
}

const PodUsageHistory *TelemetryStore::podHistory(const QString &podUid) const
{
    const auto it = m_podHistory.find(podUid);
    return it == m_podHistory.end() ? nullptr : it->second.get();
}

bool TelemetryStore::wantsUsageOf(const PodInfo &pod) const
{
    return pod.gpuRequest > 0 || m_watched.contains(pod.uid);
}

void TelemetryStore::watchPods(const QStringList &podUids)
{
    for (const QString &uid : podUids)
        ++m_watched[uid];
}

void TelemetryStore::unwatchPods(const QStringList &podUids)
{
    for (const QString &uid : podUids)
        if (auto it = m_watched.find(uid); it != m_watched.end() && --*it <= 0)
            m_watched.erase(it);
}

const PodInfo *TelemetryStore::pod(const QString &podUid) const
{
    return m_cluster->pod(podUid);
}

WorkloadUsage TelemetryStore::workloadUsage(const QStringList &podUids, qint64 windowMs) const
{
    WorkloadUsage w;
    const qint64 to = m_now();
    const qint64 from = to - windowMs;
    for (const QString &uid : podUids) {
        if (const PodInfo *p = m_cluster->pod(uid); p && !p->finished()) {
            w.cpuRequestCores += double(p->cpuRequestMilli) / 1000.0;
            w.memoryRequestBytes += p->memoryRequestBytes;
        }
        if (const auto now = podUsage(uid)) {
            ++w.podsSampled;
            w.workingSetBytes += now->usage.workingSetBytes;
        }
        if (const PodUsageHistory *h = podHistory(uid))
            if (const auto cpu = h->averageCpu(from, to))
                w.cpuCores = w.cpuCores.value_or(0) + *cpu;
    }
    double util = 0;
    int points = 0;
    for (const PodCard &pc : cardsOfPods(podUids)) {
        ++w.cards;
        if (const TelemetryHistory *h = history(pc.node))
            for (const QPointF &p :
                 h->cardSeries(pc.card, TelemetryHistory::Metric::Utilization, from, to)) {
                util += p.y();
                ++points;
            }
    }
    if (points)
        w.gpuUtilization = util / points;
    w.inputBound = w.gpuUtilization && *w.gpuUtilization < InputBoundGpuPercent && w.cpuCores &&
                   w.cpuRequestCores > 0 && *w.cpuCores >= InputBoundCpuShare * w.cpuRequestCores;
    return w;
}

} // namespace gpudesk
