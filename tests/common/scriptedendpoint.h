// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kubeconfig.h"
#include "scriptedserver.h"

// The context a test's client uses to reach a scripted server (plain HTTP, a bearer token).
inline gpudesk::ClusterEndpoint endpointOf(const ScriptedServer &server)
{
    gpudesk::ClusterEndpoint ep;
    ep.context = QStringLiteral("hostile");
    ep.server = server.url();
    ep.token = QStringLiteral("t");
    return ep;
}
