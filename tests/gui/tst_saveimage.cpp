// SPDX-License-Identifier: GPL-3.0-or-later
// A dev environment saved as an image, end to end: the page's form, the plan (its commands in
// full, no password among them), the check, then on the simulated node nerdctl finds the
// container by pod uid, commits it and pushes it — a real push into the test peers' registry —
// and the tag's digest is checked in the registry. Independently of gpudesk's client, curl finds
// the tag, the image's configuration names the pod, and the audit log holds the run without
// the password. A new dev environment starts from the image. A wrong password is one clear
// error; a tag moved since the plan is not overwritten.
#include "clusterstore.h"
#include "devenvdialog.h"
#include "devenvsmodel.h"
#include "devenvspage.h"
#include "devenvsservice.h"
#include "imagesservice.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationsservice.h"
#include "registrypeer.h"
#include "saveimagedialog.h"
#include "services.h"
#include "simprocess.h"
#include "testpaths.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestSaveImage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void savedImageIsInTheRegistry();
    void newEnvironmentStartsFromIt();
    void reportSaysItsSize();
    void missingTagFailsThePull();
    void wrongPasswordIsOneClearError();
    void movedTagIsNotOverwritten();

private:
    // The form filled for dev-alice and accepted: the operation the page prepared (null when
    // the page said an error instead).
    Operation *prepare(const QString &tag, const QString &user = {}, const QString &password = {});
    Operation *run(Operation *op, int timeoutMs = 120000);
    // curl, not gpudesk's client: the digest a tag names ("" on 404), and a GET's body.
    static QString head(const QString &repository, const QString &reference)
    {
        return registrypeer::curlDigest(registrypeer::file(QStringLiteral("main/url")), repository,
                                        reference);
    }
    QByteArray get(const QString &path, const QString &accept = {});
    static QStringList curlArgs()
    {
        return registrypeer::curlArgs(registrypeer::file(QStringLiteral("main/url")));
    }

    QTemporaryDir m_home;
    SimProcess m_sim;
    std::unique_ptr<Services> m_services;
    DevEnvsPage *m_page = nullptr;
    QString m_host;
    QString m_tag; // this run's, so that runs against the same registry do not meet
    QString m_digest;
};

void TestSaveImage::initTestCase()
{
    QVERIFY(!qEnvironmentVariable("GPUDESK_PEERS").isEmpty());
    qRegisterMetaType<gpudesk::Operation *>();
    m_host = registrypeer::mainHost();
    m_tag = QStringLiteral("day1-") + QString::number(QCoreApplication::applicationPid());
    // The user's machine: docker's config with the registry's password, its CA in certs.d.
    QString error;
    QVERIFY2(registrypeer::setUpUser(m_home.path(), &error), qPrintable(error));
    qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8());
    QCoreApplication::setOrganizationName(QStringLiteral("gpudesk-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_saveimage"));
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();

    // A simulator of this test's own (a dev environment is made), whose nodes trust and push
    // to the peers' registry as the lab's nodes would, through their certs.d.
    QVERIFY2(
        m_sim.start({QStringLiteral("--node-certs-dir"),
                     qEnvironmentVariable("GPUDESK_PEERS") + QStringLiteral("/registry/certs.d")},
                    &error),
        qPrintable(error));
    m_services = m_sim.connect(QStringLiteral("sim-admin"), true);
    QVERIFY(m_services);
    m_services->operations()->setAuditPath(m_home.filePath(QStringLiteral("audit.jsonl")));
    m_page = new DevEnvsPage(m_services->devEnvs(), m_services->store());
    m_page->setImages(m_services->images());
    m_page->resize(1200, 700);
    m_page->show();
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->currentPod(QStringLiteral("user-alice/dev-alice")),
                             30000);
}

QByteArray TestSaveImage::get(const QString &path, const QString &accept)
{
    QProcess curl;
    QStringList args = curlArgs() << QStringLiteral("-f");
    if (!accept.isEmpty())
        args << QStringLiteral("-H") << QStringLiteral("Accept: ") + accept;
    curl.start(QStringLiteral("curl"),
               args << registrypeer::file(QStringLiteral("main/url")) + path);
    return curl.waitForFinished(30000) ? curl.readAllStandardOutput() : QByteArray();
}

