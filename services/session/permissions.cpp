// SPDX-License-Identifier: GPL-3.0-or-later
#include "permissions.h"

#include "clustersession.h"
#include "contextconnection.h"
#include "jsonfields.h"
#include "kubeclient.h"

#include <QPointer>

#include <nlohmann/json.hpp>

namespace gpudesk {

QString Permissions::Check::key() const
{
    return QStringList{verb, group, resource, subresource, ns}.join(u'|');
}

Permissions::Permissions(ClusterSession *session, QObject *parent)
    : QObject(parent), m_session(session)
{
    connect(session, &ClusterSession::connectionChanged, this, [this] {
        // Another connection (another context, or a reconnect): answers are asked again.
        m_answers.clear();
        m_reasons.clear();
        m_asking.clear();
        m_for = m_session->connection().get();
        emit changed();
    });
}

Permissions::Answer Permissions::ask(const Check &check)
{
    if (m_session->connection().get() != m_for) {
        m_answers.clear();
        m_reasons.clear();
        m_asking.clear();
        m_for = m_session->connection().get();
    }
    const QString key = check.key();
    const auto it = m_answers.constFind(key);
    if (it != m_answers.cend())
        return *it;
    request(check);
    return Answer::Unknown;
}

QString Permissions::reason(const Check &check) const
{
    return m_reasons.value(check.key());
}

void Permissions::request(const Check &check)
{
    const QString key = check.key();
    const auto &connection = m_session->connection();
    if (!connection || m_asking.contains(key))
        return;
    m_asking.insert(key);
    nlohmann::json attrs{{"verb", check.verb.toStdString()},
                         {"group", check.group.toStdString()},
                         {"resource", check.resource.toStdString()}};
    if (!check.ns.isEmpty())
        attrs["namespace"] = check.ns.toStdString();
    if (!check.subresource.isEmpty())
        attrs["subresource"] = check.subresource.toStdString();
    const nlohmann::json review{{"apiVersion", "authorization.k8s.io/v1"},
                                {"kind", "SelfSubjectAccessReview"},
                                {"spec", {{"resourceAttributes", attrs}}}};
    const ContextConnection *asked = connection.get();
    connection->client()->create(
        QStringLiteral("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"),
        QByteArray::fromStdString(review.dump()), false, this,
        [this, key, asked](const KubeReply &r) {
            if (asked != m_session->connection().get())
                return; // an answer for a connection that is gone
            m_asking.remove(key);
            const auto j = nlohmann::json::parse(r.body.begin(), r.body.end(), nullptr, false);
            const auto status = j.is_object() ? j.value("status", nlohmann::json::object())
                                              : nlohmann::json::object();
            if (!r.ok() || !status.is_object()) {
                // Not knowable (the review API refused or failed): the action stays offered and
                // the API server decides, its answer shown per item.
                m_answers.insert(key, Answer::Unknown);
                m_reasons.insert(key, r.error);
            } else {
                const auto it = status.find("allowed");
                const bool allowed = it != status.end() && it->is_boolean() && it->get<bool>();
                m_answers.insert(key, allowed ? Answer::Allowed : Answer::Denied);
                m_reasons.insert(key, jsonfields::text(status, "reason"));
            }
            for (auto it = m_waiters.begin(); it != m_waiters.end();) {
                const bool ready =
                    std::all_of(it->keys.cbegin(), it->keys.cend(),
                                [this](const QString &k) { return m_answers.contains(k); });
                if (!ready) {
                    ++it;
                    continue;
                }
                const Waiter w = *it;
                it = m_waiters.erase(it);
                w.done();
            }
            emit changed();
        });
}

void Permissions::ensure(const QList<Check> &checks, QObject *context, std::function<void()> done)
{
    QList<QString> keys;
    for (const Check &c : checks) {
        keys << c.key();
        ask(c);
    }
    if (std::all_of(keys.cbegin(), keys.cend(),
                    [this](const QString &k) { return m_answers.contains(k); })) {
        done();
        return;
    }
    QPointer<QObject> guard(context);
    m_waiters.append({keys, context, [guard, done = std::move(done)] {
                          if (guard)
                              done();
                      }});
}

} // namespace gpudesk
