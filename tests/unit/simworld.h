// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The demo cluster, built at a fixed instant and frozen (speed 0): the simulator's tests step it
// by hand.

#include "nodemachine.h"
#include "objectstore.h"
#include "resourcetypes.h"
#include "simclock.h"
#include "simulation.h"

#include <QDateTime>
#include <QTimeZone>

struct SimWorld
{
    sim::ResourceTypes types;
    sim::SimClock clock{QDateTime(QDate(2026, 11, 22), QTime(12, 0), Qt::UTC)};
    sim::ObjectStore store{&types, &clock, 1};
    sim::MachineRegistry machines;
    sim::Simulation sim;
    explicit SimWorld(quint64 seed = 1)
        : sim(&store, &clock, &machines,
              sim::SimOptions{QStringLiteral("demo"), seed, 0, 0, 0, 0, 0})
    {
        sim.build();
    }
    // Steps the cluster `seconds` simulated seconds, one at a time.
    void run(int seconds)
    {
        for (int i = 0; i < seconds; ++i)
            sim.step(1000);
    }
    nlohmann::json get(const sim::ResourceType *type, const char *ns, const char *name) const
    {
        const auto r = store.get(type, QString::fromLatin1(ns), QString::fromLatin1(name));
        return r.ok() ? *r.object.object : nlohmann::json();
    }
    // The truth's findings as "class node namespace/pod gpus" lines, sorted as the truth sorts.
    QStringList findings() const
    {
        QStringList out;
        const nlohmann::json truth = sim.truth();
        for (const auto &f : truth["findings"])
            out << QStringLiteral("%1 %2 %3/%4 %5")
                       .arg(QString::fromStdString(f["class"].get<std::string>()),
                            QString::fromStdString(
                                f["node"].is_null() ? "-" : f["node"].get<std::string>()),
                            QString::fromStdString(
                                f["namespace"].is_null() ? "-" : f["namespace"].get<std::string>()),
                            QString::fromStdString(
                                f["pod"].is_null() ? "-" : f["pod"].get<std::string>()))
                       .arg(f["gpus"].get<int>());
        return out;
    }
};
