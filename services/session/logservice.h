// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "logline.h"

#include <QObject>
#include <QPointer>

namespace gpudesk {

class ClusterSession;
class LogDownload;
class LogStream;

struct LogOptions
{
    QString container;
    bool follow = true;
    bool previous = false;
    int tailLines = -1;    // -1: all
    qint64 limitBytes = 0; // > 0: the first bytes of the log only
};

// One container's log as it comes, followed and resumed across broken streams (see LogStream):
// what the log viewer draws.
class LogFeed : public QObject
{
    Q_OBJECT
public:
    enum State
    {
        Idle,
        Streaming,
        Reconnecting,
        Ended,
        Failed
    };
    Q_ENUM(State)
    ~LogFeed() override;
    // Connect to the signals first, then start.
    void start();
    void stop();

signals:
    void lines(const QList<gpudesk::LogLine> &lines);
    void stateChanged(gpudesk::LogFeed::State state, const QString &message);

private:
    friend class LogService;
    explicit LogFeed(QObject *parent);
    QPointer<LogStream> m_stream;
    LogOptions m_options;
};

// A whole log saved to a file (streamed, never held in memory), with progress and cancel.
class LogSave : public QObject
{
    Q_OBJECT
public:
    ~LogSave() override;
    void cancel();

signals:
    void progress(qint64 bytes);
    void finished(bool ok, const QString &message);

private:
    friend class LogService;
    explicit LogSave(QObject *parent);
    QPointer<LogDownload> m_download;
};

// Logs of the current connection's pods.
class LogService : public QObject
{
    Q_OBJECT
public:
    explicit LogService(ClusterSession *session, QObject *parent = nullptr);
    // A feed of the log, to start once connected; it belongs to `parent`. Null when not
    // connected.
    LogFeed *follow(const QString &ns, const QString &pod, const LogOptions &options,
                    QObject *parent);
    // Starts saving the whole log (what `options` select, not followed) to `fileName`.
    LogSave *save(const QString &ns, const QString &pod, const LogOptions &options,
                  const QString &fileName, QObject *parent);

private:
    ClusterSession *m_session;
};

} // namespace gpudesk
