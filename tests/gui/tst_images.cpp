// SPDX-License-Identifier: GPL-3.0-or-later
// The Images page on the test peers' real registries, set up as a user's machine would be: the
// registry's CA in ~/.config/containers/certs.d, the password in docker's config.json. Added by
// its address, read whole (1,000 and more repositories) with progress; a tag's details give its
// reference, the other tags of its digest and the pods that run it (by digest, and by tag where
// the node said no digest); the filter; a cancelled read is marked incomplete; a plain-HTTP
// registry carries its warning. Acting: a share copies by mount (nothing uploaded) and the new
// tag names the same digest; a delete takes every tag of the digest, says what garbage
// collection frees and is audited; an image in use is left out without the override; a target
// changed since the plan (tagged again, a destination moved) is skipped; the registry with
// deletion off refuses in words. Each effect is checked with curl, not with gpudesk's client.
// Screenshots are saved for a look.
#include "auditlog.h"
#include "clusterstore.h"
#include "devenvdialog.h"
#include "format.h"
#include "imagesmodel.h"
#include "imagespage.h"
#include "imagesservice.h"
#include "jobchecker.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationsservice.h"
#include "registrypeer.h"
#include "roles.h"
#include "services.h"

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace gpudesk;

class TestImages : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void readWholeRegistry();
    void detailsAndUse();
    void hugeImageWarnedInTheDevEnvForm();
    void cleanupCandidates();
    void shareCopiesByMount();
    void deleteTakesEveryTagOfTheDigest();
    void inUseNeedsTheOverride();
    void changedSincePlanIsSkipped();
    void platformOfAnIndexIsNotDeleted();
    void cancelledReadIsIncomplete();
    void plainHttpWarned();
    void deletionDisabledSaidInWords();

private:
    void save(const QString &name);
    // curl, as an independent check of what the registry holds: the digest a reference names
    // ("" when the registry answers 404).
    static QString head(const QString &base, const QString &repository, const QString &reference)
    {
        return registrypeer::curlDigest(base, repository, reference);
    }
    // Behind gpudesk's back: `repository:tag` made to name `from` again, or (annotated) a new
    // digest of the same blobs.
    QString curlTag(const QString &repository, const QString &tag, const QString &from,
                    bool annotate);
    static QStringList curlArgs(const QString &base) { return registrypeer::curlArgs(base); }
    // An operation from the page: checked, run, ended.
    Operation *runOperation(Operation *op);
    int row(const QString &repository, const QString &tag) const;
    void select(const QList<std::pair<QString, QString>> &tags);
    QString m_scratch;
    Services *m_services = nullptr;
    QTemporaryDir m_home;
    QString m_host, m_digest;
    ClusterStore *m_store = nullptr;
    ImagesService *m_service = nullptr;
    ImagesPage *m_page = nullptr;
};

void TestImages::initTestCase()
{
    QVERIFY(!qEnvironmentVariable("GPUDESK_PEERS").isEmpty());
    qRegisterMetaType<gpudesk::Operation *>();
    m_host = registrypeer::mainHost();
    // The user's machine: docker's config with the password, the CA where containers look.
    QString error;
    QVERIFY2(registrypeer::setUpUser(m_home.path(), &error), qPrintable(error));
    const QString certs = m_home.filePath(u"config/containers/certs.d/"_qs + m_host);
    QCoreApplication::setOrganizationName(u"gpudesk-test"_qs);
    QCoreApplication::setApplicationName(u"tst_images"_qs);
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear(); // each run from a fresh user's settings (test mode keeps them)

    // The digest alice's 2.1 points at, asked of the registry with curl (not gpudesk's client).
    QProcess curl;
    curl.start(u"curl"_qs,
               {u"-sfI"_qs, u"--cacert"_qs, certs + u"/ca.crt"_qs, u"-u"_qs,
                registrypeer::file(u"user"_qs) + u':' + registrypeer::file(u"password"_qs),
                u"-H"_qs, u"Accept: application/vnd.oci.image.manifest.v1+json"_qs,
                registrypeer::file(u"main/url"_qs) + u"/v2/alice/pytorch/manifests/2.1"_qs});
    QVERIFY(curl.waitForFinished(30000));
    for (const QByteArray &line : curl.readAllStandardOutput().split('\n'))
        if (line.toLower().startsWith("docker-content-digest:"))
            m_digest = QString::fromLatin1(line.mid(line.indexOf(':') + 1).trimmed());
    QVERIFY2(m_digest.startsWith(u"sha256:"_qs), qPrintable(m_digest));

    // Pods of the cluster: one runs alice's image and its node said the digest; one names
    // bob's by tag only (its runtime gave no digest); one runs an image of another registry.
    m_services = new Services({m_home.filePath(u"no-kubeconfig"_qs)}, this);
    m_services->operations()->setAuditPath(m_home.filePath(u"audit.jsonl"_qs));
    m_store = m_services->store();
    m_scratch = u"scratch/share-"_qs + QString::number(QCoreApplication::applicationPid());
    PodInfo a;
    a.uid = u"u1"_qs, a.ns = u"user-alice"_qs, a.name = u"train-1"_qs, a.phase = u"Running"_qs;
    a.containers = {u"main"_qs};
    a.image = m_host + u"/alice/pytorch:latest"_qs;
    a.imageId = m_host + u"/alice/pytorch@"_qs + m_digest;
    PodInfo b = a;
    b.uid = u"u2"_qs, b.ns = u"user-bob"_qs, b.name = u"tf-1"_qs;
    b.image = m_host + u"/bob/tensorflow:2.14"_qs;
    b.imageId.clear();
    PodInfo c = a;
    c.uid = u"u3"_qs, c.name = u"hub"_qs, c.image = u"nvcr.io/nvidia/pytorch:24.01-py3"_qs,
    c.imageId.clear();
    m_store->replacePods({a, b, c});
    m_service = m_services->images();
    m_page = new ImagesPage(m_service);
    m_page->resize(1280, 760);
    m_page->show();
    // The registries pods pull from appear by themselves.
    QTRY_VERIFY_WITH_TIMEOUT(m_service->registries().contains(u"nvcr.io"_qs), 10000);
    QVERIFY(m_service->registries().contains(m_host));
}

