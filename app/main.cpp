// SPDX-License-Identifier: GPL-3.0-or-later
#include "allocatorpolicy.h"
#include "appsettings.h"
#include "cleanuprun.h"
#include "clustersession.h"
#include "connectionstate.h"
#include "execterminal.h"
#include "historyservice.h"
#include "kubeconfig.h"
#include "mainwindow.h"
#include "messagefilter.h"
#include "reportrun.h"
#include "services.h"
#include "settingsdialog.h"
#include "sshpool.h"
#include "stdioforward.h"
#include "submitrun.h"
#include "theme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QLoggingCategory>
#include <QStatusBar>
#include <QTranslator>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <unistd.h>

using namespace gpudesk;

namespace {

// Modes that print and exit run without a display: they must not create a QApplication (which
// aborts with "could not connect to display" where there is none).
bool headless(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        for (const char *opt : {"--report", "--alerts", "--cleanup", "--stdio-forward", "--exec",
                                "--submit", "--help", "-h", "--help-all", "--version", "-v"}) {
            const size_t n = qstrlen(opt);
            if (qstrcmp(argv[i], opt) == 0 || (qstrncmp(argv[i], opt, n) == 0 && argv[i][n] == '='))
                return true;
        }
    }
    return false;
}

// What --report and --alerts share: the kubeconfig read (false: said on stderr), TLS's warning,
// node telemetry unless --no-ssh, and the run's notices on stderr.
bool prepareRun(ReportRun &run, bool ssh, const QString &sshConfig)
{
    QString error;
    if (!run.prepare(&error)) {
        std::fprintf(stderr, "gpudesk: %s\n", qPrintable(error));
        return false;
    }
    if (const QString warning = run.warning(); !warning.isEmpty())
        std::fprintf(stderr, "gpudesk: %s\n", qPrintable(warning));
    if (ssh)
        run.enableTelemetry(sshConfig);
    QObject::connect(&run, &ReportRun::notice, [](const QString &message) {
        std::fprintf(stderr, "gpudesk: warning: %s\n", qPrintable(message));
    });
    return true;
}

