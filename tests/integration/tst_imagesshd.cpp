// SPDX-License-Identifier: GPL-3.0-or-later
// The submit check's look for an SSH server in the image of an MPI job's workers (issue 36),
// against the test peers' real registry as a user's machine reaches it (registry-seed pushes
// alice/mpi:4.1 with OpenSSH's server in its top layer, :4.1-slim removing it, :4.1-nodropbear
// removing Dropbear only, :4.1-opt with OpenSSH in /opt only): an MPI operator's MPIJob and a
// Volcano job whose mpi or ssh plugin has mpirun reach its workers; the training operator's v1
// MPIJob is not asked.
#include "clusterstore.h"
#include "imagesservice.h"
#include "jobchecker.h"
#include "registrypeer.h"
#include "services.h"

#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

class TestImageSshd : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void mpiWorkersNeedAnSshServer();

private:
    QTemporaryDir m_home;
    QString m_host;
    Services *m_services = nullptr;
    ClusterStore *m_store = nullptr;
    ImagesService *m_service = nullptr;
};

void TestImageSshd::initTestCase()
{
    QVERIFY(!qEnvironmentVariable("GPUDESK_PEERS").isEmpty());
    m_host = registrypeer::mainHost();
    // The user's machine: docker's config with the password, the CA where containers look.
    QString error;
    QVERIFY2(registrypeer::setUpUser(m_home.path(), &error), qPrintable(error));
    QCoreApplication::setOrganizationName(u"gpudesk-test"_qs);
    QCoreApplication::setApplicationName(u"tst_imagesshd"_qs);
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    m_services = new Services({m_home.filePath(u"no-kubeconfig"_qs)}, this);
    m_store = m_services->store();
    m_service = m_services->images();
}

