// SPDX-License-Identifier: GPL-3.0-or-later
#include "queuerules.h"

#include "clusterstore.h"
#include "queuesmodel.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace gpudesk {

namespace {

const QString kGpu = QStringLiteral("nvidia.com/gpu");

bool isTopLevel(const QString &parent)
{
    return parent.isEmpty() || parent == QLatin1String("root");
}

const QueueInfo *find(const QList<QueueInfo> &queues, const QString &name)
{
    for (const QueueInfo &q : queues)
        if (q.name == name)
            return &q;
    return nullptr;
}

// The resource as a person names it in a sentence: "GPUs" rather than "nvidia.com/gpu".
QString label(const QString &resource)
{
    if (resource == kGpu)
        return QueueRules::tr("GPUs");
    if (resource == QLatin1String("cpu"))
        return QueueRules::tr("CPU");
    if (resource == QLatin1String("memory"))
        return QueueRules::tr("memory");
    return resource;
}

QString amount(const QString &resource, qint64 milli)
{
    return quantity::format(resource, milli);
}

QSet<QString> resourcesOf(const QueueSpec &s)
{
    QSet<QString> out;
    for (const ResourceAmounts *list : {&s.capability, &s.deserved, &s.guarantee})
        for (auto it = list->cbegin(); it != list->cend(); ++it)
            out.insert(it.key());
    return out;
}

// The capability of the nearest ancestor that limits `resource` (Volcano's rule: a child may not
// exceed it), with that ancestor's name.
std::optional<std::pair<QString, qint64>>
ancestorCapability(const QList<QueueInfo> &queues, QString parent, const QString &resource)
{
    QSet<QString> seen;
    while (!isTopLevel(parent) && !seen.contains(parent)) {
        seen.insert(parent);
        const QueueInfo *p = find(queues, parent);
        if (!p)
            return std::nullopt;
        if (const auto cap = p->capability.constFind(resource); cap != p->capability.cend())
            return std::make_pair(p->name, *cap);
        parent = p->parent;
    }
    return std::nullopt;
}

// The largest capability of `resource` in the subtree under `name` (the queue itself excluded).
qint64 subtreeCapability(const QList<QueueInfo> &queues, const QString &name,
                         const QString &resource, QString *who, int depth = 0)
{
    qint64 best = 0;
    if (depth > 32)
        return best;
    for (const QueueInfo &q : queues) {
        if (q.parent != name || q.name == name)
            continue;
        if (const auto cap = q.capability.constFind(resource); cap != q.capability.cend()) {
            if (*cap > best) {
                best = *cap;
                *who = q.name;
            }
            continue;
        }
        QString deeper;
        const qint64 v = subtreeCapability(queues, q.name, resource, &deeper, depth + 1);
        if (v > best) {
            best = v;
            *who = deeper;
        }
    }
    return best;
}

struct Admission
{
    QStringList admitted; // pod groups (ns/name of their job) that fit, oldest first
};

// Which waiting pod groups of the queue a GPU capability admits, as Volcano's admission does:
// oldest first, each while allocated + admitted + its minimum fits.
Admission admit(const ClusterStore &store, const QString &queue, std::optional<qint64> capMilli)
{
    Admission a;
    const QueueInfo *q = store.queue(queue);
    QList<const PodGroupInfo *> waiting;
    qint64 held = q ? QueuesModel::allocatedGpus(store, *q) : 0;
    for (const auto &[uid, g] : store.objects<PodGroupInfo>(Resource::PodGroups)) {
        if (g.vc != queue)
            continue;
        if (g.phase == QLatin1String("Pending"))
            waiting.append(&g);
        else if (g.phase == QLatin1String("Inqueue"))
            held += g.minGpus;
    }
    std::sort(waiting.begin(), waiting.end(), [](const PodGroupInfo *x, const PodGroupInfo *y) {
        return x->created != y->created ? x->created < y->created : x->name < y->name;
    });
    for (const PodGroupInfo *g : std::as_const(waiting)) {
        if (capMilli && (held + g->minGpus) * 1000 > *capMilli)
            continue;
        held += g->minGpus;
        a.admitted.append(store.userOf(g->ns) + u'/' +
                          (g->owner.name.isEmpty() ? g->name : g->owner.name));
    }
    return a;
}

} // namespace

QueueSpec QueueSpec::of(const QueueInfo &q)
{
    QueueSpec s;
    s.name = q.name;
    s.parent = q.parent;
    s.weight = q.weight;
    s.reclaimable = q.reclaimable;
    s.capability = q.capability;
    s.deserved = q.deserved;
    s.guarantee = q.guarantee;
    return s;
}

bool QueueRules::isProtected(const QString &name)
{
    return name == QLatin1String("default") || name == QLatin1String("root");
}

