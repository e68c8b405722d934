// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "simstate.h"

#include <QObject>

namespace sim {

// Volcano's queue controller: each queue's status (its pod groups by phase, what its running
// pods are allocated: GPUs, CPU, memory, pods) and its state, moved by Commands that target the
// queue — CloseQueue makes it Closing while pod groups remain and Closed when none do,
// OpenQueue makes it Open — each Command deleted before it is acted on, so it acts once.
class QueueController : public QObject
{
    Q_OBJECT
public:
    explicit QueueController(SimState &state);
    void sync();

private:
    void onChanged(const ResourceType *type, const WatchEvent &event);
    // Queue name → the state a Command asks for ("Open" or "Closed").
    std::map<std::string, std::string> takeCommands();

    SimState &m_state;
    bool m_scheduled = false;
};

} // namespace sim
