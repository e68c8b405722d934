// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "diagnosis.h"
#include "doctorrules.h"

namespace gpudesk {

// The job doctor: a pod's state, events, spec and log tails against the rules (DoctorRules),
// each cause with its evidence — the matching log lines with their numbers, the event, the
// field. Pure and bounded: at most the last 64 KiB of each log and 4 KiB of a line are read,
// so that it runs off the UI thread on thousands of pods.
class Doctor
{
public:
    static constexpr int kTailBytes = 64 * 1024;
    static constexpr int kLineChars = 4096;
    static constexpr int kEvidencePerRule = 3;
    static constexpr int kKernelLines = 200; // the newest NVRM lines of the node looked at

    // `language`: "zh_CN", or "" for English (a rule's text in the language where it has one).
    explicit Doctor(DoctorRules rules, QString language = {});

    // Every rule that matches, the most specific (highest priority) first.
    QList<Diagnosis> diagnose(const DiagnosisInput &in) const;

private:
    struct LogLine
    {
        qint64 number; // in the whole log; 0 unknown
        QString text;
    };
    // Per container: the lines of its tail that any rule's log pattern matches (the others
    // cannot make a rule match), found in one pass of one combined pattern.
    using Candidates = QList<QList<LogLine>>;
    Candidates candidates(const DiagnosisInput &in) const;
    std::optional<Diagnosis> apply(const DoctorRules::Rule &rule, const DiagnosisInput &in,
                                   const Candidates &lines) const;
    QString text(const QHash<QString, QString> &by, const QHash<QString, QString> &fill) const;

    DoctorRules m_rules;
    QString m_language;
    QRegularExpression m_anyLog; // every rule's log patterns as one alternation
};

} // namespace gpudesk
