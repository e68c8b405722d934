// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosisjson.h"

#include "clusterstore.h"
#include "diagnosisbook.h"

#include <QJsonObject>
#include <QMap>
#include <QSet>

#include <algorithm>

namespace gpudesk {

QJsonArray diagnosesJson(const ClusterStore &store, const DiagnosisBook &book)
{
    QList<const DiagnosisBook::Entry *> entries = book.entries();
    std::sort(entries.begin(), entries.end(), [](const auto *a, const auto *b) {
        return std::tie(a->ns, a->pod) < std::tie(b->ns, b->pod);
    });
    QJsonArray out;
    for (const DiagnosisBook::Entry *e : std::as_const(entries)) {
        const PodInfo *pod = store.pod(e->uid);
        QJsonObject o{{QStringLiteral("namespace"), e->ns}, {QStringLiteral("pod"), e->pod}};
        o.insert(QStringLiteral("job"),
                 pod && !pod->owner.name.isEmpty()
                     ? QJsonValue(QJsonObject{{QStringLiteral("kind"), pod->owner.kind},
                                              {QStringLiteral("name"), pod->owner.name}})
                     : QJsonValue());
        if (e->diagnoses.isEmpty()) {
            o.insert(QStringLiteral("class"), QJsonValue());
            o.insert(QStringLiteral("error"), e->error);
            out.append(o);
            continue;
        }
        const Diagnosis &d = e->diagnoses.first();
        QJsonArray evidence;
        for (const DiagnosisEvidence &ev : d.evidence) {
            QJsonObject x{{QStringLiteral("where"), ev.where}, {QStringLiteral("text"), ev.text}};
            if (ev.line > 0)
                x.insert(QStringLiteral("line"), ev.line);
            if (!ev.container.isEmpty()) {
                x.insert(QStringLiteral("container"), ev.container);
                x.insert(QStringLiteral("previousContainer"), ev.previousLog);
            }
            evidence.append(x);
        }
        QJsonArray also;
        for (qsizetype i = 1; i < e->diagnoses.size(); ++i)
            also.append(e->diagnoses[i].cls);
        o.insert(QStringLiteral("class"), d.cls);
        o.insert(QStringLiteral("rule"), d.rule);
        o.insert(QStringLiteral("title"), d.title);
        o.insert(QStringLiteral("cause"), d.cause);
        o.insert(QStringLiteral("evidence"), evidence);
        o.insert(QStringLiteral("fix"), d.fix);
        o.insert(QStringLiteral("responsible"), d.responsible);
        o.insert(QStringLiteral("retryHelps"), d.retryHelps);
        o.insert(QStringLiteral("also"), also);
        out.append(o);
    }
    return out;
}

QJsonArray diagnosisClassesJson(const ClusterStore &store, const DiagnosisBook &book)
{
    QJsonArray out;
    for (const DiagnosisBook::ClassCount &c : book.byClass(store))
        out.append(QJsonObject{{QStringLiteral("class"), c.cls},
                               {QStringLiteral("title"), c.title},
                               {QStringLiteral("pods"), c.pods},
                               {QStringLiteral("jobs"), QJsonArray::fromStringList(c.jobs)},
                               {QStringLiteral("responsible"), c.responsible}});
    return out;
}

} // namespace gpudesk
