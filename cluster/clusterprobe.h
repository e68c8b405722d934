// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clustersummary.h"

#include <QObject>

namespace gpudesk {

class KubeClient;

// Connects to a context: reads /version, then the nodes (paged), decoding off the UI thread.
class ClusterProbe : public QObject
{
    Q_OBJECT
public:
    explicit ClusterProbe(KubeClient *client, QObject *parent = nullptr);
    void start();

    // Decoding, public for the tests: adds one NodeList page to `summary`.
    static bool addNodes(const QByteArray &nodeList, ClusterSummary *summary,
                         QString *continueToken, QString *error);
    static QString decodeVersion(const QByteArray &body);

signals:
    void finished(const gpudesk::ClusterSummary &summary);
    void failed(const QString &error);

private:
    void fetchNodes(const QString &continueToken);
    KubeClient *m_client;
    ClusterSummary m_summary;
};

} // namespace gpudesk
