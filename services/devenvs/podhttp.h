// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

class QObject;

namespace gpudesk {

class KubeClient;

// One HTTP/1.1 GET to a pod's port through a port-forward stream (Connection: close), its
// answer bounded: how gpudesk asks a program in a dev environment (Jupyter's API, whether
// TensorBoard answers yet) without opening a local port for it.
namespace PodHttp {

constexpr qsizetype MaxAnswerBytes = 1 << 20;
constexpr int AnswerTimeoutMs = 20000;

struct Answer
{
    int status = 0; // 0: no answer (see error)
    QByteArray body;
    QString error;
};

// `authorization` is the Authorization header's value ("" none): a secret goes there, never in
// the path, which the program may log.
void get(KubeClient *client, const QString &ns, const QString &pod, quint16 port,
         const QString &path, const QByteArray &authorization, QObject *context,
         std::function<void(const Answer &)> done);

// Whether a program answers on a pod's port without being asked (an SSH server's banner):
// `done(true, "")` at its first bytes; `done(false, why)` when the port refuses or says nothing
// within `silenceMs`.
void banner(KubeClient *client, const QString &ns, const QString &pod, quint16 port, int silenceMs,
            QObject *context, std::function<void(bool, const QString &)> done);

// An HTTP/1.1 response as read so far: true once it is whole (Content-Length, chunked, or
// `closed` for a body read to the end of the stream), with its status (100–599) and body.
// False with `*status` NotHttp once its head is read and is not an HTTP response's.
constexpr int NotHttp = -1;
bool parseResponse(const QByteArray &raw, bool closed, int *status, QByteArray *body);

} // namespace PodHttp

} // namespace gpudesk