QString QueueRules::nameError(const QString &name)
{
    static const QRegularExpression subdomain(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
    if (name.isEmpty())
        return tr("A VC needs a name.");
    if (name.size() > 253 || !subdomain.match(name).hasMatch())
        return tr("\"%1\" is not a valid VC name: lower-case letters, digits, '-' and '.', "
                  "starting and ending with a letter or digit.")
            .arg(name);
    return {};
}

QStringList QueueRules::errors(const QueueSpec &spec, const QList<QueueInfo> &queues, bool creating)
{
    QStringList out;
    if (creating) {
        if (const QString e = nameError(spec.name); !e.isEmpty())
            out << e;
        else if (find(queues, spec.name))
            out << tr("A VC named %1 already exists.").arg(spec.name);
    } else if (!find(queues, spec.name)) {
        out << tr("The VC %1 no longer exists.").arg(spec.name);
    }
    if (spec.name == QLatin1String("root"))
        out << tr("The root VC's resources cannot be changed.");
    if (spec.weight < 1)
        out << tr("The weight must be at least 1.");

    const QSet<QString> named = resourcesOf(spec);
    QStringList resources(named.cbegin(), named.cend());
    std::sort(resources.begin(), resources.end());
    for (const QString &r : std::as_const(resources)) {
        const auto cap = spec.capability.constFind(r);
        const auto des = spec.deserved.constFind(r);
        const auto gua = spec.guarantee.constFind(r);
        if (gua != spec.guarantee.cend() && des == spec.deserved.cend())
            out << tr("%1 guaranteed (%2) needs a deserved amount of at least as much.")
                       .arg(label(r), amount(r, *gua));
        if (gua != spec.guarantee.cend() && des != spec.deserved.cend() && *des < *gua)
            out << tr("%1 deserved (%2) is below the guarantee (%3): deserved must be at least "
                      "what is guaranteed.")
                       .arg(label(r), amount(r, *des), amount(r, *gua));
        if (des != spec.deserved.cend() && cap != spec.capability.cend() && *des > *cap)
            out << tr("%1 deserved (%2) is above the capability (%3): a VC cannot deserve more "
                      "than its ceiling.")
                       .arg(label(r), amount(r, *des), amount(r, *cap));
        if (gua != spec.guarantee.cend() && cap != spec.capability.cend() && *gua > *cap)
            out << tr("%1 guaranteed (%2) is above the capability (%3).")
                       .arg(label(r), amount(r, *gua), amount(r, *cap));
    }

    // Where it sits in the tree.
    if (!isTopLevel(spec.parent)) {
        QString p = spec.parent;
        QSet<QString> seen;
        bool cycle = false;
        while (!isTopLevel(p) && !seen.contains(p)) {
            if (p == spec.name) {
                cycle = true;
                break;
            }
            seen.insert(p);
            const QueueInfo *q = find(queues, p);
            p = q ? q->parent : QString();
        }
        if (spec.parent == spec.name)
            out << tr("A VC cannot be its own parent.");
        else if (!find(queues, spec.parent))
            out << tr("The parent VC %1 does not exist.").arg(spec.parent);
        else if (cycle)
            out << tr("%1 is below %2 already: making it %2's parent would make a loop.")
                       .arg(spec.parent, spec.name);
        else {
            for (auto it = spec.capability.cbegin(); it != spec.capability.cend(); ++it) {
                const auto up = ancestorCapability(queues, spec.parent, it.key());
                if (up && it.value() > up->second)
                    out << tr("%1 capability (%2) exceeds the capability of %3 above it (%4).")
                               .arg(label(it.key()), amount(it.key(), it.value()), up->first,
                                    amount(it.key(), up->second));
            }
            const QueueInfo *parent = find(queues, spec.parent);
            // The children of one parent share it: their guarantees (and deserved shares) must
            // fit in what the parent itself is guaranteed (deserves).
            const std::pair<const ResourceAmounts QueueInfo::*, const ResourceAmounts QueueSpec::*>
                shares[] = {{&QueueInfo::guarantee, &QueueSpec::guarantee},
                            {&QueueInfo::deserved, &QueueSpec::deserved}};
            for (const auto &[ofQueue, ofSpec] : shares) {
                const ResourceAmounts &limits = parent->*ofQueue;
                for (auto it = limits.cbegin(); it != limits.cend(); ++it) {
                    qint64 sum = (spec.*ofSpec).value(it.key());
                    QStringList who{spec.name};
                    for (const QueueInfo &s : queues) {
                        if (s.parent == spec.parent && s.name != spec.name &&
                            (s.*ofQueue).contains(it.key())) {
                            sum += (s.*ofQueue).value(it.key());
                            who << s.name;
                        }
                    }
                    if (sum > it.value())
                        out << (ofSpec == &QueueSpec::guarantee
                                    ? tr("The guarantees of %1's children (%2) would add up to "
                                         "%3 %4, more than %1's own guarantee of %5.")
                                    : tr("The deserved shares of %1's children (%2) would add "
                                         "up to %3 %4, more than %1 itself deserves (%5)."))
                                   .arg(spec.parent, who.join(QStringLiteral(", ")),
                                        amount(it.key(), sum), label(it.key()),
                                        amount(it.key(), it.value()));
                }
            }
        }
    }
    // Its own children, when it has some.
    for (auto it = spec.capability.cbegin(); it != spec.capability.cend(); ++it) {
        QString who;
        const qint64 below = subtreeCapability(queues, spec.name, it.key(), &who);
        if (below > it.value())
            out << tr("%1 capability (%2) is below the capability of %3 under it (%4).")
                       .arg(label(it.key()), amount(it.key(), it.value()), who,
                            amount(it.key(), below));
    }
    const std::pair<const ResourceAmounts QueueInfo::*, const ResourceAmounts QueueSpec::*> own[] =
        {{&QueueInfo::guarantee, &QueueSpec::guarantee},
         {&QueueInfo::deserved, &QueueSpec::deserved}};
    for (const auto &[ofQueue, ofSpec] : own) {
        const ResourceAmounts &limits = spec.*ofSpec;
        for (auto it = limits.cbegin(); it != limits.cend(); ++it) {
            qint64 sum = 0;
            for (const QueueInfo &c : queues)
                if (c.parent == spec.name)
                    sum += (c.*ofQueue).value(it.key());
            if (sum > it.value())
                out << (ofSpec == &QueueSpec::guarantee
                            ? tr("%1 guaranteed (%2) is less than its children's guarantees add "
                                 "up to (%3).")
                            : tr("%1 deserved (%2) is less than its children's deserved shares "
                                 "add up to (%3)."))
                           .arg(label(it.key()), amount(it.key(), it.value()),
                                amount(it.key(), sum));
        }
    }
    return out;
}

QStringList QueueRules::warnings(const QueueSpec &spec, const ClusterStore &store)
{
    QStringList out;
    const QueueInfo *q = store.queue(spec.name);
    if (q) {
        ResourceAmounts held = q->allocated;
        held.insert(kGpu, qint64(QueuesModel::allocatedGpus(store, *q)) * 1000);
        for (auto it = spec.capability.cbegin(); it != spec.capability.cend(); ++it) {
            const auto h = amountOf(held, it.key());
            if (h && *h > it.value())
                out << tr("The %1 capability (%2) is below the %3 the VC holds now: its running "
                          "jobs keep running, and no new job is admitted until it holds less.")
                           .arg(label(it.key()), amount(it.key(), it.value()),
                                amount(it.key(), *h));
        }
    }
    // Guarantees are promises the cluster must be able to keep all at once.
    qint64 guaranteed = spec.guarantee.value(kGpu);
    for (const QueueInfo &other : store.queues())
        if (other.name != spec.name && isTopLevel(other.parent))
            guaranteed += other.guarantee.value(kGpu);
    const qint64 total = qint64(store.totals().gpus.total) * 1000;
    if (isTopLevel(spec.parent) && guaranteed > total && total > 0)
        out << tr("The top-level VCs' GPU guarantees would add up to %1, more than the cluster's "
                  "%2 GPUs: not every guarantee can be kept.")
                   .arg(amount(kGpu, guaranteed), amount(kGpu, total));
    return out;
}

QStringList QueueRules::effects(const QueueSpec &spec, const ClusterStore &store)
{
    QStringList out;
    const QueueInfo *q = store.queue(spec.name);
    if (!q) {
        out << tr("A new VC: no jobs run in it yet. Bind users to it from the Users page.");
        return out;
    }
    int running = 0;
    for (const auto &[uid, g] : store.objects<PodGroupInfo>(Resource::PodGroups))
        if (g.vc == spec.name &&
            (g.phase == QLatin1String("Running") || g.phase == QLatin1String("Inqueue")))
            ++running;
    if (running > 0)
        out << tr("%n running job(s) keep running: changing a VC never touches running jobs.",
                  nullptr, running);
    const auto capOf = [](const ResourceAmounts &a) -> std::optional<qint64> {
        const auto it = a.constFind(kGpu);
        return it == a.cend() ? std::nullopt : std::optional<qint64>(*it);
    };
    const Admission before = admit(store, spec.name, capOf(q->capability));
    const Admission after = admit(store, spec.name, capOf(spec.capability));
    QStringList gained;
    QStringList lost;
    for (const QString &j : after.admitted)
        if (!before.admitted.contains(j))
            gained << j;
    for (const QString &j : before.admitted)
        if (!after.admitted.contains(j))
            lost << j;
    if (!gained.isEmpty())
        out << tr("%n waiting job(s) would be admitted: %1.", nullptr, int(gained.size()))
                   .arg(gained.join(QStringLiteral(", ")));
    if (!lost.isEmpty())
        out << tr("%n waiting job(s) that the VC would admit today would wait instead: %1.",
                  nullptr, int(lost.size()))
                   .arg(lost.join(QStringLiteral(", ")));
    int waiting = 0;
    for (const auto &[uid, g] : store.objects<PodGroupInfo>(Resource::PodGroups))
        if (g.vc == spec.name && g.phase == QLatin1String("Pending"))
            ++waiting;
    const int stillWaiting = waiting - int(after.admitted.size());
    if (stillWaiting > 0)
        out << tr("%n job(s) would still wait for room in the VC.", nullptr, stillWaiting);
    if (out.isEmpty())
        out << tr("No job in the VC is affected.");
    return out;
}

} // namespace gpudesk
