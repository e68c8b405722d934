// SPDX-License-Identifier: GPL-3.0-or-later
#include "connectionstate.h"
#include "kubeconfig.h"
#include "mainwindow.h"
#include "session.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QTranslator>

using namespace gpudesk;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("gpudesk"));
    QApplication::setOrganizationName(QStringLiteral("gpudesk"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    // Qt's own strings first, then ours; either may be missing for a locale.
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("gpudesk"), QStringLiteral("_"),
                        QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Desktop console for GPU training clusters on Kubernetes."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption kubeconfigOpt(
        QStringLiteral("kubeconfig"),
        QApplication::translate(
            "main", "Use this kubeconfig file instead of $KUBECONFIG or ~/.kube/config."),
        QStringLiteral("file"));
    const QCommandLineOption contextOpt(
        QStringLiteral("context"),
        QApplication::translate("main", "Connect to this kubeconfig context."),
        QStringLiteral("name"));
    parser.addOptions({kubeconfigOpt, contextOpt});
    parser.process(app);

    const QStringList files = parser.isSet(kubeconfigOpt) ? QStringList{parser.value(kubeconfigOpt)}
                                                          : KubeConfig::defaultFiles();
    ConnectionState state;
    Session session(files, &state);
    MainWindow window(&state);
    QString error;
    if (!session.loadConfig(&error)) {
        state.setFailed(QString(), error);
    } else {
        window.setContexts(session.contexts(), parser.value(contextOpt).isEmpty()
                                                   ? session.currentContext()
                                                   : parser.value(contextOpt));
        session.connectTo(parser.value(contextOpt));
    }
    QObject::connect(&window, &MainWindow::contextRequested, &session, &Session::connectTo);
    QObject::connect(&window, &MainWindow::reconnectRequested, &session, &Session::reconnect);
    window.show();
    return app.exec();
}
