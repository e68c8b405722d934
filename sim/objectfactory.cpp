// SPDX-License-Identifier: GPL-3.0-or-later
#include "objectfactory.h"

#include <cmath>
#include <cstdlib>

namespace sim {

using nlohmann::json;

namespace {

double quantityValue(const json &q)
{
    if (q.is_number())
        return q.get<double>();
    if (!q.is_string())
        return 0;
    const std::string s = q.get<std::string>();
    size_t i = 0;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' ||
                            s[i] == '-' || s[i] == '+' || s[i] == 'e'))
        ++i;
    // "1e3" is a number; "2E" is an exponent suffix; keep it simple: E only as suffix.
    double v = std::strtod(s.substr(0, i).c_str(), nullptr);
    const std::string suffix = s.substr(i);
    static const std::pair<const char *, double> suffixes[] = {{"Ki", 1024.0},
                                                               {"Mi", 1048576.0},
                                                               {"Gi", 1073741824.0},
                                                               {"Ti", 1099511627776.0},
                                                               {"Pi", 1125899906842624.0},
                                                               {"m", 0.001},
                                                               {"k", 1e3},
                                                               {"M", 1e6},
                                                               {"G", 1e9},
                                                               {"T", 1e12},
                                                               {"P", 1e15}};
    for (const auto &[sfx, mult] : suffixes) {
        if (suffix == sfx)
            return v * mult;
    }
    return v;
}

json containerJson(const ContainerSpec &c, const std::string &user)
{
    json resources{
        {"requests", {{"cpu", c.cpu}, {"memory", c.memory}}},
        {"limits", {{"cpu", c.cpuLimit.empty() ? c.cpu : c.cpuLimit}, {"memory", c.memory}}}};
    if (c.gpus > 0) {
        resources["requests"]["nvidia.com/gpu"] = std::to_string(c.gpus);
        resources["limits"]["nvidia.com/gpu"] = std::to_string(c.gpus);
    }
    if (c.migCount > 0) {
        const std::string key = kMigResourcePrefix + c.migProfile;
        resources["requests"][key] = std::to_string(c.migCount);
        resources["limits"][key] = std::to_string(c.migCount);
    }
    json env = json::array();
    for (const auto &[k, v] : c.env)
        env.push_back(json{{"name", k}, {"value", v}});
    env.push_back(json{{"name", "NVIDIA_DRIVER_CAPABILITIES"}, {"value", "compute,utility"}});
    json mounts =
        json::array({json{{"name", "user-nas"}, {"mountPath", "/mnt/user/" + user}},
                     json{{"name", "share-nas"}, {"mountPath", "/mnt/share"}, {"readOnly", true}},
                     json{{"name", "kube-api-access"},
                          {"mountPath", "/var/run/secrets/kubernetes.io/serviceaccount"},
                          {"readOnly", true}}});
    json out{{"name", c.name},
             {"image", c.image},
             {"imagePullPolicy", "IfNotPresent"},
             {"resources", resources},
             {"env", env},
             {"volumeMounts", mounts},
             {"terminationMessagePath", "/dev/termination-log"},
             {"terminationMessagePolicy", "File"},
             {"workingDir", "/workspace"}};
    if (!c.command.empty())
        out["command"] = c.command;
    if (!c.ports.empty()) {
        json ports = json::array();
        for (const auto &[name, port] : c.ports)
            ports.push_back(json{{"name", name}, {"containerPort", port}, {"protocol", "TCP"}});
        out["ports"] = ports;
    }
    return out;
}

} // namespace

qint64 parseQuantityMilli(const json &q)
{
    return qint64(std::llround(quantityValue(q) * 1000.0));
}

qint64 parseQuantityBytes(const json &q)
{
    return qint64(std::llround(quantityValue(q)));
}

Resources podRequests(const json &pod)
{
    return specRequests(sub(pod, "spec"));
}

Resources specRequests(const json &spec)
{
    Resources r;
    for (const auto &c : sub(spec, "containers")) {
        const json &res = sub(c, "resources");
        const json &lim = sub(res, "limits");
        const json &req = res.contains("requests") ? res["requests"] : lim;
        auto pick = [&](const char *k) {
            return req.contains(k) ? req[k] : (lim.contains(k) ? lim[k] : json());
        };
        r.gpus += parseQuantityMilli(pick("nvidia.com/gpu")) / 1000;
        r.cpuMilli += parseQuantityMilli(pick("cpu"));
        r.memoryBytes += parseQuantityBytes(pick("memory"));
        // Extended resources need no request: the limit is the request.
        for (const json *list : {&req, &lim}) {
            if (!list->is_object())
                continue;
            for (auto it = list->begin(); it != list->end(); ++it) {
                const std::string &key = it.key();
                if (key.rfind(kMigResourcePrefix, 0) != 0 || (list == &lim && req.contains(key)))
                    continue;
                r.mig[key.substr(std::string(kMigResourcePrefix).size())] +=
                    parseQuantityMilli(it.value()) / 1000;
            }
        }
    }
    return r;
}

