// SPDX-License-Identifier: GPL-3.0-or-later
// The Images page on a Harbor (the simulated Harbor's API and token service before a real
// docker-registry, from the test peers), set up as a user's machine would be: the registry's CA
// in certs.d, the admin's login in docker's config.json. This run pushes a repository of its own
// with skopeo (day1; old; scratch pushed twice, leaving an untagged artifact), ages Harbor's
// records by 40 days and pulls `old` with curl. Read: Harbor is found from the registry's
// challenge, its projects' quotas and the untagged artifacts are shown, Pushed and Last pulled
// are Harbor's, and reading again does not make gpudesk's own reads look like pulls. Cleanup
// candidates are those not pulled for N days (not `old`, not what a pod runs). An immutable tag
// is left out of a delete plan. Garbage collection is an operation: its check is Harbor's dry
// run, the run deletes the untagged artifact, frees its blobs (curl finds them gone) and is
// audited. Screenshots are saved for a look.
#include "auditlog.h"
#include "clusterstore.h"
#include "harborpanel.h"
#include "imagesmodel.h"
#include "imagespage.h"
#include "imagesservice.h"
#include "operation.h"
#include "operationsservice.h"
#include "registrypeer.h"
#include "roles.h"
#include "services.h"
#include "testpaths.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTranslator>

using namespace gpudesk;

class TestHarborImages : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void readShowsHarborsRecords();
    void ownReadsAreNotPulls();
    void candidatesNotPulledForDays();
    void imagesOfUsersWhoLeft();
    void immutableLeftOutOfDelete();
    void shareThroughTheTokenService();
    void garbageCollectionAsAnOperation();
    void chinese();

private:
    bool read();
    QSet<QString> candidates(int days);
    int row(const QString &tag) const { return m_page->model()->rowOf(m_repo, tag); }
    void save(const QString &name)
    {
        QDir().mkpath(u"screenshots"_qs);
        QCoreApplication::sendPostedEvents(); // pending layout requests, so labels are sized
        QVERIFY(m_page->grab().save(u"screenshots/"_qs + name + u".png"_qs));
    }

    QTemporaryDir m_home;
    QString m_host, m_repo, m_day1;
    Services *m_services = nullptr;
    ImagesService *m_service = nullptr;
    ImagesPage *m_page = nullptr;
};

void TestHarborImages::initTestCase()
{
    QVERIFY(!qEnvironmentVariable("GPUDESK_PEERS").isEmpty());
    qRegisterMetaType<gpudesk::Operation *>();
    m_host = registrypeer::harborHost();
    m_repo = u"alice/g%1"_qs.arg(QCoreApplication::applicationPid());
    QCoreApplication::setOrganizationName(u"gpudesk-test"_qs);
    QCoreApplication::setApplicationName(u"tst_harborimages"_qs);
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).removeRecursively();

    // The user's machine: the admin's login in docker's config, the CA where containers look.
    qputenv("DOCKER_CONFIG", m_home.filePath(u"docker"_qs).toUtf8());
    qputenv("XDG_CONFIG_HOME", m_home.filePath(u"config"_qs).toUtf8());
    const QString certs = m_home.filePath(u"config/containers/certs.d/"_qs + m_host);
    QVERIFY(QDir().mkpath(certs) && QDir().mkpath(m_home.filePath(u"docker"_qs)));
    QVERIFY(QFile::copy(qEnvironmentVariable("GPUDESK_PEERS") + u"/registry/ca.crt"_qs,
                        certs + u"/ca.crt"_qs));
    const QByteArray auth =
        (u"admin:"_qs + registrypeer::file(u"harbor/admin.password"_qs)).toUtf8().toBase64();
    QFile config(m_home.filePath(u"docker/config.json"_qs));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(
        QJsonDocument(
            QJsonObject{
                {u"auths"_qs,
                 QJsonObject{{m_host, QJsonObject{{u"auth"_qs, QString::fromLatin1(auth)}}}}}})
            .toJson());
    config.close();

    for (const auto &[layout, tag] : {std::pair{u"pytorch-dev"_qs, u"day1"_qs},
                                      {u"pytorch"_qs, u"old"_qs},
                                      {u"tensorflow"_qs, u"scratch"_qs},
                                      {u"small"_qs, u"scratch"_qs}}) {
        const QString error = registrypeer::harborPush(layout, m_repo + u':' + tag);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    QVERIFY(registrypeer::harborAge(40));
    // `old` pulled now (a GET), after the ageing; a HEAD of day1 pulls nothing.
    QCOMPARE(registrypeer::harborRegistryStatus(u"GET"_qs, m_repo, u"/manifests/old"_qs), 200);
    QCOMPARE(registrypeer::harborRegistryStatus(u"HEAD"_qs, m_repo, u"/manifests/day1"_qs), 200);

    m_services = new Services({m_home.filePath(u"no-kubeconfig"_qs)}, this);
    m_services->operations()->setAuditPath(m_home.filePath(u"audit.jsonl"_qs));
    m_service = m_services->images();
    m_page = new ImagesPage(m_service);
    m_page->resize(1400, 800);
    m_page->show();
    QVERIFY(m_page->addRegistry(m_host));
    QVERIFY(!m_page->harborPanel()->isVisible());
}

