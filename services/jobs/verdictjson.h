// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>

namespace gpudesk {

struct JobRequest;
struct StartVerdict;

// The submit check's verdict as `gpudesk --submit FILE --check` prints it (docs/submit.md).
namespace verdictjson {

QJsonObject job(const JobRequest &job);
QJsonObject verdict(const StartVerdict &verdict);

} // namespace verdictjson

} // namespace gpudesk
