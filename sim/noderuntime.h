// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nodetools.h"

#include <QByteArray>
#include <QtGlobal>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace sim {

class MachineRegistry;

// containerd's nerdctl on a simulated node, as far as saving a container as an image needs it:
// `ps` (the pods' containers, in namespace k8s.io, by label), `commit` (an image of the
// container, kept on the node), `login --password-stdin` (checked against the registry, kept in
// $DOCKER_CONFIG/config.json) and `push` (a real push into the registry, which must be one the
// node trusts: a directory in the nodes' certs.d). Also the `mkdir -m 700` and `rm -rf` of the
// private directories a client keeps DOCKER_CONFIG in. Thread-safe: SSH sessions call it.
class NodeRuntime
{
public:
    NodeRuntime(MachineRegistry *machines, std::string certsDir)
        : m_machines(machines), m_certsDir(std::move(certsDir))
    {}

    CommandOutput nerdctl(const std::string &node, const std::vector<std::string> &argv,
                          const std::map<std::string, std::string> &env, const std::string &input,
                          qint64 nowMs);
    CommandOutput mkdir(const std::string &node, const std::vector<std::string> &argv);
    CommandOutput rm(const std::string &node, const std::vector<std::string> &argv);

    // The registries a certs.d directory names (its subdirectories).
    static std::set<std::string> registriesIn(const std::string &certsDir);

private:
    struct Image
    {
        std::string ns, pod, container, baseImage;
        qint64 createdMs = 0;
        QByteArray layer, config;
    };
    CommandOutput ps(const std::string &node, const std::vector<std::string> &args,
                     const std::string &ns);
    CommandOutput commit(const std::string &node, const std::vector<std::string> &args,
                         const std::string &ns, qint64 nowMs);
    CommandOutput login(const std::string &node, const std::vector<std::string> &args,
                        const std::string &configDir, const std::string &input);
    CommandOutput push(const std::string &node, const std::vector<std::string> &args,
                       const std::string &configDir);

    MachineRegistry *m_machines;
    std::string m_certsDir;
    std::mutex m_mutex;
    std::map<std::string, std::set<std::string>> m_dirs; // node → directories made
    // node → DOCKER_CONFIG directory → registry → "user:password"
    std::map<std::string, std::map<std::string, std::map<std::string, std::string>>> m_logins;
    std::map<std::string, std::map<std::string, Image>> m_images; // node → reference → image
};

} // namespace sim
