// SPDX-License-Identifier: GPL-3.0-or-later
// The Dev environments page end to end as a researcher (sim-alice), on a simulator of its own
// whose pods' ports lead to the test peers' real Jupyter server and sshd: an environment made
// through the form and its plan (1 GPU, 8 GiB of shared memory), Jupyter opened (the URL handed
// to the browser captured and opened with an HTTP client: Jupyter's API answers with the token
// and refuses without), a terminal's ssh through the Host entry gpudesk writes (OpenSSH's client,
// its ProxyCommand gpudesk --stdio-forward, the real sshd runs `hostname`), VS Code's Include
// asked for, stopped (its GPU free in /sim/truth, the volume kept), started again (the same
// local port reaches the new pod) and deleted; an image that cannot be pulled, a request over
// quota and a service the image lacks, each said in words. Screenshots under build/dev.
#include "devenvactivity.h"
#include "devenvdialog.h"
#include "devenvsmodel.h"
#include "devenvspage.h"
#include "devenvsservice.h"
#include "mainwindow.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationrun.h"
#include "services.h"
#include "sessionspanel.h"
#include "simprocess.h"
#include "testpaths.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostInfo>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

using namespace gpudesk;
using gpudesk::testing::runShown;

// Stands in for the browser: QDesktopServices hands it the URLs gpudesk opens.
class UrlCatcher : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> urls;
public slots:
    void open(const QUrl &url) { urls << url; }
};

class TestDevEnvs : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void environmentThroughTheWindow();
    void badInputSaysWhy();
    void execShellWithoutSsh();
    void terminalOfTheDesktop();
    void startsJupyterWhenNoneRuns();
    void cleanupTestCase();

private:
    static QString peerFile(const QString &name);
    static int httpGet(const QUrl &url, QByteArray *body = nullptr);
    int aliceGpus() const;
    DevEnvDialog *fill(DevEnvsPage *page, const QString &name, const QString &image, int gpus);
    static void save(QWidget &w, const QString &name)
    {
        QDir().mkpath(QStringLiteral("screenshots"));
        QCoreApplication::sendPostedEvents();
        QVERIFY(w.grab().save(QStringLiteral("screenshots/") + name + QStringLiteral(".png")));
    }

    SimProcess m_sim;
    QTemporaryDir m_home;
    UrlCatcher m_browser;
    std::unique_ptr<Services> m_services;
    std::unique_ptr<MainWindow> m_window;
    DevEnvsPage *m_page = nullptr;
};

QString TestDevEnvs::peerFile(const QString &name)
{
    QFile f(qEnvironmentVariable("GPUDESK_PEERS") + u'/' + name);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).trimmed() : QString();
}

void TestDevEnvs::initTestCase()
{
    // A home of the test's own: gpudesk writes ~/.ssh/gpudesk/config and asks to edit
    // ~/.ssh/config there, not in the real one.
    qputenv("HOME", m_home.path().toUtf8());
    qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8());
    const QString jupyterPort = peerFile(QStringLiteral("jupyter/port"));
    const QString sshPort = peerFile(QStringLiteral("sshd/port"));
    QVERIFY2(!jupyterPort.isEmpty() && !sshPort.isEmpty(), "the test peers are not running");
    QString error;
    QVERIFY2(m_sim.start({QStringLiteral("--no-ssh"), QStringLiteral("--speed"),
                          QStringLiteral("5"), QStringLiteral("--service-backend"),
                          QStringLiteral("jupyter=127.0.0.1:") + jupyterPort,
                          QStringLiteral("--service-backend"),
                          QStringLiteral("ssh=127.0.0.1:") + sshPort,
                          QStringLiteral("--jupyter-token-file"),
                          qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/jupyter/token")},
                         &error),
             qPrintable(error));
    QDesktopServices::setUrlHandler(QStringLiteral("http"), &m_browser, "open");
    m_services = m_sim.connect(QStringLiteral("sim-alice"));
    QVERIFY(m_services);
    m_services->devEnvs()->setGpudeskProgram(TestPaths::gpudeskBin());
    m_window = std::make_unique<MainWindow>(m_services.get());
    m_window->resize(1500, 900);
    m_window->show();
    m_window->showPage(MainWindow::DevEnvs);
    m_page = qobject_cast<DevEnvsPage *>(m_window->page(MainWindow::DevEnvs));
    QVERIFY(m_page);
    // alice's environment from the demo, as she sees it.
    const QString devAlice = QStringLiteral("user-alice/dev-alice");
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->rowOf(devAlice) >= 0, 20000);
    // Its image declares VS Code's port, but nothing listens there (this simulator leads only
    // jupyter and ssh to real programs): said, with the kubelet's refusal, not shown as ready.
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->why(devAlice).contains(QLatin1String("vscode")),
                             30000);
    QVERIFY2(m_page->model()->why(devAlice).contains(QLatin1String("does not answer")) &&
                 m_page->model()->why(devAlice).contains(QLatin1String("refused")),
             qPrintable(m_page->model()->why(devAlice)));
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->serviceAnswered(devAlice, QStringLiteral("jupyter")),
                             30000);
}

