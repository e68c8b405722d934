// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosisbook.h"

#include "clusterstore.h"
#include "entities.h"

#include <QMap>

namespace gpudesk {

DiagnosisBook::DiagnosisBook(QObject *parent) : QObject(parent) {}

const DiagnosisBook::Entry *DiagnosisBook::entry(const QString &podUid) const
{
    const auto it = m_entries.constFind(podUid);
    return it == m_entries.cend() ? nullptr : &*it;
}

bool DiagnosisBook::holds(const PodInfo &pod) const
{
    const Entry *e = entry(pod.uid);
    return e && e->stamp == stampOf(pod);
}

const Diagnosis *DiagnosisBook::cause(const PodInfo &pod) const
{
    const Entry *e = entry(pod.uid);
    return e && e->stamp == stampOf(pod) && !e->diagnoses.isEmpty() ? &e->diagnoses.first()
                                                                    : nullptr;
}

QList<const DiagnosisBook::Entry *> DiagnosisBook::entries() const
{
    QList<const Entry *> out;
    out.reserve(m_entries.size());
    for (const Entry &e : m_entries)
        out << &e;
    return out;
}

QList<DiagnosisBook::ClassCount> DiagnosisBook::byClass(const ClusterStore &store) const
{
    QMap<QString, ClassCount> classes;
    QHash<QString, QSet<QString>> jobs;
    for (const Entry &e : m_entries) {
        if (e.diagnoses.isEmpty())
            continue;
        const Diagnosis &d = e.diagnoses.first();
        ClassCount &c = classes[d.cls];
        if (c.cls.isEmpty()) {
            c.cls = d.cls;
            c.title = d.classTitle.isEmpty() ? d.title : d.classTitle;
        }
        ++c.pods;
        c.responsible = d.responsible;
        const PodInfo *pod = store.pod(e.uid);
        jobs[d.cls].insert(e.ns + u'/' +
                           (pod && !pod->owner.name.isEmpty() ? pod->owner.name : e.pod));
    }
    QList<ClassCount> out;
    for (ClassCount &c : classes) {
        const QSet<QString> &set = jobs[c.cls];
        c.jobs = QStringList(set.cbegin(), set.cend());
        c.jobs.sort();
        out.append(c);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ClassCount &a, const ClassCount &b) { return a.pods > b.pods; });
    return out;
}

void DiagnosisBook::put(Entry entry)
{
    const QString uid = entry.uid;
    m_entries.insert(uid, std::move(entry));
    emit changed({uid});
}

void DiagnosisBook::remove(const QString &podUid)
{
    if (m_entries.remove(podUid))
        emit changed({podUid});
}

const DiagnosisBook::Wait *DiagnosisBook::wait(const QString &workloadKey) const
{
    const auto it = m_waits.constFind(workloadKey);
    return it == m_waits.cend() ? nullptr : &*it;
}

void DiagnosisBook::putWait(const QString &workloadKey, const Wait &wait)
{
    if (const Wait *was = this->wait(workloadKey);
        was && was->title == wait.title && was->tip == wait.tip)
        return;
    m_waits.insert(workloadKey, wait);
    emit waitsChanged({workloadKey});
}

void DiagnosisBook::removeWait(const QString &workloadKey)
{
    if (m_waits.remove(workloadKey))
        emit waitsChanged({workloadKey});
}

void DiagnosisBook::clear()
{
    m_entries.clear();
    m_waits.clear();
    emit cleared();
}

bool DiagnosisBook::troubled(const PodInfo &pod)
{
    if (pod.phase == QLatin1String("Failed"))
        return true;
    if (pod.phase == QLatin1String("Succeeded") || pod.deleting)
        return false;
    static const QSet<QString> reasons = {QStringLiteral("CrashLoopBackOff"),
                                          QStringLiteral("ImagePullBackOff"),
                                          QStringLiteral("ErrImagePull"),
                                          QStringLiteral("InvalidImageName"),
                                          QStringLiteral("Error"),
                                          QStringLiteral("OOMKilled"),
                                          QStringLiteral("ContainerCannotRun"),
                                          QStringLiteral("CreateContainerConfigError"),
                                          QStringLiteral("CreateContainerError"),
                                          QStringLiteral("RunContainerError"),
                                          QStringLiteral("StartError")};
    return reasons.contains(pod.status);
}

QString DiagnosisBook::stampOf(const PodInfo &pod)
{
    return pod.phase + u'|' + pod.status + u'|' + QString::number(pod.restarts);
}

} // namespace gpudesk
