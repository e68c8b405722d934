// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sim {

class NasTree;

// The SFTP subsystem of a simulated node (version 3, draft-ietf-secsh-filexfer-02, what OpenSSH's
// sftp-server speaks): the NAS under /mnt and nothing else. Paths are the node's; links are read
// as the node's kernel would (NasTree::resolve), so a link out of /mnt leads nowhere. The node's
// user is not root: a directory without read permission cannot be listed, one without write
// permission cannot be written into. One per channel; bytes in, replies out.
class SftpServer
{
public:
    explicit SftpServer(const NasTree *nas);
    ~SftpServer();
    SftpServer(const SftpServer &) = delete;
    SftpServer &operator=(const SftpServer &) = delete;

    // The client's bytes; the replies to every packet they complete (empty while a packet is
    // still incomplete). `fatal` is set on a packet no server would accept (then the channel
    // closes, as sftp-server exits).
    std::string feed(const char *data, size_t size, bool *fatal);

    // A packet larger than this is a broken client (OpenSSH's limit).
    static constexpr size_t MaxPacket = 256 * 1024;

private:
    struct Handle;
    std::string handle(const std::string &packet);
    std::string open(uint32_t id, const std::string &path, uint32_t flags);
    std::string readDir(uint32_t id, Handle &h);
    std::string newHandle(std::unique_ptr<Handle> h);
    Handle *findHandle(const std::string &id);

    const NasTree *m_nas;
    std::string m_in;
    bool m_initialised = false;
    std::map<std::string, std::unique_ptr<Handle>> m_handles;
    unsigned m_nextHandle = 1;
};

} // namespace sim
