// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace gpudesk::format {

// kubectl's AGE column: 45s, 12m, 7h, 3d4h, 120d.
QString age(qint64 sinceMs, qint64 nowMs);
// Binary units as Kubernetes writes them: 512Mi, 1.5Ti.
QString bytes(qint64 bytes);
// CPU cores from millicores: 64, 3.5, 0.25.
QString cores(qint64 milli);
// A time of day, or a date and time when not today, in the user's locale.
QString when(qint64 ms);
// A status word as kubectl prints it, followed by its translation where the user's language has
// one ("Running（运行中）"); the word alone in English. kubectl's word stays: it is what users
// search for and what the cluster's docs say.
QString status(const QString &word);
// A path as one word of a POSIX shell: itself when it holds only characters no shell reads
// (letters, digits, ._-+@/:=,), else single-quoted ('it'\''s').
QString shellWord(const QString &path);

} // namespace gpudesk::format