void TestDevEnvs::cleanupTestCase()
{
    qunsetenv("TERMINAL");
    QDesktopServices::unsetUrlHandler(QStringLiteral("http"));
    m_window.reset();
    m_services.reset();
}

int TestDevEnvs::httpGet(const QUrl &url, QByteArray *body)
{
    QNetworkAccessManager nam;
    QNetworkRequest request(url);
    request.setTransferTimeout(20000);
    QNetworkReply *reply = nam.get(request);
    QSignalSpy done(reply, &QNetworkReply::finished);
    if (!done.wait(30000))
        return 0;
    if (body)
        *body = reply->readAll();
    reply->deleteLater();
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

int TestDevEnvs::aliceGpus() const
{
    for (const QJsonValue &u : m_sim.truth().value(QLatin1String("users")).toArray())
        if (u[QLatin1String("name")].toString() == QLatin1String("alice"))
            return u[QLatin1String("gpus")][QLatin1String("allocated")].toInt();
    return -1;
}

DevEnvDialog *TestDevEnvs::fill(DevEnvsPage *page, const QString &name, const QString &image,
                                int gpus)
{
    DevEnvDialog *form = page->newEnvironment();
    if (!form)
        return nullptr;
    QTest::keyClicks(form->nameEdit(), name);
    form->imageBox()->setCurrentText(image);
    form->gpusBox()->setValue(gpus);
    return form;
}

void TestDevEnvs::environmentThroughTheWindow()
{
    const int gpusBefore = aliceGpus();
    QVERIFY(gpusBefore >= 1);
    // The form: a bad name is refused as typed; shared memory larger than memory too.
    DevEnvDialog *form = fill(m_page, QStringLiteral("Exp_1"),
                              QStringLiteral("registry.lab.internal/devenv/pytorch-jupyter:2.1-"
                                             "cuda12.1"),
                              1);
    QVERIFY(form);
    QPushButton *ok = form->buttons()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled());
    QVERIFY2(form->problems()->text().contains(QLatin1String("not a valid name")),
             qPrintable(form->problems()->text()));
    form->nameEdit()->setText(QStringLiteral("exp1"));
    form->shmEdit()->setText(QStringLiteral("64Gi"));
    QVERIFY(!ok->isEnabled());
    QVERIFY2(form->problems()->text().contains(QLatin1String("counts against the memory limit")),
             qPrintable(form->problems()->text()));
    form->shmEdit()->setText(QStringLiteral("8Gi"));
    QVERIFY2(ok->isEnabled(), qPrintable(form->problems()->text()));
    save(*form, QStringLiteral("devenv-new"));
    QTest::mouseClick(ok, Qt::LeftButton);
    Operation *made = runShown(m_window.get());
    QVERIFY(made);
    QCOMPARE(made->plan().steps.size(), 2);
    QCOMPARE(made->count(StepOutcome::Result::Done), 2);
    // The pod as the server has it: 1 GPU, /dev/shm in memory of 8Gi, the home volume.
    const QString podName = made->plan().steps.at(1).target.name;
    QVERIFY(podName.startsWith(QLatin1String("exp1-")));
    const QJsonObject pod =
        m_sim.request("GET", QStringLiteral("/api/v1/namespaces/user-alice/pods/") + podName)
            .json();
    const QJsonObject spec = pod[QLatin1String("spec")].toObject();
    QCOMPARE(spec[QLatin1String("containers")][0][QLatin1String("resources")]
                 [QLatin1String("limits")][QLatin1String("nvidia.com/gpu")]
                     .toString(),
             QStringLiteral("1"));
    bool shm = false, home = false;
    for (const QJsonValue &v : spec[QLatin1String("volumes")].toArray()) {
        shm |= v[QLatin1String("emptyDir")][QLatin1String("medium")].toString() ==
                   QLatin1String("Memory") &&
               v[QLatin1String("emptyDir")][QLatin1String("sizeLimit")].toString() ==
                   QLatin1String("8Gi");
        home |= v[QLatin1String("persistentVolumeClaim")][QLatin1String("claimName")].toString() ==
                QLatin1String("exp1-home");
    }
    QVERIFY(shm && home);

    // Ready: running, its GPU held in the simulator's truth.
    const QString key = QStringLiteral("user-alice/exp1");
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->currentPod(key) &&
                                 m_page->model()->currentPod(key)->phase ==
                                     QLatin1String("Running"),
                             60000);
    QTRY_COMPARE_WITH_TIMEOUT(aliceGpus(), gpusBefore + 1, 20000);
    // Running is not ready: each service is tried until it answers (the peers' Jupyter and
    // sshd here), and until then Why says which keep it waiting.
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->serviceAnswered(key, QStringLiteral("jupyter")) &&
                                 m_page->model()->serviceAnswered(key, QStringLiteral("ssh")),
                             30000);
    QVERIFY2(!m_page->model()->why(key).contains(QLatin1String("answer")),
             qPrintable(m_page->model()->why(key)));
    m_page->selectEnvironment(key);
    auto *jupyterButton = m_page->findChild<QPushButton *>(QStringLiteral("openJupyter"));
    // Enabled once the server has said alice may exec and port-forward.
    QTRY_VERIFY_WITH_TIMEOUT(jupyterButton->isEnabled(), 20000);
    // Alice reaches no node over SSH here: saving an image cannot run, and the button says why.
    auto *saveImage = m_page->findChild<QPushButton *>(QStringLiteral("saveDevEnvImage"));
    QVERIFY(!saveImage->isEnabled());
    QVERIFY2(saveImage->toolTip().contains(QLatin1String("SSH")), qPrintable(saveImage->toolTip()));

    // Jupyter: the browser gets the URL with the token; the real server answers through it.
    QTest::mouseClick(jupyterButton, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_browser.urls.size(), 1, 30000);
    const QUrl url = m_browser.urls.first();
    QCOMPARE(url.host(), QStringLiteral("127.0.0.1"));
    QVERIFY2(url.query().contains(QLatin1String("token=")), "no token in the URL");
    QUrl status = url;
    status.setPath(url.path() + QStringLiteral("api/status"));
    QByteArray body;
    QCOMPARE(httpGet(status, &body), 200);
    QVERIFY2(body.contains("\"started\""), body.constData());
    QUrl noToken = status;
    noToken.setQuery(QString());
    QCOMPARE(httpGet(noToken), 403);
    // The token is not on the page.
    QVERIFY(!m_page->message()->text().contains(url.query()));
    // How its Jupyter is used, asked through exec and port-forward: the Idle for column has it
    // (no node telemetry here: Jupyter's half alone).
    DevEnvActivity *activity = m_services->devEnvs()->activity();
    activity->setIntervalMs(500);
    activity->refresh();
    QTRY_VERIFY2_WITH_TIMEOUT(
        m_page->model()->jupyterUse(key) && m_page->model()->jupyterUse(key)->checked > 0 &&
            m_page->model()->jupyterUse(key)->error.isEmpty(),
        m_page->model()->jupyterUse(key) ? qPrintable(m_page->model()->jupyterUse(key)->error)
                                         : "not asked",
        30000);
    const QModelIndex idleCell =
        m_page->model()->index(m_page->model()->rowOf(key), DevEnvsModel::IdleFor);
    QVERIFY2(idleCell.data().toString() != QLatin1String("–"),
             qPrintable(idleCell.data().toString()));
    QVERIFY2(idleCell.data(Qt::ToolTipRole).toString().contains(QLatin1String("Jupyter at")),
             qPrintable(idleCell.data(Qt::ToolTipRole).toString()));
    activity->setIntervalMs(DevEnvActivity::DefaultIntervalMs);
    QTRY_COMPARE(m_page->sessions()->table()->rowCount(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(m_page->sessions()
                                 ->table()
                                 ->item(0, SessionsPanel::State)
                                 ->text()
                                 .startsWith(QLatin1String("live")),
                             20000);

    // A terminal running ssh through gpudesk's Host entry. The "terminal" is a script that runs
    // what it is given with `hostname`, adding what the test's sshd needs (its user, key and
    // host key): options on the command line, the rest from gpudesk's config.
    const QString peers = qEnvironmentVariable("GPUDESK_PEERS");
    QFile hostKey(peers + QStringLiteral("/sshd/host_ed25519.pub"));
    QVERIFY(hostKey.open(QIODevice::ReadOnly));
    const QByteArray pinned = hostKey.readAll().split(' ').mid(0, 2).join(' ');
    const QString alias = QStringLiteral("exp1.user-alice.sim-alice.gpudesk");
    QFile known(m_home.filePath(QStringLiteral("known_hosts")));
    QVERIFY(known.open(QIODevice::WriteOnly));
    known.write(alias.toUtf8() + ' ' + pinned + '\n');
    known.close();
    const QString out = m_home.filePath(QStringLiteral("terminal.out"));
    QFile term(m_home.filePath(QStringLiteral("terminal")));
    QVERIFY(term.open(QIODevice::WriteOnly));
    term.write(QStringLiteral("#!/bin/sh\n[ \"$1\" = -e ] || exit 9\nshift\nprog=$1\nshift\n"
                              "exec \"$prog\" -o BatchMode=yes -o IdentitiesOnly=yes -i '%1' "
                              "-l '%2' -o UserKnownHostsFile='%3' -o StrictHostKeyChecking=yes "
                              "\"$@\" hostname >'%4' 2>&1\n")
                   .arg(peers + QStringLiteral("/sshd/client_ed25519"),
                        peerFile(QStringLiteral("sshd/user")), known.fileName(), out)
                   .toUtf8());
    term.close();
    term.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    qputenv("TERMINAL", term.fileName().toUtf8());
    auto *shell = m_page->findChild<QPushButton *>(QStringLiteral("openShell"));
    QVERIFY(shell->isEnabled());
    QTest::mouseClick(shell, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(m_page->message()->text().contains(QLatin1String("Started")), 10000);
    // ssh writes when it ends: the host name, or why it could not.
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(out).size() > 0, 30000);
    QFile result(out);
    QVERIFY(result.open(QIODevice::ReadOnly));
    QTRY_VERIFY_WITH_TIMEOUT(result.readAll().endsWith('\n') || (result.seek(0), false), 10000);
    result.seek(0);
    QCOMPARE(QString::fromUtf8(result.readAll()).trimmed(), QHostInfo::localHostName());
    const QString sshConfig = m_home.filePath(QStringLiteral(".ssh/gpudesk/config"));
    QFile written(sshConfig);
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QString entry = QString::fromUtf8(written.readAll());
    QVERIFY2(entry.contains(QStringLiteral("Host ") + alias) &&
                 entry.contains(QLatin1String("'--stdio-forward' 'sim-alice/user-alice/exp1:22'")),
             qPrintable(entry));
    QCOMPARE(QFile::permissions(sshConfig) & (QFile::ReadGroup | QFile::ReadOther),
             QFile::Permissions());

    // VS Code: the Include line is asked for first, and written at the top of ~/.ssh/config.
    QTest::mouseClick(m_page->findChild<QPushButton *>(QStringLiteral("openVsCode")),
                      Qt::LeftButton);
    QMessageBox *ask = nullptr;
    QTRY_VERIFY((ask = m_page->findChild<QMessageBox *>(QStringLiteral("includeQuestion"))));
    save(*ask, QStringLiteral("devenv-include"));
    QTest::mouseClick(ask->button(QMessageBox::Yes), Qt::LeftButton);
    QFile userConfig(m_home.filePath(QStringLiteral(".ssh/config")));
    QTRY_VERIFY(userConfig.exists());
    QVERIFY(userConfig.open(QIODevice::ReadOnly));
    QVERIFY(userConfig.readAll().contains(QByteArray("\nInclude " + sshConfig.toUtf8() + "\n")));
    QVERIFY(DevEnvsService::sshConfigIncludes(userConfig.fileName(), sshConfig));
    // Without VS Code here, the exact command to run instead.
    QTRY_VERIFY(m_page->message()->text().contains(QStringLiteral("ssh-remote+") + alias) ||
                m_page->message()->text().contains(QLatin1String("Started VS Code")));
    save(*m_window, QStringLiteral("page-devenvs"));

    // Stop: the pod verified gone (without node telemetry here, the cards are checked in the
    // simulator's truth instead); the home volume stays and the row says so.
    m_page->stop();
    Operation *stopped = runShown(m_window.get());
    QVERIFY(stopped);
    QCOMPARE(stopped->count(StepOutcome::Result::Done), 1);
    QVERIFY2(stopped->outcomes().at(0).verification.contains(QLatin1String("gone from the API")),
             qPrintable(stopped->outcomes().at(0).verification));
    QTRY_COMPARE_WITH_TIMEOUT(aliceGpus(), gpusBefore, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(m_page->model()->data(m_page->model()->index(
                                  m_page->model()->rowOf(key), DevEnvsModel::Status)),
                              QVariant(QStringLiteral("Stopped")), 30000);
    QVERIFY(m_page->model()->why(key).contains(QLatin1String("exp1-home")));
    // The tunnel waits for the environment instead of failing.
    QTRY_VERIFY_WITH_TIMEOUT(m_page->sessions()
                                 ->table()
                                 ->item(0, SessionsPanel::State)
                                 ->text()
                                 .startsWith(QLatin1String("reconnecting")),
                             30000);
    save(*m_window, QStringLiteral("page-devenvs-stopped"));

    // Start again: a new pod from the kept manifest, and the same local port reaches it.
    m_page->selectEnvironment(key);
    m_page->start();
    Operation *started = runShown(m_window.get());
    QVERIFY(started);
    QCOMPARE(started->count(StepOutcome::Result::Done), 1);
    QVERIFY(started->plan().steps.first().target.name != podName);
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->currentPod(key) &&
                                 m_page->model()->currentPod(key)->phase ==
                                     QLatin1String("Running"),
                             60000);
    QTRY_COMPARE_WITH_TIMEOUT(httpGet(status), 200, 30000);

    // Delete: pod and volume, the name typed; nothing is left of it.
    m_page->selectEnvironment(key);
    m_page->remove();
    Operation *deleted = runShown(m_window.get());
    QVERIFY(deleted);
    QCOMPARE(deleted->plan().typedWord, QStringLiteral("exp1"));
    QCOMPARE(deleted->count(StepOutcome::Result::Done), 2);
    QTRY_COMPARE_WITH_TIMEOUT(m_page->model()->rowOf(key), -1, 30000);
    // Its tunnel went with it, rather than waiting for it forever.
    QTRY_COMPARE(m_page->sessions()->table()->rowCount(), 0);
    QCOMPARE(
        m_sim
            .request("GET", QStringLiteral("/api/v1/namespaces/user-alice/persistentvolumeclaims/"
                                           "exp1-home"))
            .status,
        404);
    QTRY_COMPARE_WITH_TIMEOUT(aliceGpus(), gpusBefore, 20000);
}

void TestDevEnvs::badInputSaysWhy()
{
    // An image no node can pull: the pull error, not a spinner.
    DevEnvDialog *form =
        fill(m_page, QStringLiteral("nopull"), QStringLiteral("nosuch.example.com/x/y:1"), 0);
    QVERIFY(form);
    form->findChild<QCheckBox *>(QStringLiteral("service:jupyter"))->setChecked(false);
    QTest::mouseClick(form->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    Operation *made = runShown(m_window.get());
    QVERIFY(made);
    QCOMPARE(made->count(StepOutcome::Result::Done), 2);
    const QString key = QStringLiteral("user-alice/nopull");
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->why(key).contains(QLatin1String("no such host")),
                             60000);
    QVERIFY2(m_page->model()->why(key).contains(QLatin1String("Failed to pull image")),
             qPrintable(m_page->model()->why(key)));
    m_page->selectEnvironment(key);
    save(*m_window, QStringLiteral("page-devenvs-pull-error"));

    // The image serves no Jupyter: the button is off and the service says so.
    QVERIFY(!m_page->findChild<QPushButton *>(QStringLiteral("openJupyter"))->isEnabled());
    QSignalSpy failed(m_services->devEnvs(), &DevEnvsService::failed);
    m_services->devEnvs()->openJupyter(key);
    QVERIFY(failed.count() > 0 || failed.wait(10000));
    QVERIFY2(failed.last().at(1).toString().contains(QLatin1String("no port named jupyter")),
             qPrintable(failed.last().at(1).toString()));

    // Over quota: the API server's refusal is in the plan, before anything is made.
    form = fill(m_page, QStringLiteral("greedy"),
                QStringLiteral("registry.lab.internal/devenv/pytorch-jupyter:2.1-cuda12.1"), 16);
    QVERIFY(form);
    QTest::mouseClick(form->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    OperationDialog *d = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (d = m_window->findChild<OperationDialog *>(QStringLiteral("operationDialog"))) &&
            d->operation() && d->operation()->state() == Operation::State::Ready,
        30000);
    const PlanStep &podStep = d->operation()->plan().steps.at(1);
    QCOMPARE(podStep.dryRun, PlanStep::DryRun::Refused);
    QVERIFY2(podStep.dryRunMessage.contains(QLatin1String("exceeded quota")),
             qPrintable(podStep.dryRunMessage));
    save(*d, QStringLiteral("devenv-over-quota"));
    d->close();
}

void TestDevEnvs::execShellWithoutSsh()
{
    // A shell over the API's exec (for images without sshd): the terminal runs
    // `gpudesk --exec`; here a script types `hostname` into it and keeps what comes back.
    const QString key = QStringLiteral("user-alice/dev-alice");
    const QString out = m_home.filePath(QStringLiteral("exec.out"));
    QFile term(m_home.filePath(QStringLiteral("exec-terminal")));
    QVERIFY(term.open(QIODevice::WriteOnly));
    term.write(QStringLiteral("#!/bin/sh\n[ \"$1\" = -e ] || exit 9\nshift\n"
                              "printf 'hostname\\n' | \"$@\" >'%1.part' 2>&1\n"
                              "echo \"exit $?\" >>'%1.part'\nmv '%1.part' '%1'\n")
                   .arg(out)
                   .toUtf8());
    term.close();
    term.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    qputenv("TERMINAL", term.fileName().toUtf8());
    QSignalSpy launched(m_services->devEnvs(), &DevEnvsService::launched);
    m_services->devEnvs()->openExec(key);
    QVERIFY(launched.count() > 0 || launched.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(out), 30000);
    QFile result(out);
    QVERIFY(result.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(result.readAll());
    const PodInfo *pod = m_page->model()->currentPod(key);
    QVERIFY(pod);
    QVERIFY2(text.contains(QStringLiteral("a shell in %1").arg(pod->name)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("\n%1\n").arg(pod->name)), qPrintable(text));
    QVERIFY2(text.endsWith(QLatin1String("exit 0\n")), qPrintable(text));
}

void TestDevEnvs::terminalOfTheDesktop()
{
    // No $TERMINAL and nothing on PATH: the message is the command to run in a terminal, never a
    // missing terminal's line around it (issue 35: it began with x-terminal-emulator).
    const QString key = QStringLiteral("user-alice/dev-alice");
    const QByteArray path = qgetenv("PATH");
    const QByteArray terminal = qgetenv("TERMINAL");
    QTemporaryDir bin;
    qunsetenv("TERMINAL");
    qputenv("PATH", bin.path().toUtf8());
    QSignalSpy failed(m_services->devEnvs(), &DevEnvsService::failed);
    m_services->devEnvs()->openExec(key);
    qputenv("PATH", path);
    QCOMPARE(failed.count(), 1);
    const QString why = failed.first().at(1).toString();
    QVERIFY2(why.startsWith(QLatin1String("No terminal program was found ($TERMINAL, "
                                          "x-terminal-emulator, gnome-terminal, konsole")),
             qPrintable(why));
    const QString run = why.section(QStringLiteral("Run this in a terminal: "), 1);
    QVERIFY2(run.startsWith(TestPaths::gpudeskBin()) && run.contains(QLatin1String(" --exec ")) &&
                 run.endsWith(QLatin1String("/user-alice/dev-alice")),
             qPrintable(why));

    // Only gnome-terminal is there: it gets the command after `--` (its -e takes one string).
    // (PATH holds only it: the script names its tools by their paths.)
    const QString out = bin.filePath(QStringLiteral("argv"));
    QFile gnome(bin.filePath(QStringLiteral("gnome-terminal")));
    QVERIFY(gnome.open(QIODevice::WriteOnly));
    gnome.write(
        QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$@\" >'%1.part'\n/bin/mv '%1.part' '%1'\n")
            .arg(out)
            .toUtf8());
    gnome.close();
    gnome.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    qputenv("PATH", bin.path().toUtf8());
    QSignalSpy launched(m_services->devEnvs(), &DevEnvsService::launched);
    m_services->devEnvs()->openExec(key);
    qputenv("PATH", path);
    if (!terminal.isEmpty())
        qputenv("TERMINAL", terminal);
    QCOMPARE(launched.count(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(out), 10000);
    QFile argv(out);
    QVERIFY(argv.open(QIODevice::ReadOnly));
    const QStringList words = QString::fromUtf8(argv.readAll()).split(u'\n', Qt::SkipEmptyParts);
    QVERIFY2(words.size() > 3 && words[0] == QLatin1String("--") &&
                 words[1] == TestPaths::gpudeskBin() && words.contains(QLatin1String("--exec")),
             qPrintable(words.join(u' ')));
}

void TestDevEnvs::startsJupyterWhenNoneRuns()
{
    // dev-alice's Jupyter ended: a click starts one with a fresh token (sent on stdin, not in
    // the exec's URL), waits for it, and hands the browser its URL.
    const QString key = QStringLiteral("user-alice/dev-alice");
    const PodInfo *pod = m_page->model()->currentPod(key);
    QVERIFY(pod);
    QCOMPARE(m_sim
                 .request("POST", QStringLiteral("/sim/jupyter/stop?namespace=user-alice&name=") +
                                      pod->name)
                 .status,
             200);
    const qsizetype before = m_browser.urls.size();
    m_page->selectEnvironment(key);
    m_page->openJupyter();
    QTRY_VERIFY_WITH_TIMEOUT(m_page->message()->text().contains(QLatin1String("starting")), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(m_browser.urls.size(), before + 1, 60000);
    const QUrl url = m_browser.urls.last();
    const QString token = QUrlQuery(url).queryItemValue(QStringLiteral("token"));
    QCOMPARE(token.size(), 48);
    QVERIFY(token.toUtf8() != peerFile(QStringLiteral("jupyter/token")).toUtf8());
    QUrl status = url;
    status.setPath(url.path() + QStringLiteral("api/status"));
    QCOMPARE(httpGet(status), 200);
    // The server that answers is the new one: the old token no longer opens it.
    QUrl oldToken = status;
    oldToken.setQuery(
        QUrlQuery{{QStringLiteral("token"), peerFile(QStringLiteral("jupyter/token"))}});
    QCOMPARE(httpGet(oldToken), 403);
    // Asked again, the running one is found and reused: no second server.
    m_page->openJupyter();
    QTRY_COMPARE_WITH_TIMEOUT(m_browser.urls.size(), before + 2, 30000);
    QCOMPARE(m_browser.urls.last(), url);

    // TensorBoard on a folder, in an image without it: said in words, no tunnel left open.
    const int tunnels = m_page->sessions()->table()->rowCount();
    QSignalSpy failed(m_services->devEnvs(), &DevEnvsService::failed);
    m_services->devEnvs()->openTensorBoard(key, QStringLiteral("runs/exp 1"));
    QVERIFY(failed.count() > 0 || failed.wait(20000));
    QVERIFY2(failed.last().at(1).toString().contains(
                 QLatin1String("TensorBoard is not installed in the image of")),
             qPrintable(failed.last().at(1).toString()));
    QCOMPARE(m_page->sessions()->table()->rowCount(), tunnels);
}

QTEST_MAIN(TestDevEnvs)
#include "tst_devenvs.moc"
