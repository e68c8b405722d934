// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "devenvplanner.h"
#include "jupyterprobe.h"

#include <QObject>
#include <QUrl>

namespace gpudesk {

class ClusterSession;
class ClusterStore;
class DevEnvActivity;
class DevEnvReadiness;
class DevEnvsModel;
class OperationsService;
class PodServerStarter;
class TunnelsService;

// Dev environments: the plans to create, stop, start and delete them (through the operations
// framework), their home volumes read from the server (what a stopped one is), and one click
// into them — Jupyter found through exec (`jupyter server list --json`) and reached through a
// tunnel, its URL with the token handed back for the browser, never logged nor kept; SSH and
// VS Code through a Host entry of gpudesk's own whose ProxyCommand is `gpudesk --stdio-forward`.
// The tunnels belong to TunnelsService and outlive the page.
class DevEnvsService : public QObject
{
    Q_OBJECT
public:
    DevEnvsService(ClusterSession *session, ClusterStore *store, OperationsService *operations,
                   QObject *parent = nullptr);
    ~DevEnvsService() override;

    DevEnvsModel *model() const { return m_model; }
    TunnelsService *tunnels() const { return m_tunnels; }
    // How each environment's Jupyter is used (the idle half the GPUs cannot tell).
    DevEnvActivity *activity() const { return m_activity; }
    DevEnvPlanner planner() const;
    // The namespace a new environment goes to: the context's, else the user's own.
    QString defaultNamespace() const;
    // Whether this connection reaches the nodes over SSH (what saving an image needs).
    bool reachesNodes() const;

    // Reads the home volumes (every namespace where the account may, else its own) into the
    // model: stopped environments appear. Done again after each dev environment operation.
    void refreshVolumes();

    // Finds the environment's Jupyter server — or starts one with a fresh token when none runs —
    // and opens (or reuses) a tunnel to it; answers with jupyterReady or failed. `key` is the
    // model's NAMESPACE/NAME.
    void openJupyter(const QString &key);
    static constexpr quint16 TensorBoardPort = 6006;
    // TensorBoard started on `logDir` (relative to the home folder) in the environment, then
    // like openWebService: serviceReady once it answers, or failed (not in the image, …).
    void openTensorBoard(const QString &key, const QString &logDir);
    // A service served over HTTP without a token of its own (code-server, TensorBoard): a
    // tunnel to its named port, answered with serviceReady.
    void openWebService(const QString &key, const QString &service);
    // The Host entry for an environment reached through `proxyCommand`; "" with `error` when a
    // name holds a line break or another control character.
    static QString sshHostEntry(const QString &alias, const QString &context, const QString &ns,
                                const QString &env, const QString &proxyCommand, QString *error);
    // Writes the environment's Host entry into `configPath` (a file of gpudesk's own; other
    // hosts in it are kept) and returns the host name to give ssh, or "" with why.
    QString writeSshHost(const QString &key, const QString &configPath, const QString &gpudeskPath,
                         QString *error) const;
    // ~/.ssh/gpudesk/config
    static QString defaultSshConfigPath();
    // Where openShell and openVsCode write the Host entries, and the gpudesk their ProxyCommand
    // runs (this program, unless a test says otherwise).
    void setSshConfigPath(const QString &path) { m_sshConfig = path; }
    QString sshConfigPath() const { return m_sshConfig; }
    void setGpudeskProgram(const QString &path) { m_gpudesk = path; }
    // The ssh command line that reaches the environment (its Host entry written first).
    QStringList sshCommand(const QString &key, QString *error) const;
    // Whether ~/.ssh/config includes gpudesk's file (so that `ssh HOST` and VS Code find it).
    static bool sshConfigIncludes(const QString &userConfig, const QString &gpudeskConfig);
    // Adds `Include gpudeskConfig` at the top of the user's config (asked first by the page).
    static bool addSshInclude(const QString &userConfig, const QString &gpudeskConfig,
                              QString *error);

    // A terminal (TerminalCommand: $TERMINAL, x-terminal-emulator, the common ones) running ssh
    // to the environment's host — or, where the environment has no ssh, `gpudesk --exec`; VS
    // Code's Remote-SSH on it. Each answers with launched or failed: when `code` or every
    // terminal is missing, failed says the exact command to run instead.
    void openShell(const QString &key);
    void openVsCode(const QString &key, const QString &folder);
    // A terminal running `gpudesk --exec`: a shell over the API's exec, for images without sshd.
    void openExec(const QString &key);

signals:
    void progress(const QString &key, const QString &text);
    // The URL carries the token: for the browser only.
    void jupyterReady(const QString &key, const QUrl &url);
    void serviceReady(const QString &key, const QString &service, const QUrl &url);
    void launched(const QString &key, const QString &what);
    void failed(const QString &key, const QString &error);
    void volumesRead(const QString &error);

private:
    // `program args…` with this session's kubeconfig.
    QStringList gpudeskCommand(const QString &program, const QStringList &args) const;
    void jupyterFound(const QString &key, const QString &podName,
                      const JupyterProbe::Server &server);
    // False when one is starting for the environment already (`starter` then goes).
    bool connectStarter(PodServerStarter *starter, const QString &key);
    // http://127.0.0.1:LOCAL/PATH of a tunnel (opened, or reused) to the service's port; empty,
    // with failed emitted, when there can be none.
    QUrl tunnelUrl(const QString &key, const QString &service, quint16 port,
                   const QString &path = QStringLiteral("/"));
    int tunnelTo(const QString &key, const QString &service, quint16 port, QString *error);
    void launch(const QString &key, const QString &what, const QString &program,
                const QStringList &args);
    // `command` in a terminal window; failed names `command` itself when no terminal is there.
    void launchInTerminal(const QString &key, const QString &what, const QStringList &command);

    ClusterSession *m_session;
    ClusterStore *m_store;
    OperationsService *m_operations;
    DevEnvsModel *m_model;
    TunnelsService *m_tunnels;
    DevEnvActivity *m_activity;
    DevEnvReadiness *m_readiness;
    QHash<QString, PodServerStarter *> m_starting; // environment key → the start under way
    QString m_sshConfig;
    QString m_gpudesk;
};

} // namespace gpudesk
