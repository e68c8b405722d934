// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

#include <functional>
#include <string>
#include <vector>

namespace sim {

// A registry as a node's runtime reaches it: HTTPS with the CA in its certs.d, basic auth.
struct RegistryTarget
{
    std::string host; // "127.0.0.1:5000"
    std::string caFile;
    std::string username, password;
};

// One blob of an image to push, with its digest ("sha256:…").
struct PushBlob
{
    std::string digest;
    QByteArray data;
};

// The Distribution API's push, as containerd's pusher does it: each blob asked for with HEAD and
// uploaded (POST, then one monolithic PUT) only when missing, the manifest PUT last. Blocking:
// runs on an SSH session's thread, never on the simulation's. `say` gets a line per step.
class RegistryPush
{
public:
    // GET /v2/ with the credentials: what `login` checks. "" when accepted, else the reason.
    static std::string checkLogin(const RegistryTarget &target);
    // What a node's pull resolves first: the digest `repository:tag` names (HEAD with the
    // manifest types containerd accepts). "" when it answered, else why not (the registry's
    // words; "not found" for a 404). Runs the request on a thread of its own and waits for it,
    // so that it may be called from the simulation's thread without running its event loop.
    static std::string resolve(const RegistryTarget &target, const std::string &repository,
                               const std::string &tag, std::string *digest);
    // The nodes' registry `host` as the certs.d directory describes it: its CA, and the pull
    // credentials in DIR/HOST/auth ("user:password"), as a node's kubelet config would hold.
    static RegistryTarget nodeTarget(const std::string &certsDir, const std::string &host);
    // Pushes and returns "" on success, else what went wrong (status and the registry's words).
    static std::string push(const RegistryTarget &target, const std::string &repository,
                            const std::string &tag, const std::vector<PushBlob> &blobs,
                            const QByteArray &manifest, const std::string &manifestType,
                            const std::function<void(const std::string &)> &say);
};

} // namespace sim