std::string qosClassOf(const json &spec)
{
    // As the API server's GetPodQOS: Guaranteed when every container has CPU and memory limits
    // and its requests (where given) equal them; BestEffort when no container asks for either.
    bool any = false;
    bool guaranteed = true;
    for (const char *list : {"initContainers", "containers"}) {
        for (const auto &c : sub(spec, list)) {
            const json &res = sub(c, "resources");
            const json &lim = sub(res, "limits");
            const json &req = sub(res, "requests");
            for (const char *k : {"cpu", "memory"}) {
                const bool hasLimit = lim.contains(k);
                const bool hasRequest = req.contains(k);
                any |= hasLimit || hasRequest;
                if (!hasLimit ||
                    (hasRequest && parseQuantityMilli(req[k]) != parseQuantityMilli(lim[k])))
                    guaranteed = false;
            }
        }
    }
    return !any ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
}

Resources nodeAllocatable(const json &node)
{
    const json &a = sub(sub(node, "status"), "allocatable");
    Resources r{a.contains("nvidia.com/gpu") ? parseQuantityMilli(a["nvidia.com/gpu"]) / 1000 : 0,
                parseQuantityMilli(a.value("cpu", json("0"))),
                parseQuantityBytes(a.value("memory", json("0"))),
                {}};
    for (auto it = a.begin(); it != a.end(); ++it)
        if (it.key().rfind(kMigResourcePrefix, 0) == 0)
            r.mig[it.key().substr(std::string(kMigResourcePrefix).size())] =
                parseQuantityMilli(it.value()) / 1000;
    return r;
}

