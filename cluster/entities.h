// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace gpudesk {

// The fields of Kubernetes objects that gpudesk uses, decoded once (see decoder.h).
struct NodeInfo
{
    QString uid;
    QString name;
    bool ready = false;
    bool unschedulable = false;
    QString gpuModel; // label nvidia.com/gpu.product
    int gpuAllocatable = 0;
    int gpuCapacity = 0;
};

struct PodInfo
{
    QString uid;
    QString ns;
    QString name;
    QString nodeName;
    QString phase;
    QString queue; // Volcano queue: label volcano.sh/queue-name, else annotation, else ""
    int gpuRequest = 0;
    bool deleting = false;

    bool finished() const
    {
        return phase == QLatin1String("Succeeded") || phase == QLatin1String("Failed");
    }
};

struct QueueInfo
{
    QString name;
    std::optional<int> gpuCapability; // none: unlimited
};

struct NamespaceInfo
{
    QString name;
    QString user; // label gpudesk.io/user
    QString vc;   // label gpudesk.io/vc
};

} // namespace gpudesk