void TestImages::save(const QString &name)
{
    QDir().mkpath(u"screenshots"_qs);
    QVERIFY(m_page->grab().save(u"screenshots/"_qs + name + u".png"_qs));
}

void TestImages::readWholeRegistry()
{
    QVERIFY(m_page->addRegistry(u"https://"_qs + m_host + u"/"_qs));
    QCOMPARE(m_page->registries()->currentText(), m_host);
    QVERIFY(!m_page->plainHttpWarning()->isVisible());
    QVERIFY(!m_page->addRegistry(u"not a host/x"_qs));
    QVERIFY(m_page->status()->text().contains(u"is not a registry address"_qs));
    QSignalSpy progress(m_service, &ImagesService::progress);
    QSignalSpy finished(m_service, &ImagesService::finished);
    m_page->read();
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.first().at(0).toBool(),
             qPrintable(finished.first().at(1).toStringList().join(u'\n')));
    QVERIFY(progress.count() > 3); // it said how far it was, as it went
    QVERIFY2(m_page->status()->text().startsWith(u"Read whole:"_qs),
             qPrintable(m_page->status()->text()));
    QVERIFY(m_page->model()->rowCount() >= 1006);
    QVERIFY(m_page->model()->repositories() >= 1004);

    auto *filter = m_page->findChild<QLineEdit *>();
    filter->setText(u"bulk/r09"_qs);
    QTRY_COMPARE(m_page->view()->model()->rowCount(), 100);
    filter->clear();
}

void TestImages::detailsAndUse()
{
    m_page->selectTag(u"alice/pytorch"_qs, u"2.1"_qs);
    const QString details = m_page->details()->toPlainText();
    QVERIFY2(details.contains(m_host + u"/alice/pytorch:2.1"_qs) && details.contains(m_digest),
             qPrintable(details));
    QVERIFY2(details.contains(u"The same digest is tagged 2.1, latest"_qs), qPrintable(details));
    QVERIFY2(details.contains(u"user-alice/train-1"_qs) && !details.contains(u"(by tag)"_qs),
             qPrintable(details));
    // The row says it too; bob's pod is matched by tag and says so.
    const ImagesModel *m = m_page->model();
    int alice = -1, bob = -1, dev = -1;
    for (int r = 0; r < m->rowCount(); ++r) {
        const QString key = m->index(r, 0).data(KeyRole).toString();
        if (key == u"alice/pytorch:2.1"_qs)
            alice = r;
        if (key == u"bob/tensorflow:2.14"_qs)
            bob = r;
        if (key == u"alice/pytorch:2.1-dev"_qs)
            dev = r;
    }
    QVERIFY(alice >= 0 && bob >= 0 && dev >= 0);
    QVERIFY(m->index(alice, ImagesModel::InUse).data().toString().startsWith(u"1 pod"_qs));
    QCOMPARE(m->useOf(bob).size(), 1);
    QVERIFY(!m->useOf(bob).first().byDigest);
    QVERIFY(m->useOf(dev).isEmpty());
    // Sizes as read: the dev image's unique bytes are its own layer and more, 2.1's almost none.
    QVERIFY(m->sizeOf(dev).unique > 150000 && m->sizeOf(alice).unique < 2000);
    QVERIFY(!m->index(alice, ImagesModel::Unique).data().toString().startsWith(u"≤"_qs));
    // Copied from the table (Ctrl+C, or its context menu) by tag and digest.
    select({{u"alice/pytorch"_qs, u"2.1"_qs}, {u"bob/tensorflow"_qs, u"2.14"_qs}});
    auto *copy = m_page->view()->findChild<QAction *>(u"copyReference"_qs);
    QVERIFY(copy && m_page->view()->actions().contains(copy));
    QGuiApplication::clipboard()->clear();
    copy->trigger();
    const QStringList copied = QGuiApplication::clipboard()->text().split(u'\n');
    QCOMPARE(copied.size(), 2);
    QVERIFY(copied.contains(m_host + u"/alice/pytorch:2.1@"_qs + m_digest));
    QVERIFY2(copied.filter(m_host + u"/bob/tensorflow:2.14@sha256:"_qs).size() == 1,
             qPrintable(copied.join(u' ')));
    m_page->selectTag(u"devenv/pytorch-jupyter"_qs, u"2.1-cuda12.1"_qs);
    QVERIFY2(m_page->details()->toPlainText().contains(u"linux/arm64"_qs),
             qPrintable(m_page->details()->toPlainText()));
    save(u"images"_qs);
}