Operation *TestSaveImage::prepare(const QString &tag, const QString &user, const QString &password)
{
    m_page->selectEnvironment(QStringLiteral("user-alice/dev-alice"));
    SaveImageDialog *d = m_page->saveAsImage();
    if (!d)
        return nullptr;
    d->registryBox()->setCurrentText(m_host);
    d->repositoryEdit()->setText(QStringLiteral("alice/dev"));
    d->tagEdit()->setText(tag);
    d->userEdit()->setText(user);
    d->passwordEdit()->setText(password);
    if (!d->problem()->text().isEmpty()) {
        qWarning("form: %s", qPrintable(d->problem()->text()));
        return nullptr;
    }
    QDir().mkpath(QStringLiteral("screenshots"));
    d->grab().save(QStringLiteral("screenshots/save-image-form.png"));
    QSignalSpy prepared(m_page, &DevEnvsPage::operationPrepared);
    d->accept();
    // Either an operation, or the page says why not.
    if (!QTest::qWaitFor(
            [&] {
                return prepared.count() > 0 ||
                       m_page->message()->styleSheet().contains(QLatin1String("#b3261e"));
            },
            30000))
        return nullptr;
    return prepared.isEmpty() ? nullptr : prepared.first().first().value<Operation *>();
}

Operation *TestSaveImage::run(Operation *op, int timeoutMs)
{
    if (!op)
        return nullptr;
    if (op->state() != Operation::State::Ready) {
        QSignalSpy checked(op, &Operation::checked);
        op->check();
        if (op->state() != Operation::State::Ready && !checked.wait(60000))
            return nullptr;
    }
    QSignalSpy finished(op, &Operation::finished);
    QString error;
    if (!op->start(&error)) {
        qWarning("not started: %s", qPrintable(error));
        return nullptr;
    }
    if (op->state() != Operation::State::Finished && !finished.wait(timeoutMs))
        return nullptr;
    return op;
}

void TestSaveImage::savedImageIsInTheRegistry()
{
    // With SSH to the nodes, the page offers it for a running environment.
    m_page->selectEnvironment(QStringLiteral("user-alice/dev-alice"));
    QTRY_VERIFY(m_page->findChild<QPushButton *>(QStringLiteral("saveDevEnvImage"))->isEnabled());
    Operation *op = prepare(m_tag);
    QVERIFY2(op, qPrintable(m_page->message()->text()));
    const OperationPlan &plan = op->plan();
    QCOMPARE(plan.action, QStringLiteral("devenv.save-image"));
    QVERIFY2(plan.refusals.isEmpty(), qPrintable(plan.refusals.join(u'\n')));
    QCOMPARE(plan.steps.size(), 1);
    const PlanStep &step = plan.steps.first();
    QCOMPARE(step.kind, PlanStep::Kind::SaveImage);
    QCOMPARE(step.target.name, QStringLiteral("dev-alice"));
    QVERIFY(!step.target.uid.isEmpty());
    QCOMPARE(step.image.toReference(), m_host + QStringLiteral("/alice/dev:") + m_tag);
    QVERIFY(step.image.toDigest.isEmpty()); // the tag is new
    // The commands as they will run; the password appears nowhere in the plan.
    QVERIFY2(step.detail.contains(QStringLiteral("nerdctl -n k8s.io ps -q --filter "
                                                 "'label=io.kubernetes.pod.uid=") +
                                  step.target.uid + u'\''),
             qPrintable(step.detail));
    QVERIFY(step.detail.contains(QStringLiteral("--password-stdin")));
    QVERIFY(step.detail.contains(QStringLiteral("push '") + step.image.toReference() + u'\''));
    const QString password = registrypeer::file(QStringLiteral("password"));
    QVERIFY(!step.detail.contains(password));
    QVERIFY(plan.warnings.join(u' ').contains(QStringLiteral("paused")));

    QSignalSpy lines(op, &Operation::stepProgress);
    QSignalSpy checked(op, &Operation::checked);
    op->check();
    QVERIFY(op->state() == Operation::State::Ready || checked.wait(60000));
    QCOMPARE(op->plan().steps.first().dryRun, PlanStep::DryRun::Accepted);
    QVERIFY2(op->plan().steps.first().dryRunMessage.contains(QStringLiteral("found on g4090-01")),
             qPrintable(op->plan().steps.first().dryRunMessage));
    QVERIFY(head(QStringLiteral("alice/dev"), m_tag).isEmpty()); // a check pushes nothing

    QVERIFY(run(op));
    const StepOutcome o = op->outcomes().first();
    QVERIFY2(o.result == StepOutcome::Result::Done, qPrintable(o.message));
    {
        OperationDialog dialog(op);
        dialog.resize(1100, 640);
        dialog.show();
        QVERIFY(dialog.grab().save(QStringLiteral("screenshots/save-image-done.png")));
    }
    m_digest = head(QStringLiteral("alice/dev"), m_tag);
    QVERIFY2(m_digest.startsWith(QStringLiteral("sha256:")), qPrintable(m_digest));
    QVERIFY2(o.verification.contains(m_digest), qPrintable(o.verification));
    QVERIFY2(o.message.contains(m_host + QStringLiteral("/alice/dev@") + m_digest),
             qPrintable(o.message));
    // The node's words came as it went: the commit, the login, the layers and the manifest.
    QStringList said;
    for (const auto &l : lines)
        said << l.at(1).toString();
    QVERIFY2(said.join(u'\n').contains(QStringLiteral("Committing container")),
             qPrintable(said.join(u'\n')));
    QVERIFY(said.join(u'\n').contains(QStringLiteral("manifest-") + m_digest));
    QTRY_VERIFY(m_page->message()->text().contains(m_digest));
    QVERIFY(m_page->grab().save(QStringLiteral("screenshots/save-image-page.png")));

    // The image's configuration, read with curl, names the pod it came from.
    const QJsonObject manifest =
        QJsonDocument::fromJson(get(QStringLiteral("/v2/alice/dev/manifests/") + m_digest,
                                    QStringLiteral("application/vnd.oci.image.manifest.v1+json")))
            .object();
    const QString config = manifest.value(QStringLiteral("config"))
                               .toObject()
                               .value(QStringLiteral("digest"))
                               .toString();
    const QJsonObject image =
        QJsonDocument::fromJson(get(QStringLiteral("/v2/alice/dev/blobs/") + config)).object();
    QCOMPARE(image.value(QStringLiteral("config"))
                 .toObject()
                 .value(QStringLiteral("Labels"))
                 .toObject()
                 .value(QStringLiteral("io.gpudesk.committed-from"))
                 .toString(),
             QStringLiteral("user-alice/dev-alice"));

    // The audit: the run's start and end, the image named, no password anywhere.
    QFile audit(m_home.filePath(QStringLiteral("audit.jsonl")));
    QVERIFY(audit.open(QIODevice::ReadOnly));
    const QByteArray text = audit.readAll();
    QVERIFY(text.contains("devenv.save-image"));
    QVERIFY(text.contains(m_digest.toUtf8()));
    QVERIFY(!text.contains(password.toUtf8()));
}

