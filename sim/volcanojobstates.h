// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>

namespace sim {

struct SimState;

// Volcano's job state machine for the actions users ask for with bus.volcano.sh Commands
// (vcctl job suspend/resume/…): the job controller takes each Command, deletes it, tells the
// job (CommandIssued, ExecuteAction), and acts as pkg/controllers/job/state does — AbortJob:
// Aborting, its running pods killed (finished ones kept), then Aborted; ResumeJob (from
// Aborting or Aborted): Restarting, then Pending, the pods made again; RestartJob: Restarting;
// TerminateJob: Terminating → Terminated; CompleteJob: Completing → Completed. A full kill
// bumps status.version and deletes the job's PodGroup.
class VolcanoJobStates
{
public:
    explicit VolcanoJobStates(SimState &state) : m_state(state) {}

    // Takes the Commands waiting in the store: job key (ns/name) → action.
    std::map<std::string, std::string> takeCommands();
    // Applies `action` to a job in its current phase.
    void execute(const nlohmann::json &job, const std::string &action);
    // A job in a passing phase (Aborting, Terminating, Completing, Restarting) moves on once
    // its pods are gone. False for any other phase.
    bool advance(const nlohmann::json &job);

private:
    enum class Retain
    {
        None, // every pod goes
        Soft, // pods that finished stay
    };
    // killJob: deletes the job's pods but those retained, counts them into the status, lets
    // `next` set the new phase from the counts, writes the status and drops the PodGroup.
    void kill(const nlohmann::json &job, Retain retain,
              const std::function<bool(nlohmann::json &status)> &next);
    void record(const nlohmann::json &job, const std::string &reason, const std::string &message);

    SimState &m_state;
};

} // namespace sim
