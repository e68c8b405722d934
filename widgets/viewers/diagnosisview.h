// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "startcheck.h"

#include <QStringList>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace gpudesk {

class ClusterStore;
class DiagnosisService;
class JobChecker;

// The object viewer's Diagnosis tab: for each pod of the object that the job doctor has read,
// the cause in words, the evidence (a log line is a link to it in the Logs tab), the fix, who is
// likely responsible and whether a retry alone can help. Asks the doctor for the object's failed
// pods when opened (for one pod, or a job that has none failing, its first pod). A job or pod
// that waits is also asked why, as the submit check asks before a job is submitted (the queue's
// room and who holds it, the quota, cards scattered over nodes, bigger than any node). Where the
// hardware is to blame, the pod's node can be cordoned from here, so no other job lands on it.
class DiagnosisView : public QWidget
{
    Q_OBJECT
public:
    DiagnosisView(DiagnosisService *doctor, const ClusterStore *store, QStringList podUids,
                  const QString &workloadKey, QWidget *parent = nullptr);
    QString text() const; // what it shows, as plain text (tests)
    // Why the object waits has been asked and answered (tests).
    bool waitChecked() const { return m_wait.has_value(); }
    // Asks again for the pods shown (at most MaxPods of them).
    void diagnose();
    static constexpr int MaxPods = 20;
    // Whether a fix that is a change of the spec is offered as "Re-run with the fix".
    void setRerunOffered(bool offered);

signals:
    // A log line of the evidence was clicked.
    void showInLog(const QString &pod, const QString &container, bool previous, bool fromStart,
                   const QString &line);
    void rerunWithFix(const QString &specFix);
    // "Cordon NODE…" under a cause the hardware is responsible for (a card fell off the bus):
    // the window plans the cordon, with the cause as its reason.
    void cordonNode(const QString &node, const QString &why);

private:
    void render();
    QString waitHtml() const;
    // The preemptions of the object's pods, kept after the pods are gone; how many.
    int preemptionsHtml(QString *html) const;

    DiagnosisService *m_doctor;
    const ClusterStore *m_store;
    QStringList m_podUids;
    QStringList m_asked;
    bool m_rerunOffered = false;
    QString m_workloadKey;
    QString m_lie; // the job's state that lies, as last drawn ("" none)
    JobChecker *m_waitCheck = nullptr;
    std::optional<StartVerdict> m_wait;
    bool m_waitApproximate = false;
    QLabel *m_state;
    QPushButton *m_again;
    QTextBrowser *m_text;
};

} // namespace gpudesk
