// SPDX-License-Identifier: GPL-3.0-or-later
// gpudesk-sim: a simulated GPU cluster on 127.0.0.1 that speaks the Kubernetes API and SSH.
#include "apiserver.h"
#include "certificates.h"
#include "httpserver.h"
#include "nastree.h"
#include "nodemachine.h"
#include "noderuntime.h"
#include "nodetools.h"
#include "objectstore.h"
#include "resourcetypes.h"
#include "simclock.h"
#include "simulation.h"
#include "sshendpoints.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSocketNotifier>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>

#include <csignal>
#include <cstdio>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace sim;

namespace {

int g_signalPipe[2];

void onSignal(int)
{
    const char c = 's';
    [[maybe_unused]] auto n = ::write(g_signalPipe[1], &c, 1);
}

QString randomToken()
{
    QByteArray raw(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(raw.data()), 8);
    return QString::fromLatin1(
        raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool writePrivate(const QString &path, const QByteArray &data)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return f.write(data) == data.size();
}

int fail(const QString &message)
{
    std::fprintf(stderr, "gpudesk-sim: %s\n", qPrintable(message));
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    // A test that starts a simulator and then aborts (a failed assertion, a sanitizer's report)
    // must not leave it running: a simulator at --speed 60 takes a core, and the tests after it
    // slow down. The tests ask for this; `make demo` and the test peers' script do not.
    if (qEnvironmentVariableIsSet("GPUDESK_SIM_EXIT_WITH_PARENT")) {
        const pid_t parent = getppid();
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) // the parent went before the line above
            return 1;
    }
    QCoreApplication app(argc, argv);
    // Debug output only on request (QT_LOGGING_RULES="gpudesk.*.debug=true").
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(QStringLiteral("gpudesk.*.debug=false"));
    QCoreApplication::setApplicationName(QStringLiteral("gpudesk-sim"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "A simulated GPU training cluster on 127.0.0.1: the Kubernetes API over HTTPS (with "
        "Volcano and Kubeflow), one SSH endpoint per node, and /sim/truth."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption stateOpt(QStringLiteral("state-dir"),
                                      QStringLiteral("Where keys, kubeconfig and ssh_config live."),
                                      QStringLiteral("dir"), QStringLiteral("gpudesk-sim-state"));
    const QCommandLineOption scenarioOpt(QStringLiteral("scenario"),
                                         QStringLiteral("demo or scale."), QStringLiteral("name"),
                                         QStringLiteral("demo"));
    const QCommandLineOption seedOpt(QStringLiteral("seed"),
                                     QStringLiteral("Seed of the workload generator."),
                                     QStringLiteral("n"), QStringLiteral("1"));
    const QCommandLineOption speedOpt(
        QStringLiteral("speed"),
        QStringLiteral("Simulated seconds per second; 0 freezes the cluster."), QStringLiteral("x"),
        QStringLiteral("1"));
    const QCommandLineOption portOpt(
        QStringLiteral("port"), QStringLiteral("API port (0: the last one used, else any free)."),
        QStringLiteral("port"), QStringLiteral("0"));
    const QCommandLineOption nodesOpt(QStringLiteral("nodes"),
                                      QStringLiteral("scale: number of nodes."),
                                      QStringLiteral("n"), QStringLiteral("500"));
    const QCommandLineOption gpusOpt(QStringLiteral("gpus-per-node"),
                                     QStringLiteral("scale: GPUs per node."), QStringLiteral("n"),
                                     QStringLiteral("8"));
    const QCommandLineOption podsOpt(QStringLiteral("pods"),
                                     QStringLiteral("scale: number of pods."), QStringLiteral("n"),
                                     QStringLiteral("10000"));
    const QCommandLineOption churnOpt(
        QStringLiteral("churn"),
        QStringLiteral("scale: pod creations, changes and deletions per second."),
        QStringLiteral("rate"), QStringLiteral("0"));
    const QCommandLineOption noSshOpt(QStringLiteral("no-ssh"),
                                      QStringLiteral("Do not start the node SSH endpoints."));
    const QCommandLineOption windowOpt(
        QStringLiteral("watch-window"),
        QStringLiteral("Watch events kept per resource before 410 Gone."), QStringLiteral("n"),
        QStringLiteral("10000"));
    const QCommandLineOption mpiOpt(
        QStringLiteral("mpijob-version"),
        QStringLiteral("Serve MPIJobs at kubeflow.org/VERSION: v1 (training operator) or "
                       "v2beta1 (MPI operator)."),
        QStringLiteral("version"), QStringLiteral("v1"));
    const QCommandLineOption backendOpt(
        QStringLiteral("service-backend"),
        QStringLiteral("A pod port named NAME (jupyter, ssh, vscode, tensorboard) leads to the "
                       "program at HOST:PORT: port-forwards to it reach that program. Repeat "
                       "for each name."),
        QStringLiteral("NAME=HOST:PORT"));
    const QCommandLineOption jupyterTokenOpt(
        QStringLiteral("jupyter-token-file"),
        QStringLiteral("The token of the Jupyter server behind the jupyter ports, as `jupyter "
                       "server list` in a pod reports it."),
        QStringLiteral("file"));
    const QCommandLineOption certsOpt(
        QStringLiteral("node-certs-dir"),
        QStringLiteral("The nodes' /etc/docker/certs.d: each directory HOST:PORT in it (with its "
                       "ca.crt) is a registry the nodes resolve, pull from and push to."),
        QStringLiteral("dir"));
    const QCommandLineOption devPortsOpt(
        QStringLiteral("dev-ports"),
        QStringLiteral("The ports dev environments declare, of jupyter, ssh and vscode "
                       "(comma-separated; all three unless given)."),
        QStringLiteral("names"));
    parser.addOptions({stateOpt, scenarioOpt, seedOpt, speedOpt, portOpt, nodesOpt, gpusOpt,
                       podsOpt, churnOpt, noSshOpt, windowOpt, mpiOpt, backendOpt, jupyterTokenOpt,
                       certsOpt, devPortsOpt});
    parser.process(app);

    SimOptions options;
    options.scenario = parser.value(scenarioOpt);
    options.seed = parser.value(seedOpt).toULongLong();
    options.speed = parser.value(speedOpt).toDouble();
    options.nodes = parser.value(nodesOpt).toInt();
    options.gpusPerNode = parser.value(gpusOpt).toInt();
    options.pods = parser.value(podsOpt).toInt();
    options.churn = parser.value(churnOpt).toDouble();
    if (parser.isSet(certsOpt)) {
        options.nodeCertsDir = QDir(parser.value(certsOpt)).absolutePath().toStdString();
        options.nodeRegistries = NodeRuntime::registriesIn(options.nodeCertsDir);
    }
    if (parser.isSet(devPortsOpt)) {
        options.devPorts.clear();
        for (const QString &name : parser.value(devPortsOpt).split(u',', Qt::SkipEmptyParts)) {
            if (name != QLatin1String("jupyter") && name != QLatin1String("ssh") &&
                name != QLatin1String("vscode"))
                return fail(
                    QStringLiteral("--dev-ports: \"%1\" is not jupyter, ssh or vscode").arg(name));
            options.devPorts.insert(name.toStdString());
        }
    }
    if (options.scenario != QLatin1String("demo") && options.scenario != QLatin1String("scale"))
        return fail(
            QStringLiteral("unknown scenario \"%1\" (demo or scale)").arg(options.scenario));
    if (options.nodes <= 0 || options.gpusPerNode < 0 || options.pods < 0 || options.speed < 0)
        return fail(
            QStringLiteral("--nodes, --gpus-per-node, --pods and --speed must be positive"));

    // Hundreds of SSH endpoints and their sessions need more descriptors than the usual 1024.
    rlimit lim{};
    if (::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &lim);
    }

    const QString stateDir = QDir(parser.value(stateOpt)).absolutePath();
    if (!QDir().mkpath(stateDir))
        return fail(QStringLiteral("cannot create the state directory %1").arg(stateDir));
    QFile::remove(stateDir + QStringLiteral("/sim.json"));

    Certificates certs(stateDir);
    QString error;
    if (!certs.ensure(&error))
        return fail(error);

    QJsonObject tokens = readJson(stateDir + QStringLiteral("/tokens.json"));
    if (!tokens.contains(QStringLiteral("admin"))) {
        tokens[QStringLiteral("admin")] = randomToken();
        tokens[QStringLiteral("alice")] = randomToken();
        writePrivate(stateDir + QStringLiteral("/tokens.json"), QJsonDocument(tokens).toJson());
    }
    Authenticator authn;
    authn.addToken(tokens[QStringLiteral("admin")].toString(),
                   {QStringLiteral("sim-admin"),
                    {QStringLiteral("system:masters"), QStringLiteral("system:authenticated")}});
    authn.addToken(
        tokens[QStringLiteral("alice")].toString(),
        {QStringLiteral("alice"),
         {QStringLiteral("gpudesk:researchers"), QStringLiteral("system:authenticated")}});

    const QString mpiVersion = parser.value(mpiOpt);
    if (mpiVersion != QLatin1String("v1") && mpiVersion != QLatin1String("v2beta1")) {
        std::fprintf(stderr, "gpudesk-sim: --mpijob-version is v1 or v2beta1\n");
        return 2;
    }
    ResourceTypes types(mpiVersion);
    SimClock clock;
    ObjectStore store(&types, &clock, options.seed);
    store.setHistoryWindow(size_t(parser.value(windowOpt).toULongLong()));
    MachineRegistry machines;
    Simulation simulation(&store, &clock, &machines, options);
    std::fprintf(stdout, "gpudesk-sim: building scenario %s (seed %llu)...\n",
                 qPrintable(options.scenario), static_cast<unsigned long long>(options.seed));
    std::fflush(stdout);
    simulation.build();

    // The NAS every node mounts at /mnt: seeded once per state directory for the demo lab; the
    // scale scenario's is empty.
    NasTree nas(stateDir.toStdString());
    {
        std::string nasError;
        const bool seeded = options.scenario == QLatin1String("demo")
                                ? nas.seedDemo(simulation.users(), clock.nowSecs(), &nasError)
                                : nas.ensureRoot(&nasError);
        if (!seeded)
            return fail(
                QStringLiteral("cannot make the NAS: %1").arg(QString::fromStdString(nasError)));
    }
    simulation.setNas(&nas);

    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    {
        QFile cf(certs.serverCertPath()), kf(certs.serverKeyPath());
        if (!cf.open(QIODevice::ReadOnly) || !kf.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read the server certificate"));
        tls.setLocalCertificate(QSslCertificate(cf.readAll(), QSsl::Pem));
        tls.setPrivateKey(QSslKey(kf.readAll(), QSsl::Ec, QSsl::Pem));
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    }
    QJsonObject ports = readJson(stateDir + QStringLiteral("/ports.json"));
    ApiServer api(&store, &simulation, &authn);
    api.podStreams()->setNas(&nas);
    HttpServer http(tls, [&api](HttpConnection *c, const HttpRequest &r) { api.handle(c, r); });
    quint16 apiPort = quint16(parser.value(portOpt).toUInt());
    if (apiPort == 0)
        apiPort = quint16(ports.value(QStringLiteral("api")).toInt());
    bool listening = http.listen(QHostAddress::LocalHost, apiPort, &error);
    if (!listening && apiPort != 0 && parser.value(portOpt).toUInt() == 0)
        listening = http.listen(QHostAddress::LocalHost, 0, &error); // the remembered port is taken
    if (!listening)
        return fail(QStringLiteral("cannot listen for the API: %1").arg(error));
    apiPort = http.port();
    for (const QString &b : parser.values(backendOpt)) {
        const QString name = b.section(u'=', 0, 0);
        const QString hostPort = b.section(u'=', 1);
        const int colon = int(hostPort.lastIndexOf(u':'));
        const uint port = hostPort.mid(colon + 1).toUInt();
        if (name.isEmpty() || colon <= 0 || port == 0 || port > 65535)
            return fail(
                QStringLiteral("--service-backend takes NAME=HOST:PORT, not \"%1\"").arg(b));
        api.podStreams()->setBackend(name, {hostPort.left(colon), quint16(port)});
    }
    if (parser.isSet(jupyterTokenOpt)) {
        QFile f(parser.value(jupyterTokenOpt));
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read %1").arg(f.fileName()));
        api.podStreams()->setJupyterToken(QString::fromUtf8(f.readAll()).trimmed());
    }
    const QString server = QStringLiteral("https://127.0.0.1:%1").arg(apiPort);
    api.setAddress(QStringLiteral("127.0.0.1:%1").arg(apiPort));
    ports[QStringLiteral("api")] = int(apiPort);

    NodeRuntime runtime(&machines, options.nodeCertsDir);
    NodeTools tools(&machines, &runtime, &nas);
    SshEndpoints ssh(&machines, &tools, &clock, stateDir);
    if (!parser.isSet(noSshOpt)) {
        std::map<std::string, int> nodePorts;
        const QJsonObject saved = ports.value(QStringLiteral("nodes")).toObject();
        for (auto it = saved.begin(); it != saved.end(); ++it)
            nodePorts[it.key().toStdString()] = it.value().toInt();
        if (!ssh.start(machines.names(), &nodePorts, &error) || !ssh.writeClientFiles(&error))
            return fail(error);
        QJsonObject np;
        for (const auto &[n, p] : nodePorts)
            np[QString::fromStdString(n)] = p;
        ports[QStringLiteral("nodes")] = np;
    }
    writePrivate(stateDir + QStringLiteral("/ports.json"), QJsonDocument(ports).toJson());

    QFile ca(certs.caCertPath());
    ca.open(QIODevice::ReadOnly);
    const QByteArray caPem = ca.readAll();
    api.setCaPem(caPem);
    const QByteArray caData = caPem.toBase64();
    const QByteArray kubeconfig =
        "apiVersion: v1\nkind: Config\nclusters:\n- name: gpudesk-sim\n  cluster:\n    server: " +
        server.toUtf8() + "\n    certificate-authority-data: " + caData +
        "\ncontexts:\n- name: sim-admin\n  context:\n    cluster: gpudesk-sim\n    user: "
        "sim-admin\n"
        "- name: sim-alice\n  context:\n    cluster: gpudesk-sim\n    user: sim-alice\n"
        "    namespace: user-alice\ncurrent-context: sim-admin\npreferences: {}\nusers:\n"
        "- name: sim-admin\n  user:\n    token: " +
        tokens[QStringLiteral("admin")].toString().toUtf8() +
        "\n- name: sim-alice\n  user:\n    token: " +
        tokens[QStringLiteral("alice")].toString().toUtf8() + "\n";
    const QString kubeconfigPath = stateDir + QStringLiteral("/kubeconfig");
    if (!writePrivate(kubeconfigPath, kubeconfig))
        return fail(QStringLiteral("cannot write %1").arg(kubeconfigPath));

    simulation.start();

    QJsonObject ready{
        {QStringLiteral("pid"), qint64(QCoreApplication::applicationPid())},
        {QStringLiteral("server"), server},
        {QStringLiteral("kubeconfig"), kubeconfigPath},
        {QStringLiteral("sshConfig"), parser.isSet(noSshOpt) ? QString() : ssh.sshConfigPath()},
        {QStringLiteral("caCertificate"), certs.caCertPath()},
        {QStringLiteral("scenario"), options.scenario},
        {QStringLiteral("seed"), qint64(options.seed)},
        {QStringLiteral("speed"), options.speed}};
    QFile readyFile(stateDir + QStringLiteral("/sim.json"));
    if (readyFile.open(QIODevice::WriteOnly | QIODevice::Truncate))
        readyFile.write(QJsonDocument(ready).toJson());
    readyFile.close();

    const QByteArray kc = kubeconfigPath.toUtf8();
    std::fprintf(stdout,
                 "gpudesk-sim: scenario %s, seed %llu, speed %g: %zu nodes, %zu pods\n"
                 "  state dir   %s\n"
                 "  API server  %s\n"
                 "  kubectl     KUBECONFIG=%s kubectl get nodes\n"
                 "              KUBECONFIG=%s kubectl --context sim-alice get pods\n"
                 "  ground truth  KUBECONFIG=%s kubectl get --raw /sim/truth\n"
                 "  exec        KUBECONFIG=%s kubectl exec -n user-alice dev-alice -- hostname\n"
                 "  forward     KUBECONFIG=%s kubectl port-forward -n user-alice pod/dev-alice "
                 ":8888\n",
                 qPrintable(options.scenario), static_cast<unsigned long long>(options.seed),
                 options.speed, store.count(simulation.nodes()), store.count(simulation.pods()),
                 qPrintable(stateDir), qPrintable(server), kc.constData(), kc.constData(),
                 kc.constData(), kc.constData(), kc.constData());
    if (!parser.isSet(noSshOpt))
        std::fprintf(stdout, "  ssh         ssh -F %s/ssh_config g4090-01 nvidia-smi -L\n",
                     qPrintable(stateDir));
    std::fprintf(stdout, "gpudesk-sim: ready (Ctrl-C stops it)\n");
    std::fflush(stdout);

    if (::pipe(g_signalPipe) == 0) {
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
    }
    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &app, [&] {
        std::fprintf(stdout, "gpudesk-sim: stopping\n");
        std::fflush(stdout);
        QFile::remove(stateDir + QStringLiteral("/sim.json"));
        QCoreApplication::quit();
    });
    const int rc = app.exec();
    ssh.stop();
    return rc;
}
