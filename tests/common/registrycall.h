// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registryclient.h"

#include <QTest>

#include <functional>

// One RegistryClient call waited for (40 s at most, the test failing past that): `start` is
// given a context object and the Done to call.
inline gpudesk::RegistryReply
registryCall(const std::function<void(QObject *, gpudesk::RegistryClient::Done)> &start)
{
    gpudesk::RegistryReply out;
    bool done = false;
    QObject context;
    start(&context, [&](const gpudesk::RegistryReply &r) {
        out = r;
        done = true;
    });
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done, 40000); }();
    return out;
}
