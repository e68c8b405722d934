// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>

#include <functional>

class QComboBox;

namespace gpudesk {

class ClusterStore;
struct PodInfo;

// The choices the forms that make pods offer (a dev environment, a training job), from the
// store: the same lists, in the same order, in each.
class FormChoices
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::FormChoices)

public:
    // The context's namespace first, then every user's; editable (an admin may type another).
    static void namespaces(QComboBox *box, const ClusterStore &store, const QString &ns);
    // The images of the pods `which` picks, most used first; editable (any other can be typed).
    static void images(QComboBox *box, const ClusterStore &store,
                       const std::function<bool(const PodInfo &)> &which);
    // "Any model", then each GPU model with its free cards where every pod is visible (an
    // admin: a researcher's view would overstate them); the model as each item's data.
    static void gpuModels(QComboBox *box, const ClusterStore &store);
};

} // namespace gpudesk
