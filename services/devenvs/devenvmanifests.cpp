// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvmanifests.h"

#include "devenvsmodel.h"
#include "jsonfields.h"

#include <QRandomGenerator>

#include <nlohmann/json.hpp>

namespace gpudesk {

using json = nlohmann::json;

namespace {

std::string str(const QString &s)
{
    return s.toStdString();
}

} // namespace

QString DevEnvManifests::randomSuffix()
{
    // The API server's alphabet for generated names: no vowels, no look-alike digits.
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    QString out;
    for (int i = 0; i < 5; ++i)
        out += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(int(sizeof alphabet - 1))]);
    return out;
}

QByteArray DevEnvManifests::podJson(const DevEnvSpec &spec, const QString &suffix)
{
    json labels{{"gpudesk.io/devenv", str(spec.name)}, {"app.kubernetes.io/managed-by", "gpudesk"}};
    json annotations = json::object();
    if (!spec.vc.isEmpty()) {
        labels["volcano.sh/queue-name"] = str(spec.vc);
        annotations["scheduling.volcano.sh/queue-name"] = str(spec.vc);
    }
    json requests{{"cpu", str(spec.cpu)}, {"memory", str(spec.memory)}};
    json limits{{"memory", str(spec.memory)}};
    if (spec.gpus > 0) {
        requests["nvidia.com/gpu"] = std::to_string(spec.gpus);
        limits["nvidia.com/gpu"] = std::to_string(spec.gpus);
    }
    json ports = json::array();
    for (const QString &service : spec.services)
        if (const int port = DevEnvSpec::portOf(service))
            ports.push_back({{"name", str(service)}, {"containerPort", port}, {"protocol", "TCP"}});
    json mounts = json::array({{{"name", "home"}, {"mountPath", str(spec.homePath)}}});
    json volumes = json::array(
        {{{"name", "home"}, {"persistentVolumeClaim", {{"claimName", str(spec.homeClaim())}}}}});
    if (!spec.shm.isEmpty()) {
        mounts.push_back({{"name", "dshm"}, {"mountPath", "/dev/shm"}});
        volumes.push_back(
            {{"name", "dshm"}, {"emptyDir", {{"medium", "Memory"}, {"sizeLimit", str(spec.shm)}}}});
    }
    int n = 0;
    for (const QString &m : spec.mounts) {
        const std::string name = "mount-" + std::to_string(n++);
        mounts.push_back({{"name", name}, {"mountPath", str(m.section(u':', 1))}});
        volumes.push_back({{"name", name},
                           {"persistentVolumeClaim", {{"claimName", str(m.section(u':', 0, 0))}}}});
    }
    json env = json::array();
    for (const auto &[k, v] : spec.env)
        env.push_back({{"name", str(k)}, {"value", str(v)}});
    json container{{"name", "devenv"},
                   {"image", str(spec.image.trimmed())},
                   {"ports", ports},
                   {"env", env},
                   {"resources", {{"requests", requests}, {"limits", limits}}},
                   {"volumeMounts", mounts}};
    json podSpec{{"restartPolicy", "Always"}, {"containers", {container}}, {"volumes", volumes}};
    if (!spec.gpuModel.isEmpty())
        podSpec["nodeSelector"] = {{"nvidia.com/gpu.product", str(spec.gpuModel)}};
    json pod{{"apiVersion", "v1"},
             {"kind", "Pod"},
             {"metadata",
              {{"name", str(spec.name + u'-' + suffix)},
               {"namespace", str(spec.ns)},
               {"labels", labels}}},
             {"spec", podSpec}};
    if (!annotations.empty())
        pod["metadata"]["annotations"] = annotations;
    return QByteArray::fromStdString(pod.dump());
}

QByteArray DevEnvManifests::homeClaimJson(const DevEnvSpec &spec, const QByteArray &pod)
{
    json kept = json::parse(pod.toStdString(), nullptr, false);
    if (kept.is_object())
        kept["metadata"].erase("name");
    json claim{
        {"apiVersion", "v1"},
        {"kind", "PersistentVolumeClaim"},
        {"metadata",
         {{"name", str(spec.homeClaim())},
          {"namespace", str(spec.ns)},
          {"labels",
           {{"gpudesk.io/devenv", str(spec.name)}, {"app.kubernetes.io/managed-by", "gpudesk"}}},
          {"annotations", {{str(podAnnotation()), kept.dump()}}}}},
        {"spec",
         {{"accessModes", {"ReadWriteOnce"}},
          {"resources", {{"requests", {{"storage", str(spec.homeSize)}}}}}}}};
    return QByteArray::fromStdString(claim.dump());
}

QByteArray DevEnvManifests::podFromVolume(const DevEnvVolume &volume, const QString &suffix)
{
    json pod = json::parse(volume.podManifest.toStdString(), nullptr, false);
    // Kept in an annotation anyone who may edit the volume can change: read as it may come.
    if (!pod.is_object() || jsonfields::text(pod, "kind") != QLatin1String("Pod") ||
        !pod["spec"].is_object() || (pod.contains("metadata") && !pod["metadata"].is_object()) ||
        (pod["metadata"].contains("labels") && !pod["metadata"]["labels"].is_object()))
        return {};
    pod["metadata"]["name"] = str(volume.env + u'-' + suffix);
    pod["metadata"]["namespace"] = str(volume.ns);
    pod["metadata"]["labels"]["gpudesk.io/devenv"] = str(volume.env);
    return QByteArray::fromStdString(pod.dump());
}

} // namespace gpudesk
