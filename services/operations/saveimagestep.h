// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "steprunner.h"

#include "operationcontext.h"
#include "operationplan.h"

#include <QObject>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>

namespace gpudesk {

class RegistryClient;

// A dev environment's container saved as an image (PlanStep::Kind::SaveImage). On its node, over
// SSH, each command from nodecmd's fixed templates: the container found by pod uid and name (a
// pod replaced since the plan has another uid: skipped), committed with the runtime's tool,
// pushed with the user's credentials (the password on the command's standard input, kept in a
// private directory removed afterwards, never on a command line). Before committing, the
// destination tag must still be what it was when planned (a tag moved since is not
// overwritten); afterwards the tag's digest is read from the registry and must be the one the
// push reported. The node's output comes as progress; cancel stops the commit or push.
class SaveImageStep : public StepRunner
{
    Q_OBJECT
public:
    SaveImageStep(OperationContext context, PlanStep step, QObject *parent = nullptr);
    ~SaveImageStep() override;

    // The tag unchanged, the runtime one with a commit, the container found on the node.
    void dryRun() override;
    void run() override;
    void cancel() override;

    static constexpr int CommitTimeoutMs = 30 * 60 * 1000; // a container of tens of GB
    static constexpr int PushTimeoutMs = 2 * 60 * 60 * 1000;
    static constexpr int BusyRetryMs = 250; // the node's link is sampling: try again soon
    static constexpr int GiveUpMs = 60000;  // a node whose link stays busy or down this long

    // The manifest digest a push reported (nerdctl: "manifest-sha256:…: done" or its INFO
    // line; docker: "…: digest: sha256:… size: …"); "" when it said none.
    static QString pushedDigest(const QByteArray &output);

private:
    struct Result;
    void checkDestination(std::function<void()> then);
    void submit();
    void received(const Result &r);
    void verify(const QString &pushed);
    void finish(StepOutcome::Result result, const QString &message,
                const QString &verification = QString());

    OperationContext m_ctx;
    PlanStep m_step;
    StepOutcome m_outcome;
    RegistryClient *m_client;
    std::shared_ptr<std::atomic<bool>> m_stop;
    QTimer m_retry;
    qint64 m_firstTry = 0;
    bool m_act = false;
};

} // namespace gpudesk