json ObjectFactory::node(const std::string &name, const std::string &gpuProduct, int gpus, int cpus,
                         int memoryGi, const std::string &ip, const std::string &created)
{
    json labels{{"beta.kubernetes.io/arch", "amd64"},
                {"beta.kubernetes.io/os", "linux"},
                {"kubernetes.io/arch", "amd64"},
                {"kubernetes.io/hostname", name},
                {"kubernetes.io/os", "linux"}};
    json capacity{{"cpu", std::to_string(cpus)},
                  {"ephemeral-storage", "959786032Ki"},
                  {"hugepages-1Gi", "0"},
                  {"hugepages-2Mi", "0"},
                  {"memory", std::to_string(qint64(memoryGi) * 1024 * 1024) + "Ki"},
                  {"pods", "110"}};
    json allocatable = capacity;
    allocatable["cpu"] = std::to_string(cpus * 1000 - 500) + "m";
    allocatable["memory"] = std::to_string(qint64(memoryGi) * 1024 * 1024 - 4 * 1024 * 1024) + "Ki";
    allocatable["ephemeral-storage"] = "884538080627";
    if (gpus > 0) {
        labels["nvidia.com/gpu.present"] = "true";
        labels["nvidia.com/gpu.product"] = gpuProduct;
        labels["nvidia.com/gpu.count"] = std::to_string(gpus);
        labels["nvidia.com/gpu.memory"] =
            gpuProduct.find("A800") != std::string::npos ? "81920" : "24564";
        labels["nvidia.com/cuda.driver.major"] =
            gpuProduct.find("A800") != std::string::npos ? "535" : "550";
        capacity["nvidia.com/gpu"] = std::to_string(gpus);
        allocatable["nvidia.com/gpu"] = std::to_string(gpus);
    } else {
        labels["node-role.gpudesk.io/cpu"] = "true";
    }
    // Where the machine stands, as clusters label it: its zone and rack (five nodes a rack,
    // by the number in its name), and the pool its GPU model makes.
    const auto digits = name.find_last_not_of("0123456789");
    const int number = digits + 1 < name.size() ? std::atoi(name.c_str() + digits + 1) : 0;
    const bool datacenter = gpuProduct.find("A800") != std::string::npos ||
                            gpuProduct.find("A100") != std::string::npos;
    labels["topology.kubernetes.io/zone"] = datacenter ? "zone-b" : "zone-a";
    labels["topology.gpudesk.io/rack"] = std::string(datacenter ? "b" : "a") + "-rack-" +
                                         std::to_string(std::max(0, number - 1) / 5 + 1);
    labels["gpudesk.io/pool"] = gpus == 0 ? "cpu" : datacenter ? "training" : "interactive";
    // Their InfiniBand ports (ib0…), as Node Feature Discovery says so.
    if (datacenter && gpus > 0)
        labels["feature.node.kubernetes.io/rdma.available"] = "true";
    const std::string t = created;
    auto cond = [&](const char *type, const char *status, const char *reason, const char *msg) {
        return json{{"type", type},           {"status", status},
                    {"lastHeartbeatTime", t}, {"lastTransitionTime", t},
                    {"reason", reason},       {"message", msg}};
    };
    return json{
        {"apiVersion", "v1"},
        {"kind", "Node"},
        {"metadata",
         {{"name", name},
          {"labels", labels},
          {"creationTimestamp", created},
          {"annotations",
           {{"node.alpha.kubernetes.io/ttl", "0"},
            {"volumes.kubernetes.io/controller-managed-attach-detach", "true"},
            {"kubeadm.alpha.kubernetes.io/cri-socket",
             "unix:///run/containerd/containerd.sock"}}}}},
        {"spec", {{"podCIDR", "10.244.0.0/24"}}},
        {"status",
         {{"capacity", capacity},
          {"allocatable", allocatable},
          {"conditions",
           {cond("MemoryPressure", "False", "KubeletHasSufficientMemory",
                 "kubelet has sufficient memory available"),
            cond("DiskPressure", "False", "KubeletHasNoDiskPressure",
                 "kubelet has no disk pressure"),
            cond("PIDPressure", "False", "KubeletHasSufficientPID",
                 "kubelet has sufficient PID available"),
            cond("Ready", "True", "KubeletReady", "kubelet is posting ready status")}},
          {"addresses",
           {{{"type", "InternalIP"}, {"address", ip}}, {{"type", "Hostname"}, {"address", name}}}},
          {"daemonEndpoints", {{"kubeletEndpoint", {{"Port", 10250}}}}},
          {"nodeInfo",
           {{"architecture", "amd64"},
            {"bootID",
             "3f1c2a4e-0b1d-4c6e-9a43-" + std::to_string(100000000000 + name.size() * 7919)},
            {"containerRuntimeVersion", "containerd://1.7.12"},
            {"kernelVersion", "5.15.0-91-generic"},
            {"kubeProxyVersion", "v1.29.4"},
            {"kubeletVersion", "v1.29.4"},
            {"machineID", "9b1f0c3e5d7a4e2f8c6b" + std::to_string(1000 + name.size())},
            {"operatingSystem", "linux"},
            {"osImage", "Ubuntu 22.04.3 LTS"},
            {"systemUUID",
             "4c4c4544-0048-3010-8052-" + std::to_string(100000000000 + name.size())}}}}}};
}