bool TestHarborImages::read()
{
    QSignalSpy finished(m_service, &ImagesService::finished);
    m_page->read();
    if (!finished.wait(60000))
        return false;
    if (!finished.first().at(0).toBool())
        qWarning("%s", qPrintable(finished.first().at(1).toStringList().join(u'\n')));
    return finished.first().at(0).toBool();
}

void TestHarborImages::readShowsHarborsRecords()
{
    QVERIFY(read());
    QVERIFY(m_service->isHarbor());
    // A pod runs day1 by the digest its node reported.
    m_day1 = m_page->model()->tagAt(row(u"day1"_qs)).digest;
    QVERIFY(m_day1.startsWith(u"sha256:"_qs));
    PodInfo p;
    p.uid = u"u1"_qs, p.ns = u"user-alice"_qs, p.name = u"train-1"_qs, p.phase = u"Running"_qs;
    p.containers = {u"main"_qs};
    p.image = m_host + u'/' + m_repo + u":day1"_qs;
    p.imageId = m_host + u'/' + m_repo + u'@' + m_day1;
    m_services->store()->replacePods({p});

    HarborPanel *panel = m_page->harborPanel();
    QVERIFY(panel->isVisible());
    const QString text = panel->text()->text();
    QVERIFY2(text.contains(u"Harbor v"_qs) && text.contains(u"of 8Mi"_qs), qPrintable(text));
    QVERIFY2(text.contains(u"untagged artifact"_qs), qPrintable(text));
    QVERIFY(panel->deleteUntagged()->isVisible());
    QVERIFY(panel->collectButton()->isEnabled());
    QVERIFY(!m_page->view()->isColumnHidden(ImagesModel::Pulled));

    const ImagesModel *m = m_page->model();
    const QModelIndex oldPulled = m->index(row(u"old"_qs), ImagesModel::Pulled);
    const QDateTime pulled = QDateTime::fromMSecsSinceEpoch(oldPulled.data(SortRole).toLongLong());
    QVERIFY2(pulled.secsTo(QDateTime::currentDateTime()) < 600, qPrintable(pulled.toString()));
    QCOMPARE(m->index(row(u"day1"_qs), ImagesModel::Pulled).data().toString(), u"never"_qs);
    const QDateTime pushed = QDateTime::fromMSecsSinceEpoch(
        m->index(row(u"day1"_qs), ImagesModel::Pushed).data(SortRole).toLongLong());
    QVERIFY(pushed.daysTo(QDateTime::currentDateTime()) >= 39);
    // shared/release:v1 is immutable in its project.
    const int release = m->rowOf(u"shared/release"_qs, u"v1"_qs);
    QVERIFY(release >= 0);
    QCOMPARE(m->index(release, ImagesModel::Tag).data().toString(), u"v1 (immutable)"_qs);
    QCOMPARE(m->index(release, ImagesModel::Tag).data(SortRole).toString(), u"v1"_qs);
    // Its Harbor label finds it, and the details say what Harbor knows.
    m_page->findChild<QLineEdit *>()->setText(u"production"_qs);
    QTRY_COMPARE(m_page->view()->model()->rowCount(), 1);
    m_page->selectTag(u"shared/release"_qs, u"v1"_qs);
    const QString details = m_page->details()->toPlainText();
    QVERIFY2(details.contains(u"Labels: production."_qs) && details.contains(u"Immutable"_qs) &&
                 details.contains(u"last pulled never"_qs),
             qPrintable(details));
    m_page->findChild<QLineEdit *>()->clear();
    save(u"images-harbor"_qs);
}

