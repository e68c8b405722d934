// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>
#include <QTimer>

#include <functional>

namespace gpudesk {

class ClusterStore;
struct PodInfo;

// Visits every pod of the store a few milliseconds at a time, a turn of the event loop each, so
// that a walk of 100,000 pods never holds the window for long (issue 39: the findings' snapshot
// and the images' join, each a 35-50 ms walk every two seconds, were the longest stalls under
// churn). The pods are those the store held when the walk began, each read as it is when its
// turn comes — one gone by then is skipped, one come since waits for the next walk: what a walk
// sees is each pod at some moment of the walk, not all of them at one instant, which is what a
// periodic survey (findings, who runs which image) needs and all it may be used for.
class PodSweep : public QObject
{
    Q_OBJECT
public:
    using Visit = std::function<void(const PodInfo &)>;
    using Done = std::function<void()>;

    explicit PodSweep(const ClusterStore *store, QObject *parent = nullptr);
    // Begins a walk; one still running is dropped (its `done` never called). `visit` must not
    // start or cancel a walk (it runs inside the walk's loop); `done` may start the next one.
    void start(Visit visit, Done done);
    // The same walk at once, over the store as it is (a walk under way is dropped): for what the
    // user asked for and waits on.
    void runNow(const Visit &visit, const Done &done);
    void cancel();
    bool isRunning() const { return !m_uids.isEmpty(); }

    static constexpr int SliceMs = 4;

private:
    void step();

    const ClusterStore *m_store;
    QStringList m_uids;
    qsizetype m_next = 0;
    Visit m_visit;
    Done m_done;
    QTimer m_turn;
};

} // namespace gpudesk
