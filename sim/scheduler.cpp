// SPDX-License-Identifier: GPL-3.0-or-later
#include "scheduler.h"

#include <algorithm>
#include <set>

namespace sim {

using nlohmann::json;

bool Scheduler::isTerminated(const json &pod)
{
    const std::string phase = sub(pod, "status").value("phase", "");
    return phase == "Succeeded" || phase == "Failed";
}

bool Scheduler::tolerates(const json &pod, const json &taint)
{
    const std::string effect = taint.value("effect", "");
    if (effect == "PreferNoSchedule")
        return true;
    for (const auto &t : sub(pod["spec"], "tolerations")) {
        const std::string key = t.value("key", "");
        const std::string op = t.value("operator", "Equal");
        const std::string tEffect = t.value("effect", "");
        if (!tEffect.empty() && tEffect != effect)
            continue;
        if (key.empty() && op == "Exists")
            return true;
        if (key != taint.value("key", ""))
            continue;
        if (op == "Exists" || t.value("value", "") == taint.value("value", ""))
            return true;
    }
    return false;
}

namespace {

// One NodeSelectorRequirement on a node's labels (or, for matchFields, its metadata.name), as
// the scheduler's NodeAffinity plugin reads it (nodeaffinity/node_affinity.go and
// component-helpers' NodeSelectorRequirementsAsSelector): In, NotIn, Exists, DoesNotExist, and
// Gt / Lt on a label holding an integer.
bool requirementHolds(const json &req, const json &fields)
{
    if (!req.is_object())
        return false;
    const std::string key = str(req, "key");
    const std::string op = str(req, "operator");
    const bool has = fields.contains(key) && fields[key].is_string();
    const std::string value = has ? fields[key].get<std::string>() : std::string();
    std::vector<std::string> values;
    for (const auto &v : sub(req, "values"))
        if (v.is_string())
            values.push_back(v.get<std::string>());
    const bool listed = std::find(values.begin(), values.end(), value) != values.end();
    if (op == "In")
        return has && listed;
    if (op == "NotIn")
        return !has || !listed;
    if (op == "Exists")
        return has;
    if (op == "DoesNotExist")
        return !has;
    if ((op == "Gt" || op == "Lt") && has && values.size() == 1) {
        try {
            const long long have = std::stoll(value);
            const long long bound = std::stoll(values.front());
            return op == "Gt" ? have > bound : have < bound;
        } catch (const std::exception &) {
            return false;
        }
    }
    return false;
}

// requiredDuringSchedulingIgnoredDuringExecution: its terms ORed, each term's requirements
// ANDed; a term with no requirement matches nothing, as in the scheduler.
bool matchesRequiredAffinity(const json &pod, const json &node)
{
    const json &affinity = sub(sub(pod["spec"], "affinity"), "nodeAffinity");
    const auto it = affinity.find("requiredDuringSchedulingIgnoredDuringExecution");
    if (it == affinity.end() || it->is_null())
        return true; // null is no constraint, as in the scheduler
    const json &required = sub(affinity, "requiredDuringSchedulingIgnoredDuringExecution");
    const json &labels = sub(node["metadata"], "labels");
    const json fields{{"metadata.name", node["metadata"].value("name", "")}};
    for (const auto &term : sub(required, "nodeSelectorTerms")) {
        const json exprs = sub(term, "matchExpressions");
        const json fieldExprs = sub(term, "matchFields");
        if (exprs.empty() && fieldExprs.empty())
            continue;
        bool all = true;
        for (const auto &r : exprs)
            all = all && requirementHolds(r, labels);
        for (const auto &r : fieldExprs)
            all = all && requirementHolds(r, fields);
        if (all)
            return true;
    }
    return false;
}

} // namespace

void Scheduler::load(const std::vector<const json *> &nodes, const std::vector<const json *> &pods)
{
    m_nodes.clear();
    m_bound.clear();
    for (const json *n : nodes) {
        NodeState s;
        s.name = (*n)["metadata"].value("name", "");
        s.node = n;
        s.allocatable = nodeAllocatable(*n);
        s.unschedulable = sub(*n, "spec").value("unschedulable", false);
        for (const auto &c : sub(sub(*n, "status"), "conditions")) {
            if (c.value("type", "") == "Ready")
                s.ready = c.value("status", "") == "True";
        }
        m_nodes[s.name] = s;
    }
    m_reserved.clear();
    for (const json *p : pods) {
        const std::string node = sub(*p, "spec").value("nodeName", "");
        const std::string nominated = sub(*p, "status").value("nominatedNodeName", "");
        if (node.empty() && !nominated.empty() && !isTerminated(*p) &&
            !(*p)["metadata"].contains("deletionTimestamp") && m_nodes.count(nominated)) {
            const Resources r = podRequests(*p);
            NodeState &held = m_nodes[nominated];
            held.requested.gpus += r.gpus;
            held.requested.cpuMilli += r.cpuMilli;
            held.requested.memoryBytes += r.memoryBytes;
            for (const auto &[profile, n] : r.mig)
                held.requested.mig[profile] += n;
            m_reserved[(*p)["metadata"].value("uid", "")] = nominated;
            continue;
        }
        if (node.empty() || isTerminated(*p))
            continue;
        auto it = m_nodes.find(node);
        if (it == m_nodes.end())
            continue;
        m_bound[node].push_back(p);
        const Resources r = podRequests(*p);
        it->second.requested.gpus += r.gpus;
        it->second.requested.cpuMilli += r.cpuMilli;
        it->second.requested.memoryBytes += r.memoryBytes;
        for (const auto &[profile, n] : r.mig)
            it->second.requested.mig[profile] += n;
    }
}

bool Scheduler::fits(const json &pod, const NodeState &n, std::vector<std::string> *why) const
{
    if (n.unschedulable) {
        why->push_back("node(s) were unschedulable");
        return false;
    }
    for (const auto &t : sub(sub(*n.node, "spec"), "taints")) {
        const std::string effect = t.value("effect", "");
        if ((effect == "NoSchedule" || effect == "NoExecute") && !tolerates(pod, t)) {
            why->push_back("node(s) had untolerated taint {" + t.value("key", "") + ": " +
                           t.value("value", "") + "}");
            return false;
        }
    }
    const json selector = sub(pod["spec"], "nodeSelector");
    const json labels = sub((*n.node)["metadata"], "labels");
    for (const auto &[k, v] : selector.items()) {
        if (!labels.contains(k) || labels[k] != v) {
            why->push_back("node(s) didn't match Pod's node affinity/selector");
            return false;
        }
    }
    if (!matchesRequiredAffinity(pod, *n.node)) {
        why->push_back("node(s) didn't match Pod's node affinity/selector");
        return false;
    }
    const Resources r = podRequests(pod);
    bool ok = true;
    if (r.cpuMilli > n.allocatable.cpuMilli - n.requested.cpuMilli) {
        why->push_back("Insufficient cpu");
        ok = false;
    }
    if (r.memoryBytes > n.allocatable.memoryBytes - n.requested.memoryBytes) {
        why->push_back("Insufficient memory");
        ok = false;
    }
    if (r.gpus > n.allocatable.gpus - n.requested.gpus) {
        why->push_back("Insufficient nvidia.com/gpu");
        ok = false;
    }
    for (const auto &[profile, want] : r.mig) {
        const auto has = n.allocatable.mig.find(profile);
        const auto used = n.requested.mig.find(profile);
        const qint64 left = (has == n.allocatable.mig.end() ? 0 : has->second) -
                            (used == n.requested.mig.end() ? 0 : used->second);
        if (want > left) {
            why->push_back("Insufficient " + std::string(kMigResourcePrefix) + profile);
            ok = false;
        }
    }
    return ok;
}

std::string Scheduler::fitError(const json &pod) const
{
    // The text of kube-scheduler's FitError, reasons sorted as it sorts them.
    std::map<std::string, int> histogram;
    int resourceNodes = 0;
    for (const auto &[name, n] : m_nodes) {
        std::vector<std::string> why;
        fits(pod, n, &why);
        bool resource = false;
        for (const auto &w : why) {
            ++histogram[w];
            resource |= w.rfind("Insufficient", 0) == 0;
        }
        resourceNodes += resource ? 1 : 0;
    }
    std::vector<std::string> reasons;
    for (const auto &[reason, count] : histogram)
        reasons.push_back(std::to_string(count) + " " + reason);
    std::sort(reasons.begin(), reasons.end());
    const std::string total = std::to_string(m_nodes.size());
    std::string msg = "0/" + total + " nodes are available: ";
    for (size_t i = 0; i < reasons.size(); ++i)
        msg += (i ? ", " : "") + reasons[i];
    msg += ". preemption: 0/" + total + " nodes are available: ";
    std::vector<std::string> pre;
    const int notHelpful = int(m_nodes.size()) - resourceNodes;
    if (resourceNodes > 0)
        pre.push_back(std::to_string(resourceNodes) +
                      " No preemption victims found for incoming pod");
    if (notHelpful > 0)
        pre.push_back(std::to_string(notHelpful) + " Preemption is not helpful for scheduling");
    std::sort(pre.begin(), pre.end());
    for (size_t i = 0; i < pre.size(); ++i)
        msg += (i ? ", " : "") + pre[i];
    return msg + ".";
}

std::vector<std::string> Scheduler::place(const std::vector<const json *> &pods,
                                          std::string *message)
{
    // Place on a scratch copy; commit only if every pod fits.
    auto saved = m_nodes;
    release(m_nodes, pods);
    std::vector<std::string> chosen;
    for (const json *pod : pods) {
        const Resources r = podRequests(*pod);
        const NodeState *best = nullptr;
        qint64 bestScore = 0;
        for (const auto &[name, n] : m_nodes) {
            std::vector<std::string> why;
            if (!fits(*pod, n, &why))
                continue;
            // GPU pods: fewest GPUs left after placement (bin packing).
            // CPU pods: GPU-less nodes first, then the least CPU requested.
            qint64 score;
            if (r.gpus > 0)
                score = (n.allocatable.gpus - n.requested.gpus - r.gpus) * 1000000 +
                        (n.allocatable.cpuMilli - n.requested.cpuMilli) / 1000;
            else
                score = (n.allocatable.gpus > 0 ? 1000000000 : 0) + n.requested.cpuMilli / 100;
            if (!best || score < bestScore) {
                best = &n;
                bestScore = score;
            }
        }
        if (!best) {
            m_nodes = saved;
            *message = fitError(*pod);
            return {};
        }
        NodeState &n = m_nodes[best->name];
        n.requested.gpus += r.gpus;
        n.requested.cpuMilli += r.cpuMilli;
        n.requested.memoryBytes += r.memoryBytes;
        for (const auto &[profile, count] : r.mig)
            n.requested.mig[profile] += count;
        chosen.push_back(best->name);
    }
    for (const json *pod : pods)
        m_reserved.erase((*pod)["metadata"].value("uid", ""));
    return chosen;
}

namespace {

void addTo(Resources &to, const Resources &r, int sign)
{
    to.gpus += sign * r.gpus;
    to.cpuMilli += sign * r.cpuMilli;
    to.memoryBytes += sign * r.memoryBytes;
    for (const auto &[profile, n] : r.mig)
        to.mig[profile] += sign * n;
}

} // namespace

void Scheduler::release(std::map<std::string, NodeState> &nodes,
                        const std::vector<const json *> &gang) const
{
    for (const json *pod : gang) {
        const auto held = m_reserved.find((*pod)["metadata"].value("uid", ""));
        if (held != m_reserved.end())
            addTo(nodes[held->second].requested, podRequests(*pod), -1);
    }
}

std::optional<Scheduler::Preemption>
Scheduler::preempt(const std::vector<const json *> &gang,
                   const std::function<bool(const json &)> &mayEvict) const
{
    auto nodes = m_nodes; // scratch: the gang's pods and the victims taken so far
    release(nodes, gang);
    std::set<const json *> taken;
    Preemption out;
    for (const json *pod : gang) {
        const Resources r = podRequests(*pod);
        std::string bestNode;
        std::vector<const json *> bestVictims;
        bool found = false;
        for (const auto &[name, n] : nodes) {
            std::vector<std::string> why;
            if (fits(*pod, n, &why)) {
                bestNode = name;
                bestVictims.clear();
                found = true;
                break;
            }
            // Only what a pod holds can be freed: a taint or a selector stays.
            if (std::any_of(why.begin(), why.end(),
                            [](const std::string &w) { return w.rfind("Insufficient", 0) != 0; }))
                continue;
            const auto bound = m_bound.find(name);
            if (bound == m_bound.end())
                continue;
            const bool shortGpus = r.gpus > n.allocatable.gpus - n.requested.gpus;
            const bool shortCpu = r.cpuMilli > n.allocatable.cpuMilli - n.requested.cpuMilli;
            const bool shortMem =
                r.memoryBytes > n.allocatable.memoryBytes - n.requested.memoryBytes;
            std::vector<const json *> candidates;
            for (const json *v : bound->second) {
                if (taken.count(v) || sub(*v, "metadata").contains("deletionTimestamp") ||
                    !mayEvict(*v))
                    continue;
                const Resources held = podRequests(*v);
                if ((shortGpus && held.gpus > 0) || (shortCpu && held.cpuMilli > 0) ||
                    (shortMem && held.memoryBytes > 0))
                    candidates.push_back(v);
            }
            std::stable_sort(candidates.begin(), candidates.end(),
                             [](const json *a, const json *b) {
                                 const int pa = sub(sub(*a, "spec"), "priority").is_number()
                                                    ? (*a)["spec"]["priority"].get<int>()
                                                    : 0;
                                 const int pb = sub(sub(*b, "spec"), "priority").is_number()
                                                    ? (*b)["spec"]["priority"].get<int>()
                                                    : 0;
                                 if (pa != pb)
                                     return pa < pb;
                                 return (*a)["metadata"].value("creationTimestamp", "") >
                                        (*b)["metadata"].value("creationTimestamp", "");
                             });
            NodeState freed = n;
            std::vector<const json *> victims;
            bool fitsNow = false;
            for (const json *v : candidates) {
                addTo(freed.requested, podRequests(*v), -1);
                victims.push_back(v);
                why.clear();
                if (fits(*pod, freed, &why)) {
                    fitsNow = true;
                    break;
                }
            }
            if (fitsNow && (!found || victims.size() < bestVictims.size())) {
                bestNode = name;
                bestVictims = victims;
                found = true;
            }
        }
        if (!found)
            return std::nullopt;
        NodeState &n = nodes[bestNode];
        for (const json *v : bestVictims) {
            addTo(n.requested, podRequests(*v), -1);
            taken.insert(v);
            out.victims.push_back(v);
        }
        addTo(n.requested, r, +1);
        out.nodes.push_back(bestNode);
    }
    if (out.victims.empty())
        return std::nullopt; // place() would have placed it: nothing to preempt for
    return out;
}

} // namespace sim