void TestHarborImages::ownReadsAreNotPulls()
{
    // The first read GOT every manifest, and Harbor counted each as a pull: read again, day1
    // is still never pulled and `old` keeps its time.
    const qint64 oldBefore =
        m_page->model()->index(row(u"old"_qs), ImagesModel::Pulled).data(SortRole).toLongLong();
    QVERIFY(read());
    QCOMPARE(m_page->model()->index(row(u"day1"_qs), ImagesModel::Pulled).data().toString(),
             u"never"_qs);
    QCOMPARE(
        m_page->model()->index(row(u"old"_qs), ImagesModel::Pulled).data(SortRole).toLongLong(),
        oldBefore);
}

QSet<QString> TestHarborImages::candidates(int days)
{
    m_page->showCandidates(days);
    QAbstractItemModel *shown = m_page->view()->model();
    QSet<QString> keys;
    for (int r = 0; r < shown->rowCount(); ++r)
        keys.insert(shown->index(r, 0).data(KeyRole).toString());
    return keys;
}

void TestHarborImages::candidatesNotPulledForDays()
{
    auto *box = m_page->findChild<QCheckBox *>(u"candidates"_qs);
    QVERIFY2(box->text().contains(u"not pulled for"_qs), qPrintable(box->text()));
    const QSet<QString> thirty = candidates(30);
    QVERIFY(thirty.contains(m_repo + u":scratch"_qs)); // pushed 40 days ago, never pulled
    QVERIFY(!thirty.contains(m_repo + u":old"_qs));    // pulled today
    QVERIFY(!thirty.contains(m_repo + u":day1"_qs));   // a pod runs it
    QVERIFY(thirty.contains(u"carol/old:1"_qs));
    save(u"images-harbor-candidates"_qs);
    QVERIFY(!candidates(50).contains(m_repo + u":scratch"_qs));
    m_page->showCandidates(0);
}

void TestHarborImages::imagesOfUsersWhoLeft()
{
    // The cluster's users: alice and bob (namespaces labelled gpudesk.io/user). carol, whose
    // Harbor project has no member left, is gone.
    NamespaceInfo alice{u"n1"_qs, u"user-alice"_qs, u"alice"_qs, u"default"_qs, u"Active"_qs, 0,
                        {}};
    NamespaceInfo bob{u"n2"_qs, u"user-bob"_qs, u"bob"_qs, u"default"_qs, u"Active"_qs, 0, {}};
    m_services->store()->replaceNamespaces({alice, bob});
    QCOMPARE(m_service->projectsOfUsersWhoLeft(), QStringList{u"carol"_qs});
    auto *left = m_page->findChild<QCheckBox *>(u"usersLeft"_qs);
    QVERIFY(left && left->isEnabled());
    QAbstractItemModel *shown = m_page->view()->model();
    const int all = shown->rowCount();
    QVERIFY(all > 1);
    left->setChecked(true);
    QTRY_COMPARE(shown->rowCount(), 1);
    QCOMPARE(shown->index(0, 0).data(KeyRole).toString(), u"carol/old:1"_qs);
    QVERIFY(m_page->status()->text().contains(u"carol"_qs));
    QVERIFY(!m_page->findChild<QCheckBox *>(u"candidates"_qs)->isChecked());
    // Planned as any delete: the image, typed to confirm. Not run.
    m_page->view()->selectAll();
    const OperationPlan plan = m_service->planDelete(m_page->selectedRows(), false);
    QCOMPARE(plan.steps.size(), 1);
    QCOMPARE(plan.confirmationWord(), u"carol/old:1"_qs);
    // Without alice among the users, her project is one of a user who left too.
    m_services->store()->replaceNamespaces({bob});
    QCOMPARE(m_service->projectsOfUsersWhoLeft(), (QStringList{u"alice"_qs, u"carol"_qs}));
    m_services->store()->replaceNamespaces({alice, bob});
    left->setChecked(false);
    QTRY_COMPARE(shown->rowCount(), all);
}

