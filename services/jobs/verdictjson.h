// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>

namespace gpudesk {

struct JobRequest;
struct StartVerdict;

// The submit check's verdict as `gpudesk --submit FILE --check` prints it (docs/submit.md).
namespace verdictjson {

// The job's figures as the API server will hold its pods (`held`: the namespace's LimitRange
// defaults filled in); a role whose figures the defaults changed also has them as written.
QJsonObject job(const JobRequest &held, const JobRequest &written);
QJsonObject verdict(const StartVerdict &verdict);

} // namespace verdictjson

} // namespace gpudesk
