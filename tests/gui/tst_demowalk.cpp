// SPDX-License-Identifier: GPL-3.0-or-later
// The demo walked as a new user walks it: every page of the window on the demo cluster with the
// real peers `make demo` runs (the test peers: the dev environments' sshd and Jupyter server,
// the lab's registry and Harbor under the names the pods use, through registries.conf), in
// English and in Chinese. It fails on any error the window shows that the demo did not plant —
// an error banner or an error line (NoticeBanner's kind, showAsError) — and writes each page's
// screenshot.
#include "devenvdialog.h"
#include "devenvsmodel.h"
#include "devenvspage.h"
#include "diagnosisview.h"
#include "entities.h"
#include "imagesmodel.h"
#include "imagespage.h"
#include "imagesservice.h"
#include "nascleanuppanel.h"
#include "nasfiles.h"
#include "nasfilespanel.h"
#include "nasfileviewer.h"
#include "newjobdialog.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationplanner.h"
#include "operationsservice.h"
#include "saveimagedialog.h"
#include "settingsdialog.h"
#include "storagemodel.h"
#include "storagepage.h"
#include "storageservice.h"
#include "untranslated.h"
#include "usersmodel.h"
#include "userspage.h"
#include "vcspage.h"
#include "windowfixture.h"
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>

#include <QComboBox>
#include <QLibraryInfo>
#include <QPointer>

#include <functional>

class TestDemoWalk : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void initTestCase();
    void everyPageWithoutUnplannedErrors_data();
    void everyPageWithoutUnplannedErrors();

private:
    // What the window says is wrong, as "page: text" lines.
    static QStringList errorsShown(const QWidget &w);
};

namespace {
// Kinds are the API's names, as kubectl and every manifest spell them: never translated. The
// cluster's other words (phases, states, event reasons) are shown as the cluster wrote them with
// the user's language after them ("Running（运行中）", format::status) on every page.
const QSet<QString> kApiNames{u"Job"_qs,   u"Pod"_qs,      u"PyTorchJob"_qs, u"MPIJob"_qs,
                              u"Queue"_qs, u"PodGroup"_qs, u"Node"_qs};
} // namespace

void TestDemoWalk::initTestCase()
{
    loadSimConfig();
    // A desk set up for the demo's registries (scripts/test-peers writes it): registries.conf
    // and the logins from the environment, the registries' CA in the test's own config folder,
    // where podman and docker look (certs.d).
    const QString client = qEnvironmentVariable("GPUDESK_PEERS") + u"/client"_qs;
    qputenv("CONTAINERS_REGISTRIES_CONF",
            (client + u"/config/containers/registries.conf"_qs).toUtf8());
    qputenv("DOCKER_CONFIG", (client + u"/docker"_qs).toUtf8());
    const QString certs = qEnvironmentVariable("XDG_CONFIG_HOME") + u"/containers/certs.d"_qs;
    QDir(certs).removeRecursively();
    const QDir from(client + u"/config/containers/certs.d"_qs);
    const QStringList hosts = from.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(hosts.size(), 2);
    for (const QString &host : hosts) {
        QVERIFY(QDir().mkpath(certs + u'/' + host));
        QVERIFY(
            QFile::copy(from.filePath(host + u"/ca.crt"_qs), certs + u'/' + host + u"/ca.crt"_qs));
    }
}

QStringList TestDemoWalk::errorsShown(const QWidget &w)
{
    QStringList out;
    for (const NoticeBanner *b : w.findChildren<NoticeBanner *>())
        if (b->isVisibleTo(&w) && b->kind() == NoticeBanner::Kind::Error)
            out << b->text();
    for (const QLabel *l : w.findChildren<QLabel *>())
        if (l->isVisibleTo(&w) && l->property("gpudeskError").toBool() && !l->text().isEmpty())
            out << l->text();
    return out;
}