json ObjectFactory::pod(const PodSpecInput &in)
{
    json containers = json::array();
    for (const auto &c : in.containers)
        containers.push_back(containerJson(c, in.user));
    json volumes = json::array(
        {json{{"name", "user-nas"},
              {"nfs", {{"server", "nas.lab.internal"}, {"path", "/export/user/" + in.user}}}},
         json{{"name", "share-nas"},
              {"nfs", {{"server", "nas.lab.internal"}, {"path", "/export/share"}}}},
         json{{"name", "kube-api-access"},
              {"projected",
               {{"defaultMode", 420},
                {"sources",
                 {{{"serviceAccountToken", {{"expirationSeconds", 3607}, {"path", "token"}}}},
                  {{"configMap",
                    {{"name", "kube-root-ca.crt"},
                     {"items", {{{"key", "ca.crt"}, {"path", "ca.crt"}}}}}}}}}}}}});
    if (!in.workspace.empty()) {
        volumes.erase(volumes.begin(), volumes.begin() + 2);
        volumes.push_back(json{{"name", "workspace"},
                               {"hostPath", {{"path", in.workspace}, {"type", "Directory"}}}});
        for (auto &c : containers) {
            json mounts = json::array({json{{"name", "workspace"}, {"mountPath", "/workspace"}}});
            for (const auto &m : c["volumeMounts"])
                if (m.value("name", "") == "kube-api-access")
                    mounts.push_back(m);
            c["volumeMounts"] = mounts;
        }
    }
    if (!in.shmSize.empty()) {
        volumes.push_back(json{{"name", "dshm"},
                               {"emptyDir", {{"medium", "Memory"}, {"sizeLimit", in.shmSize}}}});
        for (auto &c : containers)
            c["volumeMounts"].push_back(json{{"name", "dshm"}, {"mountPath", "/dev/shm"}});
    }
    json tolerations = in.tolerations;
    tolerations.push_back(json{{"key", "node.kubernetes.io/not-ready"},
                               {"operator", "Exists"},
                               {"effect", "NoExecute"},
                               {"tolerationSeconds", 300}});
    tolerations.push_back(json{{"key", "node.kubernetes.io/unreachable"},
                               {"operator", "Exists"},
                               {"effect", "NoExecute"},
                               {"tolerationSeconds", 300}});
    json spec{{"containers", containers},
              {"volumes", volumes},
              {"restartPolicy", in.restartPolicy},
              {"schedulerName", in.schedulerName},
              {"terminationGracePeriodSeconds", 30},
              {"dnsPolicy", "ClusterFirst"},
              {"serviceAccountName", "default"},
              {"serviceAccount", "default"},
              {"securityContext", json::object()},
              {"enableServiceLinks", true},
              {"preemptionPolicy", "PreemptLowerPriority"},
              {"priority", 0},
              {"tolerations", tolerations}};
    if (!in.nodeSelector.empty())
        spec["nodeSelector"] = in.nodeSelector;
    if (!in.nodeName.empty())
        spec["nodeName"] = in.nodeName;
    json meta{{"name", in.name}, {"namespace", in.ns}, {"labels", in.labels}};
    if (!in.annotations.empty())
        meta["annotations"] = in.annotations;
    if (!in.ownerReferences.empty())
        meta["ownerReferences"] = in.ownerReferences;
    return json{{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", meta},
                {"spec", spec},
                {"status", {{"phase", "Pending"}, {"qosClass", qosClassOf(spec)}}}};
}

json ObjectFactory::namespaceFor(const std::string &name, const json &labels)
{
    json l = labels;
    l["kubernetes.io/metadata.name"] = name;
    return json{{"apiVersion", "v1"},
                {"kind", "Namespace"},
                {"metadata", {{"name", name}, {"labels", l}}},
                {"spec", {{"finalizers", {"kubernetes"}}}},
                {"status", {{"phase", "Active"}}}};
}

json ObjectFactory::queue(const std::string &name, int gpuCapability, int weight)
{
    json spec{{"weight", weight}, {"reclaimable", true}};
    if (gpuCapability >= 0)
        spec["capability"] = json{{"nvidia.com/gpu", std::to_string(gpuCapability)},
                                  {"cpu", std::to_string(gpuCapability * 16)},
                                  {"memory", std::to_string(gpuCapability * 160) + "Gi"}};
    // Volcano's rule: guarantee ≤ deserved ≤ capability, for each resource.
    if (gpuCapability > 0)
        spec["deserved"] = json{{"nvidia.com/gpu", std::to_string(gpuCapability * 3 / 4)},
                                {"cpu", std::to_string(gpuCapability * 12)},
                                {"memory", std::to_string(gpuCapability * 120) + "Gi"}};
    if (gpuCapability > 0)
        spec["guarantee"] =
            json{{"resource", {{"nvidia.com/gpu", std::to_string(gpuCapability / 4)}}}};
    return json{{"apiVersion", "scheduling.volcano.sh/v1beta1"},
                {"kind", "Queue"},
                {"metadata", {{"name", name}}},
                {"spec", spec},
                {"status", {{"state", "Open"}}}};
}

json ObjectFactory::ownerRef(const std::string &apiVersion, const std::string &kind,
                             const std::string &name, const std::string &uid)
{
    return json{{"apiVersion", apiVersion},
                {"kind", kind},
                {"name", name},
                {"uid", uid},
                {"controller", true},
                {"blockOwnerDeletion", true}};
}

json ObjectFactory::event(const std::string &ns, const json &involved, const std::string &type,
                          const std::string &reason, const std::string &message,
                          const std::string &component, const std::string &host,
                          const std::string &time)
{
    json source{{"component", component}};
    if (!host.empty())
        source["host"] = host;
    return json{{"apiVersion", "v1"},
                {"kind", "Event"},
                {"metadata", {{"namespace", ns}}},
                {"involvedObject", involved},
                {"type", type},
                {"reason", reason},
                {"message", message},
                {"source", source},
                {"firstTimestamp", time},
                {"lastTimestamp", time},
                {"count", 1},
                {"reportingComponent", component},
                {"reportingInstance", host.empty() ? component : host}};
}

} // namespace sim
