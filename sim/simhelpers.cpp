// SPDX-License-Identifier: GPL-3.0-or-later
#include "simhelpers.h"

#include "objectfactory.h"

#include <QDateTime>

#include <cstdio>

namespace sim {

using nlohmann::json;

quint64 hashOf(const std::string &s)
{
    quint64 h = 1469598103934665603ULL;
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ULL;
    return h;
}

qint64 parseMs(const json &v)
{
    if (!v.is_string())
        return 0;
    return QDateTime::fromString(QString::fromStdString(v.get<std::string>()), Qt::ISODate)
        .toMSecsSinceEpoch();
}

std::string userOfNamespace(const std::string &ns)
{
    return ns.rfind("user-", 0) == 0 ? ns.substr(5) : ns;
}

json condition(const std::string &type, const std::string &status, const std::string &time,
               const std::string &reason, const std::string &message)
{
    json c{{"type", type},
           {"status", status},
           {"lastTransitionTime", time},
           {"lastProbeTime", nullptr}};
    if (!reason.empty())
        c["reason"] = reason;
    if (!message.empty())
        c["message"] = message;
    return c;
}

void failPod(json &status, const std::string &reason, const std::string &message,
             const std::string &now)
{
    for (auto &c : status["containerStatuses"]) {
        const json &running = sub(sub(c, "state"), "running");
        c["state"] = {{"terminated",
                       {{"exitCode", 137},
                        {"reason", "Error"},
                        {"startedAt", running.value("startedAt", now)},
                        {"finishedAt", now},
                        {"containerID", c.value("containerID", "")}}}};
        c["ready"] = false;
        c["started"] = false;
    }
    status["phase"] = "Failed";
    status["reason"] = reason;
    status["message"] = message;
    setCondition(status, condition("Ready", "False", now, "PodFailed"));
    setCondition(status, condition("ContainersReady", "False", now, "PodFailed"));
}

void setCondition(json &status, const json &cond)
{
    json &conds = status["conditions"];
    if (!conds.is_array())
        conds = json::array();
    for (auto &c : conds) {
        if (c.value("type", "") == cond["type"]) {
            if (c.value("status", "") == cond["status"] &&
                c.value("message", "") == cond.value("message", ""))
                return;
            c = cond;
            return;
        }
    }
    conds.push_back(cond);
}

std::string containerId(const std::string &uid, const std::string &container, int restart)
{
    char buf[80];
    const quint64 a = hashOf(uid + container + std::to_string(restart));
    const quint64 b = hashOf(container + uid + "x" + std::to_string(restart));
    const quint64 c = hashOf(uid + "c" + container);
    const quint64 d = hashOf("d" + uid + container + std::to_string(restart));
    std::snprintf(buf, sizeof buf, "%016llx%016llx%016llx%016llx",
                  static_cast<unsigned long long>(a), static_cast<unsigned long long>(b),
                  static_cast<unsigned long long>(c), static_cast<unsigned long long>(d));
    return buf;
}

} // namespace sim