void TestSaveImage::newEnvironmentStartsFromIt()
{
    QVERIFY(!m_digest.isEmpty());
    const QString reference = m_host + QStringLiteral("/alice/dev:") + m_tag;
    QSignalSpy requested(m_page, &DevEnvsPage::operationRequested);
    DevEnvDialog *d = m_page->newEnvironment();
    d->nameEdit()->setText(QStringLiteral("from-day1"));
    d->imageBox()->setCurrentText(reference);
    d->accept();
    QCOMPARE(requested.count(), 1);
    const OperationPlan plan = requested.first().first().value<OperationPlan>();
    QVERIFY2(plan.refusals.isEmpty(), qPrintable(plan.refusals.join(u'\n')));
    Operation *op = run(m_services->operations()->prepare(plan));
    QVERIFY(op);
    QCOMPARE(op->count(StepOutcome::Result::Done), int(plan.steps.size()));
    // The node pulled it from the registry it trusts: the pod runs, not ImagePullBackOff.
    ClusterStore *store = m_services->store();
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const PodInfo &p : store->pods())
                if (p.devEnv == QLatin1String("from-day1") && p.image == reference &&
                    p.phase == QLatin1String("Running") &&
                    // the node resolved the tag in the registry, as containerd's pull does
                    p.imageId == m_host + QStringLiteral("/alice/dev@") + m_digest)
                    return true;
            return false;
        }(),
        60000);
}

