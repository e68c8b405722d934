// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "harbortypes.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

namespace gpudesk {

// Harbor records every manifest GET as a pull — gpudesk's own reading of an image's layers
// included. So that reading a Harbor does not make every image look "pulled today", the pull
// times Harbor gave before each read are kept (in the user's cache, per registry), with the
// windows gpudesk was reading in: a pull time inside one of those windows is gpudesk's own, and
// the time kept from before stands for it. Another user's gpudesk reading meanwhile looks like
// a pull, which errs on the side of keeping an image.
class HarborPullTimes
{
public:
    // `file`: a JSON file of this registry's (made on remember()).
    explicit HarborPullTimes(QString file);

    // Harbor's pull times of `artifacts`, less those gpudesk's earlier reads caused.
    void resolve(QList<HarborArtifact> *artifacts) const;
    // The resolved times, and the window of the read that began now.
    void remember(const QList<HarborArtifact> &resolved, const QDateTime &readStart,
                  const QDateTime &readEnd);

    static constexpr int MaxWindows = 16;

private:
    bool ours(const QDateTime &pulled) const;

    QString m_file;
    QList<QPair<qint64, qint64>> m_windows; // ms since the epoch, oldest first
    QHash<QString, qint64> m_pulled;        // "repo@digest" and "repo:tag" -> ms, 0 never
};

} // namespace gpudesk