void TestImages::hugeImageWarnedInTheDevEnvForm()
{
    // Sizes as the read found them: the image of 60 layers is the largest, alice's smaller; the
    // index's linux/amd64 image is what a node pulls.
    const ImagesModel *m = m_page->model();
    // What a node pulls: config and layers (the model's sizes also count the manifests).
    auto pulled = [&](const QString &repository, const QString &tag) {
        const RegistryManifest *x = m->manifest(m->tagAt(row(repository, tag)).digest);
        return x ? x->imageBytes() : -1;
    };
    const qint64 big = pulled(u"big/many-layers"_qs, u"1"_qs);
    const qint64 alice = pulled(u"alice/pytorch"_qs, u"2.1"_qs);
    QVERIFY2(big > alice && alice > 0, qPrintable(u"%1 %2"_qs.arg(big).arg(alice)));
    const RegistryManifest *index =
        m->manifest(m->tagAt(row(u"devenv/pytorch-jupyter"_qs, u"2.1-cuda12.1"_qs)).digest);
    QVERIFY(index && index->isIndex);
    qint64 amd64 = -1;
    for (const RegistryDescriptor &e : index->entries)
        if (e.platform() == u"linux/amd64"_qs)
            amd64 = m->manifest(e.digest)->imageBytes();
    QVERIFY(amd64 > 0);
    // The admin's limit between the two (20 GiB by default: these test images are small).
    const qint64 before = m_service->hugeBytes();
    QCOMPARE(before, 20ll << 30);
    m_service->setHugeBytes((big + alice) / 2);

    DevEnvDialog form(m_store, u"user-alice"_qs);
    form.setImages(m_service);
    form.resize(640, 620);
    form.show();
    form.imageBox()->setEditText(m_host + u"/big/many-layers:1"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(form.imageSize()->text().contains(u"over the"_qs), 20000);
    QVERIFY2(form.imageSize()->text().contains(format::bytes(big)),
             qPrintable(form.imageSize()->text()));
    QVERIFY(form.grab().save(u"screenshots/devenv-huge-image.png"_qs));
    form.imageBox()->setEditText(m_host + u"/alice/pytorch:2.1"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(form.imageSize()->text().startsWith(u"Image size:"_qs), 20000);
    QVERIFY(form.imageSize()->text().contains(format::bytes(alice)));
    form.imageBox()->setEditText(m_host + u"/devenv/pytorch-jupyter:2.1-cuda12.1"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(form.imageSize()->text().contains(format::bytes(amd64)), 20000);
    form.imageBox()->setEditText(m_host + u"/nobody/nothing:1"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(form.imageSize()->text().startsWith(u"Size not known"_qs), 20000);
    QVERIFY2(form.imageSize()->text().contains(u"no repository"_qs) ||
                 form.imageSize()->text().contains(u"no such"_qs),
             qPrintable(form.imageSize()->text()));
    m_service->setHugeBytes(before);
}

// An MPI operator's MPIJob (kubeflow.org/v2beta1): mpirun on the launcher reaches its workers
// over SSH. The submit check reads the workers' image from the registry, its layers newest
// first: none in alice's framework image (never starts), OpenSSH's server in the MPI image's top
// layer, removed again by the slim tag's whiteout, kept under another server's whiteout. The
// training operator's MPIJob (v1) goes through kubectl exec: not asked.
void TestImages::cleanupCandidates()
{
    // The seeded images were all built on one day; how long ago depends on today.
    const ImagesModel *m = m_page->model();
    const int dev = row(u"alice/pytorch"_qs, u"2.1-dev"_qs);
    const QDateTime built = QDateTime::fromMSecsSinceEpoch(
        m->index(dev, ImagesModel::Created).data(SortRole).toLongLong());
    QVERIFY(built.isValid());
    const int age = int(built.daysTo(QDateTime::currentDateTimeUtc()));
    QVERIFY(age > 2);
    QAbstractItemModel *shown = m_page->view()->model();
    const int all = shown->rowCount();

    // Built before (age - 2) days ago: every image no pod runs — not alice's 2.1 and latest
    // (train-1 runs their digest), not bob's tensorflow (run by tag).
    m_page->showCandidates(age - 2);
    QTRY_VERIFY(shown->rowCount() < all);
    QSet<QString> keys;
    for (int r = 0; r < shown->rowCount(); ++r)
        keys.insert(shown->index(r, 0).data(KeyRole).toString());
    QVERIFY(keys.contains(u"alice/pytorch:2.1-dev"_qs));
    QVERIFY(keys.contains(u"bulk/r0042:v1"_qs));
    for (const QString &used :
         {u"alice/pytorch:2.1"_qs, u"alice/pytorch:latest"_qs, u"bob/tensorflow:2.14"_qs})
        QVERIFY2(!keys.contains(used), qPrintable(used));
    int unused = 0;
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->useOf(r).isEmpty() &&
            m->index(r, ImagesModel::Created).data(SortRole).toLongLong() > 0)
            ++unused;
    QCOMPARE(shown->rowCount(), unused);
    save(u"images-candidates"_qs);

    // Selected all (Ctrl+A) and planned: one step per digest, nothing anyone runs, the count
    // typed. Not run: these are the other tests' images.
    m_page->view()->selectAll();
    QCOMPARE(m_page->selectedRows().size(), shown->rowCount());
    const OperationPlan plan = m_service->planDelete(m_page->selectedRows(), false);
    QVERIFY(plan.refusals.isEmpty());
    QVERIFY(plan.steps.size() > 1000);
    const QString aliceDigest = m->tagAt(row(u"alice/pytorch"_qs, u"2.1"_qs)).digest;
    for (const PlanStep &s : plan.steps)
        QVERIFY(s.image.digest != aliceDigest || s.image.repository != u"alice/pytorch"_qs);
    QCOMPARE(plan.confirmationWord(), QString::number(plan.steps.size()));

    // Built before (age + 2) days ago: none of them yet.
    m_page->showCandidates(age + 2);
    QTRY_COMPARE(shown->rowCount(), 0);
    m_page->showCandidates(0);
    QTRY_COMPARE(shown->rowCount(), all);
}

void TestImages::cancelledReadIsIncomplete()
{
    QSignalSpy finished(m_service, &ImagesService::finished);
    QSignalSpy progress(m_service, &ImagesService::progress);
    m_page->read();
    QVERIFY(progress.wait(20000));
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->readTags() > 0, 30000);
    m_service->cancel();
    QVERIFY(finished.count() > 0 || finished.wait(20000));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY2(m_page->status()->text().contains(u"Incomplete"_qs) &&
                 m_page->status()->text().contains(u"Cancelled"_qs),
             qPrintable(m_page->status()->text()));
    // A tag read before the cancel (rows of images the pods run come first, unread until the
    // registry gives them) is an upper bound.
    int read = 0;
    while (read < m_page->model()->rowCount() && !m_page->model()->isRead(read))
        ++read;
    QVERIFY(read < m_page->model()->rowCount());
    QVERIFY(
        m_page->model()->index(read, ImagesModel::Unique).data().toString().startsWith(u"≤"_qs));
    save(u"images-incomplete"_qs);
}

void TestImages::plainHttpWarned()
{
    const QString plain = registrypeer::file(u"nodelete/url"_qs);
    QVERIFY(plain.startsWith(u"http://"_qs));
    QVERIFY(m_page->addRegistry(plain));
    QTRY_VERIFY(m_page->plainHttpWarning()->isVisible());
    QVERIFY(m_page->plainHttpWarning()->text().contains(u"plain HTTP"_qs));
    QSignalSpy finished(m_service, &ImagesService::finished);
    m_page->read();
    QVERIFY(finished.wait(60000));
    QVERIFY(finished.first().at(0).toBool());
    QCOMPARE(m_page->model()->rowCount(), 1);
    QCOMPARE(m_page->model()->tagAt(0).digest, m_digest);
}

QString TestImages::curlTag(const QString &repository, const QString &tag, const QString &from,
                            bool annotate)
{
    const QString base = registrypeer::file(u"main/url"_qs);
    QProcess get;
    get.start(u"curl"_qs, curlArgs(base)
                              << u"-f"_qs << u"-H"_qs
                              << u"Accept: application/vnd.oci.image.manifest.v1+json"_qs
                              << base + u"/v2/"_qs + repository + u"/manifests/"_qs + from);
    if (!get.waitForFinished(30000) || get.exitCode() != 0)
        return QString();
    QByteArray body = get.readAllStandardOutput();
    QJsonObject manifest = QJsonDocument::fromJson(body).object();
    if (annotate) {
        manifest.insert(u"annotations"_qs, QJsonObject{{u"org.gpudesk.test"_qs, tag}});
        body = QJsonDocument(manifest).toJson(QJsonDocument::Compact);
    }
    QFile file(m_home.filePath(u"manifest.json"_qs));
    if (!file.open(QIODevice::WriteOnly) || file.write(body) != body.size())
        return QString();
    file.close();
    QProcess put;
    put.start(u"curl"_qs, curlArgs(base)
                              << u"-f"_qs << u"-X"_qs << u"PUT"_qs << u"-H"_qs
                              << u"Content-Type: "_qs + manifest.value(u"mediaType"_qs).toString()
                              << u"--data-binary"_qs << u"@"_qs + file.fileName()
                              << base + u"/v2/"_qs + repository + u"/manifests/"_qs + tag);
    if (!put.waitForFinished(30000) || put.exitCode() != 0)
        return QString();
    return head(base, repository, tag);
}

Operation *TestImages::runOperation(Operation *op)
{
    if (!op)
        return nullptr;
    QSignalSpy checked(op, &Operation::checked);
    if (op->state() != Operation::State::Ready && !checked.wait(30000))
        return nullptr;
    QSignalSpy finished(op, &Operation::finished);
    QString error;
    if (!op->start(&error)) {
        qWarning("not started: %s", qPrintable(error));
        return op;
    }
    if (op->state() != Operation::State::Finished && !finished.wait(60000))
        return nullptr;
    return op;
}

int TestImages::row(const QString &repository, const QString &tag) const
{
    return m_page->model()->rowOf(repository, tag);
}

void TestImages::select(const QList<std::pair<QString, QString>> &tags)
{
    // Each found as the page finds it (selectTag makes it current, which selects it alone),
    // then all selected together, as a Ctrl+click would.
    QModelIndexList rows;
    for (const auto &[repository, tag] : tags) {
        m_page->selectTag(repository, tag);
        rows << m_page->view()->currentIndex();
    }
    m_page->view()->clearSelection();
    for (const QModelIndex &i : std::as_const(rows))
        m_page->view()->selectionModel()->select(i, QItemSelectionModel::Select |
                                                        QItemSelectionModel::Rows);
}

void TestImages::shareCopiesByMount()
{
    const QString base = registrypeer::file(u"main/url"_qs);
    const QString source = head(base, u"bulk/r0007"_qs, u"v1"_qs);
    QVERIFY(source.startsWith(u"sha256:"_qs));
    select({{u"bulk/r0007"_qs, u"v1"_qs}});
    QCOMPARE(m_page->selectedRows().size(), 1);
    QSignalSpy prepared(m_page, &ImagesPage::operationPrepared);
    Operation *op = m_page->share(m_host + u'/' + m_scratch + u":v1"_qs);
    QVERIFY(op);
    QCOMPARE(prepared.count(), 1);
    const OperationPlan &plan = op->plan();
    QCOMPARE(plan.action, u"image.copy"_qs);
    QCOMPARE(plan.steps.size(), 1);
    QCOMPARE(plan.steps.first().image.toRepository, m_scratch); // the host written is dropped
    QCOMPARE(plan.steps.first().image.toTag, u"v1"_qs);
    QVERIFY(plan.steps.first().image.toDigest.isEmpty());
    QVERIFY(!plan.needsTypedConfirmation()); // it only adds a name: one click
    // The plan as the window shows it.
    {
        OperationDialog dialog(op);
        dialog.resize(1000, 560);
        dialog.show();
        QTRY_COMPARE(op->state(), Operation::State::Ready);
        QVERIFY(dialog.grab().save(u"screenshots/images-share-plan.png"_qs));
    }
    QVERIFY(runOperation(op));
    const StepOutcome &o = op->outcomes().first();
    QVERIFY2(o.result == StepOutcome::Result::Done, qPrintable(o.message + u' ' + o.verification));
    QVERIFY2(o.verification.contains(m_host + u'/' + m_scratch + u":v1@"_qs + source),
             qPrintable(o.verification));
    // The registry says so (curl), and the page shows the new tag selected, same digest.
    QCOMPARE(head(base, m_scratch, u"v1"_qs), source);
    QTRY_VERIFY(row(m_scratch, u"v1"_qs) >= 0);
    QCOMPARE(m_page->model()->tagAt(row(m_scratch, u"v1"_qs)).digest, source);
    QVERIFY(m_page->details()->toPlainText().contains(m_scratch + u":v1"_qs));

    // A second name of the same digest, in the same repository: a retag, no mounts.
    select({{m_scratch, u"v1"_qs}});
    Operation *again = runOperation(m_page->share(m_scratch + u":v2"_qs));
    QVERIFY(again);
    QCOMPARE(again->outcomes().first().result, StepOutcome::Result::Done);
    QCOMPARE(head(base, m_scratch, u"v2"_qs), source);
    // Naming it what it is already named is refused before anything is sent.
    select({{m_scratch, u"v1"_qs}});
    Operation *same = m_page->share(m_scratch + u":v2"_qs);
    QVERIFY(same && !same->plan().refusals.isEmpty());
    QString error;
    QVERIFY(!same->start(&error));
    QVERIFY2(error.contains(u"already names this image"_qs), qPrintable(error));
    QVERIFY(!m_page->share(u"Not A Name:v1"_qs)->plan().refusals.isEmpty());
}

void TestImages::deleteTakesEveryTagOfTheDigest()
{
    const QString base = registrypeer::file(u"main/url"_qs);
    const QString digest = head(base, m_scratch, u"v1"_qs);
    QVERIFY(digest.startsWith(u"sha256:"_qs));
    QTRY_VERIFY(!m_page->model()->sizesPending()); // as the Delete button waits for
    select({{m_scratch, u"v1"_qs}});
    Operation *op = m_page->deleteSelected(false);
    QVERIFY(op);
    const OperationPlan &plan = op->plan();
    QCOMPARE(plan.action, u"image.delete"_qs);
    QCOMPARE(plan.steps.size(), 1);
    QCOMPARE(plan.steps.first().image.tags, (QStringList{u"v1"_qs, u"v2"_qs}));
    QVERIFY(plan.refusals.isEmpty());
    // v2 was not picked, and goes too: the plan says so; and when the space comes back.
    QVERIFY2(plan.warnings.join(u'\n').contains(u"also goes: v2"_qs),
             qPrintable(plan.warnings.join(u'\n')));
    const QString notes = plan.notes.join(u'\n');
    // A copy shares every blob with its source: deleting it frees nothing, and says so.
    QVERIFY2(notes.contains(u"Frees nothing"_qs) &&
                 notes.contains(u"registry garbage-collect /etc/docker/registry/config.yml"_qs) &&
                 !notes.contains(u"--delete-untagged"_qs),
             qPrintable(notes));
    // Irreversible: the image's name is typed.
    QVERIFY(plan.needsTypedConfirmation());
    QCOMPARE(plan.confirmationWord(), m_scratch + u":v1"_qs);
    {
        OperationDialog dialog(op);
        dialog.resize(1000, 600);
        dialog.show();
        QTRY_COMPARE(op->state(), Operation::State::Ready);
        QVERIFY(dialog.grab().save(u"screenshots/images-delete-plan.png"_qs));
    }
    QVERIFY(runOperation(op));
    const StepOutcome &o = op->outcomes().first();
    QVERIFY2(o.result == StepOutcome::Result::Done, qPrintable(o.message + u' ' + o.verification));
    QVERIFY2(o.verification.contains(u"tags v1, v2"_qs) &&
                 o.verification.contains(u"garbage collection"_qs),
             qPrintable(o.verification));
    QCOMPARE(head(base, m_scratch, u"v1"_qs), QString());
    QCOMPARE(head(base, m_scratch, u"v2"_qs), QString());
    QCOMPARE(head(base, m_scratch, digest), QString());
    QTRY_VERIFY(row(m_scratch, u"v1"_qs) < 0 && row(m_scratch, u"v2"_qs) < 0);
    // The source of the copy is untouched.
    QCOMPARE(head(base, u"bulk/r0007"_qs, u"v1"_qs), digest);

    // The audit log has both records, with the digest and the registry user.
    const QList<QJsonObject> records = m_services->operations()->audit().read();
    QJsonObject started, ended;
    for (const QJsonObject &r : records)
        if (r.value(u"operation"_qs).toString() == op->id())
            (r.value(u"event"_qs).toString() == u"started"_qs ? started : ended) = r;
    QCOMPARE(started.value(u"action"_qs).toString(), u"image.delete"_qs);
    QVERIFY(started.value(u"who"_qs).toString().startsWith(registrypeer::file(u"user"_qs) + u'@' +
                                                           m_host));
    const QJsonObject image =
        started.value(u"plan"_qs).toArray().first().toObject().value(u"image"_qs).toObject();
    QCOMPARE(image.value(u"digest"_qs).toString(), digest);
    QCOMPARE(image.value(u"repository"_qs).toString(), m_scratch);
    QCOMPARE(ended.value(u"results"_qs).toArray().first().toObject().value(u"result"_qs).toString(),
             u"done"_qs);
}

void TestImages::inUseNeedsTheOverride()
{
    const QString base = registrypeer::file(u"main/url"_qs);
    // alice's 2.1 is run by user-alice/train-1 (by digest, as latest); the dev tag by nobody.
    select({{u"alice/pytorch"_qs, u"2.1"_qs}, {u"alice/pytorch"_qs, u"2.1-dev"_qs}});
    QCOMPARE(m_page->selectedRows().size(), 2);
    QVERIFY(m_service->inUse(m_page->selectedRows()));
    const OperationPlan without = m_service->planDelete(m_page->selectedRows(), false);
    QCOMPARE(without.steps.size(), 1); // only the one nobody runs
    QCOMPARE(without.steps.first().image.tags, QStringList{u"2.1-dev"_qs});
    QVERIFY2(without.warnings.join(u'\n').contains(u"user-alice/train-1 (alice)"_qs) ||
                 without.warnings.join(u'\n').contains(u"user-alice/train-1"_qs),
             qPrintable(without.warnings.join(u'\n')));
    QCOMPARE(without.confirmationWord(), u"alice/pytorch:2.1-dev"_qs);
    // Its own layer is what it frees — once garbage collection runs.
    const QString frees =
        format::bytes(m_page->model()->sizeOf(row(u"alice/pytorch"_qs, u"2.1-dev"_qs)).unique);
    QVERIFY2(without.notes.join(u'\n').contains(u"Frees at least "_qs + frees + u" — not now"_qs),
             qPrintable(without.notes.join(u'\n')));
    // Alone, it is refused outright; with the override the plan says what it breaks.
    select({{u"alice/pytorch"_qs, u"2.1"_qs}});
    const OperationPlan refused = m_service->planDelete(m_page->selectedRows(), false);
    QVERIFY(refused.steps.isEmpty());
    QVERIFY2(refused.refusals.join(u'\n').contains(u"explicit override"_qs),
             qPrintable(refused.refusals.join(u'\n')));
    const OperationPlan allowed = m_service->planDelete(m_page->selectedRows(), true);
    QCOMPARE(allowed.steps.size(), 1);
    QVERIFY(allowed.refusals.isEmpty());
    QVERIFY2(allowed.warnings.join(u'\n').contains(u"cannot start again"_qs),
             qPrintable(allowed.warnings.join(u'\n')));
    QVERIFY(!head(base, u"alice/pytorch"_qs, u"2.1"_qs).isEmpty()); // nothing was run
}

void TestImages::changedSincePlanIsSkipped()
{
    const QString base = registrypeer::file(u"main/url"_qs);
    select({{u"bulk/r0008"_qs, u"v1"_qs}});
    Operation *copy = runOperation(m_page->share(m_scratch + u":v3"_qs));
    QVERIFY(copy);
    QCOMPARE(copy->outcomes().first().result, StepOutcome::Result::Done);
    const QString digest = head(base, m_scratch, u"v3"_qs);

    // Planned with v3 alone; then someone tags it v4 too. Deleting would take v4: skipped.
    QTRY_VERIFY(row(m_scratch, u"v3"_qs) >= 0);
    select({{m_scratch, u"v3"_qs}});
    Operation *del = m_page->deleteSelected(false);
    QVERIFY(del);
    QCOMPARE(del->plan().steps.first().image.tags, QStringList{u"v3"_qs});
    QCOMPARE(curlTag(m_scratch, u"v4"_qs, u"v3"_qs, false), digest);
    QVERIFY(runOperation(del));
    StepOutcome o = del->outcomes().first();
    QCOMPARE(o.result, StepOutcome::Result::Skipped);
    QVERIFY2(o.message.contains(u"tagged since the plan as v4"_qs), qPrintable(o.message));
    QCOMPARE(head(base, m_scratch, u"v3"_qs), digest);

    // A copy planned onto a new tag; the tag is made elsewhere first: not overwritten.
    select({{u"bulk/r0008"_qs, u"v1"_qs}});
    Operation *onto = m_page->share(m_scratch + u":v5"_qs);
    QVERIFY(onto);
    const QString other = curlTag(m_scratch, u"v5"_qs, u"v3"_qs, true);
    QVERIFY(other.startsWith(u"sha256:"_qs) && other != digest);
    QVERIFY(runOperation(onto));
    o = onto->outcomes().first();
    QCOMPARE(o.result, StepOutcome::Result::Skipped);
    QVERIFY2(o.message.contains(u"since the plan: not overwritten"_qs), qPrintable(o.message));
    QCOMPARE(head(base, m_scratch, u"v5"_qs), other);

    // What this test made goes again, read from the registry as it is now.
    QSignalSpy finished(m_service, &ImagesService::finished);
    m_service->setRepositories({m_scratch});
    m_service->scan(m_host);
    QVERIFY(finished.wait(60000));
    m_service->setRepositories({});
    QVERIFY(row(m_scratch, u"v4"_qs) >= 0 && row(m_scratch, u"v5"_qs) >= 0);
    select({{m_scratch, u"v3"_qs}, {m_scratch, u"v5"_qs}});
    Operation *clean = runOperation(m_page->deleteSelected(false));
    QVERIFY(clean);
    QCOMPARE(clean->plan().steps.size(), 2);
    QCOMPARE(clean->count(StepOutcome::Result::Done), 2);
    for (const QString &tag : {u"v3"_qs, u"v4"_qs, u"v5"_qs})
        QCOMPARE(head(base, m_scratch, tag), QString());
}

void TestImages::platformOfAnIndexIsNotDeleted()
{
    // A multi-platform image copied in (its platform manifests PUT by digest first), then one
    // platform tagged on its own behind gpudesk's back: deleting that tag's digest would break
    // the multi-platform image, so the step skips it.
    const QString base = registrypeer::file(u"main/url"_qs);
    const QString repo = m_scratch + u"-multi"_qs;
    QSignalSpy finished(m_service, &ImagesService::finished);
    m_service->setRepositories({u"devenv/pytorch-jupyter"_qs});
    m_service->scan(m_host);
    QVERIFY(finished.wait(60000));
    select({{u"devenv/pytorch-jupyter"_qs, u"2.1-cuda12.1"_qs}});
    Operation *copy = runOperation(m_page->share(repo + u":multi"_qs));
    QVERIFY(copy);
    QVERIFY2(copy->outcomes().first().result == StepOutcome::Result::Done,
             qPrintable(copy->outcomes().first().message));
    const QString index = head(base, repo, u"multi"_qs);
    const RegistryManifest *m = m_page->model()->manifest(index);
    QVERIFY(m && m->isIndex);
    QString amd64;
    for (const RegistryDescriptor &e : m->entries)
        if (e.platform() == u"linux/amd64"_qs)
            amd64 = e.digest;
    QCOMPARE(curlTag(repo, u"plat"_qs, amd64, false), amd64);

    finished.clear();
    m_service->setRepositories({repo});
    m_service->scan(m_host);
    QVERIFY(finished.wait(60000));
    QTRY_VERIFY(!m_page->model()->sizesPending());
    select({{repo, u"plat"_qs}});
    // The plan says so where it knows the index (the repository was read)…
    const OperationPlan refused = m_service->planDelete(m_page->selectedRows(), false);
    QVERIFY(refused.steps.isEmpty());
    QVERIFY2(refused.refusals.join(u'\n').contains(u"is a platform of "_qs + repo + u":multi"_qs),
             qPrintable(refused.refusals.join(u'\n')));
    // …and the step checks it again where the plan did not know (only the tag was read).
    m_service->setRepositories({repo});
    finished.clear();
    m_service->scan(m_host);
    QVERIFY(finished.wait(60000));
    m_page->model()->removeTags(repo, {u"multi"_qs});
    QTRY_VERIFY(!m_page->model()->sizesPending());
    select({{repo, u"plat"_qs}});
    Operation *del = runOperation(m_page->deleteSelected(false));
    QVERIFY(del);
    const StepOutcome o = del->outcomes().first();
    QCOMPARE(o.result, StepOutcome::Result::Skipped);
    QVERIFY2(o.message.contains(u"a platform of "_qs + repo + u":multi"_qs), qPrintable(o.message));
    QCOMPARE(head(base, repo, u"plat"_qs), amd64);

    // The index first, then its platform on its own: both may go now.
    finished.clear();
    m_service->scan(m_host);
    QVERIFY(finished.wait(60000));
    m_service->setRepositories({});
    QTRY_VERIFY(!m_page->model()->sizesPending());
    select({{repo, u"multi"_qs}});
    Operation *first = runOperation(m_page->deleteSelected(false));
    QVERIFY(first && first->outcomes().first().result == StepOutcome::Result::Done);
    select({{repo, u"plat"_qs}});
    Operation *then = runOperation(m_page->deleteSelected(false));
    QVERIFY2(then && then->outcomes().first().result == StepOutcome::Result::Done,
             qPrintable(then ? then->outcomes().first().message : QString()));
    QCOMPARE(head(base, repo, u"plat"_qs), QString());
}

void TestImages::deletionDisabledSaidInWords()
{
    // The plain-HTTP registry (read last) has deletion off: the registry's 405, in words.
    const QString base = registrypeer::file(u"nodelete/url"_qs);
    const QString digest = head(base, u"alice/pytorch"_qs, u"2.1"_qs);
    QVERIFY(digest.startsWith(u"sha256:"_qs));
    select({{u"alice/pytorch"_qs, u"2.1"_qs}});
    Operation *op = runOperation(m_page->deleteSelected(false));
    QVERIFY(op);
    const StepOutcome &o = op->outcomes().first();
    QCOMPARE(o.result, StepOutcome::Result::Refused);
    QVERIFY2(o.message.contains(u"does not allow deleting images"_qs) &&
                 o.message.contains(u"Nothing was deleted"_qs),
             qPrintable(o.message));
    QCOMPARE(head(base, u"alice/pytorch"_qs, u"2.1"_qs), digest);
    QTRY_VERIFY(row(u"alice/pytorch"_qs, u"2.1"_qs) >= 0); // still listed
}

QTEST_MAIN(TestImages)
#include "tst_images.moc"