int runReport(const QStringList &files, const QString &context, const QString &output, bool ssh,
              const QString &sshConfig, bool measureStorage)
{
    ReportRun run(files, context, output);
    run.setMeasureStorage(measureStorage);
    if (!prepareRun(run, ssh, sshConfig))
        return 2;
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

// --alerts: the alerts that fire now as JSON on stdout; exit 0 none, 1 warnings, 2 critical, and
// 3 when the cluster could not be read (Nagios's codes, which monitoring scripts expect).
int runAlerts(const QStringList &files, const QString &context, bool ssh, const QString &sshConfig)
{
    ReportRun run(files, context, QString());
    run.setAlertsOnly(true);
    if (!prepareRun(run, ssh, sshConfig))
        return 3;
    int exitCode = 3;
    QObject::connect(&run, &ReportRun::alertsReady, [&exitCode](const QByteArray &json, int code) {
        std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
        exitCode = code;
        QCoreApplication::quit();
    });
    QObject::connect(&run, &ReportRun::finished, [](int, const QString &message) {
        std::fprintf(stderr, "gpudesk: %s\n", qPrintable(message));
        QCoreApplication::quit();
    });
    QMetaObject::invokeMethod(&run, &ReportRun::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    return exitCode;
}

// --stdio-forward and --exec: a stream to a dev environment until either side ends it. ssh reads
// stdout as the stream: messages go to stderr only, and only when something fails.
template <typename Bridge> int runBridge(const QStringList &files, const QString &target)
{
    Bridge bridge(files, target);
    QString error;
    if (!bridge.prepare(&error)) {
        std::fprintf(stderr, "gpudesk: %s\n", qPrintable(error));
        return 2;
    }
    int exitCode = 1;
    QObject::connect(&bridge, &Bridge::finished, [&exitCode](int code, const QString &message) {
        if (!message.isEmpty())
            std::fprintf(stderr, "gpudesk: %s\n", qPrintable(message));
        exitCode = code;
        QCoreApplication::quit();
    });
    QMetaObject::invokeMethod(&bridge, &Bridge::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    return exitCode;
}

// The connection a run's services leased is released with deleteLater (operations may still
// hold it), which no event loop runs once the run has ended: it is deleted here, with the
// network threads of its clients, before the process exits — a TLS handshake still under way
// in one of them raced OpenSSL's teardown at exit (ASan: heap-use-after-free in libcrypto).
void flushDeferredDeletes()
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

// --cleanup and --submit: progress on stderr, the document on stdout, the run's exit code.
template <typename Run> int runToJson(Run &run, int exitCodeIfUnfinished)
{
    QObject::connect(&run, &Run::progress, [](const QString &m) {
        std::fprintf(stderr, "gpudesk: %s\n", qPrintable(m));
    });
    int exitCode = exitCodeIfUnfinished;
    QObject::connect(&run, &Run::finished,
                     [&exitCode](int code, const QByteArray &json, const QString &message) {
                         std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
                         std::fflush(stdout);
                         std::fprintf(stderr, "gpudesk: %s\n", qPrintable(message));
                         exitCode = code;
                         QCoreApplication::quit();
                     });
    QMetaObject::invokeMethod(&run, &Run::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    return exitCode;
}

int cleanupIn(CleanupRun::Options options)
{
    CleanupRun run(std::move(options));
    QString error;
    if (!run.prepare(&error)) {
        std::fprintf(stderr, "gpudesk: %s\n", qPrintable(error));
        return 2;
    }
    // Confirmation on the terminal when there is one; a cron job must say --yes.
    if (isatty(STDIN_FILENO) && isatty(STDERR_FILENO))
        run.setConfirm([](const QString &prompt) {
            std::fprintf(stderr, "%s", qPrintable(prompt));
            std::fflush(stderr);
            char line[256] = {};
            return std::fgets(line, sizeof line, stdin) ? QString::fromLocal8Bit(line) : QString();
        });
    return runToJson(run, 1);
}

int runCleanup(CleanupRun::Options options)
{
    const int exitCode = cleanupIn(std::move(options));
    flushDeferredDeletes();
    return exitCode;
}

// --submit FILE [--check | --yes]: the verdict (and with --yes the result) as JSON on stdout.
int runSubmit(SubmitRun::Options options)
{
    int exitCode = 2;
    {
        SubmitRun run(std::move(options));
        QString error;
        if (run.prepare(&error))
            exitCode = runToJson(run, 3);
        else
            std::fprintf(stderr, "gpudesk: %s\n", qPrintable(error));
    }
    flushDeferredDeletes();
    return exitCode;
}

int run(int argc, char **argv)
{
    configureAllocator();
    // Qt's warnings and gpudesk's debug output only on request (--verbose, QT_LOGGING_RULES):
    // installed before the application exists, whose construction already warns (the platform
    // plugin's "QStandardPaths: XDG_RUNTIME_DIR not set…"), and so before the parser runs.
    installMessageFilter(std::any_of(argv + 1, argv + argc,
                                     [](const char *a) { return qstrcmp(a, "--verbose") == 0; }));
    std::unique_ptr<QCoreApplication> app = headless(argc, argv)
                                                ? std::make_unique<QCoreApplication>(argc, argv)
                                                : std::make_unique<QApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gpudesk"));
    QCoreApplication::setOrganizationName(QStringLiteral("gpudesk"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    if (auto *gui = qobject_cast<QGuiApplication *>(app.get())) {
        // The icon where the desktop does not take it from gpudesk.desktop (which names it), and
        // the desktop file's name, so that a Wayland compositor matches window and launcher.
        gui->setWindowIcon(QIcon(QStringLiteral(":/gpudesk/gpudesk.svg")));
        QGuiApplication::setDesktopFileName(QStringLiteral("gpudesk"));
    }

    // Qt's own strings first, then ours; either may be missing for a locale.
    // The language chosen in Settings, else the system's.
    const QString chosen = AppSettings::language();
    const QLocale locale = chosen.isEmpty() ? QLocale() : QLocale(chosen);
    if (!chosen.isEmpty())
        QLocale::setDefault(locale);
    QTranslator qtTranslator;
    if (qtTranslator.load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&qtTranslator);
    QTranslator translator;
    if (translator.load(locale, QStringLiteral("gpudesk"), QStringLiteral("_"),
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
    const QCommandLineOption alertsOpt(
        QStringLiteral("alerts"),
        QCoreApplication::translate(
            "main", "Sync, print the alerts that fire now as JSON, and exit 0 (none), 1 "
                    "(warnings), 2 (critical) or 3 (the cluster could not be read)."));
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
    const QCommandLineOption cleanupOpt(
        QStringLiteral("cleanup"),
        QCoreApplication::translate(
            "main", "Find what holds GPUs and should not; \"plan\" writes the plan as JSON on "
                    "stdout, \"apply\" runs it and writes the results (docs/cleanup.md)."),
        QStringLiteral("plan|apply"));
    const QCommandLineOption classesOpt(
        QStringLiteral("classes"),
        QCoreApplication::translate("main",
                                    "With --cleanup: only these finding classes, comma-separated "
                                    "(orphan-process, stuck-terminating, idle-gpus, …; the NAS's "
                                    "nas-stale-file, nas-core-dump, nas-departed-user only when "
                                    "named)."),
        QStringLiteral("list"));
    const QCommandLineOption idleForOpt(
        QStringLiteral("idle-for"),
        QCoreApplication::translate(
            "main", "With --cleanup: GPUs idle at least this long count as idle (90m, 2h, 1d)."),
        QStringLiteral("duration"), QStringLiteral("1h"));
    const QCommandLineOption drainNodesOpt(
        QStringLiteral("drain-nodes"),
        QCoreApplication::translate(
            "main", "With --cleanup: also drain these nodes (comma-separated) where a finding's "
                    "remedy is a drain; it evicts every pod on them, so each is named here."),
        QStringLiteral("nodes"));
    const QCommandLineOption yesOpt(
        QStringLiteral("yes"),
        QCoreApplication::translate(
            "main", "With --cleanup apply: run without asking. With --submit: create the job."));
    const QCommandLineOption submitOpt(
        QStringLiteral("submit"),
        QCoreApplication::translate(
            "main", "Check whether this job (YAML or JSON; - for stdin) would start now, wait or "
                    "never start, print the verdict as JSON and exit 0, 1 or 2 (3: the cluster "
                    "could not be read); with --yes, then create it (docs/submit.md)."),
        QStringLiteral("file"));
    const QCommandLineOption checkOpt(
        QStringLiteral("check"),
        QCoreApplication::translate("main", "With --submit: only check; create nothing."));
    const QCommandLineOption stdioForwardOpt(
        QStringLiteral("stdio-forward"),
        QCoreApplication::translate(
            "main", "Bridge stdin and stdout to a dev environment's port (an ssh ProxyCommand), "
                    "following the environment to its current pod."),
        QStringLiteral("context/namespace/environment:port"));
    const QCommandLineOption execOpt(
        QStringLiteral("exec"),
        QCoreApplication::translate(
            "main", "A shell (bash, else sh) in a dev environment's current pod over the API's "
                    "exec, in this terminal: for images without an SSH server."),
        QStringLiteral("context/namespace/environment"));
    const QCommandLineOption measureStorageOpt(
        QStringLiteral("measure-storage"),
        QCoreApplication::translate(
            "main", "With --report (or --cleanup with a NAS class): walk the NAS now, even if its "
                    "last walk is younger than the interval set (docs/storage.md)."));
    const QCommandLineOption verboseOpt(
        QStringLiteral("verbose"),
        QCoreApplication::translate("main", "Print gpudesk's debug log and Qt's own warnings on "
                                            "stderr (secrets are never logged)."));
    parser.addOptions({kubeconfigOpt, contextOpt, reportOpt, alertsOpt, sshConfigOpt, noSshOpt,
                       prometheusOpt, cleanupOpt, classesOpt, idleForOpt, drainNodesOpt, yesOpt,
                       submitOpt, checkOpt, stdioForwardOpt, execOpt, measureStorageOpt,
                       verboseOpt});
    parser.process(*app);

    QStringList files = parser.isSet(kubeconfigOpt) ? QStringList{parser.value(kubeconfigOpt)}
                                                    : KubeConfig::defaultFiles();
    // Where the usual places have nothing: the file picked on an earlier first start.
    const QString picked = AppSettings::kubeconfig();
    if (!parser.isSet(kubeconfigOpt) && !picked.isEmpty() && QFileInfo::exists(picked) &&
        std::none_of(files.cbegin(), files.cend(),
                     [](const QString &f) { return QFileInfo::exists(f); }))
        files = QStringList{picked};
    if (parser.isSet(submitOpt)) {
        if (parser.isSet(checkOpt) && parser.isSet(yesOpt)) {
            std::fprintf(stderr, "gpudesk: %s\n",
                         qPrintable(QCoreApplication::translate(
                             "main", "--check and --yes contradict each other: choose one.")));
            return 2;
        }
        // The launch scripts are looked at on the NAS only when the nodes' SSH config is
        // given: most who submit have no SSH to the nodes, and would wait for nothing.
        return runSubmit(
            {files, parser.value(contextOpt), parser.value(submitOpt), parser.isSet(yesOpt),
             parser.isSet(sshConfigOpt) && !parser.isSet(noSshOpt), parser.value(sshConfigOpt)});
    }
    if (parser.isSet(stdioForwardOpt))
        return runBridge<StdioForward>(files, parser.value(stdioForwardOpt));
    if (parser.isSet(execOpt))
        return runBridge<ExecTerminal>(files, parser.value(execOpt));
    if (parser.isSet(alertsOpt))
        return runAlerts(files, parser.value(contextOpt), !parser.isSet(noSshOpt),
                         parser.value(sshConfigOpt));
    if (parser.isSet(reportOpt))
        return runReport(files, parser.value(contextOpt), parser.value(reportOpt),
                         !parser.isSet(noSshOpt), parser.value(sshConfigOpt),
                         parser.isSet(measureStorageOpt));
    if (parser.isSet(cleanupOpt)) {
        CleanupRun::Options o;
        o.kubeconfigFiles = files;
        o.context = parser.value(contextOpt);
        const QString mode = parser.value(cleanupOpt);
        QString error;
        if (mode != QLatin1String("plan") && mode != QLatin1String("apply"))
            error =
                QCoreApplication::translate("main", "--cleanup takes plan or apply, not \"%1\".")
                    .arg(mode);
        o.apply = mode == QLatin1String("apply");
        o.yes = parser.isSet(yesOpt);
        for (const QString &n : parser.value(drainNodesOpt).split(u',', Qt::SkipEmptyParts))
            o.drainNodes << n.trimmed();
        if (error.isEmpty() && parser.isSet(classesOpt))
            CleanupRun::parseClasses(parser.value(classesOpt), &o.classes, &o.nas.classes, &error);
        if (error.isEmpty() && !CleanupRun::parseDuration(parser.value(idleForOpt), &o.idleForMs))
            error = QCoreApplication::translate("main", "--idle-for: \"%1\" is not a duration "
                                                        "(90m, 2h, 1d).")
                        .arg(parser.value(idleForOpt));
        if (!error.isEmpty()) {
            std::fprintf(stderr, "gpudesk: %s\n", qPrintable(error));
            return 2;
        }
        o.ssh = !parser.isSet(noSshOpt);
        o.sshConfig = parser.value(sshConfigOpt);
        o.measureStorage = parser.isSet(measureStorageOpt);
        QString prometheus = parser.value(prometheusOpt);
        // The same Prometheus the window would use for this context.
        if (prometheus.isEmpty())
            prometheus = AppSettings::prometheusFor(parser.value(contextOpt));
        if (!prometheus.isEmpty())
            o.prometheus = QUrl(prometheus);
        return runCleanup(std::move(o));
    }

    Services services(files);
    ClusterSession *session = services.session();
    if (!parser.isSet(noSshOpt))
        session->enableTelemetry(parser.value(sshConfigOpt));
    // Prometheus: --prometheus, else the context's own (Settings › Connection), else the one
    // for every context (prometheus/url); followed on each switch of context.
    const QString prometheusOption = parser.value(prometheusOpt);
    QObject::connect(session, &ClusterSession::connectionChanged, &services,
                     [&services, session, prometheusOption] {
                         const QString url = !prometheusOption.isEmpty()
                                                 ? prometheusOption
                                                 : AppSettings::prometheusFor(session->context());
                         services.history()->setPrometheus(url.isEmpty() ? QUrl() : QUrl(url));
                     });
    theme::apply(theme::saved());
    MainWindow window(&services);
    QObject::connect(session, &ClusterSession::telemetryFailed, &window,
                     [&window](const QString &m) { window.statusBar()->showMessage(m); });
    QString error;
    if (!session->loadConfig(&error)) {
        services.state()->setFailed(QString(), error);
    } else {
        // --context, else the context used last time (if the kubeconfig still has it), else
        // the kubeconfig's current-context.
        QString context = parser.value(contextOpt);
        const QString last = AppSettings::lastContext();
        if (context.isEmpty() && session->contexts().contains(last))
            context = last;
        window.setContexts(session->contexts(),
                           context.isEmpty() ? session->currentContext() : context);
        session->connectTo(context);
    }
    QObject::connect(&window, &MainWindow::contextRequested, session, &ClusterSession::connectTo);
    QObject::connect(&window, &MainWindow::reconnectRequested, session, &ClusterSession::reconnect);
    window.show();
    return QCoreApplication::exec();
}

} // namespace

int main(int argc, char **argv)
{
    const int exitCode = run(argc, argv);
    // Every pool is gone, its workers cancelled; the application's end waited for them (they
    // end within a poll, 100 ms, or a connect's timeout). One stuck in a system call past that:
    // leave without the exit handlers it would race (the output is flushed first, the answer
    // is the run's).
    if (!gpudesk::SshPool::finishWorkers(0)) {
        std::fflush(stdout);
        std::fflush(stderr);
        std::_Exit(exitCode);
    }
    return exitCode;
}
