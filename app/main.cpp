// SPDX-License-Identifier: GPL-3.0-or-later
#include "allocatorpolicy.h"
#include "clusterstore.h"
#include "connectionstate.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "mainwindow.h"
#include "prometheusclient.h"
#include "reportrun.h"
#include "session.h"
#include "sshpool.h"
#include "telemetrystore.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QLoggingCategory>
#include <QSettings>
#include <QStatusBar>
#include <QTranslator>

#include <cstdio>
#include <memory>

using namespace gpudesk;

namespace {

// --report runs without a display, so it must not create a QApplication.
bool headless(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--report") == 0 || qstrncmp(argv[i], "--report=", 9) == 0)
            return true;
    }
    return false;
}

int runReport(const QStringList &files, const QString &context, const QString &output, bool ssh,
              const QString &sshConfig)
{
    QString error;
    const auto config = KubeConfig::load(files, &error);
    const auto endpoint = config ? config->endpoint(context, &error) : std::nullopt;
    if (!endpoint) {
        std::fprintf(stderr, "gpudesk: %s\n", qPrintable(error));
        return 2;
    }
    KubeClient client(*endpoint);
    if (!client.verifiesTls())
        std::fprintf(stderr, "gpudesk: %s\n",
                     qPrintable(QCoreApplication::translate(
                                    "main", "warning: TLS verification is off for context %1")
                                    .arg(endpoint->context)));
    ClusterStore store;
    TelemetryStore telemetry(&store);
    ReportRun run(&client, &store, output);
    if (ssh)
        run.setTelemetry(&telemetry, sshConfig);
    int exitCode = 1;
    QObject::connect(&run, &ReportRun::finished, [&exitCode](int code, const QString &message) {
        std::fprintf(code == 0 ? stdout : stderr, "gpudesk: %s\n", qPrintable(message));
        exitCode = code;
        QCoreApplication::quit();
    });
    QMetaObject::invokeMethod(&run, &ReportRun::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    return exitCode;
}

} // namespace

int main(int argc, char **argv)
{
    configureAllocator();
    std::unique_ptr<QCoreApplication> app = headless(argc, argv)
                                                ? std::make_unique<QCoreApplication>(argc, argv)
                                                : std::make_unique<QApplication>(argc, argv);
    // Debug output only on request (QT_LOGGING_RULES="gpudesk.*.debug=true").
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(QStringLiteral("gpudesk.*.debug=false"));
    QCoreApplication::setApplicationName(QStringLiteral("gpudesk"));
    QCoreApplication::setOrganizationName(QStringLiteral("gpudesk"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    // Qt's own strings first, then ours; either may be missing for a locale.
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&qtTranslator);
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("gpudesk"), QStringLiteral("_"),
                        QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "main", "Desktop console for GPU training clusters on Kubernetes."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption kubeconfigOpt(
        QStringLiteral("kubeconfig"),
        QCoreApplication::translate(
            "main", "Use this kubeconfig file instead of $KUBECONFIG or ~/.kube/config."),
        QStringLiteral("file"));
    const QCommandLineOption contextOpt(
        QStringLiteral("context"),
        QCoreApplication::translate("main", "Connect to this kubeconfig context."),
        QStringLiteral("name"));
    const QCommandLineOption reportOpt(
        QStringLiteral("report"),
        QCoreApplication::translate(
            "main", "Sync, write what the dashboards show as JSON to this file, and exit."),
        QStringLiteral("file"));
    const QCommandLineOption sshConfigOpt(
        QStringLiteral("ssh-config"),
        QCoreApplication::translate(
            "main", "Reach the nodes with this OpenSSH client config instead of ~/.ssh/config."),
        QStringLiteral("file"));
    const QCommandLineOption noSshOpt(
        QStringLiteral("no-ssh"),
        QCoreApplication::translate("main", "Do not connect to the nodes over SSH."));
    const QCommandLineOption prometheusOpt(
        QStringLiteral("prometheus"),
        QCoreApplication::translate(
            "main", "Show GPU history older than this session from this Prometheus (URL)."),
        QStringLiteral("url"));
    parser.addOptions(
        {kubeconfigOpt, contextOpt, reportOpt, sshConfigOpt, noSshOpt, prometheusOpt});
    parser.process(*app);

    const QStringList files = parser.isSet(kubeconfigOpt) ? QStringList{parser.value(kubeconfigOpt)}
                                                          : KubeConfig::defaultFiles();
    if (parser.isSet(reportOpt))
        return runReport(files, parser.value(contextOpt), parser.value(reportOpt),
                         !parser.isSet(noSshOpt), parser.value(sshConfigOpt));

    ConnectionState state;
    ClusterStore store;
    TelemetryStore telemetry(&store);
    Session session(files, &state, &store);
    if (!parser.isSet(noSshOpt))
        session.enableTelemetry(&telemetry, parser.value(sshConfigOpt));
    MainWindow window(&state, &store, &telemetry);
    QObject::connect(&session, &Session::connectionChanged, &window, &MainWindow::setConnection);
    QObject::connect(&session, &Session::sshPoolChanged, &window, &MainWindow::setSshPool);
    // Prometheus: --prometheus, else the setting prometheus/url.
    QString prometheusUrl = parser.value(prometheusOpt);
    if (prometheusUrl.isEmpty())
        prometheusUrl = QSettings().value(QStringLiteral("prometheus/url")).toString();
    PrometheusClient *prometheus = nullptr;
    if (!prometheusUrl.isEmpty()) {
        prometheus = new PrometheusClient(QUrl(prometheusUrl), &window);
        window.setPrometheus(prometheus);
    }
    QObject::connect(&session, &Session::telemetryFailed, &window,
                     [&window](const QString &m) { window.statusBar()->showMessage(m); });
    QString error;
    if (!session.loadConfig(&error)) {
        state.setFailed(QString(), error);
    } else {
        // --context, else the context used last time (if the kubeconfig still has it), else
        // the kubeconfig's current-context.
        QString context = parser.value(contextOpt);
        const QString last = QSettings().value(QStringLiteral("session/lastContext")).toString();
        if (context.isEmpty() && session.contexts().contains(last))
            context = last;
        window.setContexts(session.contexts(),
                           context.isEmpty() ? session.currentContext() : context);
        session.connectTo(context);
    }
    QObject::connect(&window, &MainWindow::contextRequested, &session, &Session::connectTo);
    QObject::connect(&window, &MainWindow::reconnectRequested, &session, &Session::reconnect);
    window.show();
    return QCoreApplication::exec();
}
