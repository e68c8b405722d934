// SPDX-License-Identifier: GPL-3.0-or-later
#include "logservice.h"

#include "clustersession.h"
#include "contextconnection.h"
#include "logdownload.h"
#include "logstream.h"

namespace gpudesk {

namespace {

LogStream::Options streamOptions(const LogOptions &o)
{
    LogStream::Options s;
    s.container = o.container;
    s.follow = o.follow;
    s.previous = o.previous;
    s.tailLines = o.tailLines;
    s.limitBytes = o.limitBytes;
    return s;
}

} // namespace

LogFeed::LogFeed(QObject *parent) : QObject(parent) {}

LogFeed::~LogFeed() = default;

void LogFeed::start()
{
    if (m_stream)
        m_stream->start(streamOptions(m_options));
}

void LogFeed::stop()
{
    if (m_stream)
        m_stream->stop();
}

LogSave::LogSave(QObject *parent) : QObject(parent) {}

LogSave::~LogSave() = default;

void LogSave::cancel()
{
    if (m_download)
        m_download->cancel();
}

LogService::LogService(ClusterSession *session, QObject *parent)
    : QObject(parent), m_session(session)
{}

LogFeed *LogService::follow(const QString &ns, const QString &pod, const LogOptions &options,
                            QObject *parent)
{
    const auto &connection = m_session->connection();
    if (!connection)
        return nullptr;
    auto *feed = new LogFeed(parent);
    auto *stream = new LogStream(connection->client(), ns, pod, feed);
    feed->m_stream = stream;
    connect(stream, &LogStream::lines, feed, &LogFeed::lines);
    connect(stream, &LogStream::stateChanged, feed,
            [feed](LogStream::State s, const QString &message) {
                emit feed->stateChanged(LogFeed::State(s), message);
            });
    feed->m_options = options;
    return feed;
}

LogSave *LogService::save(const QString &ns, const QString &pod, const LogOptions &options,
                          const QString &fileName, QObject *parent)
{
    const auto &connection = m_session->connection();
    if (!connection)
        return nullptr;
    LogStream::Options o = streamOptions(options);
    o.follow = false;
    auto *save = new LogSave(parent);
    // Without timestamps: the file reads as the container wrote it.
    QString path = LogStream::path(ns, pod, o);
    path.replace(QStringLiteral("timestamps=true"), QStringLiteral("timestamps=false"));
    auto *download = new LogDownload(connection->client(), path, fileName, save);
    save->m_download = download;
    connect(download, &LogDownload::progress, save, &LogSave::progress);
    connect(download, &LogDownload::finished, save, &LogSave::finished);
    download->start();
    return save;
}

} // namespace gpudesk
