// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nodetools.h"

#include <QtGlobal>

#include <sys/types.h>

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

struct stat;

namespace sim {

// The lab's NAS, mounted on every node at /mnt (/mnt/user/NAME and /mnt/share/GROUP): a real
// directory tree under <stateDir>/nas, so that what gpudesk reads over SSH (sizes, times, odd
// names, links, permissions) comes from a real file system, and /sim/truth can measure it.
// Nothing here changes the tree after seeding: commands from many SSH sessions read it at once.
class NasTree
{
public:
    explicit NasTree(const std::string &stateDir);

    const std::string &root() const { return m_root; }
    // Creates the root with user/ and share/ (both empty): false with *error when it cannot.
    bool ensureRoot(std::string *error) const;
    // The demo lab's files, once per state directory (`<root>/.seeded` is written last). Times
    // are set relative to nowSecs; the big files are sparse.
    bool seedDemo(const std::vector<std::pair<std::string, std::string>> &userGroups,
                  qint64 nowSecs, std::string *error = nullptr) const;

    // /mnt and /mnt/... mapped onto the root, as text: no symbolic link is read, so a caller that
    // opens the result must not pass a path through a link (resolve() does that safely).
    std::optional<std::string> hostPath(const std::string &nodePath) const;
    // The host path a node's kernel would reach, every link read as a node path: a link out of
    // /mnt ends the walk (ENOENT: the node's own disks are not simulated). Links in the last
    // component are followed only with followLast. nullopt with *err (an errno) on failure.
    std::optional<std::string> resolve(const std::string &nodePath, bool followLast,
                                       int *err) const;

    // GNU find over the NAS: find [-P] PATH... [-xdev] [-mindepth N] [-maxdepth N]
    // [-print | -print0 | -printf FORMAT]..., in its words and formats (see nastree.cpp).
    CommandOutput find(const std::vector<std::string> &argv) const;

    struct Usage
    {
        qint64 bytes = 0;     // st_size of the folder and everything below (du -sb: a file of
                              // several names, hard links, once)
        qint64 allocated = 0; // st_blocks * 512 of the same
        qint64 files = 0;     // entries below that are not directories (each name)
        qint64 dirs = 0;      // directories below, the folder itself not counted
    };
    // A folder's usage, links not followed; what a non-root user cannot read is counted
    // itself, its contents not.
    Usage usage(const std::string &nodePath) const;
    // How much more (or less) the mount's tree holds on disk than when first asked: what df
    // adds to the mount's fixed figures, the same on every node.
    qint64 allocatedChange(const std::string &mount) const;
    // /mnt/user/NAME and /mnt/share/GROUP for every folder there, sorted.
    std::vector<std::string> folders() const;

    // Whether the node's user (not root) may list a directory of this mode.
    static bool readable(unsigned mode) { return (mode & 0444) != 0; }

private:
    struct Walk;
    void visit(Walk &w, const std::string &nodePath, const std::string &host,
               const std::string &rel, int depth, const struct stat &st) const;
    // The entries of a host directory, sorted, without the seeding marker; false with *err.
    bool list(const std::string &host, std::vector<std::string> *names, int *err) const;
    void addUsage(const std::string &host, Usage *u, std::set<ino_t> *linked) const;

    std::string m_root;
    mutable std::mutex m_firstMutex;
    mutable std::map<std::string, qint64> m_firstAllocated; // by mount, when first asked
};

} // namespace sim
