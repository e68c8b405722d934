// SPDX-License-Identifier: GPL-3.0-or-later
#include "sshpool.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLoggingCategory>
#include <QPointer>
#include <QRandomGenerator>
#include <QSet>
#include <QThreadPool>

#include <libssh/libssh.h>

#include <mutex>

Q_LOGGING_CATEGORY(lcSsh, "gpudesk.ssh")

namespace gpudesk {

namespace {

// Workers mostly wait on the network, so there are more of them than cores. The pool is
// process-wide and never destroyed: a worker stuck in a connect to a dead node (bounded by
// ConnectTimeout) must not hold up a context switch; the program's exit waits for them a
// bounded time (finishWorkers).
QThreadPool *g_workers = nullptr; // made (with libssh's initialisation) by the first work

// What the application's end waits for the workers, once every pool still alive is cancelled:
// an exec's cancel poll, a connect to a node that refuses. One stuck in a connect to a node that
// does not answer may take its whole timeout; gpudesk's main then leaves without the exit
// handlers (finishWorkers).
constexpr int ExitWaitMs = 5000;

// The cancel flags of the pools alive, for the application's end: a pool made as a child of
// the application object is deleted only after its post routines ran.
std::mutex g_liveMutex;
QSet<std::atomic<bool> *> g_live;

QThreadPool *workers()
{
    static QThreadPool *pool = [] {
        ssh_init();
        auto *p = new QThreadPool;
        p->setMaxThreadCount(SshPool::maxWorkers());
        p->setExpiryTimeout(60000);
        g_workers = p;
        // Every program that used a pool waits for its workers when its application object
        // goes, before the exit handlers tear OpenSSL down under one still in libssh: a test
        // whose functions all passed crashed in _dl_fini under ASan (CI, 2026-11-28). The
        // pools are gone by then, so their workers are cancelled and end within a poll.
        qAddPostRoutine([] {
            {
                std::lock_guard lock(g_liveMutex);
                for (std::atomic<bool> *cancel : std::as_const(g_live))
                    *cancel = true;
            }
            SshPool::finishWorkers(ExitWaitMs);
        });
        return p;
    }();
    return pool;
}

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// Capped exponential backoff with ±20 % jitter, so that nodes that failed together do not
// retry together.
qint64 backoffMs(int failures)
{
    const qint64 base = qMin<qint64>(60000, 2000LL << qMin(failures - 1, 5));
    return base * (80 + QRandomGenerator::global()->bounded(41)) / 100;
}

} // namespace

struct SshPool::Link
{
    SshTarget target;
    std::unique_ptr<SshConnection> connection; // touched only by the worker holding `busy`
    SshStatus status;
    bool busy = false;
    int failures = 0;
    qint64 retryAt = 0;
    // The node's other sessions, made on first use: [0] Lane::Long, [1] Lane::Files.
    std::shared_ptr<Link> lanes[2];
};

struct SshPool::Shared
{
    std::mutex mutex;
    QHash<QString, std::shared_ptr<Link>> links;
    SshTrust trust;
    std::atomic<bool> cancel{false};
    SshPool *owner = nullptr; // null once the pool is gone; read under `mutex`
};

int SshPool::maxWorkers()
{
    return 48;
}

SshPool::SshPool(QObject *parent) : QObject(parent), m_shared(std::make_shared<Shared>())
{
    qRegisterMetaType<gpudesk::SshStatus>();
    m_shared->owner = this;
    std::lock_guard lock(g_liveMutex);
    g_live.insert(&m_shared->cancel);
}

SshPool::~SshPool()
{
    {
        std::lock_guard lock(g_liveMutex);
        g_live.remove(&m_shared->cancel);
    }
    cancelAll();
    std::lock_guard lock(m_shared->mutex);
    m_shared->owner = nullptr;
}

bool SshPool::finishWorkers(int ms)
{
    return !g_workers || g_workers->waitForDone(ms);
}

void SshPool::cancelAll()
{
    m_shared->cancel = true;
}

void SshPool::setTarget(const SshTarget &target)
{
    std::lock_guard lock(m_shared->mutex);
    auto &link = m_shared->links[target.node];
    if (!link)
        link = std::make_shared<Link>();
    for (Link *l : {link.get(), link->lanes[0].get(), link->lanes[1].get()}) {
        if (!l || l->target.sameRoute(target))
            continue;
        l->target = target;
        l->retryAt = 0;
        l->failures = 0;
        if (!l->busy)
            l->connection.reset(); // the next work connects to the new place
    }
}

void SshPool::removeNode(const QString &node)
{
    std::lock_guard lock(m_shared->mutex);
    m_shared->links.remove(node); // a worker still using it keeps its own reference
}

QStringList SshPool::nodes() const
{
    std::lock_guard lock(m_shared->mutex);
    return m_shared->links.keys();
}

SshStatus SshPool::status(const QString &node) const
{
    std::lock_guard lock(m_shared->mutex);
    const auto link = m_shared->links.value(node);
    return link ? link->status : SshStatus();
}

SshTarget SshPool::target(const QString &node) const
{
    std::lock_guard lock(m_shared->mutex);
    const auto link = m_shared->links.value(node);
    return link ? link->target : SshTarget();
}

bool SshPool::isBusy(const QString &node) const
{
    std::lock_guard lock(m_shared->mutex);
    const auto link = m_shared->links.value(node);
    return link && link->busy;
}

bool SshPool::submit(const QString &node, Work work, Lane lane)
{
    std::shared_ptr<Link> link;
    const bool sampling = lane == Lane::Sampling;
    {
        std::lock_guard lock(m_shared->mutex);
        link = m_shared->links.value(node);
        if (link && !sampling) {
            // Only beside a session that works: the user's decisions are made on that one.
            if (!link->status.usable())
                return false;
            std::shared_ptr<Link> &other = link->lanes[lane == Lane::Long ? 0 : 1];
            if (!other) {
                other = std::make_shared<Link>();
                other->target = link->target;
                other->status = link->status;
            }
            link = other;
        }
        if (!link || link->busy || m_shared->cancel)
            return false;
        const bool connected = link->connection && link->status.usable();
        if (!connected && (link->status.needsUser() || nowMs() < link->retryAt))
            return false;
        link->busy = true;
    }
    std::shared_ptr<Shared> shared = m_shared;
    workers()->start([shared, link, node, sampling, work = std::move(work)] {
        SshTarget target;
        {
            std::lock_guard lock(shared->mutex);
            target = link->target;
        }
        SshStatus status;
        bool changed = false;
        // The node moved (new address, user or jump) while this worker had it: start afresh.
        if (link->connection && !link->connection->target().sameRoute(target))
            link->connection.reset();
        if (!link->connection || !link->connection->isConnected()) {
            if (!link->connection)
                link->connection = std::make_unique<SshConnection>(target);
            status = link->connection->connect(shared->trust, shared->cancel);
            qCDebug(lcSsh) << node << "connect:" << status.state << status.message;
            changed = true;
        } else {
            std::lock_guard lock(shared->mutex);
            status = link->status;
        }
        std::function<void()> then;
        if (!shared->cancel)
            then = work(status.usable() ? link->connection.get() : nullptr, status, shared->cancel);
        if (status.usable() && !link->connection->isConnected()) {
            // The connection broke during the work: say so and come back soon.
            status = SshStatus();
            status.state = SshStatus::Unreachable;
            status.message =
                link->connection->lostReason().isEmpty()
                    ? SshConnection::tr("Lost the connection to %1.").arg(target.endpoint())
                    : link->connection->lostReason();
            status.since = nowMs();
            changed = true;
        }
        std::lock_guard lock(shared->mutex);
        if (changed) {
            if (status.usable()) {
                link->failures = 0;
                link->retryAt = 0;
            } else {
                ++link->failures;
                link->retryAt =
                    nowMs() +
                    (status.state == SshStatus::AuthFailed ? 60000 : backoffMs(link->failures));
                // A node that stays unreachable keeps the time it was first lost.
                if (link->status.state == status.state && link->status.since)
                    status.since = link->status.since;
            }
            const bool announce = sampling && (link->status.state != status.state ||
                                               link->status.message != status.message);
            link->status = status;
            if (announce && shared->owner) {
                QMetaObject::invokeMethod(
                    shared->owner,
                    [owner = shared->owner, node, status] {
                        emit owner->statusChanged(node, status);
                    },
                    Qt::QueuedConnection);
            }
        }
        link->busy = false;
        if (then && shared->owner)
            QMetaObject::invokeMethod(shared->owner, std::move(then), Qt::QueuedConnection);
    });
    return true;
}

bool SshPool::trustHostKey(const QString &node, bool always, QString *error)
{
    SshStatus st;
    {
        std::lock_guard lock(m_shared->mutex);
        const auto link = m_shared->links.value(node);
        if (!link || link->status.state != SshStatus::HostKeyUnknown) {
            *error = tr("%1 has no host key waiting for a decision.").arg(node);
            return false;
        }
        st = link->status;
        m_shared->trust.trustOnce(
            QStringLiteral("[%1]:%2").arg(link->target.host).arg(link->target.port),
            st.hostKeyBase64);
        link->status = SshStatus();
        link->retryAt = 0;
        link->failures = 0;
    }
    qCInfo(lcSsh).noquote() << "host key of" << node << st.fingerprint << "trusted"
                            << (always ? "and saved" : "for this run");
    if (always) {
        const QFileInfo fi(st.knownHostsFile);
        QDir().mkpath(fi.path());
        QFile f(st.knownHostsFile);
        if (st.knownHostsEntry.isEmpty() || !f.open(QIODevice::Append | QIODevice::Text)) {
            *error = tr("Trusted for this session only: cannot write %1: %2")
                         .arg(st.knownHostsFile, f.errorString());
            return false;
        }
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        f.write(st.knownHostsEntry.toUtf8() + '\n');
    }
    return true;
}

void SshPool::setSecret(const QString &what, const QByteArray &secret)
{
    m_shared->trust.setSecret(what, secret);
    std::lock_guard lock(m_shared->mutex);
    for (auto &link : m_shared->links)
        if (link->status.state == SshStatus::NeedsSecret ||
            link->status.state == SshStatus::AuthFailed) {
            link->status = SshStatus();
            link->retryAt = 0;
        }
}

void SshPool::retryNow(const QString &node)
{
    std::lock_guard lock(m_shared->mutex);
    if (const auto link = m_shared->links.value(node)) {
        if (link->status.state != SshStatus::HostKeyChanged && !link->status.usable())
            link->status = SshStatus();
        link->retryAt = 0;
    }
}

} // namespace gpudesk
