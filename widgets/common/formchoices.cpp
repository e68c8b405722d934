// SPDX-License-Identifier: GPL-3.0-or-later
#include "formchoices.h"

#include "clusterstore.h"

#include <QComboBox>
#include <QMap>

#include <algorithm>

namespace gpudesk {

void FormChoices::namespaces(QComboBox *box, const ClusterStore &store, const QString &ns)
{
    box->setEditable(true);
    QStringList names;
    if (!ns.isEmpty())
        names << ns;
    for (const NamespaceInfo &n : store.users())
        if (!names.contains(n.name))
            names << n.name;
    box->addItems(names);
}

void FormChoices::images(QComboBox *box, const ClusterStore &store,
                         const std::function<bool(const PodInfo &)> &which)
{
    box->setEditable(true);
    QHash<QString, int> used;
    for (const PodInfo &p : store.pods())
        if (!p.image.isEmpty() && which(p))
            ++used[p.image];
    QStringList images = used.keys();
    std::sort(images.begin(), images.end(), [&](const QString &a, const QString &b) {
        return used[a] != used[b] ? used[a] > used[b] : a < b;
    });
    box->addItems(images);
}

void FormChoices::gpuModels(QComboBox *box, const ClusterStore &store)
{
    box->addItem(tr("Any model"), QString());
    QMap<QString, int> models; // model → free GPUs now
    for (const NodeInfo &n : store.nodes())
        if (!n.gpuModel.isEmpty())
            models[n.gpuModel] += store.nodeGpus(n.name).free;
    for (auto it = models.cbegin(); it != models.cend(); ++it)
        box->addItem(store.podsComplete() ? tr("%1 (%2 free now)").arg(it.key()).arg(it.value())
                                          : it.key(),
                     it.key());
}

} // namespace gpudesk
