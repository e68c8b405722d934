// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <QTemporaryDir>

#include <functional>
#include <memory>
#include <optional>

class QProcess;

namespace sim {

// Which Jupyter server answers in each dev pod: by default the one the simulator was given
// (--service-backend jupyter=…, shared by every pod); none, once told so (POST
// /sim/jupyter/stop, as when a user ended theirs); or one started in the pod through exec, as a
// client does when none runs — a real jupyter-server on loopback, its token the one the client
// sent on stdin, its files in a directory of its own, ended with its pod.
class PodJupyters : public QObject
{
    Q_OBJECT
public:
    enum class State
    {
        Shared,
        None,
        Own
    };
    struct Server
    {
        quint16 port = 0;
        QString token;
    };

    explicit PodJupyters(QObject *parent = nullptr);
    ~PodJupyters() override;

    // The program a "started" server runs (/usr/bin/jupyter-server unless told otherwise).
    void setProgram(const QString &path) { m_program = path; }
    // Whether a server can be started at all (the program is there).
    bool available() const;
    State state(const std::string &podUid) const;
    // The pod's own server, once it listens.
    std::optional<Server> own(const std::string &podUid) const;
    void stop(const QString &ns, const QString &pod, const std::string &podUid);
    // Starts the pod's own server with `token`; `done(error)` once it listens ("" then) or could
    // not start.
    void start(const QString &ns, const QString &pod, const std::string &podUid,
               const QString &token, std::function<void(const QString &error)> done);
    // Ends the servers of pods no longer `alive` (namespace, name, uid).
    using Alive = std::function<bool(const QString &, const QString &, const std::string &)>;
    void prune(const Alive &alive);

private:
    struct Entry
    {
        State state = State::Shared;
        QString ns;
        QString pod;
        QProcess *process = nullptr;
        std::unique_ptr<QTemporaryDir> dir;
        Server server;
        bool listening = false;
    };
    void end(Entry &e);

    QString m_program = QStringLiteral("/usr/bin/jupyter-server");
    std::unordered_map<std::string, Entry> m_pods;
};

} // namespace sim
