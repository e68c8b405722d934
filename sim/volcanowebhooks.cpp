// SPDX-License-Identifier: GPL-3.0-or-later
#include "volcanowebhooks.h"

#include "apihelpers.h"
#include "objectfactory.h"

namespace sim {

using nlohmann::json;

ApiError VolcanoWebhooks::denied(const char *webhook, const QString &why)
{
    // apiserver's webhookerrors.ToStatusErr: a refusal without a code becomes 400.
    return {400, QString(),
            QStringLiteral("admission webhook \"%1\" denied the request: %2")
                .arg(QLatin1String(webhook), why)};
}

std::optional<ApiError> VolcanoWebhooks::admitQueue(json &queue) const
{
    // mutatequeue.volcano.sh first.
    json &spec = queue["spec"];
    if (!spec.is_object())
        spec = json::object();
    if (!spec.contains("weight") || (spec["weight"].is_number() && spec["weight"].get<int>() == 0))
        spec["weight"] = 1;
    if (!spec.contains("reclaimable") || spec["reclaimable"].is_null())
        spec["reclaimable"] = true;
    QStringList errors;
    const json &weight = spec["weight"];
    if (!weight.is_number_integer() || weight.get<qint64>() <= 0)
        errors << QStringLiteral("requestBody.spec.weight: Invalid value: %1: queue weight must be "
                                 "a positive integer")
                      .arg(QString::fromStdString(weight.dump()));
    const std::string state = str(sub(queue, "status"), "state");
    if (!state.empty() && state != "Open" && state != "Closed")
        errors << QStringLiteral("requestBody.spec.state: Invalid value: \"%1\": queue state must "
                                 "be in [Open Closed]")
                      .arg(QString::fromStdString(state));
    if (errors.isEmpty())
        return std::nullopt;
    return denied("validatequeue.volcano.sh",
                  errors.size() == 1 ? errors.first()
                                     : QStringLiteral("[") + errors.join(QStringLiteral(", ")) +
                                           QStringLiteral("]"));
}

std::optional<ApiError> VolcanoWebhooks::admitQueueDelete(const QString &name) const
{
    if (name == QLatin1String("default") || name == QLatin1String("root"))
        return denied("validatequeue.volcano.sh",
                      QStringLiteral("`%1` queue can not be deleted").arg(name));
    // Volcano's validateQueueDeleting: only a Closed queue goes. A Closing one still has pod
    // groups (of running jobs, or of finished jobs nobody deleted): deleting it would leave them
    // in a queue that no longer exists.
    const auto stored = m_state.store->get(m_state.queues, {}, name);
    if (!stored.ok())
        return std::nullopt; // the API answers 404 for it
    const std::string state = str(sub(*stored.object.object, "status"), "state", "Open");
    if (state != "Closed")
        return denied("validatequeue.volcano.sh",
                      QStringLiteral("only queue with state `Closed` can be deleted, queue `%1` "
                                     "state is `%2`")
                          .arg(name, QString::fromStdString(state)));
    return std::nullopt;
}

std::optional<ApiError> VolcanoWebhooks::admitJob(json &job) const
{
    // mutatejob.volcano.sh puts a job without a queue in `default`.
    json &spec = job["spec"];
    if (!spec.is_object())
        spec = json::object();
    if (spec.contains("queue") && !spec["queue"].is_null() && !spec["queue"].is_string()) {
        // The CRD's schema, before any webhook: a 422 with its cause, as the API server's
        // structural-schema validation answers.
        const QString type = QString::fromStdString(spec["queue"].type_name());
        return invalid(QStringLiteral("batch.volcano.sh"), QStringLiteral("Job"),
                       ObjectStore::nameOf(job),
                       {{QStringLiteral("spec.queue"), QStringLiteral("FieldValueTypeInvalid"),
                         QStringLiteral("Invalid value: \"%1\": spec.queue in body must be of "
                                        "type string: \"%1\"")
                             .arg(type)}});
    }
    if (str(spec, "queue").empty())
        spec["queue"] = "default";
    const QString name = QString::fromStdString(str(spec, "queue"));
    const auto queue = m_state.store->get(m_state.queues, {}, name);
    if (!queue.ok())
        return denied("validatejob.volcano.sh",
                      QStringLiteral("unable to find job queue: %1").arg(queue.error->message));
    const std::string state = str(sub(*queue.object.object, "status"), "state", "Open");
    if (state != "Open")
        return denied("validatejob.volcano.sh",
                      QStringLiteral("can only submit job to queue with state `Open`, queue `%1` "
                                     "status is `%2`;")
                          .arg(name, QString::fromStdString(state)));
    return std::nullopt;
}

} // namespace sim
