// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "harbortypes.h"
#include "operationplan.h"
#include "registrytypes.h"

#include <QCoreApplication>

#include <QList>
#include <QString>

#include <optional>

namespace gpudesk {

class ImagesModel;

// Plans for a registry's images, from what the Images page read: what a delete takes (every
// tag naming the same digest), who runs it (refused without the user's override), what it frees
// and when (only after garbage collection, whose command the plan gives); what a copy makes and
// what it would replace. Plain computation on the model: nothing is sent.
class ImagePlanner
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::ImagePlanner)
public:
    ImagePlanner(const ImagesModel &model, RegistryEndpoint registry);

    // The selected tags' images. allowInUse: the user chose to delete images pods run.
    OperationPlan remove(const QList<int> &rows, bool allowInUse) const;
    // The tag at `row` copied to `to` ("repository:tag"; the same tag when none is written).
    OperationPlan copy(int row, const QString &to) const;
    // Harbor's garbage collection, deleting its untagged artifacts first when asked (refused
    // while a pod runs one of them by digest).
    OperationPlan collectGarbage(const std::optional<HarborInfo> &harbor,
                                 const QList<HarborArtifact> &untagged, bool deleteUntagged) const;
    // Whether any of the rows' images is run by a pod now.
    bool inUse(const QList<int> &rows) const;

    // What a docker-registry (distribution) operator runs to give the space back.
    static QString garbageCollectCommand();
    static bool isRepositoryName(const QString &name);
    static bool isTagName(const QString &tag);

private:
    QString url(const QString &path) const;

    const ImagesModel &m_model;
    RegistryEndpoint m_registry;
};

} // namespace gpudesk
