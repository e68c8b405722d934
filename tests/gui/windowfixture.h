// SPDX-License-Identifier: GPL-3.0-or-later
// What the window tests share: the services connected to the test simulator as the app
// composes them, a window with node telemetry, /sim/truth, screenshots.
#pragma once

#include "branchdelegate.h"
#include "clustersession.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "connectionstate.h"
#include "contextconnection.h"
#include "eventspage.h"
#include "findingsservice.h"
#include "flattreeview.h"
#include "format.h"
#include "gpuaccounting.h"
#include "gpumappage.h"
#include "gpuplacement.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "logmodel.h"
#include "logview.h"
#include "mainwindow.h"
#include "nodecardsmodel.h"
#include "nodepodsmodel.h"
#include "nodeprocessesmodel.h"
#include "nodesmodel.h"
#include "nodespage.h"
#include "nodetelemetrypanel.h"
#include "objectviewer.h"
#include "services.h"
#include "sshpool.h"
#include "telemetrychart.h"
#include "telemetrysession.h"
#include "telemetrystore.h"
#include "testpaths.h"
#include "workloadsmodel.h"
#include "workloadspage.h"
#include "workloadstable.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTranslator>
#include <QTreeView>

#include <functional>

using namespace gpudesk;

class WindowFixture
{
protected:
    // Reads the test simulator's kubeconfig (GPUDESK_SIM_STATE); each test's initTestCase.
    void loadSimConfig();
    // The services as the app composes them, connected to a context of the simulator's
    // kubeconfig (with node telemetry over `sshConfig` when given), synced.
    struct Connected
    {
        std::unique_ptr<Services> services;
        ClusterStore *store = nullptr;
        ConnectionState *state = nullptr;
        TelemetryStore *telemetry = nullptr;
        KubeClient *client = nullptr; // the connection's, for the test's own requests
        TelemetrySession *session = nullptr;
    };
    std::unique_ptr<Connected> connectTo(const QString &context, const QString &sshConfig = {});
    // The window as sim-admin with node telemetry over the simulator's SSH config, changed by
    // `edit` and written into `dir` (members in the order they must be destroyed, last first).
    struct TelemetryWindow
    {
        std::unique_ptr<Connected> c;
        std::unique_ptr<MainWindow> w;
    };
    void openTelemetryWindow(const QTemporaryDir &dir, const std::function<void(QString &)> &edit,
                             TelemetryWindow *out);
    // /sim/truth, with the admin's token (a researcher may not read it).
    QJsonObject simTruth() { return m_config ? truthOf(*m_config) : QJsonObject(); }
    // /sim/truth of a simulator of the test's own (startOwnSim's `dir`).
    static QJsonObject simTruthOf(const QString &dir)
    {
        QString error;
        const auto config = KubeConfig::load({dir + QStringLiteral("/kubeconfig")}, &error);
        return config ? truthOf(*config) : QJsonObject();
    }
    // A GET as the simulator's admin (the kubeconfig in `dir`): what the server holds, not
    // what gpudesk shows. {} when it did not answer in 10 s.
    static QJsonObject adminGet(const QString &dir, const QString &path)
    {
        QString error;
        const auto config = KubeConfig::load({dir + QStringLiteral("/kubeconfig")}, &error);
        const auto ep =
            config ? config->endpoint(QStringLiteral("sim-admin"), &error) : std::nullopt;
        if (!ep)
            return {};
        KubeClient admin(*ep);
        QJsonObject out;
        bool done = false;
        admin.get(path, &admin, [&](const KubeReply &r) {
            out = QJsonDocument::fromJson(r.body).object();
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 10000))
            qWarning("GET %s: no answer", qPrintable(path));
        return out;
    }
    static QJsonObject truthOf(const KubeConfig &config)
    {
        QString error;
        const auto ep = config.endpoint(QStringLiteral("sim-admin"), &error);
        if (!ep)
            return {};
        KubeClient admin(*ep);
        QJsonObject out;
        bool done = false;
        admin.get(QStringLiteral("/sim/truth"), &admin, [&](const KubeReply &r) {
            out = QJsonDocument::fromJson(r.body).object();
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 10000))
            return {};
        return out;
    }
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

    // The services on a simulator of the test's own (startOwnSim's `dir`) as sim-admin, with
    // node telemetry over its SSH config; connecting (not synced yet). Null if its kubeconfig
    // cannot be read.
    static std::unique_ptr<Services> ownSimServices(const QString &dir)
    {
        auto services =
            std::make_unique<Services>(QStringList{dir + QStringLiteral("/kubeconfig")});
        services->session()->enableTelemetry(dir + QStringLiteral("/ssh_config"));
        QString error;
        if (!services->session()->loadConfig(&error)) {
            qWarning("%s", qPrintable(error));
            return nullptr;
        }
        services->session()->connectTo(QStringLiteral("sim-admin"));
        return services;
    }

    // A demo simulator of the test's own, the services on it as sim-admin and the window on
    // them, synced: where most window tests start. Destroyed in reverse: window, services, sim.
    struct SimWindow
    {
        QTemporaryDir dir;
        QProcess sim;
        std::unique_ptr<Services> services;
        std::unique_ptr<MainWindow> window;
    };
    // False when it could not be opened (the test has failed then).
    static bool openSimWindow(SimWindow &s, const QString &speed = QStringLiteral("0"))
    {
        startOwnSim(s.sim, s.dir.path(), false, speed);
        if (QTest::currentTestFailed())
            return false;
        // Each simulator is a new cluster whose seeded uids repeat an earlier run's (a build
        // with another scenario hands them to other objects): what gpudesk kept of the last
        // one (its preemptions, by uid) would be told of this one's pods. The test's home
        // outlives the run.
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
             QStringLiteral("/preemptions"))
            .removeRecursively();
        s.services =
            std::make_unique<Services>(QStringList{s.dir.filePath(QStringLiteral("kubeconfig"))});
        QString error;
        if (!s.services->session()->loadConfig(&error)) {
            QTest::qFail(qPrintable(error), __FILE__, __LINE__);
            return false;
        }
        s.services->session()->connectTo(QStringLiteral("sim-admin"));
        s.window = std::make_unique<MainWindow>(s.services.get());
        s.window->resize(1500, 900);
        s.window->show();
        QSignalSpy synced(s.services->session()->connection()->sync(), &ClusterSync::synced);
        if (!synced.wait(30000)) {
            QTest::qFail("the window's connection did not sync within 30 s", __FILE__, __LINE__);
            return false;
        }
        s.services->store()->flush();
        return true;
    }

    // A frozen demo simulator of the test's own (no SSH), ready when this returns.
    // Frozen (speed 0) unless `speed` says otherwise: the controllers then run in real time.
    static void startOwnSim(QProcess &sim, const QString &dir, bool ssh = false,
                            const QString &speed = QStringLiteral("0"))
    {
        sim.setProgram(TestPaths::simBin());
        qputenv("GPUDESK_SIM_EXIT_WITH_PARENT", "1"); // gone with the test, also when it aborts
        QStringList args{QStringLiteral("--state-dir"), dir, QStringLiteral("--speed"), speed};
        if (!ssh)
            args << QStringLiteral("--no-ssh");
        sim.setArguments(args);
        sim.setProcessChannelMode(QProcess::MergedChannels);
        sim.start();
        QVERIFY(sim.waitForStarted());
        QByteArray out;
        // Seconds normally; over a minute in a sanitizer build.
        QTRY_VERIFY_WITH_TIMEOUT((out += sim.readAll()).contains("gpudesk-sim: ready"), 240000);
    }

    std::optional<KubeConfig> m_config;
};
