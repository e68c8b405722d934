// SPDX-License-Identifier: GPL-3.0-or-later
// The first window offscreen, in every connection state, in English and Chinese; screenshots
// are written under the build tree for a person to look at.
#include "connectionstate.h"
#include "mainwindow.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QStatusBar>
#include <QTest>
#include <QTranslator>

using namespace gpudesk;

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void states_data();
    void states();
    void chinese();

private:
    static QStringList labelTexts(const QWidget &w)
    {
        QStringList out;
        for (const auto *l : w.findChildren<QLabel *>())
            if (l->isVisibleTo(&w))
                out << l->text();
        return out;
    }
    static void save(QWidget &w, const QString &name)
    {
        QDir().mkpath(QStringLiteral("screenshots"));
        QCoreApplication::sendPostedEvents(); // pending layout requests, so labels are sized
        QVERIFY(w.grab().save(QStringLiteral("screenshots/") + name + QStringLiteral(".png")));
    }
};

void TestMainWindow::states_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QStringList>("expected");
    QTest::addRow("connecting") << 0
                                << QStringList{QStringLiteral("Connecting to sim-admin…"),
                                               QStringLiteral("https://127.0.0.1:6443")};
    QTest::addRow("connected") << 1
                               << QStringList{QStringLiteral("Connected to sim-admin"),
                                              QStringLiteral("96"), QStringLiteral("14 / 15"),
                                              QStringLiteral("v1.29.4")};
    QTest::addRow("failed") << 2
                            << QStringList{QStringLiteral("Cannot connect to sim-admin"),
                                           QStringLiteral("Unauthorized"),
                                           QStringLiteral("Failed")};
    QTest::addRow("insecure")
        << 3
        << QStringList{QStringLiteral(
               "TLS verification is off for this context (insecure-skip-tls-verify): gpudesk "
               "cannot tell this server from an impostor.")};
}

void TestMainWindow::states()
{
    QFETCH(int, which);
    QFETCH(QStringList, expected);
    ConnectionState state;
    MainWindow w(&state);
    w.setContexts({QStringLiteral("sim-admin"), QStringLiteral("sim-alice")},
                  QStringLiteral("sim-admin"));
    w.show();
    state.setConnecting(QStringLiteral("sim-admin"), QStringLiteral("https://127.0.0.1:6443"),
                        which != 3);
    if (which == 1 || which == 3)
        state.setConnected(ClusterSummary{QStringLiteral("v1.29.4"), 15, 14, 96});
    if (which == 2)
        state.setFailed(QStringLiteral("sim-admin"), QStringLiteral("Unauthorized"));
    const QStringList texts = labelTexts(w);
    for (const auto &e : expected)
        QVERIFY2(texts.contains(e), qPrintable(e + QStringLiteral(" not in ") + texts.join(u'|')));
    if (which != 3)
        QVERIFY(!texts.join(u'|').contains(QStringLiteral("TLS verification is off")));
    save(w, QStringLiteral("mainwindow-") + QLatin1String(QTest::currentDataTag()));
}

void TestMainWindow::chinese()
{
    QTranslator t;
    QVERIFY(t.load(QStringLiteral("gpudesk_zh_CN"), QStringLiteral(GPUDESK_QM_DIR)));
    QApplication::installTranslator(&t);
    ConnectionState state;
    MainWindow w(&state);
    w.show();
    state.setConnecting(QStringLiteral("sim-admin"), QStringLiteral("https://127.0.0.1:6443"),
                        true);
    state.setConnected(ClusterSummary{QStringLiteral("v1.29.4"), 15, 14, 96});
    const QStringList texts = labelTexts(w);
    QVERIFY2(texts.contains(QStringLiteral("已连接到 sim-admin")), qPrintable(texts.join(u'|')));
    QVERIFY(texts.contains(QStringLiteral("GPU（可分配）")));
    save(w, QStringLiteral("mainwindow-zh_CN"));
    QApplication::removeTranslator(&t);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
