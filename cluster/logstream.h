// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "logline.h"

#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>

class QNetworkReply;

namespace gpudesk {

class KubeClient;

// A pod's log from the API (`/log`), optionally followed. Lines always come with timestamps, so
// that a stream that breaks is resumed with sinceTime from the last line and the lines already
// shown are skipped: none is lost and none repeats.
class LogStream : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString container;
        bool follow = true;
        bool previous = false;
        int tailLines = -1;    // -1: all
        qint64 limitBytes = 0; // > 0: the log's first bytes, no more (its start, not its tail)
        // Following: after this long without a byte the server is checked (a quiet container
        // and a dead link look alike from the stream), and the stream opened again from the
        // last line when the server answers.
        int quietCheckMs = 30000;
    };
    // A line longer than this is shown cut, with a note (a download keeps it whole).
    static constexpr qsizetype MaxLineBytes = 1 << 20;
    enum State
    {
        Idle,
        Streaming,
        Reconnecting,
        Ended,
        Failed
    };

    LogStream(KubeClient *client, QString ns, QString pod, QObject *parent = nullptr);
    ~LogStream() override;

    void start(const Options &options);
    void stop();
    State state() const { return m_state; }
    // The log's path with these options (also used to download the whole log).
    static QString path(const QString &ns, const QString &pod, const Options &options,
                        const QByteArray &sinceTime = {});
    // Cuts what the server sent into lines (announced by lines()), as the stream does with
    // each piece; public for the tests and the fuzz target that feed it pieces cut anywhere.
    void deliver(const QByteArray &chunk, bool final);

signals:
    void lines(const QList<gpudesk::LogLine> &lines);
    void stateChanged(gpudesk::LogStream::State state, const QString &message);

private:
    void open();
    void onReadyRead();
    void onFinished();
    void dropReply();
    void checkServer();
    void setState(State state, const QString &message = {});

    KubeClient *m_client;
    QString m_ns;
    QString m_pod;
    Options m_options;
    QNetworkAccessManager m_nam;
    QPointer<QNetworkReply> m_reply;
    QTimer m_retry;
    QTimer m_quiet;
    std::unique_ptr<QNetworkAccessManager> m_checkNam; // a fresh connection for each check
    QPointer<QNetworkReply> m_check;
    bool m_skippingLongLine = false; // the rest of a line already shown cut
    QByteArray m_partial;
    QByteArray m_lastTimestamp;
    int m_seenAtLast = 0; // lines already shown with exactly m_lastTimestamp
    int m_skipAtLast = 0; // after a resume: such lines still to skip
    // After a resume, until a line newer than this arrives: lines older than it were shown
    // already. Within one answer nothing is dropped — the runtime stamps stdout and stderr
    // apart, so a traceback on stderr may carry times before the last line on stdout.
    QByteArray m_resumedAt;
    int m_attempt = 0;
    State m_state = Idle;
};

} // namespace gpudesk
