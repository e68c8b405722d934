// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

#include <memory>

namespace gpudesk {

class ClusterSession;
class ContextConnection;

// What the user may do, asked of the API server before an action is offered
// (SelfSubjectAccessReview), cached per connection. An action the user may not do is shown
// disabled with the server's reason, never tried and failed.
class Permissions : public QObject
{
    Q_OBJECT
public:
    struct Check
    {
        QString verb;     // delete, patch, create, …
        QString group;    // "" for the core group
        QString resource; // pods, nodes, jobs, …
        QString ns;       // "" cluster-wide
        QString subresource;
        QString key() const;
    };
    enum class Answer
    {
        Unknown, // not asked yet, or the answer has not come
        Allowed,
        Denied
    };

    explicit Permissions(ClusterSession *session, QObject *parent = nullptr);
    // The answer now; asks the server (once per check and connection) when unknown, and says
    // `changed` when it comes.
    Answer ask(const Check &check);
    // The server's reason for a denial ("" when none was given).
    QString reason(const Check &check) const;
    // Asks for each and calls `done` once every answer is in (at once when all are cached).
    void ensure(const QList<Check> &checks, QObject *context, std::function<void()> done);

signals:
    void changed();

private:
    void request(const Check &check);

    ClusterSession *m_session;
    const ContextConnection *m_for = nullptr; // the connection the cache is for
    QHash<QString, Answer> m_answers;
    QHash<QString, QString> m_reasons;
    QSet<QString> m_asking;
    struct Waiter
    {
        QList<QString> keys;
        QObject *context;
        std::function<void()> done;
    };
    QList<Waiter> m_waiters;
};

} // namespace gpudesk
