// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonArray>

namespace gpudesk {

class ClusterStore;
class DiagnosisBook;

// The report's diagnoses[] (docs/report.md): one entry a diagnosed pod, its cause first — the
// job it belongs to, the class, the cause, the evidence, the fix, who is likely responsible and
// whether a retry alone can help — and the other classes that matched.
QJsonArray diagnosesJson(const ClusterStore &store, const DiagnosisBook &book);
// The same grouped by cause for the admin ("7 jobs failed on shared memory"): one entry a class,
// the most pods first — `class`, `pods`, `jobs[]` (namespace/name of the jobs, or of the bare
// pods), `responsible`.
QJsonArray diagnosisClassesJson(const ClusterStore &store, const DiagnosisBook &book);

} // namespace gpudesk