void TestImageSshd::mpiWorkersNeedAnSshServer()
{
    JobChecker checker(m_store, nullptr);
    checker.setImages(m_service);
    // "code: message" of the SSH server's reasons for a job.
    const auto said = [&](const QString &json) {
        QSignalSpy ready(&checker, &JobChecker::ready);
        QString error;
        if (!checker.checkJson(json.toUtf8(), u"user-alice"_qs, &error) || !ready.wait(30000))
            return QStringList{u"not checked: "_qs + error};
        QStringList out;
        for (const StartReason &r : checker.verdict().reasons)
            if (r.code.startsWith(u"image-sshd"_qs) || r.code == u"image-no-sshd"_qs)
                out << r.code + u": "_qs + r.message;
        return out;
    };
    // An MPIJob; `command`: the workers' own (JSON), "" for the image's.
    const auto check = [&](const QString &apiVersion, const QString &image,
                           const QString &command = {}) {
        return said(uR"({"apiVersion":"%1","kind":"MPIJob","metadata":{"name":"hvd"},"spec":{
                 "mpiReplicaSpecs":{"Launcher":{"replicas":1,"template":{"spec":{"containers":[
                 {"name":"launcher","image":"%2"}]}}},"Worker":{"replicas":2,"template":{"spec":{
                 "containers":[{"name":"worker","image":"%2",%3"resources":{"limits":{
                 "nvidia.com/gpu":"1"}}}]}}}}}})"_qs.arg(apiVersion, m_host + u'/' + image,
                                                         command));
    };
    QStringList got = check(u"kubeflow.org/v2beta1"_qs, u"alice/pytorch:2.1"_qs);
    QVERIFY2(got.size() == 1 && got[0].startsWith(u"image-no-sshd: "_qs) &&
                 got[0].contains(u"no SSH server (/usr/sbin/sshd"_qs) &&
                 got[0].contains(u"in any of its 3 layer(s)"_qs),
             qPrintable(got.join(u'\n')));
    got = check(u"kubeflow.org/v2beta1"_qs, u"alice/mpi:4.1"_qs);
    QVERIFY2(got.size() == 1 && got[0].startsWith(u"image-sshd: "_qs) &&
                 got[0].contains(u"/usr/sbin/sshd in layer 3 of 3"_qs),
             qPrintable(got.join(u'\n')));
    got = check(u"kubeflow.org/v2beta1"_qs, u"alice/mpi:4.1-slim"_qs);
    QVERIFY2(got.size() == 1 && got[0].startsWith(u"image-no-sshd: "_qs) &&
                 got[0].contains(u"/usr/sbin/sshd is removed in layer 4 of 4 (a whiteout)"_qs),
             qPrintable(got.join(u'\n')));
    got = check(u"kubeflow.org/v2beta1"_qs, u"alice/mpi:4.1-nodropbear"_qs);
    QVERIFY2(got.size() == 1 && got[0].startsWith(u"image-sshd: "_qs) &&
                 got[0].contains(u"/usr/sbin/sshd in layer 3 of 4"_qs),
             qPrintable(got.join(u'\n')));
    // Asked again: the same answer (kept by the manifest's digest).
    got = check(u"kubeflow.org/v2beta1"_qs, u"alice/mpi:4.1-slim"_qs);
    QVERIFY2(got.size() == 1 && got[0].startsWith(u"image-no-sshd: "_qs),
             qPrintable(got.join(u'\n')));
    got = check(u"kubeflow.org/v1"_qs, u"alice/pytorch:2.1"_qs);
    QVERIFY2(got.isEmpty(), qPrintable(got.join(u'\n')));
    // OpenSSH built into /opt: none where distributions put it — unless the workers' command
    // starts it from there, which is then looked for too.
    got = check(u"kubeflow.org/v2beta1"_qs, u"alice/mpi:4.1-opt"_qs);
    QVERIFY2(got.size() == 1 && got[0].startsWith(u"image-no-sshd: "_qs),
             qPrintable(got.join(u'\n')));
    got = check(u"kubeflow.org/v2beta1"_qs, u"alice/mpi:4.1-opt"_qs,
                uR"("command":["/bin/sh","-c","/opt/openssh/sbin/sshd -De"],)"_qs);
    QVERIFY2(got.size() == 1 && got[0].startsWith(u"image-sshd: "_qs) &&
                 got[0].contains(u"/opt/openssh/sbin/sshd in layer 3 of 3"_qs),
             qPrintable(got.join(u'\n')));

    // A Volcano job whose mpi plugin names its tasks: the workers' image is asked (the
    // master's, running mpirun, is not); with the ssh plugin alone, every task but the master.
    const auto volcano = [&](const QString &plugins, const QString &workers) {
        return said(
            uR"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"lm"},
                 "spec":{"queue":"nlp","minAvailable":3,"plugins":{%1},"tasks":[
                 {"name":"mpimaster","replicas":1,"template":{"spec":{"containers":[
                 {"name":"m","image":"%2"}]}}},
                 {"name":"mpiworker","replicas":2,"template":{"spec":{"containers":[
                 {"name":"w","image":"%3","resources":{"limits":{"nvidia.com/gpu":"1"}}}]}}}]}})"_qs
                .arg(plugins, m_host + u"/alice/pytorch:2.1"_qs, m_host + u'/' + workers));
    };
    got = volcano(u"\"mpi\":[\"--master=mpimaster\",\"--worker=mpiworker\"]"_qs,
                  u"alice/mpi:4.1-slim"_qs);
    QVERIFY2(got.size() == 1 && got[0].startsWith(u"image-no-sshd: "_qs) &&
                 got[0].contains(u"alice/mpi:4.1-slim"_qs),
             qPrintable(got.join(u'\n')));
    QCOMPARE(checker.verdict().kind, StartVerdict::Never);
    got = volcano(u"\"ssh\":[],\"svc\":[]"_qs, u"alice/mpi:4.1"_qs);
    QVERIFY2(got.size() == 1 && got[0].startsWith(u"image-sshd: "_qs) &&
                 got[0].contains(u"alice/mpi:4.1 "_qs),
             qPrintable(got.join(u'\n')));
    // The default worker task of the mpi plugin is "worker": none here, nothing asked.
    got = volcano(u"\"mpi\":[]"_qs, u"alice/pytorch:2.1"_qs);
    QVERIFY2(got.isEmpty(), qPrintable(got.join(u'\n')));
}

QTEST_MAIN(TestImageSshd)
#include "tst_imagesshd.moc"
