// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <map>
#include <string>
#include <vector>

namespace sim {

struct NodeMachine;
struct SimState;

// /sim/truth: what the cluster really is, from the simulation's own state rather than from
// the API objects a client reads, so that the client's figures can be checked against it.
class Truth
{
public:
    explicit Truth(const SimState &state);

    nlohmann::json toJson() const;

private:
    struct Totals
    {
        qint64 total = 0;
        qint64 allocated = 0;
        qint64 free = 0;
        qint64 busy = 0;
    };
    // Per namespace: pods not finished, and the GPUs they ask for.
    struct QuotaCounts
    {
        std::map<std::string, qint64> pods;
        std::map<std::string, qint64> gpus;
    };
    nlohmann::json node(const nlohmann::json &n, Totals *totals) const;
    nlohmann::json cards(const NodeMachine &m, qint64 *busy) const;
    nlohmann::json podCgroups(const NodeMachine &m) const;
    nlohmann::json queues(const std::map<std::string, qint64> &byQueue) const;
    nlohmann::json users(const std::map<std::string, qint64> &byUser,
                         const QuotaCounts &counted) const;
    nlohmann::json planted() const;
    nlohmann::json nas() const;
    static nlohmann::json images(std::map<std::string, std::vector<std::string>> podsOfImage);
    static nlohmann::json definitions();

    const SimState &m_state;
};

} // namespace sim
