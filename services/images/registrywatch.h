// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QTimer>

namespace gpudesk {

class ImagesService;

// Whether the lab's own registries answer: every IntervalMs, `GET /v2/` (anonymous: a 401 is an
// answer) of each registry added on the Images page and of each one pods pull from that is not
// a public service (Docker Hub, NGC, GHCR, Quay, the Kubernetes and Google registries, which
// the lab does not run). A registry that stops answering is found before the next pull fails.
// One pods name is reported only once it has answered a check (as a node that stopped answering
// over SSH: a name gpudesk never reached is not an outage it saw); one added on the Images page,
// always.
class RegistryWatch : public QObject
{
    Q_OBJECT
public:
    static constexpr int IntervalMs = 5 * 60 * 1000;

    explicit RegistryWatch(ImagesService *images, QObject *parent = nullptr);

    QStringList watched() const;
    struct Down
    {
        QString error;
        qint64 sinceMs = 0;
    };
    // The registries that did not answer the last check, with why and since when.
    const QHash<QString, Down> &unreachable() const { return m_down; }

public slots:
    void checkNow();

signals:
    void checked();

private:
    ImagesService *m_images;
    QTimer m_timer;
    QHash<QString, Down> m_down;
    int m_pending = 0;
    QHash<QString, Down> m_round;
    QSet<QString> m_checkedOnce;
    QSet<QString> m_answered; // registries that answered a check this session
};

} // namespace gpudesk
