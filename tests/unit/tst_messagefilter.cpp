// SPDX-License-Identifier: GPL-3.0-or-later
// Qt's warnings stay off a user's terminal unless asked for; gpudesk's own messages and anything
// critical pass.
#include "messagefilter.h"

#include <QLoggingCategory>
#include <QTest>

namespace {

Q_LOGGING_CATEGORY(lcQtSsl, "qt.network.ssl")
Q_LOGGING_CATEGORY(lcOurs, "gpudesk.test", QtInfoMsg)

QStringList captured;

void capture(QtMsgType, const QMessageLogContext &context, const QString &message)
{
    captured << QString::fromLatin1(context.category ? context.category : "?") + u':' + message;
}

} // namespace

class TestMessageFilter : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void qtWarningsAreOffByDefault();
    void verboseShowsThem();
};

void TestMessageFilter::initTestCase()
{
    qunsetenv("QT_LOGGING_RULES");
    // The filter hands what passes to the handler before it: this one records.
    qInstallMessageHandler(capture);
    gpudesk::installMessageFilter(false);
}

void TestMessageFilter::qtWarningsAreOffByDefault()
{
    captured.clear();
    qWarning("QIODevice::read (QNetworkReplyHttpImpl): device not open");
    qCWarning(lcQtSsl) << "QSslSocket: cannot resolve SSL_get1_peer_certificate";
    qCDebug(lcOurs) << "debug of ours";
    qCWarning(lcOurs) << "a warning of ours";
    qCInfo(lcOurs) << "host key trusted";
    qCritical("a critical message of Qt's");
    QCOMPARE(captured, QStringList({QStringLiteral("gpudesk.test:a warning of ours"),
                                    QStringLiteral("gpudesk.test:host key trusted"),
                                    QStringLiteral("default:a critical message of Qt's")}));
}

void TestMessageFilter::verboseShowsThem()
{
    gpudesk::installMessageFilter(true);
    captured.clear();
    qWarning("QIODevice::read (QNetworkReplyHttpImpl): device not open");
    qCWarning(lcQtSsl) << "cannot resolve";
    qCDebug(lcOurs) << "debug of ours";
    QCOMPARE(captured,
             QStringList({QStringLiteral("default:QIODevice::read (QNetworkReplyHttpImpl): device "
                                         "not open"),
                          QStringLiteral("qt.network.ssl:cannot resolve"),
                          QStringLiteral("gpudesk.test:debug of ours")}));
}

QTEST_GUILESS_MAIN(TestMessageFilter)
#include "tst_messagefilter.moc"