void TestHarborImages::shareThroughTheTokenService()
{
    // Sharing on a Harbor is the registry's own copy (blob mounts and a manifest PUT), with a
    // token per repository from Harbor's token service; Harbor's records show the new tag.
    m_page->selectTag(m_repo, u"old"_qs);
    const QString digest = m_page->model()->tagAt(row(u"old"_qs)).digest;
    QSignalSpy prepared(m_page, &ImagesPage::operationPrepared);
    Operation *op = m_page->share(u"shared/from-"_qs + m_repo.section(u'/', 1) + u":old"_qs);
    QVERIFY(op);
    QSignalSpy checked(op, &Operation::checked);
    QVERIFY(op->state() == Operation::State::Ready || checked.wait(30000));
    QSignalSpy finished(op, &Operation::finished);
    QString error;
    QVERIFY2(op->start(&error), qPrintable(error));
    QVERIFY(op->state() == Operation::State::Finished || finished.wait(60000));
    QCOMPARE(op->outcomes().first().result, StepOutcome::Result::Done);
    const QString to = u"shared/from-"_qs + m_repo.section(u'/', 1);
    QCOMPARE(registrypeer::harborRegistryStatus(u"HEAD"_qs, to, u"/manifests/old"_qs), 200);
    QCOMPARE(registrypeer::harborRegistryStatus(u"HEAD"_qs, to, u"/manifests/"_qs + digest), 200);
}

void TestHarborImages::immutableLeftOutOfDelete()
{
    m_page->selectTag(u"shared/release"_qs, u"v1"_qs);
    const OperationPlan plan = m_service->planDelete(m_page->selectedRows(), false);
    QVERIFY(plan.steps.isEmpty());
    QVERIFY2(plan.refusals.join(u' ').contains(u"immutable in Harbor"_qs),
             qPrintable(plan.refusals.join(u' ')));
    // A delete plan on a Harbor points at its garbage collection, not the operator's command.
    m_page->selectTag(m_repo, u"old"_qs);
    const OperationPlan other = m_service->planDelete(m_page->selectedRows(), false);
    QCOMPARE(other.steps.size(), 1);
    QVERIFY(other.notes.join(u' ').contains(u"Harbor garbage collection"_qs));
}