void TestDemoWalk::everyPageWithoutUnplannedErrors_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("English") << QString();
    QTest::newRow("Chinese") << u"zh_CN"_qs;
}

void TestDemoWalk::everyPageWithoutUnplannedErrors()
{
    QFETCH(QString, language);
    // As the app does (app/main.cpp): Qt's own strings (a dialog's Cancel) from Qt's
    // translations, gpudesk's from its own.
    QTranslator t, qt;
    if (!language.isEmpty()) {
        QVERIFY(t.load(u"gpudesk_"_qs + language, TestPaths::qmDir()));
        QVERIFY(
            qt.load(u"qtbase_"_qs + language, QLibraryInfo::path(QLibraryInfo::TranslationsPath)));
        QApplication::installTranslator(&qt);
        QApplication::installTranslator(&t);
    }
    // The doctor's rules speak the locale's language (app/main.cpp sets it from the choice).
    const QLocale before;
    if (!language.isEmpty())
        QLocale::setDefault(QLocale(language));
    auto removeTranslator = qScopeGuard([&t, &qt, before] {
        QApplication::removeTranslator(&t);
        QApplication::removeTranslator(&qt);
        QLocale::setDefault(before);
    });
    // Under a translation: gpudesk's own strings that reach the screen in English.
    UntranslatedFinder english;
    if (!language.isEmpty()) {
        QString error;
        const QString ts =
            TestPaths::sourceDir(QString(u"/translations/gpudesk_"_qs + language + u".ts"_qs));
        QVERIFY2(english.load(ts, &error), qPrintable(ts + u": "_qs + error));
        QVERIFY(english.sources() > 1000);
        // It knows one when it sees one (the sidebar's first page, and a message with its
        // arguments filled in).
        QVERIFY(english.isEnglishSource(u"Overview"_qs));
        QVERIFY(english.isEnglishSource(u"Cannot write the audit log /x: disk full"_qs));
        QVERIFY(!english.isEnglishSource(u"概览"_qs));
    }
    QStringList leftInEnglish;
    QTemporaryDir dir;
    TelemetryWindow tw;
    openTelemetryWindow(
        dir, [](QString &) {}, &tw);
    MainWindow &w = *tw.w;
    w.resize(1600, 1000);
    const QString suffix = language.isEmpty() ? QString() : u'-' + language;
    auto *sidebar = w.findChild<QListWidget *>(QStringLiteral("sidebar"));
    QVERIFY(sidebar);
    QStringList errors;
    for (int p = 0; p < MainWindow::PageCount; ++p) {
        w.showPage(MainWindow::Page(p));
        QCoreApplication::processEvents();
        const QString name = sidebar->item(p)->text();
        if (p == MainWindow::Images) {
            // Both registries the pods pull from are read through registries.conf: the lab's
            // (its images and who runs them) and Harbor's, each in full, without an error.
            auto *images = static_cast<ImagesPage *>(w.page(MainWindow::Images));
            ImagesService *service = tw.c->services->images();
            for (const QString &host :
                 {u"harbor.lab.internal:5000"_qs, u"registry.lab.internal"_qs}) {
                QTRY_VERIFY_WITH_TIMEOUT(images->registries()->findText(host) >= 0, 10000);
                QSignalSpy finished(service, &ImagesService::finished);
                images->registries()->setCurrentText(host);
                images->read();
                QVERIFY(finished.wait(60000));
                QVERIFY2(finished.last().at(1).toStringList().isEmpty(),
                         qPrintable(finished.last().at(1).toStringList().join(u'\n')));
                QVERIFY(finished.last().at(0).toBool());
                // Served at the peer, and said so.
                QVERIFY2(images->plainHttpWarning()->text().contains(u"127.0.0.1:"_qs),
                         qPrintable(images->plainHttpWarning()->text()));
            }
            const ImagesModel *model = images->model();
            const int row = model->rowOf(u"ai/pytorch"_qs, u"2.1.2-cuda12.1-cudnn8"_qs);
            QVERIFY(row >= 0);
            QVERIFY(model->isRead(row));
            QVERIFY(!model->useOf(row).isEmpty()); // the demo's jobs run it
            QVERIFY(model->rowOf(u"ai/pytorch"_qs, u"2.0.1-cuda11.8"_qs) >= 0);
            // One row per tag, however many pods run it; every image the pods run was read.
            QSet<QString> keys;
            for (int r = 0; r < model->rowCount(); ++r) {
                const RegistryTag &tag = model->tagAt(r);
                QVERIFY2(!keys.contains(tag.repository + u':' + tag.tag), qPrintable(tag.tag));
                keys.insert(tag.repository + u':' + tag.tag);
            }
            QCOMPARE(model->unreadRows(), 0);
            QCOMPARE(model->readTags(), model->rowCount());
        }
        if (p == MainWindow::Storage) {
            // The NAS walked over SSH on a node of the demo (the simulator's real tree): a row
            // per user's and group's folder, alice's the biggest, the share's fill from df.
            auto *storage = static_cast<StoragePage *>(w.page(MainWindow::Storage));
            StorageService *service = tw.c->services->storage();
            // Walked in each language's run: the walk's complaints are said in the language of
            // the walk (a cached walk keeps the words it was made with).
            QTRY_VERIFY_WITH_TIMEOUT(!service->isMeasuring(), 60000); // its own, if due
            service->measureNow();
            QVERIFY2(service->isMeasuring(), qPrintable(service->unavailableReason()));
            QTRY_VERIFY_WITH_TIMEOUT(!service->isMeasuring(), 60000);
            QVERIFY(!service->measures().isEmpty());
            const StorageModel *model = storage->model();
            QVERIFY(model->rowCount() >= 12);
            const StorageFolder *biggest = nullptr;
            for (int r = 0; r < model->rowCount(); ++r)
                if (const StorageFolder *f = model->folderAt(r);
                    f->kind == u"user"_qs && (!biggest || f->bytes > biggest->bytes))
                    biggest = f;
            QCOMPARE(biggest->owner, u"alice"_qs);
            auto *view = storage->findChild<QTableView *>(u"storageView"_qs);
            view->selectRow(0);
            QCoreApplication::processEvents();
            auto *detail = storage->findChild<QTreeWidget *>(u"storageDetail"_qs);
            QVERIFY(detail->topLevelItemCount() >= 2);
            QVERIFY(detail->topLevelItem(0)->childCount() > 0);
        }
        if (p == MainWindow::DevEnvs) {
            // The Why column (what does not answer, why it waits) in sight at 1600 × 1000.
            auto *devEnvs = static_cast<DevEnvsPage *>(w.page(MainWindow::DevEnvs));
            QTableView *view = devEnvs->view();
            QTRY_VERIFY(view->model()->rowCount() > 0);
            QCoreApplication::processEvents();
            QVERIFY2(view->columnViewportPosition(DevEnvsModel::Why) + 150 <=
                         view->viewport()->width(),
                     qPrintable(QString::number(view->columnViewportPosition(DevEnvsModel::Why))));
        }
        QCoreApplication::processEvents();
        for (const QString &e : errorsShown(w))
            errors << name + u": "_qs + e;
        if (!language.isEmpty())
            for (const QString &e : english.find(w))
                if (!kApiNames.contains(e))
                    leftInEnglish << name + u": "_qs + e;
        save(w, u"demo-"_qs + QString::number(p) + suffix);
    }
    if (!language.isEmpty()) {
        // The dialogs a user meets first, and a plan: the same rule.
        const auto check = [&](QWidget &dialog, const QString &name) {
            QCoreApplication::processEvents();
            for (const QString &e : english.find(dialog))
                if (!kApiNames.contains(e))
                    leftInEnglish << name + u": "_qs + e;
            save(dialog, u"demo-dialog-"_qs + name + suffix);
        };
        SettingsDialog settings(tw.c->services.get(), &w);
        settings.show();
        for (int i = 0; i < settings.tabs()->count(); ++i) {
            settings.tabs()->setCurrentIndex(i);
            check(settings, u"settings-"_qs + QString::number(i));
        }
        settings.reject();
        auto *devEnvs = static_cast<DevEnvsPage *>(w.page(MainWindow::DevEnvs));
        w.showPage(MainWindow::DevEnvs);
        DevEnvDialog *env = devEnvs->newEnvironment();
        check(*env, u"new-environment"_qs);
        // Host memory is 内存, GPU memory 显存 (the form once asked for "显存 32Gi").
        QVERIFY(labelTexts(*env).contains(u"内存"_qs));
        QVERIFY(!labelTexts(*env).contains(u"显存"_qs));
        env->reject();
        // New training job, its verdict beside it: a pod bigger than any node, its image found
        // in the lab's registry (the real docker-registry behind registries.conf); then a tag the
        // registry does not have, which never starts either.
        NewJobDialog *job = w.newTrainingJob();
        job->nameEdit()->setText(u"llm-16"_qs);
        job->imageBox()->setCurrentText(
            u"registry.lab.internal/ai/pytorch:2.1.2-cuda12.1-cudnn8"_qs);
        job->commandEdit()->setPlainText(u"torchrun --nproc_per_node=16 train.py"_qs);
        job->gpusBox()->setValue(16);
        QTRY_VERIFY_WITH_TIMEOUT(!job->isChecking() && job->verdict().kind == StartVerdict::Never &&
                                     job->verdict().has(u"image-found"_qs),
                                 20000);
        QVERIFY(!job->verdict().has(u"image-missing"_qs));
        check(*job, u"new-training-job"_qs);
        job->imageBox()->setCurrentText(u"registry.lab.internal/ai/pytorch:9.9-nosuch"_qs);
        QTRY_VERIFY_WITH_TIMEOUT(!job->isChecking() && job->verdict().has(u"image-missing"_qs),
                                 20000);
        QVERIFY(!job->verdict().has(u"image-found"_qs));
        check(*job, u"new-training-job-image-missing"_qs);
        job->reject();
        QDialog *audit = w.showAuditLog();
        check(*audit, u"audit"_qs);
        audit->close();
        // A drain's plan, checked with the server (its dry runs answered).
        OperationDialog *plan = w.openOperation(
            tw.c->services->operations()->planner().drain(u"g4090-09"_qs, u"demo walk"_qs));
        QVERIFY(plan);
        QTRY_VERIFY_WITH_TIMEOUT(plan->operation()->state() == Operation::State::Ready, 30000);
        check(*plan, u"plan-drain"_qs);
        plan->reject();
        // The NAS's Files tab, a file read in place, a folder's removal planned and checked,
        // and a launch script the form looks at on the NAS (carol's link out of her mounts).
        auto *storage = static_cast<StoragePage *>(w.page(MainWindow::Storage));
        w.showPage(MainWindow::Storage);
        storage->browse(u"/mnt/user/alice/code/llama"_qs);
        NasFilesPanel *files = storage->files();
        const auto pick = [files](const QString &name) {
            for (int i = 0; i < files->view()->topLevelItemCount(); ++i)
                if (files->view()->topLevelItem(i)->text(0) == name) {
                    files->view()->setCurrentItem(files->view()->topLevelItem(i));
                    return true;
                }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(pick(u"launch.sh"_qs), 20000);
        check(w, u"storage-files"_qs);
        NasFileViewer *reader = files->openCurrent();
        QVERIFY(reader);
        QTRY_VERIFY_WITH_TIMEOUT(reader->isRead(), 20000);
        check(*reader, u"storage-viewer"_qs);
        reader->close();
        files->go(u"/mnt/user/alice"_qs);
        QTRY_VERIFY_WITH_TIMEOUT(pick(u"outputs"_qs), 20000);
        OperationDialog *removal =
            w.openOperation(tw.c->services->nasFiles()->planRemove(files->selected()));
        QTRY_VERIFY_WITH_TIMEOUT(removal->operation()->state() == Operation::State::Ready, 30000);
        check(*removal, u"plan-nas-remove"_qs);
        removal->reject();
        // The Cleanup tab: what no one needs on the NAS, each with its evidence.
        storage->findChild<QTabWidget *>(u"storageTabs"_qs)->setCurrentWidget(storage->cleanup());
        QTRY_VERIFY_WITH_TIMEOUT(!storage->cleanup()->shown().isEmpty(), 20000);
        check(w, u"storage-cleanup"_qs);
        NewJobDialog *scripted = w.newTrainingJob();
        scripted->nameEdit()->setText(u"carol-sft"_qs);
        scripted->findChild<QComboBox *>(u"jobNamespace"_qs)->setCurrentText(u"user-carol"_qs);
        scripted->imageBox()->setCurrentText(
            u"registry.lab.internal/ai/pytorch:2.1.2-cuda12.1-cudnn8"_qs);
        scripted->dataEdit()->setPlainText(u"/mnt/user/carol"_qs);
        scripted->commandEdit()->setPlainText(u"bash /mnt/user/carol/code/start.sh"_qs);
        QTRY_VERIFY_WITH_TIMEOUT(!scripted->isChecking() &&
                                     scripted->verdict().has(u"launch-script-link-outside"_qs),
                                 30000);
        check(*scripted, u"new-training-job-script"_qs);
        scripted->reject();
        // The images' Share… and Delete…: what each asks first, then its plan checked, on an
        // image the demo's pods run (the registry read on the way through the pages).
        auto *images = static_cast<ImagesPage *>(w.page(MainWindow::Images));
        w.showPage(MainWindow::Images);
        const ImagesModel *imageRows = images->model();
        QTRY_VERIFY_WITH_TIMEOUT(!imageRows->sizesPending(), 30000);
        int inUse = -1;
        for (int r = 0; r < imageRows->rowCount() && inUse < 0; ++r)
            if (!imageRows->useOf(r).isEmpty())
                inUse = r;
        QVERIFY(inUse >= 0);
        const RegistryTag used = imageRows->tagAt(inUse);
        images->selectTag(used.repository, used.tag);
        QCOMPARE(images->selectedRows(), QList<int>({inUse}));
        const auto dialogOf = [](Operation *op) -> OperationDialog * {
            for (QWidget *top : QApplication::topLevelWidgets())
                if (auto *d = qobject_cast<OperationDialog *>(top); d && d->operation() == op)
                    return d;
            return nullptr;
        };
        QPointer<QDialog> ask = images->askShare();
        QVERIFY(ask);
        check(*ask, u"share-image"_qs);
        ask->close();
        Operation *copy = images->share(u"shared/demo-walk:1"_qs);
        QVERIFY(copy);
        QPointer<OperationDialog> copyPlan = dialogOf(copy);
        QVERIFY(copyPlan);
        QTRY_VERIFY_WITH_TIMEOUT(copy->state() == Operation::State::Ready, 30000);
        check(*copyPlan, u"plan-share-image"_qs);
        copyPlan->reject();
        ask = images->askDelete();
        QVERIFY(ask); // pods run it: asked before any plan
        check(*ask, u"delete-images-in-use"_qs);
        ask->close();
        Operation *deletion = images->deleteSelected(true);
        QVERIFY(deletion);
        QPointer<OperationDialog> deletionPlan = dialogOf(deletion);
        QVERIFY(deletionPlan);
        QTRY_VERIFY_WITH_TIMEOUT(deletion->state() == Operation::State::Ready, 30000);
        QVERIFY(!deletion->plan().steps.isEmpty());
        check(*deletionPlan, u"plan-delete-image"_qs);
        deletionPlan->reject();
        // The users' and VCs' dialogs, each as it opens for the demo's admin.
        auto *users = static_cast<UsersPage *>(w.page(MainWindow::Users));
        auto *vcs = static_cast<VcsPage *>(w.page(MainWindow::Vcs));
        w.showPage(MainWindow::Users);
        QTRY_VERIFY(users->model()->rowCount() > 0);
        users->selectUser(u"user-alice"_qs);
        const std::pair<std::function<QDialog *()>, QString> dialogs[] = {
            {[users] { return users->newUser(); }, u"new-user"_qs},
            {[users] { return users->importCsv(); }, u"import-csv"_qs},
            {[users] { return users->editQuota(); }, u"edit-quota"_qs},
            {[users] { return users->moveToVc(); }, u"move-to-vc"_qs},
            {[users] { return users->handOutKubeconfig(); }, u"kubeconfig"_qs},
            {[vcs] { return vcs->newVc(); }, u"new-vc"_qs},
            {[vcs] {
                 vcs->selectVc(u"cv"_qs);
                 return vcs->editVc();
             },
             u"edit-vc"_qs},
            {[vcs] { return vcs->mergeVc(); }, u"merge-vc"_qs}};
        for (const auto &[open, name] : dialogs) {
            QPointer<QDialog> d = open();
            QVERIFY2(d, qPrintable(name));
            check(*d, name);
            if (d)
                d->close();
        }
        // The object viewer of a job that failed: every tab, the doctor's in Chinese.
        w.showPage(MainWindow::Workloads);
        WorkloadsTable *table =
            static_cast<WorkloadsPage *>(w.page(MainWindow::Workloads))->table();
        QString key;
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->index(r, WorkloadsModel::Name).data().toString() == u"clip-pretrain")
                key = table->index(r, WorkloadsModel::Name).data(KeyRole).toString();
        QVERIFY(!key.isEmpty());
        ObjectViewer viewer(tw.c->services.get(), ObjectRef::workload(*tw.c->store, key));
        viewer.setAttribute(Qt::WA_DeleteOnClose, false);
        viewer.resize(1200, 760);
        viewer.show();
        viewer.showTab(ObjectViewer::DiagnosisTab);
        QTRY_VERIFY_WITH_TIMEOUT(viewer.diagnosisView()->text().contains(u"修复："_qs), 30000);
        QVERIFY2(viewer.diagnosisView()->text().contains(u"DataLoader 共享内存不足"_qs),
                 qPrintable(viewer.diagnosisView()->text()));
        for (int i = 0; i < viewer.tabs()->count(); ++i) {
            viewer.tabs()->setCurrentIndex(i);
            check(viewer, u"viewer-"_qs + QString::number(i));
        }
        // Its re-run (the edit of the job's spec, the server's dry run before it is created).
        QPointer<QDialog> rerun = w.rerun(key);
        QVERIFY(rerun);
        check(*rerun, u"rerun"_qs);
        rerun->close();
        // Saving a running dev environment as an image: the form as it opens.
        w.showPage(MainWindow::DevEnvs);
        QString running;
        for (const QString &k : devEnvs->model()->keys())
            if (const PodInfo *p = devEnvs->model()->currentPod(k);
                p && p->phase == u"Running"_qs && running.isEmpty())
                running = k;
        QVERIFY(!running.isEmpty());
        devEnvs->selectEnvironment(running);
        QPointer<QDialog> save = devEnvs->saveAsImage();
        QVERIFY(save);
        check(*save, u"save-as-image"_qs);
        save->close();
    }
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
    QVERIFY2(leftInEnglish.isEmpty(),
             qPrintable(u"Left in English:\n"_qs + leftInEnglish.join(u'\n')));
}

QTEST_MAIN(TestDemoWalk)
#include "tst_demowalk.moc"