void TestSaveImage::reportSaysItsSize()
{
    // `gpudesk --report` lists the image the new environment runs, with its pod and the bytes
    // a node pulls — equal to the manifest's config and layers, read here with curl.
    const QString reference = m_host + QStringLiteral("/alice/dev:") + m_tag;
    const QJsonObject manifest =
        QJsonDocument::fromJson(get(QStringLiteral("/v2/alice/dev/manifests/") + m_digest,
                                    QStringLiteral("application/vnd.oci.image.manifest.v1+json")))
            .object();
    qint64 bytes = manifest.value(QStringLiteral("config"))
                       .toObject()
                       .value(QStringLiteral("size"))
                       .toInteger();
    for (const QJsonValue &l : manifest.value(QStringLiteral("layers")).toArray())
        bytes += l.toObject().value(QStringLiteral("size")).toInteger();
    QVERIFY(bytes > 0);
    const QString out = m_home.filePath(QStringLiteral("report.json"));
    QProcess report;
    report.start(TestPaths::gpudeskBin(),
                 {QStringLiteral("--kubeconfig"), m_sim.kubeconfig(), QStringLiteral("--context"),
                  QStringLiteral("sim-admin"), QStringLiteral("--no-ssh"),
                  QStringLiteral("--report"), out});
    QVERIFY(report.waitForFinished(120000));
    QVERIFY2(report.exitCode() == 0, report.readAllStandardError().constData());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonArray images =
        QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("images")).toArray();
    QJsonObject mine;
    for (const QJsonValue &i : images)
        if (i.toObject().value(QStringLiteral("reference")).toString() == reference)
            mine = i.toObject();
    QVERIFY2(!mine.isEmpty(), qPrintable(QString::number(images.size())));
    QCOMPARE(mine.value(QStringLiteral("bytes")).toInteger(), bytes);
    QCOMPARE(mine.value(QStringLiteral("digest")).toString(), m_digest);
    QCOMPARE(mine.value(QStringLiteral("registry")).toString(), m_host);
    QCOMPARE(mine.value(QStringLiteral("pods")).toArray().size(), 1);
    QVERIFY(mine.value(QStringLiteral("pods"))
                .toArray()
                .first()
                .toString()
                .startsWith(QStringLiteral("user-alice/")));
    // The lab's own registry does not resolve here: its images say why they have no size.
    for (const QJsonValue &i : images) {
        const QJsonObject o = i.toObject();
        if (o.value(QStringLiteral("registry")).toString() ==
            QLatin1String("registry.lab.internal"))
            QVERIFY2(o.value(QStringLiteral("bytes")).isNull() &&
                         !o.value(QStringLiteral("bytesError")).toString().isEmpty(),
                     qPrintable(o.value(QStringLiteral("reference")).toString()));
    }
}

void TestSaveImage::missingTagFailsThePull()
{
    // The node asks the registry before it starts the container: a tag it does not have is
    // ErrImagePull in containerd's words, not a pod that runs.
    const QString reference = m_host + QStringLiteral("/alice/dev:no-such-tag");
    QSignalSpy requested(m_page, &DevEnvsPage::operationRequested);
    DevEnvDialog *d = m_page->newEnvironment();
    d->nameEdit()->setText(QStringLiteral("from-nothing"));
    d->imageBox()->setCurrentText(reference);
    d->accept();
    QCOMPARE(requested.count(), 1);
    QVERIFY(
        run(m_services->operations()->prepare(requested.first().first().value<OperationPlan>())));
    ClusterStore *store = m_services->store();
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const PodInfo &p : store->pods())
                if (p.devEnv == QLatin1String("from-nothing") &&
                    (p.status == QLatin1String("ErrImagePull") ||
                     p.status == QLatin1String("ImagePullBackOff")))
                    return true;
            return false;
        }(),
        60000);
}

void TestSaveImage::wrongPasswordIsOneClearError()
{
    QVERIFY(!prepare(QStringLiteral("wrong"), registrypeer::file(QStringLiteral("user")),
                     QStringLiteral("not-the-password")));
    const QString said = m_page->message()->text();
    QVERIFY2(said.contains(m_host) &&
                 said.contains(QStringLiteral("refused the user name and password")),
             qPrintable(said));
    QVERIFY(head(QStringLiteral("alice/dev"), QStringLiteral("wrong")).isEmpty());
}

void TestSaveImage::movedTagIsNotOverwritten()
{
    QVERIFY(!m_digest.isEmpty());
    Operation *op = prepare(m_tag);
    QVERIFY(op);
    QCOMPARE(op->plan().steps.first().image.toDigest, m_digest);
    QVERIFY(op->plan().warnings.join(u' ').contains(m_digest)); // overwriting is said
    QSignalSpy checked(op, &Operation::checked);
    op->check();
    QVERIFY(op->state() == Operation::State::Ready || checked.wait(60000));
    // Behind gpudesk's back, the tag goes (deleted by digest, with curl).
    QProcess curl;
    curl.start(QStringLiteral("curl"),
               curlArgs() << QStringLiteral("-f") << QStringLiteral("-X")
                          << QStringLiteral("DELETE")
                          << registrypeer::file(QStringLiteral("main/url")) +
                                 QStringLiteral("/v2/alice/dev/manifests/") + m_digest);
    QVERIFY(curl.waitForFinished(30000) && curl.exitCode() == 0);
    QVERIFY(run(op));
    const StepOutcome o = op->outcomes().first();
    QCOMPARE(o.result, StepOutcome::Result::Skipped);
    QVERIFY2(o.message.contains(QStringLiteral("deleted since the plan")), qPrintable(o.message));
    QVERIFY(head(QStringLiteral("alice/dev"), m_tag).isEmpty()); // nothing was pushed
}

QTEST_MAIN(TestSaveImage)
#include "tst_saveimage.moc"