void TestHarborImages::garbageCollectionAsAnOperation()
{
    // The blob only the untagged artifact (tensorflow's) holds in this registry: its own layer,
    // in no other layout the registry was given.
    const auto blobs = [](const QString &layout) {
        return QDir(qEnvironmentVariable("GPUDESK_PEERS") + u"/registry/layouts/main/"_qs + layout +
                    u"/blobs/sha256"_qs)
            .entryInfoList(QDir::Files);
    };
    QSet<QString> elsewhere;
    for (const QString &layout : {u"pytorch"_qs, u"pytorch-dev"_qs, u"jupyter"_qs, u"small"_qs})
        for (const QFileInfo &f : blobs(layout))
            elsewhere.insert(f.fileName());
    QString tfLayer;
    for (const QFileInfo &f : blobs(u"tensorflow"_qs))
        if (f.size() > 10000 && !elsewhere.contains(f.fileName()))
            tfLayer = u"sha256:"_qs + f.fileName();
    QVERIFY(!tfLayer.isEmpty());
    QCOMPARE(registrypeer::harborRegistryStatus(u"HEAD"_qs, m_repo, u"/blobs/"_qs + tfLayer), 200);

    HarborPanel *panel = m_page->harborPanel();
    panel->deleteUntagged()->setChecked(true);
    QSignalSpy prepared(m_page, &ImagesPage::operationPrepared);
    panel->collectButton()->click();
    QCOMPARE(prepared.count(), 1);
    auto *op = prepared.first().first().value<Operation *>();
    QVERIFY(op);
    QVERIFY(op->plan().refusals.isEmpty());
    QCOMPARE(op->plan().steps.size(), 1);
    QVERIFY(op->plan().needsTypedConfirmation()); // deleting untagged artifacts is for good
    QCOMPARE(op->plan().confirmationWord(), m_host);
    QSignalSpy checked(op, &Operation::checked);
    QVERIFY(op->state() == Operation::State::Ready || checked.wait(30000));
    // The check was Harbor's dry run: it says what the run could free, and freed nothing.
    const PlanStep &step = op->plan().steps.first();
    QCOMPARE(step.dryRun, PlanStep::DryRun::Accepted);
    QVERIFY2(step.dryRunMessage.contains(u"to free"_qs), qPrintable(step.dryRunMessage));
    QCOMPARE(registrypeer::harborRegistryStatus(u"HEAD"_qs, m_repo, u"/blobs/"_qs + tfLayer), 200);

    QSignalSpy finished(op, &Operation::finished);
    QString error;
    QVERIFY2(op->start(&error), qPrintable(error));
    QVERIFY(op->state() == Operation::State::Finished || finished.wait(60000));
    const StepOutcome o = op->outcomes().first();
    QCOMPARE(o.result, StepOutcome::Result::Done);
    QVERIFY2(o.verification.contains(u"freed"_qs), qPrintable(o.verification));
    // Freed, not only deleted: the registry no longer has the blob.
    QCOMPARE(registrypeer::harborRegistryStatus(u"HEAD"_qs, m_repo, u"/blobs/"_qs + tfLayer), 404);
    // Audited.
    QFile audit(m_home.filePath(u"audit.jsonl"_qs));
    QVERIFY(audit.open(QIODevice::ReadOnly));
    const QByteArray log = audit.readAll();
    QVERIFY(log.contains("image.gc") && log.contains("collect-garbage"));
}

void TestHarborImages::chinese()
{
    // A page made under the zh_CN translation, read again: Harbor's panel, columns and words.
    QTranslator t;
    QVERIFY(t.load(u"gpudesk_zh_CN"_qs, TestPaths::qmDir()));
    QCoreApplication::installTranslator(&t);
    ImagesPage page(m_service);
    page.resize(1400, 800);
    page.show();
    page.addRegistry(m_host);
    QSignalSpy finished(m_service, &ImagesService::finished);
    page.read();
    QVERIFY(finished.wait(60000));
    const QString panel = page.harborPanel()->text()->text();
    QVERIFY2(panel.contains(u"项目："_qs) && panel.contains(u"8Mi"_qs), qPrintable(panel));
    QCOMPARE(page.harborPanel()->collectButton()->text(), u"垃圾回收…"_qs);
    QCOMPARE(m_service->model()
                 ->headerData(ImagesModel::Pulled, Qt::Horizontal, Qt::DisplayRole)
                 .toString(),
             u"最近拉取"_qs);
    QCoreApplication::sendPostedEvents();
    QDir().mkpath(u"screenshots"_qs);
    QVERIFY(page.grab().save(u"screenshots/images-harbor-zh_CN.png"_qs));
    QCoreApplication::removeTranslator(&t);
}

QTEST_MAIN(TestHarborImages)
#include "tst_harborimages.moc"
