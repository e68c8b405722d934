// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sim {

class MachineRegistry;
class NodeTools;
class SimClock;

// One SSH server per node on 127.0.0.1 (libssh), with its own host key. Public-key auth with
// the simulator's client key; exec runs through NodeTools; direct-tcpip reaches the in-pod
// services of dev environments. Sessions run on threads of their own, never on the UI thread.
class SshEndpoints
{
public:
    SshEndpoints(MachineRegistry *machines, NodeTools *tools, const SimClock *clock,
                 QString stateDir);
    ~SshEndpoints();

    // Listens for every node; `ports` gives wanted ports (0 = any) and receives the real ones.
    bool start(const std::vector<std::string> &nodes, std::map<std::string, int> *ports,
               QString *error);
    void stop();
    // Writes ssh_config, known_hosts and the client key for `ssh -F <state>/ssh_config NODE`.
    bool writeClientFiles(QString *error) const;

    QString sshConfigPath() const;
    QString user() const { return QStringLiteral("root"); }

private:
    struct Endpoint;
    void acceptLoop();
    void serve(Endpoint *endpoint, int fd);
    bool ensureKeys(QString *error);

    MachineRegistry *m_machines;
    NodeTools *m_tools;
    const SimClock *m_clock;
    QString m_stateDir;
    std::vector<std::unique_ptr<Endpoint>> m_endpoints;
    std::thread m_acceptThread;
    std::mutex m_threadsMutex;
    std::vector<std::thread> m_sessionThreads;
    std::atomic<bool> m_stopping{false};
    int m_wakePipe[2] = {-1, -1};
    std::string m_clientPublicKey; // base64 of the authorized key
    std::string m_password;        // root's password on every node (ssh/password)
};

} // namespace sim
